package jsonrpc

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
)

// sessionHandler has tools that report what the calling session knows.
func sessionHandler() fakeHandler {
	return fakeHandler{
		"whoami": func(ctx context.Context, _ json.RawMessage) (*CallToolResult, error) {
			ss := SessionFrom(ctx)
			return textResult(ss.ClientInfo().Name + " " + ss.ProtocolVersion()), nil
		},
		"roots": func(ctx context.Context, _ json.RawMessage) (*CallToolResult, error) {
			roots, err := SessionFrom(ctx).Roots(ctx)
			if err != nil {
				// Shown as text: a client's *Error must not become
				// the tool call's protocol error.
				return &CallToolResult{Content: []Content{TextContent(err.Error())}, IsError: true}, nil
			}
			var uris []string
			for _, r := range roots {
				uris = append(uris, r.URI)
			}
			return textResult(strings.Join(uris, ",")), nil
		},
		"log": func(ctx context.Context, _ json.RawMessage) (*CallToolResult, error) {
			SessionFrom(ctx).Log("info", "test", "hello")
			return textResult("logged"), nil
		},
		"confirm": func(ctx context.Context, _ json.RawMessage) (*CallToolResult, error) {
			res, err := SessionFrom(ctx).Elicit(ctx, "Go ahead?", nil)
			if err != nil {
				return nil, err
			}
			return textResult(res.Action), nil
		},
	}
}

// initialize runs the handshake as a client named name with caps.
func (c *client) initialize(name, version string, caps map[string]any) {
	c.t.Helper()
	c.call("init", "initialize", map[string]any{
		"protocolVersion": version, "capabilities": caps, "clientInfo": map[string]any{"name": name, "version": "1"},
	}).result(c.t, nil)
	c.notification("notifications/initialized", nil)
}

// answerRoots expects a roots/list request and answers it with uris.
func (c *client) answerRoots(uris ...string) {
	c.t.Helper()
	req := c.next()
	if req.Method != "roots/list" {
		c.t.Fatalf("expected roots/list, got %s", req.raw)
	}
	roots := []Root{}
	for _, u := range uris {
		roots = append(roots, Root{URI: u})
	}
	c.sendJSON(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": map[string]any{"roots": roots}})
}

// toolOK calls a tool and returns its text, failing on an error result.
func (c *client) toolOK(id any, name string) string {
	c.t.Helper()
	text, r := toolText(c.t, c.callTool(id, name))
	if r.IsError {
		c.t.Fatalf("%s failed: %s", name, text)
	}
	return text
}

// callTool sends a tools/call without arguments and returns its response.
func (c *client) callTool(id any, name string) message {
	c.t.Helper()
	return c.call(id, "tools/call", map[string]any{"name": name})
}

// twoSessions serves two clients at once on one Server.
func twoSessions(t *testing.T) (a, b *client) {
	t.Helper()
	srv := NewServer(ServerInfo{Name: "shared", Version: "1"}, sessionHandler(), WithLogger(testLogger(t)))
	return startWith(t, srv), startWith(t, srv)
}

func TestConcurrentSessionsKeepTheirOwnState(t *testing.T) {
	a, b := twoSessions(t)
	a.initialize("alice", "2025-06-18", map[string]any{"roots": map[string]any{"listChanged": true}})
	b.initialize("bob", "2025-11-25", map[string]any{"roots": map[string]any{}, "elicitation": map[string]any{}})

	if got := a.toolOK(1, "whoami"); got != "alice 2025-06-18" {
		t.Errorf("session a: whoami = %q", got)
	}
	if got := b.toolOK(1, "whoami"); got != "bob 2025-11-25" {
		t.Errorf("session b: whoami = %q", got)
	}

	// Each session asks its own client for roots, and remembers them.
	a.request(2, "tools/call", map[string]any{"name": "roots"})
	a.answerRoots("file:///alice")
	if text, _ := toolText(t, a.next()); text != "file:///alice" {
		t.Errorf("session a: roots = %q", text)
	}
	b.request(2, "tools/call", map[string]any{"name": "roots"})
	b.answerRoots("file:///bob", "file:///shared")
	if text, _ := toolText(t, b.next()); text != "file:///bob,file:///shared" {
		t.Errorf("session b: roots = %q", text)
	}
	// Remembered: the next call sends no roots/list (the response is next).
	if got := a.toolOK(3, "roots"); got != "file:///alice" {
		t.Errorf("session a, cached: roots = %q", got)
	}

	// A change on one client makes only its session ask again.
	a.notification("notifications/roots/list_changed", nil)
	a.request(4, "tools/call", map[string]any{"name": "roots"})
	a.answerRoots("file:///alice2")
	if text, _ := toolText(t, a.next()); text != "file:///alice2" {
		t.Errorf("session a after list_changed: roots = %q", text)
	}
	if got := b.toolOK(4, "roots"); got != "file:///bob,file:///shared" {
		t.Errorf("session b after a's change: roots = %q", got)
	}

	// Log levels are per session: only b asked for logs.
	b.call(5, "logging/setLevel", map[string]string{"level": "debug"}).result(t, nil)
	if got := a.toolOK(6, "log"); got != "logged" {
		t.Errorf("session a: log = %q", got)
	}
	b.request(6, "tools/call", map[string]any{"name": "log"})
	if m := b.next(); m.Method != "notifications/message" || string(m.Params) != `{"level":"info","logger":"test","data":"hello"}` {
		t.Fatalf("session b: expected the log entry, got %s", m.raw)
	}
	b.next() // the tool's response

	// Capabilities are per session: only b can elicit.
	text, r := toolText(t, a.callTool(7, "confirm"))
	if !r.IsError || !strings.Contains(text, `"elicitation.form" capability`) {
		t.Errorf("session a: confirm = %q (isError %v), want the missing capability", text, r.IsError)
	}
	b.request(7, "tools/call", map[string]any{"name": "confirm"})
	req := b.next()
	var p struct {
		Message         string         `json:"message"`
		RequestedSchema map[string]any `json:"requestedSchema"`
	}
	if req.Method != "elicitation/create" || json.Unmarshal(req.Params, &p) != nil || p.Message != "Go ahead?" || p.RequestedSchema["type"] != "object" {
		t.Fatalf("session b: expected elicitation/create, got %s", req.raw)
	}
	b.sendJSON(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": map[string]any{"action": "decline"}})
	if text, _ := toolText(t, b.next()); text != "decline" {
		t.Errorf("session b: confirm = %q", text)
	}

	// Ending one session leaves the other serving.
	if _, err := a.closeAndDrain(); err != nil {
		t.Fatal(err)
	}
	if got := b.toolOK(8, "whoami"); got != "bob 2025-11-25" {
		t.Errorf("session b after a ended: whoami = %q", got)
	}
}

func TestRootsWithoutCapability(t *testing.T) {
	c := startServer(t, sessionHandler())
	c.initialize("plain", "2025-06-18", map[string]any{})
	ss := c.session()
	if _, err := ss.Roots(t.Context()); !errors.Is(err, errors.ErrUnsupported) {
		t.Fatalf("Roots = %v, want errors.ErrUnsupported", err)
	}
	// Nothing was asked: the next message is the ping's answer.
	c.call(1, "ping", nil).result(t, nil)
}

func TestRootsFailureIsNotRemembered(t *testing.T) {
	c := startServer(t, sessionHandler())
	c.initialize("flaky", "2025-06-18", map[string]any{"roots": map[string]any{}})
	c.request(1, "tools/call", map[string]any{"name": "roots"})
	req := c.next()
	c.sendJSON(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32603, "message": "busy"}})
	if text, r := toolText(t, c.next()); !r.IsError || !strings.Contains(text, "busy") {
		t.Fatalf("roots = %q, want the client's error", text)
	}
	c.request(2, "tools/call", map[string]any{"name": "roots"})
	c.answerRoots("file:///later")
	if text, _ := toolText(t, c.next()); text != "file:///later" {
		t.Fatalf("roots after a failure = %q", text)
	}
}

func TestRootsChangeDuringRequestIsNotCached(t *testing.T) {
	c := startServer(t, sessionHandler())
	c.initialize("racy", "2025-06-18", map[string]any{"roots": map[string]any{"listChanged": true}})
	c.request(1, "tools/call", map[string]any{"name": "roots"})
	req := c.next()
	// The roots change while the answer to the first request is on its way.
	c.notification("notifications/roots/list_changed", nil)
	c.call(2, "ping", nil).result(t, nil) // the change has been seen
	c.sendJSON(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": map[string]any{"roots": []Root{{URI: "file:///old"}}}})
	if text, _ := toolText(t, c.next()); text != "file:///old" {
		t.Fatalf("roots = %q", text)
	}
	c.request(3, "tools/call", map[string]any{"name": "roots"})
	c.answerRoots("file:///new")
	if text, _ := toolText(t, c.next()); text != "file:///new" {
		t.Fatalf("roots after the change = %q, want them asked for again", text)
	}
}

func TestSessionFromWithoutSession(t *testing.T) {
	if ss := SessionFrom(context.Background()); ss != nil {
		t.Fatalf("SessionFrom(Background) = %v, want nil", ss)
	}
}

func TestConcurrentRootsShareOneRequest(t *testing.T) {
	c := startServer(t, sessionHandler())
	c.initialize("busy", "2025-06-18", map[string]any{"roots": map[string]any{}})
	c.request(1, "tools/call", map[string]any{"name": "roots"})
	c.request(2, "tools/call", map[string]any{"name": "roots"})
	c.answerRoots("file:///one")
	// Both answers follow; a second roots/list would fail toolText.
	for range 2 {
		if text, _ := toolText(t, c.next()); text != "file:///one" {
			t.Fatalf("roots = %q", text)
		}
	}
}

func TestElicitationModes(t *testing.T) {
	for caps, want := range map[string]bool{
		`{}`:                                   false,
		`{"elicitation":null}`:                 false,
		`{"elicitation":{}}`:                   true, // before 2025-11-25: forms
		`{"elicitation":{"form":{}}}`:          true,
		`{"elicitation":{"form":{},"url":{}}}`: true,
		`{"elicitation":{"url":{}}}`:           false, // URL mode only: we ask in forms
	} {
		ss := newSession(nil, slog.New(slog.DiscardHandler))
		ss.initialized(json.RawMessage(caps), ServerInfo{}, "2025-11-25")
		if got := ss.elicitsForms(); got != want {
			t.Errorf("capabilities %s: elicitsForms = %v, want %v", caps, got, want)
		}
		if !want {
			_, err := ss.Elicit(context.Background(), "Go ahead?", nil)
			var ce *CapabilityError
			if !errors.As(err, &ce) {
				t.Errorf("capabilities %s: Elicit = %v, want a CapabilityError", caps, err)
			}
		}
	}
}

func TestLogHandlerReachesTheCallersClient(t *testing.T) {
	var stderr lockedBuilder
	h := fakeHandler{"launch": func(ctx context.Context, _ json.RawMessage) (*CallToolResult, error) {
		log := slog.New(LogHandler(slog.NewTextHandler(&stderr, nil), "devtools-mcp"))
		log.InfoContext(ctx, "launched Chrome", "pid", 42, "err", errors.New("none"))
		log.DebugContext(ctx, "a detail")
		log.Info("no session in this context")
		return textResult("ok"), nil
	}}
	c := startServer(t, h)
	c.call(1, "logging/setLevel", map[string]string{"level": "info"}).result(t, nil)
	c.request(2, "tools/call", map[string]any{"name": "launch"})
	m := c.next()
	want := `{"level":"info","logger":"devtools-mcp","data":{"err":"none","message":"launched Chrome","pid":42}}`
	if m.Method != "notifications/message" || string(m.Params) != want {
		t.Fatalf("got %s, want the log entry %s", m.raw, want)
	}
	// The debug entry is below the client's level and the last had no
	// session: the next message is the answer.
	if text, _ := toolText(t, c.next()); text != "ok" {
		t.Fatal(text)
	}
	if !strings.Contains(stderr.String(), "launched Chrome") || !strings.Contains(stderr.String(), "no session") || strings.Contains(stderr.String(), "a detail") {
		t.Errorf("stderr got:\n%s", stderr.String())
	}
}

// lockedBuilder is a strings.Builder safe to write from a tool's goroutine
// and read from the test's.
type lockedBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuilder) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuilder) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
