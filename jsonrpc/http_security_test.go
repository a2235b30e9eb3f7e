package jsonrpc

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestHTTPRefusesWebPages checks what stands between a web page and the
// server: its Origin, the Host it names, and how the browser made the
// request. A page's refused request never creates a session.
func TestHTTPRefusesWebPages(t *testing.T) {
	tests := []struct {
		name    string
		allowed []string
		header  map[string]string // "PORT" is replaced by the server's port
		ok      bool
	}{
		{"no Origin header: not a browser", nil, nil, true},
		{"the server's own origin", nil, map[string]string{"Origin": "http://127.0.0.1:PORT"}, true},
		{"own origin by name", nil, map[string]string{"Origin": "http://localhost:PORT"}, true},
		{"own origin, upper case", nil, map[string]string{"Origin": "HTTP://LOCALHOST:PORT/"}, true},
		{"own origin on IPv6 loopback", nil, map[string]string{"Origin": "http://[::1]:PORT"}, true},
		{"a page on another loopback port", nil, map[string]string{"Origin": "http://127.0.0.1:5173"}, false},
		{"localhost on another port", nil, map[string]string{"Origin": "http://localhost:8080"}, false},
		{"IPv6 loopback, another port", nil, map[string]string{"Origin": "http://[::1]:1"}, false},
		{"https on the server's port", nil, map[string]string{"Origin": "https://127.0.0.1:PORT"}, false},
		{"loopback without a port", nil, map[string]string{"Origin": "http://localhost"}, false},
		{"rebinding attack", nil, map[string]string{"Origin": "http://evil.example:PORT"}, false},
		{"a name that only starts with localhost", nil, map[string]string{"Origin": "http://localhost.evil.example:PORT"}, false},
		{"sandboxed page", nil, map[string]string{"Origin": "null"}, false},
		{"empty Origin", nil, map[string]string{"Origin": " "}, false},
		{"origin with a path", nil, map[string]string{"Origin": "http://127.0.0.1:PORT/x"}, false},
		{"origin with user info", nil, map[string]string{"Origin": "http://evil@127.0.0.1:PORT"}, false},
		{"listed origin", []string{"https://App.example.com/"}, map[string]string{"Origin": "https://app.example.com"}, true},
		{"listed origin, other port", []string{"https://app.example.com"}, map[string]string{"Origin": "https://app.example.com:8443"}, false},
		{"a list keeps the own origin", []string{"https://app.example.com"}, map[string]string{"Origin": "http://localhost:PORT"}, true},
		{"a list does not bring back other loopback ports", []string{"https://app.example.com"}, map[string]string{"Origin": "http://localhost:3000"}, false},
		{"rebound Host", nil, map[string]string{"Host": "evil.example:PORT"}, false},
		{"rebound Host, upper case", nil, map[string]string{"Host": "EVIL.example"}, false},
		{"Host localhost", nil, map[string]string{"Host": "LocalHost:PORT"}, true},
		{"Host localhost without a port", nil, map[string]string{"Host": "localhost"}, true},
		{"Host IPv6 loopback", nil, map[string]string{"Host": "[::1]:PORT"}, true},
		{"Host of a listed origin", []string{"https://app.example.com"}, map[string]string{"Host": "app.example.com"}, true},
		{"Host that ends in a loopback name", nil, map[string]string{"Host": "127.0.0.1.evil.example:PORT"}, false},
		{"a no-cors fetch from the own origin", nil, map[string]string{"Origin": "http://127.0.0.1:PORT", "Sec-Fetch-Mode": "no-cors"}, false},
		{"a form posted to it", nil, map[string]string{"Sec-Fetch-Mode": "navigate"}, false},
		{"a cors fetch from the own origin", nil, map[string]string{"Origin": "http://127.0.0.1:PORT", "Sec-Fetch-Mode": "cors"}, true},
		{"own origin, IPv4-mapped IPv6", nil, map[string]string{"Origin": "http://[::ffff:127.0.0.1]:PORT"}, true},
		{"own origin with a trailing dot", nil, map[string]string{"Origin": "http://localhost.:PORT"}, false},
		{"own origin, port with a leading zero", nil, map[string]string{"Origin": "http://127.0.0.1:0PORT"}, false},
		{"own origin, port twice", nil, map[string]string{"Origin": "http://127.0.0.1:PORT:PORT"}, false},
		{"a subdomain of localhost", nil, map[string]string{"Origin": "http://evil.localhost:PORT"}, false},
		{"the any address", nil, map[string]string{"Origin": "http://0.0.0.0:PORT"}, false},
		{"a file: page", nil, map[string]string{"Origin": "file://"}, false},
		{"a chrome-extension page", nil, map[string]string{"Origin": "chrome-extension://abcdefghijklmnop"}, false},
		{"Host with a trailing dot", nil, map[string]string{"Host": "localhost.:PORT"}, false},
		{"Host a subdomain of localhost", nil, map[string]string{"Host": "evil.localhost:PORT"}, false},
		{"Host the any address", nil, map[string]string{"Host": "0.0.0.0:PORT"}, false},
		{"Host IPv4-mapped IPv6 loopback", nil, map[string]string{"Host": "[::ffff:127.0.0.1]:PORT"}, true},
		{"a cross-site navigation without Origin", nil, map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"}, false},
		{"a cross-site no-cors request without Origin", nil, map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "No-Cors"}, false},
		{"a websocket handshake", nil, map[string]string{"Origin": "http://127.0.0.1:PORT", "Sec-Fetch-Mode": "websocket"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := startHTTP(t, nil, HTTPOptions{AllowedOrigins: tt.allowed})
			port := s.ts.URL[strings.LastIndex(s.ts.URL, ":")+1:]
			c := s.client()
			for k, v := range tt.header {
				c.header[k] = strings.ReplaceAll(v, "PORT", port)
			}
			resp := c.post(request(0, "initialize", map[string]any{"protocolVersion": protocolVersions[0]}))
			if !tt.ok {
				if e := httpErrorBody(t, resp, http.StatusForbidden); !strings.Contains(e.Message, "forbidden") {
					t.Errorf("403 message %q does not say why", e.Message)
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

// TestHTTPRemoteOriginIsTheHost checks the own origin of a server that
// listens on an address other machines reach: the Host the request names,
// on the port it came in on.
func TestHTTPRemoteOriginIsTheHost(t *testing.T) {
	h := NewHTTPHandler(NewServer(ServerInfo{Name: "test", Version: "1"}, nil), HTTPOptions{})
	defer h.Close()
	local := &net.TCPAddr{IP: net.ParseIP("192.0.2.7"), Port: 8931}
	for _, tt := range []struct {
		host, origin string
		ok           bool
	}{
		{"box.lan:8931", "http://box.lan:8931", true},
		{"box.lan:8931", "http://BOX.lan:8931", true},
		{"box.lan:8931", "http://other.lan:8931", false},
		{"box.lan:8931", "http://box.lan:9000", false},
		{"box.lan:8931", "null", false},
	} {
		if got := h.originAllowed([]string{tt.origin}, tt.host, local); got != tt.ok {
			t.Errorf("Host %s, Origin %s: allowed %v, want %v", tt.host, tt.origin, got, tt.ok)
		}
	}
	if h.originAllowed([]string{"http://box.lan:8931", "http://box.lan:8931"}, "box.lan:8931", local) {
		t.Error("two Origin headers were allowed")
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
	d       time.Duration
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

func (c *fakeClock) afterFunc(d time.Duration, f func()) timer {
	c.mu.Lock()
	ft := &fakeTimer{clock: c, d: d, f: f}
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

// pending returns the durations of the timers not stopped or fired yet.
func (c *fakeClock) pending() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	var ds []time.Duration
	for _, ft := range c.timers {
		if !ft.stopped {
			ds = append(ds, ft.d)
		}
	}
	return ds
}

// TestHTTPUnfinishedInitializeExpiresSoon checks that a session whose
// client never came back after initialize (a web page's blind POST, a
// flood) is closed after InitTimeout, not the idle timeout, while one
// whose client sent notifications/initialized keeps the idle timeout.
func TestHTTPUnfinishedInitializeExpiresSoon(t *testing.T) {
	closed := make(chan string, 2)
	s := startHTTP(t, nil, HTTPOptions{
		IdleTimeout:    time.Hour,
		InitTimeout:    5 * time.Second,
		OnSessionClose: func(ss *Session) { closed <- ss.ID() },
	})
	clock := &fakeClock{armed: make(chan struct{}, 100)}
	s.h.afterFunc = clock.afterFunc

	real := s.client()
	real.initialize("real", nil) // initialize, then notifications/initialized
	blind := s.client()
	resp := blind.post(request(0, "initialize", map[string]any{"protocolVersion": protocolVersions[0]}))
	single(t, resp)
	blind.session = resp.Header.Get(headerSessionID)
	if got := clock.pending(); !slices.Equal(got, []time.Duration{time.Hour, 5 * time.Second}) {
		t.Fatalf("pending timers %v, want the idle timeout for the finished session and 5s for the unfinished one", got)
	}
	clock.mu.Lock()
	for _, ft := range clock.timers {
		ft.stopped = ft.stopped || ft.d == time.Hour // only the short one elapses
	}
	clock.mu.Unlock()
	clock.elapse()
	if id := recv(t, closed, "the unfinished session to close"); id != blind.session {
		t.Fatalf("closed %q, want the unfinished session %q", id, blind.session)
	}
	httpErrorBody(t, blind.post(request(1, "ping", nil)), http.StatusNotFound)
	single(t, real.post(request(1, "ping", nil)))
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
