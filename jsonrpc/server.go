package jsonrpc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"strconv"
	"sync"
	"sync/atomic"
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

// Server is an MCP server for one client at a time. Create it with
// NewServer and run a session with Serve; the other methods let tool code
// talk back to the client while a session runs.
type Server struct {
	info         ServerInfo
	handler      Handler
	logger       *slog.Logger
	instructions string
	maxLine      int

	logLevel atomic.Int32 // minimum level index the client asked for, or levelUnset
	nextID   atomic.Int64 // ids of server-to-client requests

	mu              sync.Mutex
	conn            *conn // the running session, nil outside Serve
	clientCaps      json.RawMessage
	clientInfo      ServerInfo
	protocolVersion string
	onNotify        map[string]func(json.RawMessage)
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
		onNotify: make(map[string]func(json.RawMessage)),
	}
	s.logLevel.Store(levelUnset)
	for _, opt := range opts {
		opt(s)
	}
	return s
}

// Serve runs one MCP session: it reads client messages from r, one per
// line, and writes responses and notifications to w, one per line.
//
// It returns when r reaches EOF (returning nil), when reading fails
// (returning that error), or when ctx is done (returning ctx.Err()).
// Before returning it cancels the context of every in-flight call, waits
// for those calls to return, and stops writing to w, so nothing touches w
// after Serve returns. When ctx ends the session while a Read on r is
// blocked, that Read is left to finish on its own and its data is dropped.
//
// A Server runs one session at a time; calling Serve while another Serve
// is running returns an error. Client state (capabilities, log level) is
// reset at the start of each session.
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	c := newConn(ctx, s, w)
	s.mu.Lock()
	if s.conn != nil {
		s.mu.Unlock()
		c.cancel()
		return errors.New("jsonrpc: Serve is already running on this Server")
	}
	s.conn = c
	s.clientCaps = nil
	s.clientInfo = ServerInfo{}
	s.protocolVersion = ""
	s.logLevel.Store(levelUnset)
	s.mu.Unlock()

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

	s.mu.Lock()
	s.conn = nil
	s.mu.Unlock()
	return err
}

// current returns the running session, or nil.
func (s *Server) current() *conn {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conn
}

// Notify sends the notification method with params (omitted when nil) to
// the client, e.g. "notifications/tools/list_changed". It is safe to call
// from any goroutine and is a no-op returning nil when no session is
// running. It returns an error when params cannot be encoded or the write
// fails.
func (s *Server) Notify(method string, params any) error {
	c := s.current()
	if c == nil {
		return nil
	}
	return c.notify(method, params)
}

// Log sends a notifications/message log entry {level, logger, data} to the
// client when level is at or above the minimum the client chose with
// logging/setLevel. Until the client chooses one, nothing is sent, so
// clients that do not want server logs never see them. level is an MCP
// level name (debug, info, notice, warning, error, critical, alert,
// emergency); entries with an unknown level are dropped. logger names the
// source and is omitted when empty.
func (s *Server) Log(level, logger string, data any) {
	idx, ok := levelIndex(level)
	if !ok {
		s.logger.Warn("jsonrpc: Log called with an unknown MCP level; entry dropped", "level", level)
		return
	}
	min := s.logLevel.Load()
	if min == levelUnset || int32(idx) < min {
		return
	}
	params := struct {
		Level  string `json:"level"`
		Logger string `json:"logger,omitempty"`
		Data   any    `json:"data"`
	}{level, logger, data}
	if err := s.Notify("notifications/message", params); err != nil {
		s.logger.Warn("jsonrpc: sending a log notification failed", "err", err)
	}
}

// Request sends the request method with params (omitted when nil) to the
// client, e.g. "roots/list", and waits for its response. On success the
// response's result is decoded into result (skipped when result is nil,
// and when the client's result is null or missing).
// An error response from the client is returned as *Error. ctx bounds the
// wait; when it ends first, the client is sent notifications/cancelled and
// ctx.Err() is returned. Without a running session it returns
// ErrNotServing.
func (s *Server) Request(ctx context.Context, method string, params, result any) error {
	c := s.current()
	if c == nil {
		return ErrNotServing
	}
	var rawParams json.RawMessage
	if params != nil {
		var err error
		if rawParams, err = marshalJSON(params); err != nil {
			return fmt.Errorf("jsonrpc: encoding %s params: %w", method, err)
		}
	}
	id := json.RawMessage(strconv.FormatInt(s.nextID.Add(1), 10))
	key := idKey(id)
	ch := make(chan *incoming, 1)

	c.mu.Lock()
	if c.closing {
		c.mu.Unlock()
		return ErrNotServing
	}
	c.pending[key] = ch
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.pending, key)
		c.mu.Unlock()
	}()

	if err := c.write(wireRequest{JSONRPC: "2.0", ID: id, Method: method, Params: rawParams}); err != nil {
		if errors.Is(err, errWriterClosed) {
			return ErrNotServing
		}
		return err
	}

	select {
	case resp := <-ch:
		if resp.err != nil {
			return resp.err
		}
		if result != nil && !isNull(resp.result) {
			if err := json.Unmarshal(resp.result, result); err != nil {
				return fmt.Errorf("jsonrpc: decoding the client's %s result: %w", method, err)
			}
		}
		return nil
	case <-ctx.Done():
		cancel := struct {
			RequestID json.RawMessage `json:"requestId"`
			Reason    string          `json:"reason,omitempty"`
		}{id, ctx.Err().Error()}
		if err := c.notify("notifications/cancelled", cancel); err != nil && !errors.Is(err, errWriterClosed) {
			s.logger.Debug("jsonrpc: could not tell the client a request was cancelled", "method", method, "err", err)
		}
		return ctx.Err()
	case <-c.done:
		return ErrNotServing
	}
}

// ClientCapabilities returns the capabilities object the client sent in
// initialize, as raw JSON, so tool code can check e.g. for "roots" before
// calling Request. It is nil before initialize and outside a session.
func (s *Server) ClientCapabilities() json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return bytes.Clone(s.clientCaps)
}

// ClientInfo returns the clientInfo the client sent in initialize (name,
// title, version), for logs and client-specific workarounds. It is the
// zero value before initialize.
func (s *Server) ClientInfo() ServerInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.clientInfo
}

// ProtocolVersion returns the MCP protocol version agreed in initialize,
// or "" before initialize.
func (s *Server) ProtocolVersion() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.protocolVersion
}

// OnNotification registers fn for the client notification method, e.g.
// "notifications/roots/list_changed"; it replaces any earlier fn for that
// method, and a nil fn removes it. Each notification runs fn on its own
// goroutine with the raw params (nil when absent); Serve does not wait for
// it. The built-in notifications (notifications/initialized,
// notifications/cancelled) are handled by the server first and then also
// passed to fn, which makes "notifications/initialized" a convenient hook
// for asking the client for its roots.
func (s *Server) OnNotification(method string, fn func(params json.RawMessage)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if fn == nil {
		delete(s.onNotify, method)
		return
	}
	s.onNotify[method] = fn
}

func (s *Server) notificationHandler(method string) func(json.RawMessage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.onNotify[method]
}

// conn is the state of one Serve call.
type conn struct {
	s      *Server
	out    *lineWriter
	ctx    context.Context // parent of every call's context
	cancel context.CancelFunc
	done   chan struct{} // closed when the session starts shutting down

	mu       sync.Mutex
	closing  bool
	inflight map[string]*call          // client requests being handled, by idKey
	pending  map[string]chan *incoming // our requests awaiting a response, by idKey
	wg       sync.WaitGroup            // in-flight client requests
}

// call is one client request being handled.
type call struct {
	method    string
	cancel    context.CancelFunc
	cancelled bool // the client sent notifications/cancelled: do not respond
}

func newConn(ctx context.Context, s *Server, w io.Writer) *conn {
	ctx, cancel := context.WithCancel(ctx)
	return &conn{
		s:        s,
		out:      &lineWriter{w: w},
		ctx:      ctx,
		cancel:   cancel,
		done:     make(chan struct{}),
		inflight: make(map[string]*call),
		pending:  make(map[string]chan *incoming),
	}
}

// shutdown stops accepting work, cancels in-flight calls and pending
// server-to-client requests, waits for the calls, and closes the writer.
func (c *conn) shutdown() {
	c.mu.Lock()
	c.closing = true
	c.mu.Unlock()
	c.cancel()
	close(c.done)
	c.wg.Wait()
	c.out.close()
}

func (c *conn) isClosing() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closing
}

// readLoop reads and dispatches lines until EOF, a read error, or shutdown.
func (c *conn) readLoop(lr *lineReader) error {
	for {
		line, err := lr.next()
		switch {
		case err == nil:
		case errors.Is(err, errLineTooLong):
			c.s.logger.Warn("jsonrpc: discarded a message over the line limit", "limit", lr.max)
			c.respond(nullID, nil, errorf(CodeParseError,
				"parse error: the message is longer than the %d-byte limit and was discarded", lr.max))
			continue
		case errors.Is(err, io.EOF):
			return nil
		default:
			return fmt.Errorf("jsonrpc: reading a message: %w", err)
		}
		if c.isClosing() {
			return nil
		}
		c.handleLine(line)
	}
}

// handleLine decodes one line and dispatches it. It never panics.
func (c *conn) handleLine(line []byte) {
	defer func() {
		if p := recover(); p != nil {
			c.s.logger.Error("jsonrpc: panic while handling a message", "panic", p, "stack", string(debug.Stack()))
		}
	}()
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return
	}
	msg, fail := parseMessage(line)
	if fail != nil {
		c.s.logger.Warn("jsonrpc: rejected a message", "code", fail.err.Code, "error", fail.err.Message, "id", string(fail.id))
		c.respond(fail.id, nil, fail.err)
		return
	}
	switch msg.kind {
	case kindRequest:
		c.handleRequest(msg)
	case kindNotification:
		c.handleNotification(msg)
	case kindResponse:
		c.deliver(msg)
	case kindBadResponse:
		c.s.logger.Warn("jsonrpc: dropped a malformed response", "reason", msg.reason)
	}
}

// handleRequest registers a request as in flight and runs it: cheap
// built-in methods inline on the reader goroutine, so their effects are
// ordered with the messages that follow, and handler-backed methods on
// their own goroutine.
func (c *conn) handleRequest(msg *incoming) {
	key := idKey(msg.id)
	c.mu.Lock()
	if c.closing {
		c.mu.Unlock()
		return
	}
	if _, dup := c.inflight[key]; dup {
		c.mu.Unlock()
		c.respond(msg.id, nil, errorf(CodeInvalidRequest,
			"invalid request: id %s is already used by a request that is still running; use a new id for each request", msg.id))
		return
	}
	ctx, cancel := context.WithCancel(c.ctx)
	cl := &call{method: msg.method, cancel: cancel}
	c.inflight[key] = cl
	c.wg.Add(1)
	c.mu.Unlock()

	run := func() {
		defer c.wg.Done()
		result, rerr := c.dispatch(ctx, msg)
		c.mu.Lock()
		delete(c.inflight, key)
		cancelled := cl.cancelled
		c.mu.Unlock()
		cancel()
		if cancelled {
			c.s.logger.Debug("jsonrpc: not answering a cancelled request", "method", msg.method, "id", string(msg.id))
			return
		}
		c.respond(msg.id, result, rerr)
	}
	switch msg.method {
	case "tools/call", "tools/list":
		go run()
	default:
		run()
	}
}

// handleNotification runs the built-in handling of a notification and
// then the registered handler, if any. Notifications are never answered.
func (c *conn) handleNotification(msg *incoming) {
	builtin := true
	switch msg.method {
	case "notifications/initialized":
		c.s.logger.Debug("jsonrpc: client initialized")
	case "notifications/cancelled":
		c.cancelRequest(msg.params)
	default:
		builtin = false
	}
	fn := c.s.notificationHandler(msg.method)
	if fn == nil {
		if !builtin {
			c.s.logger.Debug("jsonrpc: ignoring a notification nobody handles", "method", msg.method)
		}
		return
	}
	if c.isClosing() {
		return
	}
	go func() {
		defer func() {
			if p := recover(); p != nil {
				c.s.logger.Error("jsonrpc: panic in a notification handler", "method", msg.method, "panic", p, "stack", string(debug.Stack()))
			}
		}()
		fn(msg.params)
	}()
}

// cancelRequest handles notifications/cancelled: it cancels the named
// request's context and marks it so that its response is not sent.
func (c *conn) cancelRequest(params json.RawMessage) {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
		Reason    json.RawMessage `json:"reason"`
	}
	if err := json.Unmarshal(params, &p); err != nil || !validID(p.RequestID) {
		c.s.logger.Warn("jsonrpc: ignoring notifications/cancelled without a usable requestId", "params", abbrev(params))
		return
	}
	c.mu.Lock()
	cl := c.inflight[idKey(p.RequestID)]
	// MCP forbids cancelling initialize.
	if cl != nil && cl.method != "initialize" {
		cl.cancelled = true
		cl.cancel()
	}
	c.mu.Unlock()
	if cl == nil {
		c.s.logger.Debug("jsonrpc: cancellation for a request that is not running", "id", string(p.RequestID))
		return
	}
	c.s.logger.Debug("jsonrpc: request cancelled by the client", "id", string(p.RequestID), "reason", string(p.Reason))
}

// deliver routes a client response to the Request call waiting for it.
func (c *conn) deliver(msg *incoming) {
	key := idKey(msg.id)
	c.mu.Lock()
	ch := c.pending[key]
	delete(c.pending, key)
	c.mu.Unlock()
	if ch == nil {
		c.s.logger.Warn("jsonrpc: dropped a response to an unknown request id", "id", string(msg.id))
		return
	}
	ch <- msg // buffered, and each id is delivered at most once
}

// respond sends the response to request id: rerr when it is non-nil,
// result otherwise.
func (c *conn) respond(id json.RawMessage, result any, rerr *Error) {
	resp := wireResponse{JSONRPC: "2.0", ID: id, Error: rerr}
	if rerr == nil {
		raw, err := marshalJSON(result)
		if err != nil {
			c.s.logger.Error("jsonrpc: could not encode a result", "id", string(id), "err", err)
			resp.Error = errorf(CodeInternalError, "internal error: the server could not encode its result: %v", err)
		} else {
			resp.Result = raw
		}
	}
	line, err := encodeLine(resp)
	if err != nil && resp.Error != nil && resp.Error.Data != nil {
		// The error's Data is not encodable; send the error without it.
		stripped := *resp.Error
		stripped.Data = nil
		resp.Error = &stripped
		line, err = encodeLine(resp)
	}
	if err != nil {
		c.s.logger.Error("jsonrpc: could not encode a response", "id", string(id), "err", err)
		return
	}
	if err := c.out.writeLine(line); err != nil && !errors.Is(err, errWriterClosed) {
		c.s.logger.Warn("jsonrpc: could not send a response", "id", string(id), "err", err)
	}
}

// notify sends a notification.
func (c *conn) notify(method string, params any) error {
	req := wireRequest{JSONRPC: "2.0", Method: method}
	if params != nil {
		raw, err := marshalJSON(params)
		if err != nil {
			return fmt.Errorf("jsonrpc: encoding %s params: %w", method, err)
		}
		req.Params = raw
	}
	err := c.write(req)
	if errors.Is(err, errWriterClosed) {
		return nil // the session ended; notifications are best effort
	}
	return err
}

// write encodes v and writes it as one line.
func (c *conn) write(v any) error {
	line, err := encodeLine(v)
	if err != nil {
		return err
	}
	return c.out.writeLine(line)
}
