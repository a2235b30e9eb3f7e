package jsonrpc

import (
	"context"
	"encoding/base64"
	"encoding/json"
)

// The MCP method layer (mcp*.go): what the messages mean. This file has
// the protocol's types and the Handler through which the tools are
// supplied; mcp_methods.go dispatches the built-in methods, mcp_session.go
// keeps what one client said and offers, mcp_progress.go and mcp_log.go
// report back during a call, mcp_tasks.go runs long calls as tasks, and
// mcp_modern.go, mcp_mrtr.go and mcp_listen.go serve the stateless
// 2026-07-28 revision. The methods are defined on conn, for its Server
// and Session, but none reads a stream or sees an HTTP request: what a
// method sends goes to the route or writer the transport gave the conn.

// ServerInfo names the server in the initialize result. The same shape is
// MCP's "Implementation" type, so it is also used for the client's
// clientInfo (see Session.ClientInfo).
type ServerInfo struct {
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version"`
}

// Tool is one entry of tools/list: what the tool is called, what it does,
// and the JSON Schema of its arguments. An empty InputSchema is sent as
// {"type":"object"}, because MCP requires an object schema.
type Tool struct {
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
	// OutputSchema describes the tool's structured content, when it sends any.
	OutputSchema json.RawMessage  `json:"outputSchema,omitempty"`
	Annotations  *ToolAnnotations `json:"annotations,omitempty"`
}

// ToolAnnotations are hints about a tool for the client's UI and policy,
// e.g. whether it can run without asking because it only reads.
// A hint equal to MCP's default (destructive, not idempotent, open-world)
// is left out: a client reads its absence the same way, and every byte of
// tools/list is context an agent pays for on each turn. readOnlyHint is
// always sent, as clients that only check it look for it explicitly.
type ToolAnnotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    bool   `json:"readOnlyHint"`
	DestructiveHint bool   `json:"-"`
	IdempotentHint  bool   `json:"-"`
	OpenWorldHint   bool   `json:"-"`
}

// MarshalJSON writes the hints that differ from MCP's defaults.
func (a ToolAnnotations) MarshalJSON() ([]byte, error) {
	out := struct {
		Title           string `json:"title,omitempty"`
		ReadOnlyHint    bool   `json:"readOnlyHint"`
		DestructiveHint *bool  `json:"destructiveHint,omitempty"`
		IdempotentHint  *bool  `json:"idempotentHint,omitempty"`
		OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
	}{Title: a.Title, ReadOnlyHint: a.ReadOnlyHint}
	no, yes := false, true
	if !a.DestructiveHint && !a.ReadOnlyHint { // meaningless for read-only tools
		out.DestructiveHint = &no
	}
	if a.IdempotentHint && !a.ReadOnlyHint {
		out.IdempotentHint = &yes
	}
	if !a.OpenWorldHint {
		out.OpenWorldHint = &no
	}
	return json.Marshal(out)
}

// Content is one MCP content block of a tool result: either
// {"type":"text","text":...} or {"type":"image","data":base64,"mimeType":...}.
// Use TextContent and ImageContent to build them.
type Content struct {
	Type     string `json:"type"`
	Text     string `json:"text,omitempty"`
	Data     string `json:"data,omitempty"`
	MimeType string `json:"mimeType,omitempty"`
}

// TextContent returns a text content block holding s.
func TextContent(s string) Content {
	return Content{Type: "text", Text: s}
}

// ImageContent returns an image content block; data is the raw image
// (e.g. PNG bytes), which it base64-encodes as MCP requires.
func ImageContent(data []byte, mimeType string) Content {
	return Content{Type: "image", Data: base64.StdEncoding.EncodeToString(data), MimeType: mimeType}
}

// CallToolResult is the result of tools/call. IsError marks a tool-level
// failure that the model should see, as opposed to a protocol error.
// A nil Content is sent as an empty array.
type CallToolResult struct {
	Content           []Content `json:"content"`
	StructuredContent any       `json:"structuredContent,omitempty"`
	IsError           bool      `json:"isError,omitempty"`
}

// Handler supplies the tools the server offers.
//
// ListTools answers tools/list. CallTool answers tools/call; it runs on its
// own goroutine, concurrently with other calls, and its ctx is cancelled
// when the client cancels the request or the session ends. ctx also
// carries the calling client's Session (SessionFrom: roots, elicitation,
// logging) and the call's progress reporter (ProgressFrom). args is the
// "arguments" object as sent ({} when the client sent none). One Handler
// may serve many sessions at once.
//
// If CallTool returns an error that is (or wraps) an *Error, the client
// gets a JSON-RPC error response with that code; use CodeInvalidParams for
// an unknown tool or arguments that do not fit its schema. Any other error
// becomes a result with isError set and the error's text as its content,
// which is how MCP reports a tool that ran and failed. Panics are
// recovered and answered with CodeInternalError.
type Handler interface {
	ListTools() []Tool
	CallTool(ctx context.Context, name string, args json.RawMessage) (*CallToolResult, error)
}

// protocolVersions are the MCP revisions this server speaks, newest first.
var protocolVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// negotiateVersion answers the client's version when supported and the
// newest otherwise, as the MCP lifecycle prescribes.
func negotiateVersion(client string) string {
	for _, v := range protocolVersions {
		if v == client {
			return v
		}
	}
	return protocolVersions[0]
}

// logLevels are the MCP (syslog) logging levels, least severe first.
var logLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// levelUnset means the client has not called logging/setLevel, so no
// log notifications are sent.
const levelUnset = -1

// levelIndex returns the severity rank of an MCP level name.
func levelIndex(level string) (int, bool) {
	for i, l := range logLevels {
		if l == level {
			return i, true
		}
	}
	return 0, false
}

// noTools is the Handler used when NewServer is given nil.
type noTools struct{}

func (noTools) ListTools() []Tool { return nil }

func (noTools) CallTool(_ context.Context, name string, _ json.RawMessage) (*CallToolResult, error) {
	return nil, errorf(CodeInvalidParams, "unknown tool %q: this server has no tools", name)
}
