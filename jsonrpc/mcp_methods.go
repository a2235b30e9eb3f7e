package jsonrpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
)

// dispatch runs a built-in method and returns its result or error. A panic
// anywhere below becomes a CodeInternalError response.
func (c *conn) dispatch(ctx context.Context, msg *incoming) (result any, rerr *Error) {
	defer func() {
		if p := recover(); p != nil {
			c.s.logger.Error("jsonrpc: panic while handling a request",
				"method", msg.method, "id", string(msg.id), "panic", p, "stack", string(debug.Stack()))
			result = nil
			rerr = errorf(CodeInternalError, "internal error: the server panicked while handling %s: %v", msg.method, p)
		}
	}()
	// A request carrying MCP 2026-07-28 _meta is served statelessly.
	meta, rerr := modernMeta(msg.method, msg.params)
	if rerr != nil {
		return nil, rerr
	}
	if meta != nil {
		return c.dispatchModern(ctx, msg, meta)
	}
	switch msg.method {
	case "initialize":
		return c.initialize(msg.params)
	case "server/discover":
		return nil, errorf(CodeInvalidParams, "invalid params for server/discover: _meta must carry %q (%s) and %q, as MCP %s requires on every request",
			metaProtocolVersion, ModernProtocolVersion, metaClientCapabilities, ModernProtocolVersion)
	case "ping":
		return struct{}{}, nil
	case "tools/list":
		return c.listTools(msg.params)
	case "tools/call":
		return c.callTool(ctx, msg.params)
	case "logging/setLevel":
		return c.setLevel(msg.params)
	default:
		return nil, errorf(CodeMethodNotFound,
			"method %q not found; this server implements initialize, ping, tools/list, tools/call and logging/setLevel", msg.method)
	}
}

// objectParams checks that params is absent, null, or an object and
// decodes it into v (left untouched when absent).
func objectParams(method string, params json.RawMessage, v any) *Error {
	if isNull(params) {
		return nil
	}
	if params[0] != '{' {
		return errorf(CodeInvalidParams, "invalid params for %s: params must be a JSON object, got %s", method, jsonKind(params))
	}
	if err := json.Unmarshal(params, v); err != nil {
		return errorf(CodeInvalidParams, "invalid params for %s: %v", method, err)
	}
	return nil
}

// stringParam decodes an optional string member; absent or null gives "".
func stringParam(method, name string, raw json.RawMessage) (string, *Error) {
	if isNull(raw) {
		return "", nil
	}
	s, err := unquote(raw)
	if err != nil {
		return "", errorf(CodeInvalidParams, "invalid params for %s: %q must be a string, got %s", method, name, jsonKind(raw))
	}
	return s, nil
}

// InitializeResult is the answer to initialize: the agreed protocol
// version, what the server can do, who it is, and its hint for the model.
type InitializeResult struct {
	ProtocolVersion string          `json:"protocolVersion"`
	Capabilities    json.RawMessage `json:"capabilities"`
	ServerInfo      ServerInfo      `json:"serverInfo"`
	Instructions    string          `json:"instructions,omitempty"`
}

// serverCapabilities are what this server offers: tools and logging. The
// tool list is fixed for a server's life (flags choose it), and MCP asks a
// server to declare listChanged only if it sends notifications/tools/list_changed,
// so it is declared false.
const serverCapabilities = `{"tools":{"listChanged":false},"logging":{}}`

// initialize negotiates the protocol version and records who the client is
// and what it can do. A repeated initialize is answered again and replaces
// the recorded client state.
func (c *conn) initialize(params json.RawMessage) (any, *Error) {
	const method = "initialize"
	var p struct {
		ProtocolVersion json.RawMessage `json:"protocolVersion"`
		Capabilities    json.RawMessage `json:"capabilities"`
		ClientInfo      json.RawMessage `json:"clientInfo"`
	}
	if err := objectParams(method, params, &p); err != nil {
		return nil, err
	}
	requested, rerr := stringParam(method, "protocolVersion", p.ProtocolVersion)
	if rerr != nil {
		return nil, rerr
	}
	var caps json.RawMessage
	if !isNull(p.Capabilities) {
		if p.Capabilities[0] != '{' {
			return nil, errorf(CodeInvalidParams, "invalid params for initialize: \"capabilities\" must be an object, got %s", jsonKind(p.Capabilities))
		}
		caps = p.Capabilities
	}
	var info ServerInfo
	if !isNull(p.ClientInfo) {
		if err := json.Unmarshal(p.ClientInfo, &info); err != nil {
			return nil, errorf(CodeInvalidParams, "invalid params for initialize: \"clientInfo\" must be an object with string \"name\" and \"version\": %v", err)
		}
	}
	version := negotiateVersion(requested)

	c.ss.initialized(caps, info, version)
	c.s.logger.Debug("jsonrpc: client initialized the session",
		"client", info.Name, "clientVersion", info.Version, "requestedProtocol", requested, "protocol", version)

	return InitializeResult{
		ProtocolVersion: version,
		Capabilities:    json.RawMessage(serverCapabilities),
		ServerInfo:      c.s.info,
		Instructions:    c.s.instructions,
	}, nil
}

// defaultInputSchema is sent for a tool without a schema; MCP requires one.
var defaultInputSchema = json.RawMessage(`{"type":"object"}`)

// listTools answers tools/list with every tool at once; a pagination
// cursor is accepted and ignored.
func (c *conn) listTools(params json.RawMessage) (any, *Error) {
	var p struct {
		Cursor json.RawMessage `json:"cursor"`
	}
	if err := objectParams("tools/list", params, &p); err != nil {
		return nil, err
	}
	tools := c.s.handler.ListTools()
	out := make([]Tool, len(tools))
	for i, t := range tools {
		if isNull(t.InputSchema) {
			t.InputSchema = defaultInputSchema
		}
		out[i] = t
	}
	return struct {
		Tools []Tool `json:"tools"`
	}{out}, nil
}

// callTool answers tools/call by running the Handler.
func (c *conn) callTool(ctx context.Context, params json.RawMessage) (any, *Error) {
	const method = "tools/call"
	if isNull(params) {
		return nil, errorf(CodeInvalidParams, `invalid params for tools/call: params are missing; send {"name": "<tool>", "arguments": {...}}`)
	}
	var p struct {
		Name      json.RawMessage `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
		Meta      json.RawMessage `json:"_meta"`
	}
	if err := objectParams(method, params, &p); err != nil {
		return nil, err
	}
	name, rerr := stringParam(method, "name", p.Name)
	if rerr != nil {
		return nil, rerr
	}
	if name == "" {
		return nil, errorf(CodeInvalidParams, `invalid params for tools/call: "name" is missing; it must name one of the tools from tools/list`)
	}
	args := p.Arguments
	if isNull(args) {
		args = json.RawMessage("{}")
	} else if args[0] != '{' {
		return nil, errorf(CodeInvalidParams, "invalid params for tools/call: \"arguments\" of tool %q must be a JSON object, got %s", name, jsonKind(args))
	}

	if token := progressToken(p.Meta); token != nil {
		pr := &progressReporter{ctx: ctx, ss: c.ss, token: token}
		defer pr.done.Store(true)
		defer pr.heartbeat(name, heartbeatInterval)()
		ctx = context.WithValue(ctx, progressKey{}, pr)
	}
	res, err := c.runTool(ctx, name, args)
	if err != nil {
		var ir *InputRequiredError
		if errors.As(err, &ir) && SessionFrom(ctx).modern == ir.rt {
			return ir.result(), nil
		}
		var rpcErr *Error
		if errors.As(err, &rpcErr) {
			return nil, rpcErr
		}
		return &CallToolResult{Content: []Content{TextContent(err.Error())}, IsError: true}, nil
	}
	out := CallToolResult{}
	if res != nil {
		out = *res
	}
	if out.Content == nil {
		out.Content = []Content{}
	}
	return &out, nil
}

// runTool calls the Handler, turning a panic into a CodeInternalError that
// names the tool.
func (c *conn) runTool(ctx context.Context, name string, args json.RawMessage) (res *CallToolResult, err error) {
	defer func() {
		if p := recover(); p != nil {
			c.s.logger.Error("jsonrpc: panic in tool", "tool", name, "panic", p, "stack", string(debug.Stack()))
			res = nil
			err = errorf(CodeInternalError, "internal error: tool %q panicked: %v", name, p)
		}
	}()
	return c.s.handler.CallTool(ctx, name, args)
}

// setLevel answers logging/setLevel.
func (c *conn) setLevel(params json.RawMessage) (any, *Error) {
	const method = "logging/setLevel"
	var p struct {
		Level json.RawMessage `json:"level"`
	}
	if err := objectParams(method, params, &p); err != nil {
		return nil, err
	}
	level, rerr := stringParam(method, "level", p.Level)
	if rerr != nil {
		return nil, rerr
	}
	idx, ok := levelIndex(level)
	if !ok {
		what := fmt.Sprintf("unknown level %q", level)
		if level == "" {
			what = `"level" is missing`
		}
		return nil, errorf(CodeInvalidParams, "invalid params for logging/setLevel: %s; use one of %s", what, strings.Join(logLevels, ", "))
	}
	c.ss.logLevel.Store(int32(idx))
	return struct{}{}, nil
}
