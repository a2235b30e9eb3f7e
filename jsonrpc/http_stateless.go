package jsonrpc

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
)

// Streamable HTTP as MCP 2026-07-28 has it: no sessions. Each POSTed
// request whose _meta names 2026-07-28 is served on its own, by a conn
// made for it alone, whatever Mcp-Session-Id header it may carry, and
// closing its response stream cancels it. The MCP-Protocol-Version,
// Mcp-Method and Mcp-Name headers must repeat what the body says, so that
// intermediaries routing on them see what the server executes.

// Header names of the 2026-07-28 transport.
const (
	headerMethod = "Mcp-Method"
	headerName   = "Mcp-Name"
)

// modernMethods are the methods served statelessly.
var modernMethods = []string{"server/discover", "tools/list", "tools/call", "subscriptions/listen", "tasks/get", "tasks/update", "tasks/cancel"}

// serveStateless serves msg when it is a 2026-07-28 request (or a
// notification from a 2026-07-28 client, which needs no session and is
// accepted) and reports whether it did.
func (h *HTTPHandler) serveStateless(w http.ResponseWriter, r *http.Request, msg *incoming) bool {
	header := r.Header.Get(headerProtocolVersion)
	if msg.kind == kindNotification && r.Header.Get(headerSessionID) == "" && header == ModernProtocolVersion {
		// 2026-07-28 defines no client notifications over HTTP (closing a
		// response stream is the cancellation); there is nothing to route
		// one to.
		w.WriteHeader(http.StatusAccepted)
		return true
	}
	if msg.kind != kindRequest {
		return false
	}
	if v, ok := metaVersion(msg.params); ok && header != "" && header != v {
		h.reject(w, msg, http.StatusBadRequest, errorf(CodeHeaderMismatch,
			"Header mismatch: %s header value %q does not match body value %q", headerProtocolVersion, header, v))
		return true
	}
	if msg.method == "initialize" && header == ModernProtocolVersion {
		h.reject(w, msg, http.StatusNotFound, errorf(CodeMethodNotFound,
			"method \"initialize\" not found: MCP %s removed it; send requests with _meta instead (server/discover tells what this server supports)", ModernProtocolVersion))
		return true
	}
	meta, rerr := modernMeta(msg.method, msg.params)
	switch {
	case rerr != nil:
		h.reject(w, msg, http.StatusBadRequest, rerr)
		return true
	case meta == nil && header == ModernProtocolVersion:
		h.reject(w, msg, http.StatusBadRequest, errorf(CodeInvalidParams,
			"invalid params for %s: the %s header says %s, so params._meta must carry %q and %q", msg.method, headerProtocolVersion, ModernProtocolVersion, metaProtocolVersion, metaClientCapabilities))
		return true
	case meta == nil:
		return false
	}
	if err := checkModernHeaders(r, msg, meta); err != nil {
		h.reject(w, msg, http.StatusBadRequest, err)
		return true
	}
	if !slices.Contains(modernMethods, msg.method) {
		h.reject(w, msg, http.StatusNotFound, errorf(CodeMethodNotFound,
			"method %q not found; in MCP %s this server implements %s", msg.method, ModernProtocolVersion, strings.Join(modernMethods, ", ")))
		return true
	}

	c := newConn(h.ctx, h.srv, io.Discard)
	ps := newPostStream(c.out, h.logger)
	c.handleRequest(msg, ps)
	h.answer(w, r, ps, postAnswer{name: "stateless", status: modernStatus})
	// Also the cancellation the specification asks for when the client
	// closed the stream before the answer.
	c.shutdown()
	return true
}

// metaVersion returns the protocol version a request's _meta names, if any.
func metaVersion(params json.RawMessage) (string, bool) {
	var m struct {
		Version json.RawMessage `json:"io.modelcontextprotocol/protocolVersion"`
	}
	raw := metaOf(params)
	if raw == nil || json.Unmarshal(raw, &m) != nil || isNull(m.Version) {
		return "", false
	}
	v, err := unquote(m.Version)
	return v, err == nil
}

// reject answers msg with rerr and status.
func (h *HTTPHandler) reject(w http.ResponseWriter, msg *incoming, status int, rerr *Error) {
	line, err := encodeLine(wireResponse{JSONRPC: "2.0", ID: msg.id, Error: rerr})
	if err != nil {
		writeHTTPError(w, status, rerr.Code, "%s", rerr.Message)
		return
	}
	writeJSON(w, status, line)
}

// modernStatus is the status of a 2026-07-28 answer sent as JSON: 400 for
// the errors the specification sends with it, 404 for an unknown method.
func modernStatus(final []byte) int {
	var resp struct {
		Error *Error `json:"error"`
	}
	if json.Unmarshal(final, &resp) != nil || resp.Error == nil {
		return http.StatusOK
	}
	switch resp.Error.Code {
	case CodeHeaderMismatch, CodeMissingRequiredClientCapability, CodeUnsupportedProtocolVersion:
		return http.StatusBadRequest
	case CodeMethodNotFound:
		return http.StatusNotFound
	}
	return http.StatusOK
}

// checkModernHeaders returns a HeaderMismatch error when a required
// header is missing or differs from the body.
func checkModernHeaders(r *http.Request, msg *incoming, meta *requestMeta) *Error {
	mismatch := func(format string, args ...any) *Error {
		return errorf(CodeHeaderMismatch, "Header mismatch: "+format, args...)
	}
	if v := r.Header.Get(headerProtocolVersion); v == "" {
		return mismatch("the %s header is missing; send %s", headerProtocolVersion, meta.version)
	} else if v != meta.version {
		return mismatch("%s header value %q does not match body value %q", headerProtocolVersion, v, meta.version)
	}
	if v := r.Header.Get(headerMethod); v == "" {
		return mismatch("the %s header is missing; send %s", headerMethod, msg.method)
	} else if v != msg.method {
		return mismatch("%s header value %q does not match body value %q", headerMethod, v, msg.method)
	}
	var p struct {
		Name   json.RawMessage `json:"name"`
		TaskID json.RawMessage `json:"taskId"`
	}
	_ = json.Unmarshal(msg.params, &p)
	var name string
	switch msg.method {
	case "tools/call":
		name, _ = unquote(p.Name)
	case "tasks/get", "tasks/update", "tasks/cancel":
		name, _ = unquote(p.TaskID)
	default:
		return nil
	}
	raw, present := r.Header[http.CanonicalHeaderKey(headerName)]
	if !present || len(raw) == 0 {
		return mismatch("the %s header is missing; send the tool's name, %q", headerName, name)
	}
	v, ok := decodeHeaderValue(raw[0])
	if !ok {
		return mismatch("%s header value %q is not valid", headerName, raw[0])
	}
	if v != name {
		return mismatch("%s header value %q does not match body value %q", headerName, v, name)
	}
	return nil
}

// decodeHeaderValue undoes the transport's Base64 sentinel encoding
// (=?base64?...?=) of a header value; a plain value is returned as is.
func decodeHeaderValue(v string) (string, bool) {
	const prefix, suffix = "=?base64?", "?="
	if !strings.HasPrefix(v, prefix) || !strings.HasSuffix(v, suffix) || len(v) < len(prefix)+len(suffix) {
		return v, true
	}
	b, err := base64.StdEncoding.DecodeString(v[len(prefix) : len(v)-len(suffix)])
	if err != nil {
		return "", false
	}
	return string(b), true
}
