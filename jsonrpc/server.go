package jsonrpc

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"io"
	"log/slog"
)

// Option configures a Server at construction.
type Option func(*Server)

// WithLogger sets where the server logs its own diagnostics (malformed
// input, panics, dropped responses). The default discards them; stdout is
// never used, because it carries the protocol.
func WithLogger(l *slog.Logger) Option {
	return func(s *Server) {
		if l != nil {
			s.logger = l
		}
	}
}

// WithInstructions sets the "instructions" field of the initialize result,
// the hint MCP clients pass to the model about how to use the server. It
// is omitted when empty.
func WithInstructions(instructions string) Option {
	return func(s *Server) { s.instructions = instructions }
}

// WithDiscoverInstructions sets the "instructions" of the server/discover
// result (MCP 2026-07-28) when they should differ from WithInstructions',
// which the initialize result keeps.
func WithDiscoverInstructions(instructions string) Option {
	return func(s *Server) { s.discoverInstructions = instructions }
}

// WithDiscoverHandler runs fn after each server/discover, on its own
// goroutine, with the request's context (it ends with the request's
// connection): a 2026-07-28 client sends no notifications/initialized, and
// its probe is the moment to prepare for the calls that follow.
func WithDiscoverHandler(fn func(ctx context.Context)) Option {
	return func(s *Server) { s.onDiscover = fn }
}

// WithMaxLineSize sets the largest message, in bytes, that Serve accepts.
// A longer line is discarded and answered with a parse error. Values of
// zero or less mean DefaultMaxLineSize.
func WithMaxLineSize(n int) Option {
	return func(s *Server) {
		if n > 0 {
			s.maxLine = n
		}
	}
}

// NotificationHandler handles one kind of client notification. ctx belongs
// to the session the notification came in (see SessionFrom) and ends with
// it; params is nil when absent.
type NotificationHandler func(ctx context.Context, params json.RawMessage)

// WithNotificationHandler runs fn for every client notification method,
// e.g. "notifications/initialized" to look at what a new client can do.
// A later option for the same method replaces an earlier one. Each
// notification runs fn on its own goroutine, which the session waits for
// when it ends. The built-in notifications (notifications/initialized,
// notifications/cancelled, notifications/roots/list_changed) are handled
// by the session first and then also passed to fn.
func WithNotificationHandler(method string, fn NotificationHandler) Option {
	return func(s *Server) { s.onNotify[method] = fn }
}

// Server is an MCP server: what it tells clients about itself and the
// tools it serves. It holds no client state, so one Server can serve any
// number of clients at once, each in its own Session; create it with
// NewServer and serve a connection with Serve. It is not changed after
// NewServer.
type Server struct {
	info         ServerInfo
	handler      Handler
	logger       *slog.Logger
	instructions string
	// discoverInstructions, when set, replace instructions in server/discover.
	discoverInstructions string
	maxLine              int
	onNotify             map[string]NotificationHandler
	secret               []byte // keys the requestState of multi round-trip requests
	tasks                *taskStore
	usedStates           usedStates // requestStates whose answer was used
	onDiscover           func(context.Context)
	ctx                  context.Context // the lifetime of tasks; never cancelled
}

// NewServer returns a server that introduces itself as info and serves
// the tools of h. A nil h serves no tools.
func NewServer(info ServerInfo, h Handler, opts ...Option) *Server {
	if h == nil {
		h = noTools{}
	}
	s := &Server{
		info:     info,
		handler:  h,
		logger:   slog.New(slog.DiscardHandler),
		maxLine:  DefaultMaxLineSize,
		onNotify: make(map[string]NotificationHandler),
		secret:   make([]byte, 32),
		tasks:    newTaskStore(),
		ctx:      context.Background(),
	}
	_, _ = rand.Read(s.secret) // never fails (crypto/rand)
	for _, opt := range opts {
		opt(s)
	}
	return s
}

// Serve runs one MCP session on a stream: it reads client messages from r,
// one per line, and writes responses and notifications to w, one per line.
// Every handler it runs finds the new session with SessionFrom. Serve may
// run any number of times at once, for different clients (stdio, each
// connection of a socket).
//
// It returns when r reaches EOF (returning nil), when reading fails
// (returning that error), or when ctx is done (returning ctx.Err()).
// Before returning it cancels the context of every in-flight call, waits
// for those calls to return, and stops writing to w, so nothing touches w
// after Serve returns. When ctx ends the session while a Read on r is
// blocked, that Read is left to finish on its own and its data is dropped.
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	c := newConn(ctx, s, w)
	lr := newLineReader(r, s.maxLine)
	readDone := make(chan error, 1)
	go func() { readDone <- c.readLoop(lr) }()

	var err error
	select {
	case err = <-readDone:
	case <-ctx.Done():
		err = ctx.Err()
	}
	if err != nil {
		s.logger.Debug("jsonrpc: session ending", "reason", err)
	}
	c.shutdown()
	return err
}
