package browser

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// The supported Chrome versions: the stable release the server was last
// tested with and the eight major versions before it. Older browsers are
// used all the same, with a warning; CI runs the tests on the newest and on
// an older version of the range.
const (
	NewestTestedMajor    = 156
	OldestSupportedMajor = NewestTestedMajor - 8
)

// Version is what a browser says it is.
type Version struct {
	// Product is Browser.getVersion's product, e.g. "Chrome/150.0.7871.100"
	// or "HeadlessChrome/150.0.7871.100"; "" when the browser did not say.
	Product string
	// Major is the major version (150), 0 when unknown.
	Major int
}

// parseVersion reads the major version out of a product string.
func parseVersion(product string) Version {
	v := Version{Product: product}
	_, number, ok := strings.Cut(product, "/")
	if !ok {
		return v
	}
	major, _, _ := strings.Cut(number, ".")
	if n, err := strconv.Atoi(major); err == nil && n > 0 {
		v.Major = n
	}
	return v
}

// String names the version as a user reads it ("Chrome 150.0.7871.100").
func (v Version) String() string {
	if v.Product == "" {
		return "this Chrome (version unknown)"
	}
	name, number, ok := strings.Cut(v.Product, "/")
	if !ok {
		return v.Product
	}
	return strings.TrimPrefix(name, "Headless") + " " + number
}

// browserFacts are what the server learns about a browser once: its
// version at connect time, the id of its default browser context when a
// command first needs it.
type browserFacts struct {
	version Version // set before the browser is handed out, then read-only

	mu             sync.Mutex
	defaultContext string // "" until looked up
}

// Version is the browser's version, read when the server connected; the
// zero Version for no browser.
func (b *Browser) Version() Version {
	if b == nil {
		return Version{}
	}
	return b.facts.version
}

// learnVersion asks the browser its version. A browser that does not answer
// is used anyway: the version only feeds warnings and explanations.
// A browser the server launched said it at start-up, and is not asked again.
func (b *Browser) learnVersion(ctx context.Context) {
	product := ""
	if b.proc != nil {
		product = b.proc.Version.Product
	}
	if product == "" {
		v, err := cdp.BrowserGetVersion.Call(ctx, b.rootSession())
		if err != nil {
			b.log.Debug("Chrome did not say its version", "err", err)
			return
		}
		product = v.Product
	}
	b.facts.version = parseVersion(product)
	if w := b.VersionWarning(); w != "" {
		b.log.Warn(w)
	}
}

// VersionWarning says, when the browser is older than the supported range,
// which version it is and what may not work; "" otherwise. It is never a
// reason to refuse the browser.
func (b *Browser) VersionWarning() string {
	v := b.Version()
	if v.Major == 0 || v.Major >= OldestSupportedMajor {
		return ""
	}
	return fmt.Sprintf("Warning: %s is older than the supported versions (Chrome %d to %d); some tools may fail or behave differently. Update Chrome or point --executablePath at a newer one.",
		v, OldestSupportedMajor, NewestTestedMajor)
}

// permissionContext returns the browser context id to pass to browser-wide
// commands (Browser.setPermission) for a page of context id: "" for the
// browser's default context, which Chrome 150 and older do not accept by
// id ("Failed to find browser context").
func (b *Browser) permissionContext(ctx context.Context, id string) (string, error) {
	if id == "" {
		return "", nil
	}
	b.facts.mu.Lock()
	def := b.facts.defaultContext
	b.facts.mu.Unlock()
	if def == "" {
		res, err := cdp.TargetGetBrowserContexts.Call(ctx, b.rootSession())
		if err != nil {
			return "", fmt.Errorf("list the browser contexts: %w", err)
		}
		def = res.DefaultBrowserContextID
		if def == "" && !slices.Contains(res.BrowserContextIDs, id) {
			// A browser that does not name its default context lists only
			// the others: a context it does not list is the default one.
			return "", nil
		}
		b.facts.mu.Lock()
		b.facts.defaultContext = def
		b.facts.mu.Unlock()
	}
	if id == def {
		return "", nil
	}
	return id, nil
}

// Feature is a capability of newer Chrome versions that some tools need:
// a CDP domain or web platform feature, the first major version that has
// it, and the command-line switch that turns it on where one is needed.
// Tools check for it with [Browser.Require] before they start and explain a
// failure with [Feature.Explain], so that the agent learns which Chrome it
// needs instead of a bare protocol error.
type Feature struct {
	Name     string // what the user knows it as, e.g. "WebMCP"
	MinMajor int    // the first major version that has it; 0 when any has
	Flag     string // the Chrome switch it needs, e.g. "--enable-features=WebMCP"; "" for none
}

// Features the tools depend on beyond what every supported Chrome has.
// Versions are given where they are known; CI checks the features on the
// newest and an older supported Chromium.
var (
	// FeatureWebMCP is the WebMCP domain and document.modelContext.
	FeatureWebMCP = Feature{Name: "WebMCP", MinMajor: 150, Flag: "--enable-features=WebMCP"}
	// FeatureExtensions is the Extensions CDP domain (load, list, reload,
	// uninstall), which Chrome offers only over --remote-debugging-pipe.
	FeatureExtensions = Feature{Name: "the Extensions protocol domain", Flag: "--enable-unsafe-extension-debugging"}
	// FeaturePWA is the PWA CDP domain (install, launch, uninstall) of
	// desktop Chrome.
	FeaturePWA = Feature{Name: "the PWA protocol domain"}
	// FeatureScreencast is Page.startScreencast, which screen recording
	// uses.
	FeatureScreencast = Feature{Name: "screencasting (Page.startScreencast)"}
)

// ErrFeatureMissing is wrapped by the errors of [Browser.Require] and
// [Feature.Explain].
var ErrFeatureMissing = errors.New("this Chrome lacks a feature the tool needs")

// Needs says which Chrome the feature needs, for messages:
// "Chrome 150 or newer started with --enable-features=WebMCP".
func (f Feature) Needs() string {
	s := "Chrome"
	if f.MinMajor > 0 {
		s = fmt.Sprintf("Chrome %d or newer", f.MinMajor)
	}
	if f.Flag != "" {
		s += " started with " + f.Flag
	}
	return s
}

// Require returns an error naming the version needed when the browser is
// known to be older than the feature; nil when it is new enough or its
// version is unknown (the command's own failure then tells, through
// Explain).
func (b *Browser) Require(f Feature) error {
	v := b.Version()
	if v.Major == 0 || v.Major >= f.MinMajor {
		return nil
	}
	return fmt.Errorf("%w: %s needs %s; the browser is %s", ErrFeatureMissing, f.Name, f.Needs(), v)
}

// Explain turns err, the failure of a command of the feature, into an error
// saying which Chrome and switch the feature needs when the failure is that
// the browser does not know the command (its domain is missing or turned
// off). Other errors are returned unchanged.
func (f Feature) Explain(b *Browser, err error) error {
	var ce *cdp.Error
	if !errors.As(err, &ce) || !methodUnknown(ce) {
		return err
	}
	return fmt.Errorf("%w: %s needs %s; the browser (%s) does not have it (%v)", ErrFeatureMissing, f.Name, f.Needs(), b.Version(), err)
}

// methodUnknown tells whether a CDP error says the method does not exist:
// JSON-RPC's method-not-found code, or Chrome's wording for a domain that
// is compiled out or not enabled by a switch.
func methodUnknown(e *cdp.Error) bool {
	return e.Code == -32601 || strings.Contains(e.Message, "wasn't found")
}
