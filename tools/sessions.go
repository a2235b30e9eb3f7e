package tools

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/devtools-mcp/devtools-mcp/internal/browser"
	"github.com/devtools-mcp/devtools-mcp/jsonrpc"
)

// Browsers is where tool calls get their browser: the Manager itself
// (stdio, a daemon), or one browser.Scope per MCP session over HTTP.
type Browsers interface {
	// Get returns the live browser, starting or reconnecting it when needed.
	Get(ctx context.Context) (*browser.Browser, error)
	// Attached reports whether the browser is attached to rather than
	// launched, which changes advice and what may be closed.
	Attached() bool
}

// SessionBrowsers are the Browsers of one MCP session, closed with it.
type SessionBrowsers interface {
	Browsers
	// Close frees what the session's browser holds (its browser context,
	// a grid session); later Gets fail.
	Close(ctx context.Context)
}

// session is what the server keeps per MCP session: where its browser
// comes from, the browser its previous call used, and its traces. Two
// sessions never share one, so neither sees the other's pages or traces.
type session struct {
	browsers    Browsers
	lastBrowser atomic.Pointer[browser.Browser]
	traces      *traceStore // the performance tools' traces, per page
	flows       *flows      // the Recorder steps of its calls, per page
}

func newSession(b Browsers) *session {
	return &session{browsers: b, traces: newTraceStore(), flows: &flows{}}
}

// sessions holds the state of the MCP sessions that have their own
// browser (Options.SessionBrowsers), by transport session id.
type sessions struct {
	mu   sync.Mutex
	byID map[string]*session
}

// sessionFor returns the state of the MCP session ctx runs in: its own
// when it has a transport id (Streamable HTTP) and Options.SessionBrowsers
// is set, created on its first call; else the server's only one.
func (s *Server) sessionFor(ctx context.Context) *session {
	ss := jsonrpc.SessionFrom(ctx)
	if s.opts.SessionBrowsers == nil || ss == nil || ss.ID() == "" {
		return s.main
	}
	id := ss.ID()
	s.sessions.mu.Lock()
	defer s.sessions.mu.Unlock()
	st := s.sessions.byID[id]
	if st == nil {
		st = newSession(s.opts.SessionBrowsers(id))
		s.sessions.byID[id] = st
	}
	return st
}

// EndSession forgets the state of the MCP session with transport id and
// closes its browser (disposing its browser context, ending its grid
// session). Call it once the session has ended and its calls returned
// (jsonrpc.HTTPOptions.OnSessionClose). Unknown ids are ignored.
func (s *Server) EndSession(ctx context.Context, id string) {
	s.sessions.mu.Lock()
	st := s.sessions.byID[id]
	delete(s.sessions.byID, id)
	s.sessions.mu.Unlock()
	if st == nil {
		return
	}
	if sb, ok := st.browsers.(SessionBrowsers); ok {
		sb.Close(ctx)
	}
}

// SessionCount reports how many MCP sessions have their own browser state.
func (s *Server) SessionCount() int {
	s.sessions.mu.Lock()
	defer s.sessions.mu.Unlock()
	return len(s.sessions.byID)
}

// attached reports whether the call's browser is attached to rather than
// launched.
func (c *Call) attached() bool {
	return c.sess != nil && c.sess.browsers != nil && c.sess.browsers.Attached()
}
