package jsonrpc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
)

// Session is one client's MCP session: what the client said about itself
// in initialize, the log level it chose, and the way back to it for
// server-to-client requests and notifications. Each [Server.Serve] creates
// one, so clients served at the same time by one Server never see each
// other's state. Handlers find theirs with [SessionFrom].
//
// The methods are safe to call from any goroutine. Once the session has
// ended, requests fail with ErrSessionClosed and notifications are dropped.
type Session struct {
	*caller
	logger *slog.Logger
	id     string // the transport's name for the session; set before it runs

	logLevel atomic.Int32 // minimum level index the client asked for, or levelUnset

	mu              sync.Mutex
	clientCaps      json.RawMessage
	clientInfo      ServerInfo
	protocolVersion string

	// The client's roots, asked for once and again after it says they
	// changed. rootsAsk is held while asking, so concurrent callers wait
	// for one answer; it is a channel so that waiting honours ctx.
	rootsAsk   chan struct{}
	roots      []Root
	rootsValid bool
	rootsGen   uint64 // bumped by every change, so a stale answer is not kept

	// modern is set in the Session of one MCP 2026-07-28 request (see
	// conn.modernSession): it has no roots and elicits by multi round-trip.
	modern *roundTrip
}

// ErrSessionClosed is returned by a Session's requests when the session has
// ended (its Serve call returned or is shutting down), because then nobody
// can deliver the client's answer.
var ErrSessionClosed = errors.New("jsonrpc: the MCP session has ended")

// CapabilityError is returned for a server-to-client request the client
// did not declare in initialize, e.g. roots/list from a client without the
// "roots" capability. It matches errors.ErrUnsupported.
type CapabilityError struct {
	Capability string
}

func (e *CapabilityError) Error() string {
	return fmt.Sprintf("jsonrpc: the client did not declare the %q capability", e.Capability)
}

// Is makes errors.Is(err, errors.ErrUnsupported) true.
func (e *CapabilityError) Is(target error) bool { return target == errors.ErrUnsupported }

// sessionKey is the context key of the running *Session.
type sessionKey struct{}

// SessionFrom returns the session a request or notification handler runs
// in, or nil when ctx does not come from one (e.g. in a unit test that
// calls a Handler directly).
func SessionFrom(ctx context.Context) *Session {
	ss, _ := ctx.Value(sessionKey{}).(*Session)
	return ss
}

func newSession(out outbound, logger *slog.Logger) *Session {
	ss := &Session{caller: newCaller(out), logger: logger, rootsAsk: make(chan struct{}, 1)}
	ss.logLevel.Store(levelUnset)
	return ss
}

// ID returns the transport's identifier of the session: its
// Mcp-Session-Id over Streamable HTTP, "" over a stream (stdio, a daemon
// connection), which needs none. It is fixed for the session's life, so
// applications can key per-session resources by it.
func (ss *Session) ID() string { return ss.id }

// clientCapabilities returns the capabilities object the client sent in
// initialize, as raw JSON; nil before initialize.
func (ss *Session) clientCapabilities() json.RawMessage {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return bytes.Clone(ss.clientCaps)
}

// ClientInfo returns the clientInfo the client sent in initialize (name,
// title, version), for logs and client-specific workarounds; the zero
// value before initialize.
func (ss *Session) ClientInfo() ServerInfo {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.clientInfo
}

// ProtocolVersion returns the MCP protocol version agreed in initialize,
// or "" before initialize.
func (ss *Session) ProtocolVersion() string {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.protocolVersion
}

// HasCapability reports whether the client declared the named capability
// (a member of its initialize capabilities, e.g. "roots" or "elicitation").
func (ss *Session) HasCapability(name string) bool {
	var caps map[string]json.RawMessage
	if json.Unmarshal(ss.clientCapabilities(), &caps) != nil {
		return false
	}
	v, ok := caps[name]
	return ok && !isNull(v)
}

// elicitsForms reports whether the client can show an elicitation form.
// Since MCP 2025-11-25 a client declares the modes it supports
// ({"form":{}}, {"url":{}}); an empty {"elicitation":{}} is the older
// declaration and means forms.
func (ss *Session) elicitsForms() bool {
	var caps struct {
		Elicitation map[string]json.RawMessage `json:"elicitation"`
	}
	if json.Unmarshal(ss.clientCapabilities(), &caps) != nil || caps.Elicitation == nil {
		return false
	}
	if len(caps.Elicitation) == 0 {
		return true
	}
	form, ok := caps.Elicitation["form"]
	return ok && !isNull(form)
}

// initialized records what the client sent in initialize; a repeated
// initialize replaces it, and the client's roots are asked for again.
func (ss *Session) initialized(caps json.RawMessage, info ServerInfo, version string) {
	ss.mu.Lock()
	ss.clientCaps, ss.clientInfo, ss.protocolVersion = caps, info, version
	ss.mu.Unlock()
	ss.rootsChanged()
}

// Notify sends the notification method with params (omitted when nil) to
// the client, e.g. "notifications/tools/list_changed". It returns an error
// when params cannot be encoded or the write fails; after the session has
// ended it does nothing.
func (ss *Session) Notify(method string, params any) error {
	return ss.notify(context.Background(), method, params)
}

// Log sends a notifications/message entry {level, logger, data} to the
// client when level is at or above the minimum the client chose with
// logging/setLevel. Until the client chooses one nothing is sent, so
// clients that do not want server logs never see them. level is an MCP
// level name (debug, info, notice, warning, error, critical, alert,
// emergency); entries with an unknown level are dropped. logger names the
// source and is omitted when empty.
func (ss *Session) Log(level, logger string, data any) {
	idx, ok := levelIndex(level)
	if !ok {
		ss.logger.Warn("jsonrpc: Log called with an unknown MCP level; entry dropped", "level", level)
		return
	}
	min := ss.logLevel.Load()
	if min == levelUnset || int32(idx) < min {
		return
	}
	params := struct {
		Level  string `json:"level"`
		Logger string `json:"logger,omitempty"`
		Data   any    `json:"data"`
	}{level, logger, data}
	if err := ss.notify(context.Background(), "notifications/message", params); err != nil {
		ss.logger.Warn("jsonrpc: sending a log notification failed", "err", err)
	}
}

// Root is one entry of the client's roots/list answer: a directory the
// user shared, as a URI (file:///home/me/project) and an optional name.
type Root struct {
	URI  string `json:"uri"`
	Name string `json:"name,omitempty"`
}

// Roots returns the client's roots. It asks the client with roots/list the
// first time and again after the client sends
// notifications/roots/list_changed; in between it answers from what the
// client said last. Concurrent callers share one request. A client without
// the "roots" capability gets a *CapabilityError; a failed request is
// returned and not remembered, so the next call asks again.
func (ss *Session) Roots(ctx context.Context) ([]Root, error) {
	// MCP 2026-07-28 deprecates roots and has no server-to-client
	// requests: a 2026-07-28 client is never sent roots/list.
	if ss.modern != nil || !ss.HasCapability("roots") {
		return nil, &CapabilityError{Capability: "roots"}
	}
	select {
	case ss.rootsAsk <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-ss.rootsAsk }()
	ss.mu.Lock()
	if ss.rootsValid {
		roots := slices.Clone(ss.roots)
		ss.mu.Unlock()
		return roots, nil
	}
	gen := ss.rootsGen
	ss.mu.Unlock()

	var res struct {
		Roots []Root `json:"roots"`
	}
	if err := ss.call(ctx, "roots/list", nil, &res); err != nil {
		return nil, fmt.Errorf("roots/list: %w", err)
	}
	ss.mu.Lock()
	if ss.rootsGen == gen {
		ss.roots, ss.rootsValid = res.Roots, true
	}
	ss.mu.Unlock()
	return slices.Clone(res.Roots), nil
}

// rootsChanged forgets the remembered roots.
func (ss *Session) rootsChanged() {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.rootsGen++
	ss.roots, ss.rootsValid = nil, false
}

// ElicitResult is the client's answer to elicitation/create.
type ElicitResult struct {
	// Action is "accept", "decline" or "cancel".
	Action string `json:"action"`
	// Content holds the fields the user filled in when they accepted.
	Content map[string]any `json:"content,omitempty"`
}

// emptySchema asks for no fields: a plain yes or no.
const emptySchema = `{"type":"object","properties":{}}`

// Elicit asks the user, through the client's elicitation/create, to
// answer message. requestedSchema is the JSON Schema of the fields to fill
// in; nil asks for none, which makes it a confirmation. A client without
// the "elicitation" capability for forms gets a *CapabilityError (one that
// declared only URL mode, too: this server asks only in forms).
//
// In an MCP 2026-07-28 request the question travels as a multi
// round-trip request instead (see mcp_mrtr.go): Elicit returns the answer
// when the client's retry carries it, and otherwise an
// *InputRequiredError, or an *Error with
// CodeMissingRequiredClientCapability when the client cannot show forms,
// which the Handler passes up (see PassUp).
func (ss *Session) Elicit(ctx context.Context, message string, requestedSchema any) (*ElicitResult, error) {
	if ss.modern != nil {
		return ss.modern.elicit(ss, message, requestedSchema)
	}
	if !ss.elicitsForms() {
		return nil, &CapabilityError{Capability: "elicitation.form"}
	}
	if requestedSchema == nil {
		requestedSchema = json.RawMessage(emptySchema)
	}
	params := struct {
		Message         string `json:"message"`
		RequestedSchema any    `json:"requestedSchema"`
	}{message, requestedSchema}
	var res ElicitResult
	if err := ss.call(ctx, "elicitation/create", params, &res); err != nil {
		return nil, fmt.Errorf("elicitation/create: %w", err)
	}
	return &res, nil
}
