package jsonrpc

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"
)

// openGet opens the session's GET stream, as the MCP SDKs' clients do,
// and returns how to let it go as a dying client process would.
func openGet(t *testing.T, c *httpClient) (context.CancelFunc, <-chan message) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	return cancel, events(t, c.doContext(ctx, http.MethodGet, ""))
}

// drain forgets the timers armed so far, so the next receive on
// clock.armed is a timer armed after this point.
func drain(clock *fakeClock) {
	for len(clock.armed) > 0 {
		<-clock.armed
	}
}

// TestHTTPClientGoneEndsSessionSoon checks the signal that a client
// vanished: it held the GET stream, the stream closed, and neither a new
// GET nor a request followed within GoneTimeout. The session then ends
// after GoneTimeout, not the idle timeout; while the stream is open, or a
// request is running, no countdown runs at all.
func TestHTTPClientGoneEndsSessionSoon(t *testing.T) {
	closed := make(chan string, 2)
	started, release := make(chan struct{}), make(chan struct{})
	slow := func(ctx context.Context, _ json.RawMessage) (*CallToolResult, error) {
		close(started)
		<-release
		return textResult("done"), nil
	}
	s := startHTTP(t, fakeHandler{"slow": slow}, HTTPOptions{
		IdleTimeout:    time.Hour,
		GoneTimeout:    7 * time.Second,
		OnSessionClose: func(ss *Session) { closed <- ss.ID() },
	})
	clock := &fakeClock{armed: make(chan struct{}, 100)}
	s.h.afterFunc = clock.afterFunc
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	t.Cleanup(free)

	c := s.client()
	c.initialize("streaming", nil)
	closeGet, get := openGet(t, c)
	single(t, c.post(request(1, "ping", nil))) // the GET is open: wait for it to be served
	if got := clock.pending(); len(got) != 0 {
		t.Fatalf("timers %v pending while the client holds its GET stream; want none", got)
	}

	// A call is running when the stream breaks: the session must wait
	// for it, since the client may be reading its answer.
	call := make(chan *http.Response, 1)
	go func() { call <- c.post(request(2, "tools/call", map[string]any{"name": "slow"})) }()
	recv(t, started, "the slow call to start")
	drain(clock)
	closeGet()
	streamEnd(t, get)
	if got := clock.pending(); len(got) != 0 {
		t.Fatalf("timers %v pending while a call runs; want none until it ends", got)
	}
	free()
	single(t, recv(t, call, "the slow call's answer"))
	recv(t, clock.armed, "the countdown after the call")
	if got := clock.pending(); !slices.Equal(got, []time.Duration{7 * time.Second}) {
		t.Fatalf("pending timers %v, want the 7s gone timeout rather than the hour of idle timeout", got)
	}

	// The client comes back within the grace period: the countdown stops.
	closeGet, get = openGet(t, c)
	single(t, c.post(request(3, "ping", nil)))
	clock.elapse()
	single(t, c.post(request(4, "ping", nil)))

	drain(clock)
	closeGet()
	streamEnd(t, get)
	recv(t, clock.armed, "the countdown after the GET stream closed again")
	clock.elapse()
	if id := recv(t, closed, "the session to close"); id != c.session {
		t.Fatalf("closed %q, want %q", id, c.session)
	}
	httpErrorBody(t, c.post(request(5, "ping", nil)), http.StatusNotFound)
}

// TestHTTPClientWithoutGetStreamKeepsIdleTimeout checks that a client
// that never opened the GET stream (a script POSTing calls) is not taken
// for gone: its sessions last the idle timeout. A negative GoneTimeout
// turns the signal off.
func TestHTTPClientWithoutGetStreamKeepsIdleTimeout(t *testing.T) {
	for _, gone := range []time.Duration{0, -1} {
		s := startHTTP(t, nil, HTTPOptions{IdleTimeout: time.Hour, GoneTimeout: gone})
		clock := &fakeClock{armed: make(chan struct{}, 100)}
		s.h.afterFunc = clock.afterFunc
		c := s.client()
		c.initialize("posting", nil)
		single(t, c.post(request(1, "ping", nil)))
		if got := clock.pending(); !slices.Equal(got, []time.Duration{time.Hour}) {
			t.Errorf("GoneTimeout %v, no GET stream: pending timers %v, want the idle timeout", gone, got)
		}
		if gone < 0 {
			closeGet, get := openGet(t, c)
			single(t, c.post(request(2, "ping", nil)))
			drain(clock)
			closeGet()
			streamEnd(t, get)
			recv(t, clock.armed, "the countdown after the GET stream closed")
			if got := clock.pending(); !slices.Equal(got, []time.Duration{time.Hour}) {
				t.Errorf("GoneTimeout off: pending timers %v after the GET stream closed, want the idle timeout", got)
			}
		}
	}
}
