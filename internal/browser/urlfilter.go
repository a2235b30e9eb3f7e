package browser

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
	"github.com/devtools-mcp/devtools-mcp/internal/urlpattern"
)

// urlFilter enforces --blockedUrlPattern and --allowedUrlPattern for every
// request of the browser (pages, popups, iframes), through browser-wide
// Fetch interception: nothing has to attach to each tab.
type urlFilter struct {
	blocked, allowed urlpattern.List

	sub     *cdp.Subscription // the paused requests, once installed
	sockets *socketGuard      // the socket guard, when WebSockets are refused
	// speculation turns on the speculation guard (speculationguard.go), in
	// a browser whose profile the server did not set up.
	speculation bool

	mu     sync.Mutex
	denied map[string]string // recently refused URL -> why, for navigation errors
	last   string            // the latest refusal
}

// newURLFilter returns nil when no pattern is configured.
func newURLFilter(blocked, allowed []string) *urlFilter {
	if len(blocked) == 0 && len(allowed) == 0 {
		return nil
	}
	return &urlFilter{blocked: urlpattern.Compile(blocked), allowed: urlpattern.Compile(allowed), denied: map[string]string{}}
}

// verdict says why u may not load, or "" when it may.
func (f *urlFilter) verdict(u string) string {
	u, _, _ = strings.Cut(u, "#")
	for _, scheme := range []string{"about:", "data:", "blob:", "chrome:", "devtools:"} {
		if strings.HasPrefix(u, scheme) {
			return ""
		}
	}
	if p, ok := f.blocked.Match(u); ok {
		return fmt.Sprintf("%s is blocked by --blockedUrlPattern %q", u, p)
	}
	if len(f.allowed) > 0 {
		if _, ok := f.allowed.Match(u); ok {
			return ""
		}
		return fmt.Sprintf("%s matches no --allowedUrlPattern (%s)", u, strings.Join(f.allowed.Strings(), ", "))
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
	patterns := []cdp.RequestPattern{{URLPattern: "*"}}
	if f.speculation {
		patterns = append(patterns, documentResponses)
	}
	if err := cdp.FetchEnable.Do(ctx, b.rootSession(), cdp.FetchEnableParams{Patterns: patterns}); err != nil {
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
	ctx, cancel := context.WithTimeout(b.bg.ctx, 10*time.Second)
	defer cancel()
	browser := b.rootSession()
	if ev.ResponseStatusCode != 0 || ev.ResponseErrorReason != "" {
		// A document response (documentResponses): it goes on without
		// its Speculation-Rules header.
		if headers, had := withoutSpeculationRules(ev.ResponseHeaders); had {
			err := cdp.FetchContinueResponse.Do(ctx, browser, cdp.ContinueResponseParams{RequestID: ev.RequestID, ResponseCode: ev.ResponseStatusCode, ResponseHeaders: headers})
			if err == nil {
				return
			}
			// Headers Chrome will not take back: the page loads as sent
			// (its script guard still stands) rather than hang.
			b.bg.failed("browser", cdp.FetchContinueResponse.Method, fmt.Errorf("response of %s: %w", ev.Request.URL, err))
		}
		if err := cdp.FetchContinueRequest.Do(ctx, browser, cdp.ContinueRequestParams{RequestID: ev.RequestID}); err != nil {
			b.bg.failed("browser", cdp.FetchContinueRequest.Method, fmt.Errorf("response of %s: %w", ev.Request.URL, err))
		}
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
