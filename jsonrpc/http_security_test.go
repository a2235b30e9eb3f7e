package jsonrpc

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestHTTPOriginIsChecked(t *testing.T) {
	tests := []struct {
		name    string
		allowed []string
		origin  string
		ok      bool
	}{
		{"no Origin header: not a browser", nil, "", true},
		{"loopback page", nil, "http://localhost:5173", true},
		{"loopback IPv4", nil, "http://127.0.0.1:8080", true},
		{"loopback IPv6", nil, "https://[::1]", true},
		{"rebinding attack", nil, "http://evil.example", false},
		{"a name that only starts with localhost", nil, "http://localhost.evil.example", false},
		{"sandboxed page", nil, "null", false},
		{"listed origin", []string{"https://App.example.com/"}, "https://app.example.com", true},
		{"listed origin, other port", []string{"https://app.example.com"}, "https://app.example.com:8443", false},
		{"a list replaces the loopback default", []string{"https://app.example.com"}, "http://localhost", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := startHTTP(t, nil, HTTPOptions{AllowedOrigins: tt.allowed})
			c := s.client()
			c.header["Origin"] = tt.origin
			resp := c.post(request(0, "initialize", map[string]any{"protocolVersion": protocolVersions[0]}))
			if !tt.ok {
				if e := httpErrorBody(t, resp, http.StatusForbidden); !strings.Contains(e.Message, "origin") {
					t.Errorf("403 message %q does not name the origin", e.Message)
				}
				if s.h.table.len() != 0 {
					t.Error("a refused request created a session")
				}
				return
			}
			single(t, resp)
		})
	}
}

func TestHTTPBearerToken(t *testing.T) {
	s := startHTTP(t, nil, HTTPOptions{BearerToken: "s3cret"})
	for _, tt := range []struct {
		auth, challenge string
	}{
		{"", `Bearer realm="mcp"`},
		{"Bearer wrong", `Bearer realm="mcp", error="invalid_token"`},
		{"Bearer s3cre", `Bearer realm="mcp", error="invalid_token"`},
		{"Basic czNjcmV0", `Bearer realm="mcp"`},
	} {
		c := s.client()
		c.header["Authorization"] = tt.auth
		resp := c.post(request(0, "initialize", nil))
		httpErrorBody(t, resp, http.StatusUnauthorized)
		if got := resp.Header.Get("WWW-Authenticate"); got != tt.challenge {
			t.Errorf("Authorization %q: WWW-Authenticate %q, want %q", tt.auth, got, tt.challenge)
		}
	}
	c := s.client()
	c.header["Authorization"] = "bearer s3cret" // the scheme is case-insensitive
	c.initialize("alpha", nil)
	single(t, c.post(request(1, "ping", nil)))

	// Every request needs the token, not only initialize.
	c.header["Authorization"] = ""
	httpErrorBody(t, c.post(request(2, "ping", nil)), http.StatusUnauthorized)
}

func TestHTTPSessionLimit(t *testing.T) {
	s := startHTTP(t, nil, HTTPOptions{MaxSessions: 2})
	a, b := s.client(), s.client()
	a.initialize("a", nil)
	b.initialize("b", nil)
	third := s.client()
	e := httpErrorBody(t, third.post(request(0, "initialize", nil)), http.StatusServiceUnavailable)
	if e.Code != codeServerBusy || !strings.Contains(e.Message, "session limit") {
		t.Errorf("full server answered %+v, want a session-limit error", e)
	}
	// The sessions already open keep working, and ending one frees a place.
	single(t, a.post(request(1, "ping", nil)))
	wantStatus(t, b.do(http.MethodDelete, ""), http.StatusNoContent)
	third.initialize("c", nil)
}

func TestHTTPBodyLimit(t *testing.T) {
	s := startHTTP(t, fakeHandler{"echo": echoTool}, HTTPOptions{MaxBodyBytes: 512})
	c := s.client()
	c.initialize("alpha", nil)
	big := c.callTool(1, "echo", map[string]string{"s": strings.Repeat("x", 600)}, nil)
	if e := httpErrorBody(t, big, http.StatusRequestEntityTooLarge); !strings.Contains(e.Message, "512") {
		t.Errorf("413 message %q does not state the limit", e.Message)
	}
	// The session survives a refused body.
	text, _ := toolText(t, single(t, c.callTool(2, "echo", map[string]string{"s": "small"}, nil)))
	if text != `{"s":"small"}` {
		t.Errorf("echo after 413 answered %q", text)
	}
}

// fakeClock stands in for time.AfterFunc: timers fire only when the test
// says time has passed.
type fakeClock struct {
	mu     sync.Mutex
	timers []*fakeTimer
	armed  chan struct{} // receives after each new timer
}

type fakeTimer struct {
	clock   *fakeClock
	f       func()
	stopped bool
}

func (ft *fakeTimer) Stop() bool {
	ft.clock.mu.Lock()
	defer ft.clock.mu.Unlock()
	was := !ft.stopped
	ft.stopped = true
	return was
}

func (c *fakeClock) afterFunc(_ time.Duration, f func()) timer {
	c.mu.Lock()
	ft := &fakeTimer{clock: c, f: f}
	c.timers = append(c.timers, ft)
	c.mu.Unlock()
	c.armed <- struct{}{}
	return ft
}

// elapse fires every timer not stopped yet, as if the timeout had passed.
func (c *fakeClock) elapse() {
	c.mu.Lock()
	var due []func()
	for _, ft := range c.timers {
		if !ft.stopped {
			ft.stopped = true
			due = append(due, ft.f)
		}
	}
	c.mu.Unlock()
	for _, f := range due {
		f()
	}
}

func TestHTTPIdleSessionsExpire(t *testing.T) {
	closed := make(chan string, 2)
	s := startHTTP(t, nil, HTTPOptions{
		IdleTimeout:    time.Hour, // never reached: the fake clock decides
		OnSessionClose: func(ss *Session) { closed <- ss.ID() },
	})
	clock := &fakeClock{armed: make(chan struct{}, 100)}
	s.h.afterFunc = clock.afterFunc

	idle, listening := s.client(), s.client()
	listening.initialize("listening", nil)
	getCtx, closeGet := context.WithCancel(t.Context())
	ev := events(t, listening.doContext(getCtx, http.MethodGet, ""))
	idle.initialize("idle", nil)

	clock.elapse()
	if id := recv(t, closed, "the idle session to close"); id != idle.session {
		t.Fatalf("session %q closed; want the idle one %q, not the one with an open GET stream", id, idle.session)
	}
	httpErrorBody(t, idle.post(request(1, "ping", nil)), http.StatusNotFound)
	single(t, listening.post(request(1, "ping", nil)))

	// Once its stream closes, the other session expires too.
	for len(clock.armed) > 0 { // forget the timers armed so far
		<-clock.armed
	}
	closeGet()
	streamEnd(t, ev)
	recv(t, clock.armed, "the idle countdown after the GET stream closed")
	clock.elapse()
	if id := recv(t, closed, "the listening session to close"); id != listening.session {
		t.Errorf("closed %q, want %q", id, listening.session)
	}
}

func TestHTTPIdleTimeoutWithARealTimer(t *testing.T) {
	closed := make(chan string, 1)
	s := startHTTP(t, nil, HTTPOptions{
		IdleTimeout:    10 * time.Millisecond,
		OnSessionClose: func(ss *Session) { closed <- ss.ID() },
	})
	c := s.client()
	resp := c.post(request(0, "initialize", nil))
	single(t, resp)
	c.session = resp.Header.Get(headerSessionID)
	if id := recv(t, closed, "the session to expire"); id != c.session {
		t.Fatalf("closed %q, want %q", id, c.session)
	}
	httpErrorBody(t, c.post(request(1, "ping", nil)), http.StatusNotFound)
}

func TestHTTPFailedInitializeLeavesNoSession(t *testing.T) {
	closed := make(chan struct{}, 1)
	s := startHTTP(t, nil, HTTPOptions{OnSessionClose: func(*Session) { closed <- struct{}{} }})
	c := s.client()
	resp := c.post(request(0, "initialize", map[string]any{"capabilities": 3}))
	m := single(t, resp)
	m.wantError(t, CodeInvalidParams, "0")
	if id := resp.Header.Get(headerSessionID); id != "" {
		t.Errorf("a failed initialize named session %q", id)
	}
	recv(t, closed, "the failed session to close")
	if n := s.h.table.len(); n != 0 {
		t.Errorf("%d sessions after a failed initialize", n)
	}
}

func TestHTTPQueueForTheGetStreamIsBounded(t *testing.T) {
	q := newStandaloneStream()
	for i := range maxStandaloneQueue + 3 {
		if _, err := q.Write(fmt.Appendf(nil, "%d\n", i)); err != nil {
			t.Fatal(err) // a failed Write would end the session's writer for good
		}
	}
	msgs, dropped, closed := q.take()
	if len(msgs) != maxStandaloneQueue || dropped != 3 || closed {
		t.Fatalf("took %d messages, %d dropped, closed %v; want %d, 3, false", len(msgs), dropped, closed, maxStandaloneQueue)
	}
	if string(msgs[0]) != "3\n" {
		t.Errorf("oldest kept message %q, want the oldest ones dropped first", msgs[0])
	}
	q.close()
	q.Write([]byte("late\n"))
	if msgs, _, closed := q.take(); len(msgs) != 0 || !closed {
		t.Errorf("after close: %d messages, closed %v", len(msgs), closed)
	}
}
