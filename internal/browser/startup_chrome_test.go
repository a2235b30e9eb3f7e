package browser

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/devtools-mcp/devtools-mcp/internal/chrome"
	"github.com/devtools-mcp/devtools-mcp/internal/chrometest"
)

// sentMethods is a slog handler that keeps the method of every CDP command
// the connection logs as sent (with ProtocolLog), in order.
type sentMethods struct {
	mu      sync.Mutex
	methods []string
}

func (s *sentMethods) Enabled(context.Context, slog.Level) bool { return true }
func (s *sentMethods) WithAttrs([]slog.Attr) slog.Handler       { return s }
func (s *sentMethods) WithGroup(string) slog.Handler            { return s }

func (s *sentMethods) Handle(_ context.Context, r slog.Record) error {
	if r.Message != "cdp send" {
		return nil
	}
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "msg" {
			if _, rest, ok := strings.Cut(a.Value.String(), `"method":"`); ok {
				method, _, _ := strings.Cut(rest, `"`)
				s.mu.Lock()
				s.methods = append(s.methods, method)
				s.mu.Unlock()
			}
		}
		return true
	})
	return nil
}

// index is the position of method's first sending, -1 if never.
func (s *sentMethods) index(method string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, m := range s.methods {
		if m == method {
			return i
		}
	}
	return -1
}

// count is how many times method was sent.
func (s *sentMethods) count(method string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, m := range s.methods {
		if m == method {
			n++
		}
	}
	return n
}

// TestLaunchedBrowserIsSetUpWithoutAskingTwice checks a launched browser's
// set-up: its version, which Launch waited for, is not asked again, and
// downloads are refused before its pages are tracked (Chrome handles the
// browser's commands in turn, so no page can download before the refusal).
func TestLaunchedBrowserIsSetUpWithoutAskingTwice(t *testing.T) {
	exe := chrometest.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	sent := &sentMethods{}
	m := NewManager(Options{Launch: chrome.LaunchOptions{ExecutablePath: exe, Headless: true, Isolated: true},
		Logger: slog.New(sent), ProtocolLog: true})
	defer m.Close(ctx)
	b, err := m.Get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if v := b.Version(); v.Major == 0 {
		t.Errorf("the browser's version is unknown after start-up: %+v", v)
	}
	if n := sent.count("Browser.getVersion"); n != 1 {
		t.Errorf("Browser.getVersion sent %d times at start-up, want once", n)
	}
	deny, discover := sent.index("Browser.setDownloadBehavior"), sent.index("Target.setDiscoverTargets")
	if deny < 0 || discover < 0 || deny > discover {
		t.Errorf("downloads refused at %d, pages tracked at %d among %v: the refusal must come first", deny, discover, sent.methods)
	}
}
