package urlpattern

import (
	"errors"
	"strings"
	"testing"
)

// TestNavigationPolicy checks that other spellings of a forbidden URL are
// refused too: case, surrounding spaces and control characters, tabs and
// newlines inside the scheme, and URLs wrapped in view-source:, blob: or
// filesystem:.
func TestNavigationPolicy(t *testing.T) {
	noJS := NavigationPolicy{NoJavaScript: true}
	noFiles := NavigationPolicy{NoFiles: true}
	tests := []struct {
		pol     NavigationPolicy
		url     string
		refused string // part of the message, "" when allowed
	}{
		{noJS, "javascript:alert(1)", "Navigating to javascript: URLs is not allowed when JavaScript evaluation is disabled."},
		{noJS, "JavaScript:alert(1)", "javascript:"},
		{noJS, "JAVASCRIPT:alert(1)", "javascript:"},
		{noJS, "  javascript:alert(1)", "javascript:"},
		{noJS, "\x00\x1fjavascript:alert(1)\n", "javascript:"},
		{noJS, "java\tscr\nipt:alert(1)", "javascript:"},
		{noJS, "data:text/html,<script>alert(1)</script>", "Navigating to data: URLs"},
		{noJS, "DATA:text/html;base64,PHNjcmlwdD4=", "data:"},
		{noJS, "vbscript:msgbox(1)", "Navigating to vbscript: URLs"},
		{noJS, "view-source:javascript:alert(1)", "javascript:"},
		{noJS, "view-source:data:text/html,x", "data:"},
		{noJS, "https://example.com/javascript:alert(1)", ""},
		{noJS, "https://example.com/?u=data:x", ""},
		{noJS, "file:///etc/passwd", ""},
		{noJS, "about:blank", ""},
		{noFiles, "file:///etc/passwd", "Navigating to file: URLs is not allowed when --file-navigations is disabled."},
		{noFiles, "FILE:///etc/passwd", "file:"},
		{noFiles, " file:/etc/passwd", "file:"},
		{noFiles, "fi\nle:///etc/passwd", "file:"},
		{noFiles, "view-source:file:///etc/passwd", "file:"},
		{noFiles, "VIEW-SOURCE:FILE:///etc/passwd", "file:"},
		{noFiles, "view-source: file:///etc/passwd", "file:"},
		{noFiles, "view-source:view-source:file:///etc/passwd", "file:"},
		{noFiles, "filesystem:file:///temporary/x", "file:"},
		{noFiles, "blob:file:///0b1c", "file:"},
		{noFiles, strings.Repeat("view-source:", 20) + "https://example.com/", "nests too many"},
		{noFiles, "view-source:https://example.com/", ""},
		{noFiles, "javascript:alert(1)", ""},
		{noFiles, "https://example.com/file:///etc/passwd", ""},
		{noFiles, "relative/file:x", ""},
		{NavigationPolicy{}, "file:///etc/passwd", ""},
		{NavigationPolicy{}, "javascript:alert(1)", ""},
	}
	for _, tt := range tests {
		err := tt.pol.Check(tt.url)
		switch {
		case tt.refused == "" && err != nil:
			t.Errorf("%+v.Check(%q) = %v, want allowed", tt.pol, tt.url, err)
		case tt.refused != "" && (err == nil || !errors.Is(err, ErrNavigationRefused) || !strings.Contains(err.Error(), tt.refused)):
			t.Errorf("%+v.Check(%q) = %v, want a refusal containing %q", tt.pol, tt.url, err, tt.refused)
		}
	}
}

func FuzzNavigationPolicy(f *testing.F) {
	for _, s := range []string{"javascript:x", "view-source:file:///a", " DATA:,", "blob:", ":", "a:b:c"} {
		f.Add(s)
	}
	both := NavigationPolicy{NoJavaScript: true, NoFiles: true}
	f.Fuzz(func(t *testing.T, s string) {
		err := both.Check(s)
		// Whatever the spelling, a URL whose normalized form starts with a
		// forbidden scheme is refused.
		n := strings.ToLower(normalizeURL(s))
		for _, p := range []string{"javascript:", "data:", "vbscript:", "file:", "view-source:file:", "view-source:javascript:"} {
			if strings.HasPrefix(n, p) && err == nil {
				t.Fatalf("Check(%q) allowed a %s URL", s, p)
			}
		}
	})
}
