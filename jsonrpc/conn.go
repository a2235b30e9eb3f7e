package jsonrpc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sync"
)

// The connection layer (conn*.go): one conn per stream or HTTP session.
// It reads messages from the framing layer, hands each request to the
// method layer (dispatch, in mcp_methods.go) with a context that
// notifications/cancelled or the end of the connection cancels, and
// writes their responses. Requests in
// the other direction, the server's to the client, go through a caller,
// which matches responses to them by id (conn_caller.go); Client is the
// same machinery from the client's side (conn_client.go). Of MCP a conn
// knows only which requests may run alongside the next message (tools/call,
// tools/list, subscriptions/listen) and the notifications it handles
// itself: initialized, cancelled and roots/list_changed.

// conn is one stream connection, the state of one Serve call: the
// session it carries, the line writer to the client, and the client's
// requests being handled. Nothing in it but readLoop knows about the
// stream: the Streamable HTTP transport (http.go) keeps one conn per
// Mcp-Session-Id, hands it each POSTed message, gives each request a route
// to its HTTP response, and gives the conn a writer that feeds the
// session's GET event stream.
type conn struct {
	s      *Server
	ss     *Session
	out    *lineWriter
	ctx    context.Context // parent of every handler's context; carries ss
	cancel context.CancelFunc

	mu       sync.Mutex
	closing  bool
	inflight map[string]*call // client requests being handled, by idKey
	wg       sync.WaitGroup   // in-flight client requests and notification handlers
}

// call is one client request being handled.
type call struct {
	method    string
	cancel    context.CancelFunc
	cancelled bool // the client sent notifications/cancelled: do not respond
}

func newConn(ctx context.Context, s *Server, w io.Writer) *conn {
	out := &lineWriter{w: w}
	ss := newSession(out, s.logger)
	ctx, cancel := context.WithCancel(context.WithValue(ctx, sessionKey{}, ss))
	return &conn{
		s:        s,
		ss:       ss,
		out:      out,
		ctx:      ctx,
		cancel:   cancel,
		inflight: make(map[string]*call),
	}
}

// shutdown stops accepting work, cancels in-flight calls and ends the
// session (failing its pending server-to-client requests), waits for the
// calls and notification handlers, and closes the writer.
func (c *conn) shutdown() {
	c.mu.Lock()
	c.closing = true
	c.mu.Unlock()
	c.cancel()
	c.ss.end(ErrSessionClosed)
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
			c.respond(nil, nullID, nil, errorf(CodeParseError,
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
		c.respond(nil, fail.id, nil, fail.err)
		return
	}
	switch msg.kind {
	case kindRequest:
		c.handleRequest(msg, nil)
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
// their own goroutine. rt, when not nil, is where the response and
// everything sent under the request's context go; otherwise they go to
// the connection's stream. rt is always answered (see route.respond).
func (c *conn) handleRequest(msg *incoming, rt route) {
	key := idKey(msg.id)
	c.mu.Lock()
	if c.closing {
		c.mu.Unlock()
		if rt != nil {
			rt.respond(nil)
		}
		return
	}
	if _, dup := c.inflight[key]; dup {
		c.mu.Unlock()
		c.respond(rt, msg.id, nil, errorf(CodeInvalidRequest,
			"invalid request: id %s is already used by a request that is still running; use a new id for each request", msg.id))
		return
	}
	ctx, cancel := context.WithCancel(c.ctx)
	if rt != nil {
		ctx = context.WithValue(ctx, routeKey{}, rt)
	}
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
			if rt != nil {
				rt.respond(nil)
			}
			return
		}
		c.respond(rt, msg.id, result, rerr)
	}
	switch msg.method {
	case "tools/call", "tools/list", "subscriptions/listen":
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
	case "notifications/roots/list_changed":
		c.ss.rootsChanged()
	default:
		builtin = false
	}
	fn := c.s.onNotify[msg.method]
	if fn == nil {
		if !builtin {
			c.s.logger.Debug("jsonrpc: ignoring a notification nobody handles", "method", msg.method)
		}
		return
	}
	c.mu.Lock()
	if c.closing {
		c.mu.Unlock()
		return
	}
	c.wg.Add(1)
	c.mu.Unlock()
	go func() {
		defer c.wg.Done()
		defer func() {
			if p := recover(); p != nil {
				c.s.logger.Error("jsonrpc: panic in a notification handler", "method", msg.method, "panic", p, "stack", string(debug.Stack()))
			}
		}()
		fn(c.ctx, msg.params)
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

// deliver routes a client response to the request waiting for it.
func (c *conn) deliver(msg *incoming) {
	if !c.ss.deliver(msg) {
		c.s.logger.Warn("jsonrpc: dropped a response to an unknown request id", "id", string(msg.id))
	}
}

// respond sends the response to request id, rerr when it is non-nil and
// result otherwise, to rt or, when rt is nil, to the connection's stream.
func (c *conn) respond(rt route, id json.RawMessage, result any, rerr *Error) {
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
		if rt != nil {
			rt.respond(nil)
		}
		return
	}
	if rt != nil {
		rt.respond(line)
		return
	}
	if err := c.out.writeLine(line); err != nil && !errors.Is(err, errWriterClosed) {
		c.s.logger.Warn("jsonrpc: could not send a response", "id", string(id), "err", err)
	}
}
