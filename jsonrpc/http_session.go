package jsonrpc

import (
	"context"
	"crypto/rand"
	"errors"
	"sync"
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
	d := t.h.idleTimeout
	if !hs.established && t.h.initTimeout > 0 && (d <= 0 || t.h.initTimeout < d) {
		d = t.h.initTimeout
	}
	if hs.active > 0 || d <= 0 || hs.isDone() {
		return
	}
	gen := hs.gen
	if hs.idle != nil {
		hs.idle.Stop()
	}
	hs.idle = t.h.afterFunc(d, func() { t.expire(hs, gen) })
}

// expire closes the session if nothing has happened since the timer for
// generation gen was armed.
func (t *sessions) expire(hs *httpSession, gen uint64) {
	hs.mu.Lock()
	stale := hs.gen != gen || hs.active > 0
	hs.mu.Unlock()
	if !stale {
		t.close(hs, "idle timeout")
	}
}

// len reports how many sessions are live.
func (t *sessions) len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.byID)
}
