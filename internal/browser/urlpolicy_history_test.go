package browser

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"sync"
	"testing"

	"github.com/devtools-mcp/devtools-mcp/cdp"
	"github.com/devtools-mcp/devtools-mcp/internal/urlpattern"
)

// historyTransport answers Page.getNavigationHistory with a fixed history
// and every other command with an empty result, recording the methods.
type historyTransport struct {
	history cdp.NavigationHistory
	replies chan []byte

	mu      sync.Mutex
	methods []string
}

func (t *historyTransport) Write(_ context.Context, msg []byte) error {
	var req struct {
		ID     int64  `json:"id"`
		Method string `json:"method"`
	}
	if err := json.Unmarshal(msg, &req); err != nil {
		return err
	}
	t.mu.Lock()
	t.methods = append(t.methods, req.Method)
	t.mu.Unlock()
	var result any = map[string]any{}
	if req.Method == cdp.PageGetNavigationHistory.Method {
		result = t.history
	}
	reply, _ := json.Marshal(map[string]any{"id": req.ID, "result": result})
	t.replies <- reply
	return nil
}

func (t *historyTransport) Read() ([]byte, error) {
	msg, ok := <-t.replies
	if !ok {
		return nil, errors.New("closed")
	}
	return msg, nil
}

func (t *historyTransport) Close() error {
	defer func() { _ = recover() }() // closed twice
	close(t.replies)
	return nil
}

// TestHistoryMovesFollowThePolicy checks that back and forward are refused
// when they would land on a URL the hardening flags forbid (one opened
// before the server attached, say), and are not sent to Chrome then.
func TestHistoryMovesFollowThePolicy(t *testing.T) {
	history := cdp.NavigationHistory{CurrentIndex: 1, Entries: []cdp.NavigationEntry{
		{ID: 1, URL: "file:///etc/passwd"}, {ID: 2, URL: "https://example.com/"}, {ID: 3, URL: " DATA:text/html,x"},
	}}
	for _, tt := range []struct {
		pol     urlpattern.NavigationPolicy
		move    string
		refused bool
	}{
		{urlpattern.NavigationPolicy{NoFiles: true}, "back", true},
		{urlpattern.NavigationPolicy{NoFiles: true}, "forward", false},
		{urlpattern.NavigationPolicy{NoJavaScript: true}, "forward", true},
		{urlpattern.NavigationPolicy{NoJavaScript: true}, "back", false},
		{urlpattern.NavigationPolicy{}, "back", false},
	} {
		tr := &historyTransport{history: history, replies: make(chan []byte, 4)}
		conn := cdp.NewConn(tr)
		b := &Browser{m: &Manager{log: slog.New(slog.DiscardHandler), opts: Options{Navigation: tt.pol}}, conn: conn, pages: map[string]*Page{}}
		p := &Page{browser: b}
		_, err := p.startNavigation(context.Background(), conn.Session("s"), Navigation{Type: tt.move})
		conn.Close()
		tr.mu.Lock()
		sent := tr.methods[len(tr.methods)-1] == cdp.PageNavigateToHistoryEntry.Method
		tr.mu.Unlock()
		if tt.refused != errors.Is(err, urlpattern.ErrNavigationRefused) || tt.refused == sent {
			t.Errorf("%+v %s: err %v, history move sent %v; want refused=%v", tt.pol, tt.move, err, sent, tt.refused)
		}
	}
}
