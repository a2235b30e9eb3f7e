package jsonrpc

import (
	"context"
	"crypto/rand"
	"errors"
	"sync"
	"time"
)

// httpSession is one Streamable HTTP session: the conn that runs its MCP
// session, the queue feeding its GET stream, and the bookkeeping that
// closes it when it has been idle too long.
type httpSession struct {
	id   string
	conn *conn
	out  *standaloneStream
	done chan struct{} // closed once the session has ended and its handlers returned

	closeOnce sync.Once

	mu     sync.Mutex
	active int    // HTTP requests of this session being served
	idle   timer  // armed while active is 0; nil without an idle timeout
	gen    uint64 // bumped whenever active changes, so a stale timer does nothing
	// established is set by the first request after initialize that names
	// the session; until then the shorter InitTimeout applies.
	established bool
	// streamed is set once the client has held the GET stream, streaming
	// while it holds it. A client that streamed and holds it no more, with
	// no request open, is taken for gone after the shorter GoneTimeout.
	streamed, streaming bool
}

// establish records that the client came back with the session's id.
func (hs *httpSession) establish() {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	if !hs.established {
		hs.established = true
		hs.gen++
	}
}

// session returns the MCP session, as handlers see it.
func (hs *httpSession) session() *Session { return hs.conn.ss }

// isDone reports whether the session has ended.
func (hs *httpSession) isDone() bool {
	select {
	case <-hs.done:
		return true
	default:
		return false
	}
}

// sessions is the table of live sessions of one HTTPHandler.
type sessions struct {
	h *HTTPHandler

	mu     sync.Mutex
	byID   map[string]*httpSession
	closed bool // HTTPHandler.Close was called: no new sessions
}

// errTooManySessions and errHandlerClosed are why a session was not created.
var (
	errTooManySessions = errors.New("jsonrpc: the server has reached its session limit")
	errHandlerClosed   = errors.New("jsonrpc: the HTTP handler is closed")
)

// create starts a new session with a fresh id, or fails when the table is
// full or closed.
func (t *sessions) create(ctx context.Context) (*httpSession, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil, errHandlerClosed
	}
	if len(t.byID) >= t.h.maxSessions {
		return nil, errTooManySessions
	}
	id := newSessionID()
	for t.byID[id] != nil { // 128 random bits: never in practice
		id = newSessionID()
	}
	out := newStandaloneStream()
	c := newConn(ctx, t.h.srv, out)
	c.ss.id = id
	hs := &httpSession{id: id, conn: c, out: out, done: make(chan struct{})}
	t.byID[id] = hs
	return hs, nil
}

// newSessionID returns 128 bits from the system's secure random source as
// 26 base32 characters, which are visible ASCII as the specification asks.
func newSessionID() string { return rand.Text() }

// get returns the live session with id, or nil.
func (t *sessions) get(id string) *httpSession {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.byID[id]
}

func (t *sessions) remove(hs *httpSession) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.byID[hs.id] == hs {
		delete(t.byID, hs.id)
	}
}

// closeAll stops new sessions and ends every live one.
func (t *sessions) closeAll() {
	t.mu.Lock()
	t.closed = true
	all := make([]*httpSession, 0, len(t.byID))
	for _, hs := range t.byID {
		all = append(all, hs)
	}
	t.mu.Unlock()
	var wg sync.WaitGroup
	for _, hs := range all {
		wg.Go(func() { t.close(hs, "the server is shutting down") })
	}
	wg.Wait()
}

// close ends a session once: it leaves the table at once (new requests get
// 404), its handlers' contexts are cancelled and waited for, its streams
// end, and then the OnSessionClose hook runs.
func (t *sessions) close(hs *httpSession, reason string) {
	hs.closeOnce.Do(func() {
		t.remove(hs)
		hs.mu.Lock()
		if hs.idle != nil {
			hs.idle.Stop()
		}
		hs.gen++
		hs.mu.Unlock()
		t.h.logger.Debug("jsonrpc: HTTP session ending", "session", hs.id, "reason", reason)
		hs.conn.shutdown()
		hs.out.close()
		close(hs.done)
		if t.h.opts.OnSessionClose != nil {
			t.h.opts.OnSessionClose(hs.session())
		}
	})
}

// begin marks an HTTP request of the session as being served, which keeps
// the session from expiring; end undoes it and, when it was the last one,
// starts the idle countdown, or the shorter initialization one while the
// client has not come back after initialize.
func (t *sessions) begin(hs *httpSession) {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	hs.active++
	hs.gen++
	if hs.idle != nil {
		hs.idle.Stop()
	}
}

func (t *sessions) end(hs *httpSession) {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	hs.active--
	hs.gen++
	d, reason := t.countdown(hs)
	if hs.active > 0 || d <= 0 || hs.isDone() {
		return
	}
	gen := hs.gen
	if hs.idle != nil {
		hs.idle.Stop()
	}
	hs.idle = t.h.afterFunc(d, func() { t.expire(hs, gen, reason) })
}

// countdown returns how long an inactive session may stay so (zero:
// forever) and why it would end: the idle timeout, the shorter
// initialization timeout while the client has not come back after
// initialize, or the gone timeout once the client has let its GET stream
// go. hs.mu is held.
func (t *sessions) countdown(hs *httpSession) (time.Duration, string) {
	d, reason := t.h.idleTimeout, "idle timeout"
	shorter := func(e time.Duration, why string) {
		if e > 0 && (d <= 0 || e < d) {
			d, reason = e, why
		}
	}
	if !hs.established {
		shorter(t.h.initTimeout, "no request after initialize")
	}
	if hs.streamed && !hs.streaming {
		shorter(t.h.goneTimeout, "the client closed its GET stream and did not come back")
	}
	return d, reason
}

// streamOpened and streamClosed bracket the session's GET stream; the
// GET's own begin and end still bracket them, so closing the stream arms
// the countdown with the GET stream gone.
func (t *sessions) streamOpened(hs *httpSession) {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	hs.streamed, hs.streaming = true, true
}

func (t *sessions) streamClosed(hs *httpSession) {
	hs.out.detach()
	hs.mu.Lock()
	defer hs.mu.Unlock()
	hs.streaming = false
}

// expire closes the session, for reason, if nothing has happened since
// the timer for generation gen was armed.
func (t *sessions) expire(hs *httpSession, gen uint64, reason string) {
	hs.mu.Lock()
	stale := hs.gen != gen || hs.active > 0
	hs.mu.Unlock()
	if !stale {
		t.close(hs, reason)
	}
}

// len reports how many sessions are live.
func (t *sessions) len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.byID)
}
