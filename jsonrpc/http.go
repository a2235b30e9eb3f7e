package jsonrpc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// The HTTP transport layer (http*.go): Streamable HTTP on top of the
// connection layer. Each session's conn is fed one POSTed message at a
// time (this file), kept in a table with limits and idle expiry
// (http_session.go), and writes to queues that the goroutines serving
// HTTP requests drain as event streams (http_sse.go); http_check.go guards
// the endpoint (origin, token, content types) and http_stateless.go
// serves 2026-07-28's requests without sessions. Everything MCP-specific
// stays in the method layer; this layer moves bytes and maps failures to
// HTTP status codes.

// Streamable HTTP, the MCP transport of revision 2025-11-25 for servers
// that many clients reach over the network: one endpoint (mounted by the
// caller, conventionally at /mcp) where
//
//   - POST carries one JSON-RPC message. A notification or a response is
//     answered 202 Accepted. A request is answered with application/json
//     when the server sends nothing else before the response, and with a
//     text/event-stream otherwise: progress, log entries and the server's
//     own requests (roots/list, elicitation/create) made while handling it
//     are events on that stream, followed by the response. The client's
//     answer to such a request comes back as another POST.
//   - GET opens the session's event stream for what the server sends
//     outside any request, e.g. a roots/list asked from a notification
//     handler. Messages wait in a bounded queue while no GET is open.
//   - DELETE ends the session.
//
// The session starts with a POSTed initialize, whose response carries the
// Mcp-Session-Id header that every later request must repeat. Events
// carry no ids, so a client cannot resume a broken stream with
// Last-Event-ID; what was not yet delivered on it is lost, and its
// request's response, if still to come, is dropped.

// Header names of the transport.
const (
	headerSessionID       = "Mcp-Session-Id"
	headerProtocolVersion = "Mcp-Protocol-Version"
)

// Defaults of HTTPOptions.
const (
	DefaultHTTPMaxSessions = 64
	DefaultHTTPIdleTimeout = 30 * time.Minute
	DefaultHTTPInitTimeout = 10 * time.Second
	DefaultHTTPGoneTimeout = 30 * time.Second
)

// sseKeepAlive is how often an open GET stream gets a comment, so that
// proxies do not close it and a vanished client is noticed.
const sseKeepAlive = 25 * time.Second

// JSON-RPC error codes of transport failures, in the range JSON-RPC leaves
// to implementations.
const (
	codeServerBusy      = -32000
	codeSessionNotFound = -32001
)

// HTTPOptions configures an HTTPHandler. The zero value is a server for
// local clients: browser pages on other origins may not reach it, with no
// token, at most DefaultHTTPMaxSessions sessions, bodies up to the
// Server's message size limit, and sessions closed after
// DefaultHTTPIdleTimeout without a request.
type HTTPOptions struct {
	// AllowedOrigins are the origins ("https://app.example.com", scheme,
	// host and port as a browser sends them) whose pages may call the
	// server besides its own (http, a loopback name, the port it listens
	// on). A request with any other Origin header gets 403, and so does one
	// whose Host names neither this machine nor an allowed origin's host,
	// which stops DNS rebinding attacks on a local server. Requests
	// without an Origin header (programs rather than browser pages) are
	// allowed.
	AllowedOrigins []string

	// BearerToken, when not empty, must arrive as "Authorization: Bearer
	// <token>" on every request; other requests get 401.
	BearerToken string

	// MaxSessions bounds the live sessions; an initialize beyond it gets
	// 503. Zero means DefaultHTTPMaxSessions.
	MaxSessions int

	// MaxBodyBytes bounds a POST body; a longer one gets 413. Zero means
	// the Server's message size limit (WithMaxLineSize).
	MaxBodyBytes int64

	// IdleTimeout closes a session when none of its HTTP requests has
	// been open for this long (an open GET stream counts). Zero means
	// DefaultHTTPIdleTimeout; a negative value never closes them.
	IdleTimeout time.Duration

	// InitTimeout closes a session whose client, after the initialize
	// that created it, has sent nothing more (no notifications/initialized,
	// no request) for this long, so that initialize requests nobody
	// follows up do not hold places up to MaxSessions for the whole idle
	// timeout. Zero means DefaultHTTPInitTimeout; a negative value leaves
	// such sessions to IdleTimeout.
	InitTimeout time.Duration

	// GoneTimeout closes a session whose client held the session's GET
	// stream, let it close (its process died, its sockets closed) and has
	// neither reopened it nor had a request open for this long. A client
	// idling between calls keeps its GET stream open (the MCP SDKs' clients
	// do, and reopen it at once when it breaks), so this tells a vanished
	// client from an idle one without relying on TCP connections, which
	// HTTP clients drop when idle. Sessions that never opened a GET stream
	// are left to IdleTimeout. Zero means DefaultHTTPGoneTimeout; a
	// negative value leaves every session to IdleTimeout.
	GoneTimeout time.Duration

	// OnSessionClose, when set, is called once for every session that
	// ends (DELETE, idle or gone timeout, HTTPHandler.Close, failed initialize),
	// after its handlers have returned, so the application can free what
	// it keeps per session (keyed by Session.ID). It runs on the goroutine
	// that ended the session.
	OnSessionClose func(*Session)
}

// HTTPHandler serves a Server over MCP's Streamable HTTP transport; each
// client gets its own Session, as with Serve. Create it with
// NewHTTPHandler, mount it on one path, and Close it on shutdown.
type HTTPHandler struct {
	srv         *Server
	opts        HTTPOptions
	logger      *slog.Logger
	origins     map[string]bool // normalized AllowedOrigins
	hosts       map[string]bool // their host names, which Host may name too
	maxSessions int
	maxBody     int64
	idleTimeout time.Duration
	initTimeout time.Duration
	goneTimeout time.Duration

	ctx    context.Context // parent of every session; cancelled by Close
	cancel context.CancelFunc
	table  sessions

	// afterFunc starts idle timers; tests replace it to control time.
	afterFunc func(d time.Duration, f func()) timer
}

// timer is the part of *time.Timer the idle countdown uses.
type timer interface{ Stop() bool }

func realAfterFunc(d time.Duration, f func()) timer { return time.AfterFunc(d, f) }

// NewHTTPHandler returns a handler serving srv with opts.
func NewHTTPHandler(srv *Server, opts HTTPOptions) *HTTPHandler {
	h := &HTTPHandler{
		srv:         srv,
		opts:        opts,
		logger:      srv.logger,
		maxSessions: opts.MaxSessions,
		maxBody:     opts.MaxBodyBytes,
		idleTimeout: opts.IdleTimeout,
		initTimeout: opts.InitTimeout,
		goneTimeout: opts.GoneTimeout,
		afterFunc:   realAfterFunc,
	}
	if h.maxSessions <= 0 {
		h.maxSessions = DefaultHTTPMaxSessions
	}
	if h.maxBody <= 0 {
		h.maxBody = int64(srv.maxLine)
	}
	if h.idleTimeout == 0 {
		h.idleTimeout = DefaultHTTPIdleTimeout
	}
	if h.initTimeout == 0 {
		h.initTimeout = DefaultHTTPInitTimeout
	}
	if h.goneTimeout == 0 {
		h.goneTimeout = DefaultHTTPGoneTimeout
	}
	h.origins = make(map[string]bool, len(opts.AllowedOrigins))
	h.hosts = make(map[string]bool, len(opts.AllowedOrigins))
	for _, o := range opts.AllowedOrigins {
		o = normalizeOrigin(o)
		h.origins[o] = true
		if u, err := url.Parse(o); err == nil && u.Host != "" {
			h.hosts[hostName(u.Host)] = true
		}
	}
	h.ctx, h.cancel = context.WithCancel(context.Background())
	h.table = sessions{h: h, byID: make(map[string]*httpSession)}
	return h
}

// Close ends every session, as DELETE would, and makes later initialize
// requests fail with 503. It returns once the sessions' handlers have
// returned and their OnSessionClose hooks have run. Open event streams
// end; call it before http.Server.Shutdown, which waits for them.
func (h *HTTPHandler) Close() error {
	h.cancel()
	h.table.closeAll()
	return nil
}

// ServeHTTP implements http.Handler.
func (h *HTTPHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if why := h.browserAllowed(r); why != "" {
		h.logger.Warn("jsonrpc: refused an HTTP request that a web page may have made", "why", why)
		writeHTTPError(w, http.StatusForbidden, CodeInvalidRequest, "forbidden: %s", why)
		return
	}
	if !h.authorized(w, r) {
		return
	}
	switch r.Method {
	case http.MethodPost:
		h.servePost(w, r)
	case http.MethodGet:
		h.serveGet(w, r)
	case http.MethodDelete:
		h.serveDelete(w, r)
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		writeHTTPError(w, http.StatusMethodNotAllowed, CodeInvalidRequest,
			"method %s not allowed: the MCP endpoint takes POST, GET and DELETE", r.Method)
	}
}

// servePost handles one POSTed JSON-RPC message.
func (h *HTTPHandler) servePost(w http.ResponseWriter, r *http.Request) {
	if !accepts(r, "application/json") || !accepts(r, "text/event-stream") {
		writeHTTPError(w, http.StatusNotAcceptable, CodeInvalidRequest,
			"not acceptable: the Accept header must list both application/json and text/event-stream")
		return
	}
	if !jsonContent(r) {
		writeHTTPError(w, http.StatusUnsupportedMediaType, CodeInvalidRequest,
			"unsupported media type %q: POST one JSON-RPC message as application/json", r.Header.Get("Content-Type"))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.maxBody))
	if err != nil {
		if errors.As(err, new(*http.MaxBytesError)) {
			writeHTTPError(w, http.StatusRequestEntityTooLarge, CodeInvalidRequest,
				"request body too large: the limit is %d bytes", h.maxBody)
			return
		}
		writeHTTPError(w, http.StatusBadRequest, CodeParseError, "reading the request body failed: %v", err)
		return
	}
	msg, ok := parsePost(w, body)
	if !ok {
		return
	}
	if h.serveStateless(w, r, msg) {
		return
	}
	if !checkProtocolVersion(w, r) {
		return
	}

	hs, isNew := h.sessionFor(w, r, msg)
	if hs == nil {
		return
	}
	h.table.begin(hs)
	defer h.table.end(hs)

	switch msg.kind {
	case kindNotification:
		hs.conn.handleNotification(msg)
		w.WriteHeader(http.StatusAccepted)
	case kindResponse:
		hs.conn.deliver(msg)
		w.WriteHeader(http.StatusAccepted)
	case kindBadResponse:
		writeHTTPError(w, http.StatusBadRequest, CodeInvalidRequest, "bad request: unusable response: %s", msg.reason)
	case kindRequest:
		h.serveRequest(w, r, hs, msg, isNew)
	}
}

// sessionFor returns the session a POST belongs to: the one its
// Mcp-Session-Id names, or a new one for an initialize without it (isNew).
// Otherwise it answers 400, 404 or 503 and returns nil.
func (h *HTTPHandler) sessionFor(w http.ResponseWriter, r *http.Request, msg *incoming) (hs *httpSession, isNew bool) {
	if id := r.Header.Get(headerSessionID); id != "" {
		return h.lookup(w, id), false
	}
	if msg.kind != kindRequest || msg.method != "initialize" {
		writeHTTPError(w, http.StatusBadRequest, CodeInvalidRequest,
			"bad request: missing the %s header; start a session with initialize and send the id its response carries", headerSessionID)
		return nil, false
	}
	hs, err := h.table.create(h.ctx)
	if err != nil {
		h.logger.Warn("jsonrpc: refused a new HTTP session", "err", err)
		writeHTTPError(w, http.StatusServiceUnavailable, codeServerBusy, "service unavailable: %v; try again later", err)
		return nil, false
	}
	h.logger.Debug("jsonrpc: HTTP session started", "session", hs.id)
	return hs, true
}

// serveRequest runs a POSTed request in its session and writes what it
// sends to the POST's response. A session that a failed initialize
// created is closed again, and its id is never sent.
func (h *HTTPHandler) serveRequest(w http.ResponseWriter, r *http.Request, hs *httpSession, msg *incoming, isNew bool) {
	ps := newPostStream(hs.conn.out, h.logger)
	var beforeWrite func(final []byte)
	if isNew {
		beforeWrite = func(final []byte) {
			if final == nil || isSuccess(final) {
				w.Header().Set(headerSessionID, hs.id)
			}
		}
	}
	hs.conn.handleRequest(msg, ps)
	final := h.answer(w, r, ps, postAnswer{name: hs.id, done: hs.done, beforeWrite: beforeWrite})
	if isNew && !isSuccess(final) {
		h.table.close(hs, "initialize failed")
	}
}

// parsePost decodes a POST body as one JSON-RPC message, answering 400
// when it is not one.
func parsePost(w http.ResponseWriter, body []byte) (*incoming, bool) {
	body = bytes.TrimSpace(body)
	switch {
	case len(body) == 0:
		writeHTTPError(w, http.StatusBadRequest, CodeParseError, "parse error: the request body is empty; POST one JSON-RPC message")
		return nil, false
	case body[0] == '[' && json.Valid(body):
		writeHTTPError(w, http.StatusBadRequest, CodeInvalidRequest,
			"invalid request: batch arrays are not supported (MCP 2025-06-18 removed JSON-RPC batching); POST each message on its own")
		return nil, false
	}
	msg, fail := parseMessage(body)
	if fail != nil {
		line, err := encodeLine(wireResponse{JSONRPC: "2.0", ID: fail.id, Error: fail.err})
		if err != nil {
			writeHTTPError(w, http.StatusBadRequest, fail.err.Code, "%s", fail.err.Message)
			return nil, false
		}
		writeJSON(w, http.StatusBadRequest, line)
		return nil, false
	}
	return msg, true
}

// isSuccess reports whether a response line carries a result.
func isSuccess(line []byte) bool {
	if line == nil {
		return false
	}
	var resp struct {
		Error json.RawMessage `json:"error"`
	}
	return json.Unmarshal(line, &resp) == nil && isNull(resp.Error)
}

// answer writes what ps receives to the POST's response until the request
// is answered, the client goes away, or the session ends, and returns the
// response it wrote (nil when none). A response alone is sent as
// application/json; anything sent before it turns the response into an
// event stream. beforeWrite, when not nil, runs just before the headers
// are sent, with the response when it is known by then.
func (h *HTTPHandler) answer(w http.ResponseWriter, r *http.Request, ps *postStream, pa postAnswer) []byte {
	var sse *sseWriter
	ending := false
	beforeWrite := pa.beforeWrite
	for {
		msgs, final, answered := ps.take()
		if sse == nil && len(msgs) == 0 {
			switch {
			case answered && final != nil:
				if beforeWrite != nil {
					beforeWrite(final)
				}
				status := http.StatusOK
				if pa.status != nil {
					status = pa.status(final)
				}
				writeJSON(w, status, final)
				return final
			case ending || (answered && isClosed(pa.done)):
				ps.detach()
				writeHTTPError(w, http.StatusNotFound, codeSessionNotFound, "session not found: it ended before the request was answered")
				return nil
			}
		}
		if len(msgs) > 0 || answered {
			if sse == nil {
				if beforeWrite != nil {
					beforeWrite(nil)
				}
				sse = startSSE(w)
			}
			if err := writeEvents(sse, msgs); err != nil {
				h.logger.Debug("jsonrpc: POST event stream broke", "session", pa.name, "err", err)
				ps.detach()
				return nil
			}
			if answered {
				if final != nil {
					_ = writeEvents(sse, [][]byte{final}) // the stream ends here either way
				}
				return final
			}
		}
		if ending {
			ps.detach()
			return nil
		}
		select {
		case <-ps.wake:
		case <-r.Context().Done():
			// The specification says a disconnection is no cancellation:
			// the request runs on, and later messages go to the GET stream.
			ps.detach()
			return nil
		case <-pa.done:
			ending = true
		}
	}
}

// postAnswer says how answer writes the response of one POST.
type postAnswer struct {
	name        string                 // the session's id, for logs
	done        <-chan struct{}        // closed when the session ends; nil for none
	beforeWrite func(final []byte)     // runs just before the headers go out; may be nil
	status      func(final []byte) int // the status of a JSON response; nil means 200
}

// isClosed reports whether done is closed; a nil done never is.
func isClosed(done <-chan struct{}) bool {
	select {
	case <-done:
		return true
	default:
		return false
	}
}

// writeEvents writes msgs as events and flushes them.
func writeEvents(sse *sseWriter, msgs [][]byte) error {
	for _, m := range msgs {
		if err := sse.event(m); err != nil {
			return err
		}
	}
	return sse.flush()
}

// serveGet streams what the server sends outside requests, until the
// client or the session ends it.
func (h *HTTPHandler) serveGet(w http.ResponseWriter, r *http.Request) {
	if !accepts(r, "text/event-stream") {
		writeHTTPError(w, http.StatusNotAcceptable, CodeInvalidRequest,
			"not acceptable: GET opens an event stream, so the Accept header must list text/event-stream")
		return
	}
	if !checkProtocolVersion(w, r) {
		return
	}
	hs := h.lookup(w, r.Header.Get(headerSessionID))
	if hs == nil {
		return
	}
	h.table.begin(hs)
	defer h.table.end(hs)
	if !hs.out.attach() {
		writeHTTPError(w, http.StatusConflict, CodeInvalidRequest,
			"conflict: this session already has an open GET stream; close it first")
		return
	}
	h.table.streamOpened(hs)
	defer h.table.streamClosed(hs)

	sse := startSSE(w)
	tick := time.NewTicker(sseKeepAlive)
	defer tick.Stop()
	for {
		msgs, dropped, closed := hs.out.take()
		if dropped > 0 {
			h.logger.Warn("jsonrpc: dropped server messages while no GET stream was open", "session", hs.id, "dropped", dropped)
		}
		if err := writeEvents(sse, msgs); err != nil {
			h.logger.Debug("jsonrpc: GET event stream broke", "session", hs.id, "err", err)
			return
		}
		if closed {
			return
		}
		select {
		case <-hs.out.wake:
		case <-tick.C:
			if err := sse.comment("keep-alive"); err != nil {
				return
			}
		case <-r.Context().Done():
			return
		}
	}
}

// serveDelete ends the session the client names.
func (h *HTTPHandler) serveDelete(w http.ResponseWriter, r *http.Request) {
	if !checkProtocolVersion(w, r) {
		return
	}
	hs := h.lookup(w, r.Header.Get(headerSessionID))
	if hs == nil {
		return
	}
	h.table.close(hs, "the client deleted it")
	w.WriteHeader(http.StatusNoContent)
}

// lookup returns the live session with id, or answers 400 (no id) or 404
// (unknown or ended) and returns nil.
func (h *HTTPHandler) lookup(w http.ResponseWriter, id string) *httpSession {
	if id == "" {
		writeHTTPError(w, http.StatusBadRequest, CodeInvalidRequest,
			"bad request: missing the %s header; start a session with initialize and send the id its response carries", headerSessionID)
		return nil
	}
	hs := h.table.get(id)
	if hs == nil {
		writeHTTPError(w, http.StatusNotFound, codeSessionNotFound,
			"session not found: it ended or expired; start a new one with initialize")
		return nil
	}
	hs.establish()
	return hs
}

// checkProtocolVersion answers 400 and returns false when the request
// names a protocol version this server does not speak. Without the
// header, the specification has the server assume the version agreed in
// initialize, which the session already holds.
func checkProtocolVersion(w http.ResponseWriter, r *http.Request) bool {
	v := r.Header.Get(headerProtocolVersion)
	if v == "" || slices.Contains(protocolVersions, v) {
		return true
	}
	writeHTTPError(w, http.StatusBadRequest, CodeInvalidRequest,
		"bad request: unsupported %s %q; this server speaks %s", headerProtocolVersion, v, strings.Join(protocolVersions, ", "))
	return false
}
