package browser

import (
	"testing"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// TestIsPage checks which targets are listed as pages, by default and
// with --experimentalIncludeAllPages.
func TestIsPage(t *testing.T) {
	for _, tc := range []struct {
		typ, url     string
		byDefault    bool
		withAllPages bool
	}{
		{"page", "https://example.com/", true, true},
		{"page", "chrome://newtab/", true, true},
		{"page", "chrome://settings/", false, false},
		{"page", "chrome-extension://abc/popup.html", false, false},
		{"webview", "https://app.example/", false, true},
		{"background_page", "chrome-extension://abc/background.html", false, true},
		{"background_page", "devtools://devtools/bundled/inspector.html", false, false},
		{"service_worker", "chrome-extension://abc/sw.js", false, false},
		{"iframe", "https://ads.example/", false, false},
		{"other", "https://example.com/", false, false},
	} {
		info := cdp.TargetInfo{Type: tc.typ, URL: tc.url}
		if got := isPage(info, false); got != tc.byDefault {
			t.Errorf("isPage(%s %s) = %v, want %v", tc.typ, tc.url, got, tc.byDefault)
		}
		if got := isPage(info, true); got != tc.withAllPages {
			t.Errorf("with all pages, isPage(%s %s) = %v, want %v", tc.typ, tc.url, got, tc.withAllPages)
		}
	}
}
