package browser

import (
	"strings"
	"testing"
)

// TestURLFilterUsesCanonicalHosts checks that the filter compares the URLs
// Chrome requests in their canonical spelling, as the patterns are.
func TestURLFilterUsesCanonicalHosts(t *testing.T) {
	f := newURLFilter([]string{"*://127.0.0.2/*"}, []string{"http://allowed.test/*"})
	if why := f.verdict("http://[::ffff:7f00:2]/x"); !strings.Contains(why, "--blockedUrlPattern") {
		t.Errorf("the IPv4-mapped spelling is not blocked: %q", why)
	}
	if why := f.verdict("http://allowed.test./x"); why != "" {
		t.Errorf("allowed.test. (trailing dot) is refused: %q", why)
	}
	if why := f.verdict("http://allowed.test@evil.test/"); !strings.Contains(why, "--allowedUrlPattern") {
		t.Errorf("userinfo passed for the allowed host: %q", why)
	}
}
