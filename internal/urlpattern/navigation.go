package urlpattern

import (
	"errors"
	"fmt"
	"net/url"
	pathpkg "path"
	"strings"
)

// NavigationPolicy is what the hardening flags forbid the navigations this
// server makes (new_page, navigate_page, navigate, history moves). It does
// not confine the page itself: its own links and scripts are Chrome's to
// police, and Chrome already refuses web pages that navigate to file: or
// data: URLs, and redirects to them.
type NavigationPolicy struct {
	// NoJavaScript refuses javascript:, data: and vbscript: URLs and
	// initScript (--no-javascript-evaluation).
	NoJavaScript bool
	// NoFiles refuses file: URLs (--no-file-navigations).
	NoFiles bool
}

// ErrNavigationRefused matches (errors.Is) the error of a navigation the
// policy forbids.
var ErrNavigationRefused = errors.New("navigation refused")

// refusal is a refused navigation; its text is the reference's message.
type refusal struct{ msg string }

func (r *refusal) Error() string        { return r.msg }
func (r *refusal) Is(target error) bool { return target == ErrNavigationRefused }

func refusef(format string, args ...any) error {
	return &refusal{msg: fmt.Sprintf(format, args...)}
}

// CheckInitScript returns an error matching ErrNavigationRefused when a
// navigation may not run an init script (--no-javascript-evaluation).
func (pol NavigationPolicy) CheckInitScript() error {
	if pol.NoJavaScript {
		return refusef("initScript is not allowed when JavaScript evaluation is disabled.")
	}
	return nil
}

// scriptSchemes are the schemes whose URLs run code the caller wrote.
var scriptSchemes = map[string]bool{"javascript": true, "data": true, "vbscript": true}

// wrapperSchemes hold another URL after their colon, which Chrome resolves:
// view-source:file:///etc/passwd shows the file.
var wrapperSchemes = map[string]bool{"view-source": true, "blob": true, "filesystem": true}

// Check returns an error matching ErrNavigationRefused when rawURL may not
// be opened. It reads the scheme as Chrome's URL parser does (surrounding
// spaces and control characters dropped, tabs and newlines removed
// anywhere, letters of any case), and looks inside view-source:, blob: and
// filesystem: URLs, so that other spellings of a forbidden URL are refused
// too.
func (pol NavigationPolicy) Check(rawURL string) error {
	if !pol.NoJavaScript && !pol.NoFiles {
		return nil
	}
	rest := normalizeURL(rawURL)
	for range 8 {
		scheme, inner, ok := splitScheme(rest)
		if !ok {
			return nil // no scheme: not a URL Chrome navigates to
		}
		switch {
		case pol.NoJavaScript && scriptSchemes[scheme]:
			return refusef("Navigating to %s: URLs is not allowed when JavaScript evaluation is disabled.", scheme)
		case pol.NoFiles && scheme == "file":
			return refusef("Navigating to file: URLs is not allowed when --file-navigations is disabled.")
		case !wrapperSchemes[scheme]:
			return nil
		}
		rest = normalizeURL(inner)
	}
	return refusef("Navigating to %q is not allowed: it nests too many view-source:, blob: or filesystem: prefixes.", rawURL)
}

// FilePath returns the local path a file: URL opens, looking inside
// view-source:, blob: and filesystem: as Check does, with the dot segments
// resolved as Chrome's URL parser resolves them (%2e%2e included). ok is
// false for URLs of other schemes; a file: URL naming another host is
// returned with its host as "//host/path" (a network share).
func FilePath(rawURL string) (path string, ok bool) {
	rest := normalizeURL(rawURL)
	for range 8 {
		scheme, inner, found := splitScheme(rest)
		if !found {
			return "", false
		}
		if scheme == "file" {
			u, err := url.Parse("file:" + inner)
			if err != nil {
				return "/", true // unparsable: the root, which no confinement contains
			}
			p := pathpkg.Clean("/" + u.Path)
			if h := u.Hostname(); h != "" && !strings.EqualFold(h, "localhost") {
				return "//" + h + p, true
			}
			return p, true
		}
		if !wrapperSchemes[scheme] {
			return "", false
		}
		rest = normalizeURL(inner)
	}
	return "/", true
}

// RunsScript reports whether navigating to rawURL runs it as a script in
// the page (javascript: in any spelling Chrome accepts).
func RunsScript(rawURL string) bool {
	scheme, _, ok := splitScheme(normalizeURL(rawURL))
	return ok && scheme == "javascript"
}

// normalizeURL does what the URL standard does to input before parsing:
// strips leading and trailing C0 controls and spaces, and removes every
// tab and newline.
func normalizeURL(s string) string {
	s = strings.TrimFunc(s, func(r rune) bool { return r <= 0x20 })
	return strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(s)
}

// splitScheme splits "Scheme:rest" into the lower-cased scheme and rest,
// when s starts with a valid scheme (a letter, then letters, digits, "+",
// "-" or ".").
func splitScheme(s string) (scheme, rest string, ok bool) {
	i := strings.IndexByte(s, ':')
	if i <= 0 {
		return "", "", false
	}
	for j := 0; j < i; j++ {
		c := s[j]
		isAlpha := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !isAlpha && (j == 0 || !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return "", "", false
		}
	}
	return strings.ToLower(s[:i]), s[i+1:], true
}
