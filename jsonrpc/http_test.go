package jsonrpc

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
)

func echoTool(_ context.Context, args json.RawMessage) (*CallToolResult, error) {
	return textResult(string(args)), nil
}

func TestHTTPInitializeThenCallAsJSON(t *testing.T) {
	s := startHTTP(t, fakeHandler{"echo": echoTool}, HTTPOptions{})
	c := s.client()
	c.initialize("alpha", nil)
	for _, b := range []byte(c.session) {
		if b < 0x21 || b > 0x7e {
			t.Fatalf("session id %q has a byte outside visible ASCII", c.session)
		}
	}
	if len(c.session) < 22 {
		t.Errorf("session id %q is too short to hold 128 random bits", c.session)
	}

	m := single(t, c.callTool(1, "echo", map[string]any{"x": 1}, nil))
	if string(m.ID) != "1" {
		t.Errorf("response id %s, want 1", m.ID)
	}
	if text, _ := toolText(t, m); text != `{"x":1}` {
		t.Errorf("echo answered %q", text)
	}
	var list struct{ Tools []Tool }
	single(t, c.post(request("l", "tools/list", nil))).result(t, &list)
	if len(list.Tools) != 1 || list.Tools[0].Name != "echo" {
		t.Errorf("tools/list = %+v", list.Tools)
	}
}

func TestHTTPProgressTurnsTheAnswerIntoAnEventStream(t *testing.T) {
	slow := func(ctx context.Context, _ json.RawMessage) (*CallToolResult, error) {
		ProgressFrom(ctx)(1, 2, "half way")
		return textResult("done"), nil
	}
	s := startHTTP(t, fakeHandler{"slow": slow}, HTTPOptions{})
	c := s.client()
	c.initialize("alpha", nil)

	ev := events(t, c.callTool(7, "slow", nil, map[string]any{"progressToken": "p1"}))
	first := recv(t, ev, "the progress event")
	var p struct {
		ProgressToken string  `json:"progressToken"`
		Progress      float64 `json:"progress"`
		Message       string  `json:"message"`
	}
	if first.Method != "notifications/progress" || json.Unmarshal(first.Params, &p) != nil || p.ProgressToken != "p1" || p.Message != "half way" {
		t.Fatalf("first event %s, want the progress notification", first.raw)
	}
	last := recv(t, ev, "the response event")
	if string(last.ID) != "7" {
		t.Fatalf("second event %s, want the response to id 7", last.raw)
	}
	if text, _ := toolText(t, last); text != "done" {
		t.Errorf("result %q", text)
	}
	streamEnd(t, ev)

	// Without a progress token the same call is a plain JSON answer.
	if text, _ := toolText(t, single(t, c.callTool(8, "slow", nil, nil))); text != "done" {
		t.Errorf("result %q", text)
	}
}

func TestHTTPServerRequestsDuringACallTravelOnItsStream(t *testing.T) {
	elicit := func(ctx context.Context, _ json.RawMessage) (*CallToolResult, error) {
		res, err := SessionFrom(ctx).Elicit(ctx, "Allow?", nil)
		if err != nil {
			return nil, err
		}
		return textResult(res.Action), nil
	}
	s := startHTTP(t, fakeHandler{"whoami": sessionTool, "ask": elicit}, HTTPOptions{})
	c := s.client()
	c.initialize("alpha", map[string]any{"roots": map[string]any{}, "elicitation": map[string]any{}})

	ev := events(t, c.callTool(1, "whoami", nil, nil))
	ask := recv(t, ev, "the roots/list request")
	if ask.Method != "roots/list" || len(ask.ID) == 0 {
		t.Fatalf("first event %s, want a roots/list request", ask.raw)
	}
	c.answer(ask, map[string]any{"roots": []Root{{URI: "file:///work/a"}}})
	text, _ := toolText(t, recv(t, ev, "the tool result"))
	if want := c.session + " alpha file:///work/a"; text != want {
		t.Errorf("tool saw %q, want %q", text, want)
	}
	streamEnd(t, ev)

	ev = events(t, c.callTool(2, "ask", nil, nil))
	q := recv(t, ev, "the elicitation/create request")
	if q.Method != "elicitation/create" || !strings.Contains(string(q.Params), "Allow?") {
		t.Fatalf("event %s, want elicitation/create asking \"Allow?\"", q.raw)
	}
	c.answer(q, ElicitResult{Action: "accept"})
	if text, _ := toolText(t, recv(t, ev, "the tool result")); text != "accept" {
		t.Errorf("tool saw action %q", text)
	}
}

func TestHTTPGetStreamCarriesMessagesOutsideCalls(t *testing.T) {
	ping := func(ctx context.Context, params json.RawMessage) {
		_ = SessionFrom(ctx).Notify("test/pong", params)
	}
	s := startHTTP(t, nil, HTTPOptions{}, WithNotificationHandler("test/ping", ping))
	c := s.client()
	c.initialize("alpha", nil)

	// Sent before the GET opens: it waits in the session's queue.
	wantStatus(t, c.post(`{"jsonrpc":"2.0","method":"test/ping","params":{"n":1}}`), http.StatusAccepted)
	ev := events(t, c.do(http.MethodGet, ""))
	// Each notification's handler runs on its own goroutine, so the second
	// ping is sent once the first pong is in: otherwise they may cross.
	for n := 1; n <= 2; n++ {
		if n == 2 {
			wantStatus(t, c.post(`{"jsonrpc":"2.0","method":"test/ping","params":{"n":2}}`), http.StatusAccepted)
		}
		m := recv(t, ev, "a pong")
		if m.Method != "test/pong" || string(m.Params) != fmt.Sprintf(`{"n":%d}`, n) {
			t.Fatalf("GET stream event %s, want pong %d", m.raw, n)
		}
	}

	// One GET stream per session.
	httpErrorBody(t, c.do(http.MethodGet, ""), http.StatusConflict)

	// Ending the session ends its GET stream.
	wantStatus(t, c.do(http.MethodDelete, ""), http.StatusNoContent)
	streamEnd(t, ev)
}

func TestHTTPDeleteEndsTheSession(t *testing.T) {
	started := make(chan struct{})
	block := func(ctx context.Context, _ json.RawMessage) (*CallToolResult, error) {
		close(started)
		<-ctx.Done()
		return nil, fmt.Errorf("stopped: %w", ctx.Err())
	}
	closed := make(chan *Session, 1)
	s := startHTTP(t, fakeHandler{"block": block}, HTTPOptions{OnSessionClose: func(ss *Session) { closed <- ss }})
	c := s.client()
	c.initialize("alpha", nil)

	done := make(chan *http.Response, 1)
	go func() { done <- c.callTool(1, "block", nil, nil) }()
	recv(t, started, "the tool to start")
	wantStatus(t, c.do(http.MethodDelete, ""), http.StatusNoContent)
	if ss := recv(t, closed, "OnSessionClose"); ss.ID() != c.session {
		t.Errorf("OnSessionClose got session %q, want %q", ss.ID(), c.session)
	}
	// The running call saw its context cancelled and still answered.
	text, res := toolText(t, single(t, recv(t, done, "the blocked call's answer")))
	if !res.IsError || !strings.Contains(text, "context canceled") {
		t.Errorf("blocked call answered %q (isError %v), want a cancellation", text, res.IsError)
	}

	for _, method := range []string{http.MethodPost, http.MethodGet, http.MethodDelete} {
		body := ""
		if method == http.MethodPost {
			body = `{"jsonrpc":"2.0","id":2,"method":"ping"}`
		}
		e := httpErrorBody(t, c.do(method, body), http.StatusNotFound)
		if !strings.Contains(e.Message, "initialize") {
			t.Errorf("%s after DELETE: %q does not say to initialize again", method, e.Message)
		}
	}
	if n := s.h.table.len(); n != 0 {
		t.Errorf("%d sessions left after DELETE", n)
	}
}

func TestHTTPSessionsAreIsolated(t *testing.T) {
	s := startHTTP(t, fakeHandler{"whoami": sessionTool}, HTTPOptions{})
	roots := map[string]string{"alpha": "file:///a", "beta": "file:///b"}
	clients := map[string]*httpClient{}
	for name := range roots {
		c := s.client()
		c.initialize(name, map[string]any{"roots": map[string]any{}})
		clients[name] = c
	}
	if clients["alpha"].session == clients["beta"].session {
		t.Fatal("two sessions share an id")
	}
	for name, c := range clients {
		ev := events(t, c.callTool(1, "whoami", nil, nil))
		c.answer(recv(t, ev, "roots/list"), map[string]any{"roots": []Root{{URI: roots[name]}}})
		text, _ := toolText(t, recv(t, ev, "the result"))
		if want := c.session + " " + name + " " + roots[name]; text != want {
			t.Errorf("session %s saw %q, want %q", name, text, want)
		}
	}
	// A session's id does not reach another session's state.
	impostor := s.client()
	impostor.session = clients["alpha"].session
	impostor.header[headerSessionID] = "not-" + clients["alpha"].session
	httpErrorBody(t, impostor.post(request(1, "ping", nil)), http.StatusNotFound)
}

func TestHTTPConcurrentCallsOnOneSession(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]bool{}
	mixed := func(ctx context.Context, args json.RawMessage) (*CallToolResult, error) {
		var a struct{ N int }
		if err := json.Unmarshal(args, &a); err != nil {
			return nil, err
		}
		if a.N%2 == 0 { // half of them stream progress first
			ProgressFrom(ctx)(1, 0, "")
		}
		mu.Lock()
		seen[SessionFrom(ctx).ID()] = true
		mu.Unlock()
		return textResult(fmt.Sprint(a.N)), nil
	}
	s := startHTTP(t, fakeHandler{"mixed": mixed}, HTTPOptions{})
	c := s.client()
	c.initialize("alpha", nil)

	const calls = 24
	var wg sync.WaitGroup
	errs := make(chan error, calls)
	for n := range calls {
		wg.Go(func() {
			resp := c.callTool(n, "mixed", map[string]int{"n": n}, map[string]any{"progressToken": n})
			var last message
			if resp.Header.Get("Content-Type") == "text/event-stream" {
				for m := range events(t, resp) {
					last = m
				}
			} else {
				last = single(t, resp)
			}
			var res CallToolResult
			if err := json.Unmarshal(last.Result, &res); err != nil || len(res.Content) != 1 || res.Content[0].Text != fmt.Sprint(n) || string(last.ID) != fmt.Sprint(n) {
				errs <- fmt.Errorf("call %d got %s", n, last.raw)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if len(seen) != 1 || !seen[c.session] {
		t.Errorf("calls ran in sessions %v, want only %q", seen, c.session)
	}
}

func TestHTTPCancelledRequestEndsItsPostWithoutAnswer(t *testing.T) {
	started := make(chan struct{})
	stopped := make(chan error, 1)
	block := func(ctx context.Context, _ json.RawMessage) (*CallToolResult, error) {
		close(started)
		<-ctx.Done()
		stopped <- ctx.Err()
		return textResult("too late"), nil
	}
	s := startHTTP(t, fakeHandler{"block": block}, HTTPOptions{})
	c := s.client()
	c.initialize("alpha", nil)

	done := make(chan *http.Response, 1)
	go func() { done <- c.callTool("b", "block", nil, nil) }()
	recv(t, started, "the tool to start")
	wantStatus(t, c.post(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"b"}}`), http.StatusAccepted)
	if err := recv(t, stopped, "the tool's context to end"); err == nil {
		t.Fatal("tool context not cancelled")
	}
	// MCP says a cancelled request gets no response: its stream just ends.
	streamEnd(t, events(t, recv(t, done, "the POST to end")))
}

func TestHTTPMessagesOutlivingTheirPostGoToTheGetStream(t *testing.T) {
	started := make(chan struct{})
	release := make(chan struct{})
	late := func(ctx context.Context, _ json.RawMessage) (*CallToolResult, error) {
		close(started)
		<-release
		roots, err := SessionFrom(ctx).Roots(ctx)
		if err != nil {
			return nil, err
		}
		return textResult(roots[0].URI), nil
	}
	s := startHTTP(t, fakeHandler{"late": late}, HTTPOptions{})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	t.Cleanup(free) // runs before the handler's Close, which waits for the tool
	// The fake clock shows when the session has no HTTP request left open.
	clock := &fakeClock{armed: make(chan struct{}, 100)}
	s.h.afterFunc = clock.afterFunc
	c := s.client()
	c.initialize("alpha", map[string]any{"roots": map[string]any{}})

	// The client gives up on the POST; the specification says that is no
	// cancellation, so the tool runs on and its roots/list needs a way out.
	postCtx, hangUp := context.WithCancel(t.Context())
	req, err := http.NewRequestWithContext(postCtx, http.MethodPost, c.url,
		strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"late"}}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(headerSessionID, c.session)
	abandoned := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		abandoned <- err
	}()
	recv(t, started, "the tool to start")
	for len(clock.armed) > 0 {
		<-clock.armed
	}
	hangUp()
	if err := recv(t, abandoned, "the POST to be abandoned"); err == nil {
		t.Fatal("the POST was answered although the tool had not returned")
	}
	recv(t, clock.armed, "the server to let go of the POST")
	free()
	get := events(t, c.do(http.MethodGet, ""))

	ask := recv(t, get, "roots/list on the GET stream")
	if ask.Method != "roots/list" {
		t.Fatalf("GET stream event %s, want roots/list", ask.raw)
	}
	c.answer(ask, map[string]any{"roots": []Root{{URI: "file:///x"}}})
	// The tool's response has no stream left; it must not appear on GET.
	wantStatus(t, c.do(http.MethodDelete, ""), http.StatusNoContent)
	streamEnd(t, get)
}

func TestStreamSessionHasNoID(t *testing.T) {
	c := startServer(t, nil)
	if id := c.session().ID(); id != "" {
		t.Errorf("stdio session ID %q, want none", id)
	}
}
