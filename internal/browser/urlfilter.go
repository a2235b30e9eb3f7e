package browser

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// urlFilter enforces --blockedUrlPattern and --allowedUrlPattern for every
// request of the browser (pages, popups, iframes), through browser-wide
// Fetch interception: nothing has to attach to each tab.
type urlFilter struct {
	blocked, allowed []urlPattern

	sub     *cdp.Subscription // the paused requests, once installed
	sockets *socketGuard      // the socket guard, when WebSockets are refused

	mu     sync.Mutex
	denied map[string]string // recently refused URL -> why, for navigation errors
	last   string            // the latest refusal
}

// urlPattern is one pattern: `*` matches any run of characters; a pattern
// without "://" matches the URL without its scheme.
type urlPattern struct {
	text     string
	re       *regexp.Regexp
	noScheme bool
	// origin matches the origins (scheme://host:port, or host:port when
	// noScheme) of the URLs the pattern can match; nil when that is every
	// origin (the pattern's host is only "*").
	origin *regexp.Regexp
}

// compilePatterns turns pattern strings into matchers.
func compilePatterns(texts []string) []urlPattern {
	out := make([]urlPattern, 0, len(texts))
	for _, t := range texts {
		canon := canonicalPattern(t)
		quoted := strings.ReplaceAll(regexp.QuoteMeta(canon), `\*`, `.*`)
		out = append(out, urlPattern{text: t, re: regexp.MustCompile("^" + quoted + "$"), noScheme: !strings.Contains(canon, "://"), origin: originRegexp(canon)})
	}
	return out
}

// originRegexp compiles the part of pattern t before its path into a
// matcher of origins, where "*" stops at "/"; nil when the host part is a
// bare "*", which any origin matches.
func originRegexp(t string) *regexp.Regexp {
	scheme, rest, ok := strings.Cut(t, "://")
	if !ok {
		scheme, rest = "", t
	}
	host, _, _ := strings.Cut(rest, "/")
	if strings.Trim(host, "*:") == "" {
		return nil
	}
	glob := host
	if ok {
		glob = scheme + "://" + host
	}
	quoted := strings.ReplaceAll(regexp.QuoteMeta(glob), `\*`, `[^/]*`)
	return regexp.MustCompile("^" + quoted + "$")
}

// match reports whether u, spelled by canonicalURL, matches p.
func (p urlPattern) match(u string) bool {
	if p.noScheme {
		if _, rest, ok := strings.Cut(u, "://"); ok {
			u = rest
		}
	}
	return p.re.MatchString(u)
}

// URLPatterns is a list of URL patterns in the syntax of --blockedUrlPattern.
type URLPatterns []urlPattern

// NewURLPatterns compiles patterns ("*" matches any run of characters; a
// pattern without "://" ignores the scheme).
func NewURLPatterns(patterns []string) URLPatterns { return compilePatterns(patterns) }

// Match returns the first pattern u matches.
func (ps URLPatterns) Match(u string) (pattern string, ok bool) {
	u, _, _ = strings.Cut(u, "#")
	u = canonicalURL(u)
	for _, p := range ps {
		if p.match(u) {
			return p.text, true
		}
	}
	return "", false
}

// MatchOrigin returns the first pattern that can match a URL of u's origin
// (its scheme, host and port). Patterns whose host is a bare "*" are left
// out: every origin could hold such a page.
func (ps URLPatterns) MatchOrigin(u string) (pattern string, ok bool) {
	parsed, err := url.Parse(canonicalURL(u))
	if err != nil || parsed.Host == "" {
		return "", false
	}
	for _, p := range ps {
		origin := parsed.Scheme + "://" + parsed.Host
		if p.noScheme {
			origin = parsed.Host
		}
		if p.origin != nil && p.origin.MatchString(origin) {
			return p.text, true
		}
	}
	return "", false
}

// newURLFilter returns nil when no pattern is configured.
func newURLFilter(blocked, allowed []string) *urlFilter {
	if len(blocked) == 0 && len(allowed) == 0 {
		return nil
	}
	return &urlFilter{blocked: compilePatterns(blocked), allowed: compilePatterns(allowed), denied: map[string]string{}}
}

// verdict says why u may not load, or "" when it may.
func (f *urlFilter) verdict(u string) string {
	u, _, _ = strings.Cut(u, "#")
	for _, scheme := range []string{"about:", "data:", "blob:", "chrome:", "devtools:"} {
		if strings.HasPrefix(u, scheme) {
			return ""
		}
	}
	canon := canonicalURL(u)
	for _, p := range f.blocked {
		if p.match(canon) {
			return fmt.Sprintf("%s is blocked by --blockedUrlPattern %q", u, p.text)
		}
	}
	if len(f.allowed) > 0 {
		for _, p := range f.allowed {
			if p.match(canon) {
				return ""
			}
		}
		texts := make([]string, len(f.allowed))
		for i, p := range f.allowed {
			texts[i] = p.text
		}
		return fmt.Sprintf("%s matches no --allowedUrlPattern (%s)", u, strings.Join(texts, ", "))
	}
	return ""
}

// why returns the reason u was refused recently, or "".
func (f *urlFilter) why(u string) string {
	if f == nil {
		return ""
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if why, ok := f.denied[u]; ok {
		return why
	}
	return f.last // the URL may have been normalized on the way
}

// install starts intercepting every request of the browser. Each paused
// request is answered on the filter's own subscription, one after the other,
// with the browser's lifetime context.
func (f *urlFilter) install(ctx context.Context, b *Browser) error {
	f.sub = b.conn.SubscribeFunc("", func(ev cdp.RawEvent) { f.answer(b, ev) }, cdp.FetchRequestPaused)
	if err := cdp.FetchEnable.Do(ctx, b.rootSession(), cdp.FetchEnableParams{Patterns: []cdp.RequestPattern{{URLPattern: "*"}}}); err != nil {
		return fmt.Errorf("enforce URL patterns: %w", err)
	}
	return nil
}

// stop ends the interception's subscription.
func (f *urlFilter) stop() {
	if f == nil {
		return
	}
	if f.sub != nil {
		f.sub.Close()
	}
	if f.sockets != nil && f.sockets.sub != nil {
		f.sockets.sub.Close()
	}
}

// answer lets a paused request go on, or fails it when its URL is refused.
func (f *urlFilter) answer(b *Browser, raw cdp.RawEvent) {
	ev, err := cdp.FetchRequestPaused.Decode(raw.Params)
	if err != nil {
		b.bg.failed("browser", raw.Method, fmt.Errorf("decode: %w", err))
		return
	}
	why := f.verdict(ev.Request.URL)
	if why != "" {
		f.mu.Lock()
		if len(f.denied) > 100 {
			clear(f.denied)
		}
		f.denied[ev.Request.URL], f.last = why, why
		f.mu.Unlock()
	}
	ctx, cancel := context.WithTimeout(b.bg.ctx, 10*time.Second)
	defer cancel()
	browser := b.rootSession()
	if why != "" {
		if err := cdp.FetchFailRequest.Do(ctx, browser, cdp.FailRequestParams{RequestID: ev.RequestID, ErrorReason: "BlockedByClient"}); err != nil {
			b.bg.failed("browser", cdp.FetchFailRequest.Method, fmt.Errorf("request %s: %w", ev.Request.URL, err))
		}
		return
	}
	if err := cdp.FetchContinueRequest.Do(ctx, browser, cdp.ContinueRequestParams{RequestID: ev.RequestID}); err != nil {
		b.bg.failed("browser", cdp.FetchContinueRequest.Method, fmt.Errorf("request %s: %w", ev.Request.URL, err))
	}
}
