package browser

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

func TestParseVersion(t *testing.T) {
	for product, want := range map[string]int{
		"Chrome/150.0.7871.100":         150,
		"HeadlessChrome/156.0.8078.114": 156,
		"Chrome/x.1":                    0,
		"Chrome":                        0,
		"":                              0,
		"Chrome/-3.0":                   0,
	} {
		if got := parseVersion(product).Major; got != want {
			t.Errorf("parseVersion(%q).Major = %d, want %d", product, got, want)
		}
	}
	if got := parseVersion("HeadlessChrome/150.0.7871.100").String(); got != "Chrome 150.0.7871.100" {
		t.Errorf("String() = %q", got)
	}
}

func TestVersionWarning(t *testing.T) {
	for product, warn := range map[string]bool{
		fmt.Sprintf("Chrome/%d.0.1.2", OldestSupportedMajor-1): true,
		fmt.Sprintf("Chrome/%d.0.1.2", OldestSupportedMajor):   false,
		fmt.Sprintf("Chrome/%d.0.1.2", NewestTestedMajor+5):    false,
		"": false, // unknown: no warning
	} {
		b := &Browser{facts: browserFacts{version: parseVersion(product)}}
		got := b.VersionWarning()
		if (got != "") != warn {
			t.Errorf("%q: warning %q, want one: %v", product, got, warn)
		}
		if warn && !strings.Contains(got, fmt.Sprintf("Chrome %d to %d", OldestSupportedMajor, NewestTestedMajor)) {
			t.Errorf("the warning does not state the supported range: %s", got)
		}
	}
}

func TestFeatureErrors(t *testing.T) {
	old := &Browser{facts: browserFacts{version: parseVersion("Chrome/149.0.1.2")}}
	unknown := &Browser{}
	err := old.Require(FeatureWebMCP)
	if !errors.Is(err, ErrFeatureMissing) || !strings.Contains(err.Error(), "Chrome 150 or newer started with --enable-features=WebMCP") ||
		!strings.Contains(err.Error(), "Chrome 149.0.1.2") {
		t.Errorf("Require on Chrome 149 = %v", err)
	}
	if err := unknown.Require(FeatureWebMCP); err != nil {
		t.Errorf("Require on a browser of unknown version = %v, want nil", err)
	}
	missing := fmt.Errorf("list: %w", &cdp.Error{Method: "WebMCP.enable", Code: -32601, Message: "'WebMCP.enable' wasn't found"})
	if err := FeatureWebMCP.Explain(old, missing); !errors.Is(err, ErrFeatureMissing) || !strings.Contains(err.Error(), "--enable-features=WebMCP") {
		t.Errorf("Explain(method not found) = %v", err)
	}
	other := &cdp.Error{Method: "WebMCP.enable", Code: -32000, Message: "Not attached"}
	if err := FeatureWebMCP.Explain(old, other); err != other {
		t.Errorf("Explain(another error) = %v, want it unchanged", err)
	}
}
