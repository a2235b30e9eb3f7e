package jsonrpc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
)

// MCP 2026-07-28 is stateless: there is no initialize handshake, and
// every request says in its _meta which protocol version it speaks and
// what the client can do. This server is dual-era, as the specification's
// versioning page allows: a request whose _meta carries
// io.modelcontextprotocol/protocolVersion is served statelessly (in its
// own per-request Session, see modernSession), an initialize starts the
// legacy 2025-era session of the connection as before, and both may
// arrive on the same stdio stream or HTTP endpoint.

// ModernProtocolVersion is the stateless MCP revision this server speaks.
const ModernProtocolVersion = "2026-07-28"

// The reserved _meta keys of MCP 2026-07-28.
const (
	metaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	metaClientInfo         = "io.modelcontextprotocol/clientInfo"
	metaLogLevel           = "io.modelcontextprotocol/logLevel"
	metaServerInfo         = "io.modelcontextprotocol/serverInfo"
	metaSubscriptionID     = "io.modelcontextprotocol/subscriptionId"
)

// Error codes MCP 2026-07-28 reserves for protocol errors.
const (
	CodeHeaderMismatch                  = -32020
	CodeMissingRequiredClientCapability = -32021
	CodeUnsupportedProtocolVersion      = -32022
)

// Cache hints of the results the specification makes cacheable. The tool
// list is chosen by the command line and never changes while the server
// runs, and it is the same for every caller, hence public.
const (
	cacheTTLMs = 3_600_000
	cacheScope = "public"
)

// supportedVersions lists every protocol version this server speaks,
// newest first, as server/discover and UnsupportedProtocolVersionError
// report them.
func supportedVersions() []string {
	return append([]string{ModernProtocolVersion}, protocolVersions...)
}

// requestMeta is what a 2026-07-28 request says about itself in _meta.
type requestMeta struct {
	version    string
	caps       json.RawMessage // an object
	clientInfo ServerInfo
	logLevel   int32 // levelUnset unless the request asked for log messages
}

// modernMeta reads the era of a request. It returns nil, nil for a legacy
// request (no protocolVersion in _meta, or a legacy version there, which
// only an initialize-based session can serve), the request's metadata for
// a 2026-07-28 one, and the error to answer when the _meta is malformed or
// names a version this server does not speak. server/discover is modern
// whichever supported version it names: it is the probe dual-era clients
// send first. An initialize is legacy unless its _meta names 2026-07-28,
// which removed the method: then it is answered as an unknown method.
func modernMeta(method string, params json.RawMessage) (*requestMeta, *Error) {
	raw := metaOf(params)
	if raw == nil {
		return nil, nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil, nil
	}
	rawVersion, ok := m[metaProtocolVersion]
	if !ok {
		return nil, nil
	}
	if method == "initialize" && string(rawVersion) != `"`+ModernProtocolVersion+`"` {
		return nil, nil // a 2025-era initialize, whatever else its _meta says
	}
	version, err := unquote(rawVersion)
	if err != nil {
		return nil, errorf(CodeInvalidParams, "invalid params for %s: _meta %q must be a string, got %s", method, metaProtocolVersion, jsonKind(rawVersion))
	}
	switch {
	case version == ModernProtocolVersion:
	case slices.Contains(protocolVersions, version) && method != "server/discover":
		return nil, nil
	case !slices.Contains(protocolVersions, version):
		return nil, unsupportedVersion(version)
	}
	meta := &requestMeta{version: version, logLevel: levelUnset}
	caps, ok := m[metaClientCapabilities]
	if !ok || isNull(caps) {
		return nil, errorf(CodeInvalidParams, "invalid params for %s: _meta %q is missing; MCP %s requires it on every request ({} declares no optional capabilities)", method, metaClientCapabilities, ModernProtocolVersion)
	}
	if caps[0] != '{' {
		return nil, errorf(CodeInvalidParams, "invalid params for %s: _meta %q must be an object, got %s", method, metaClientCapabilities, jsonKind(caps))
	}
	meta.caps = caps
	if info := m[metaClientInfo]; !isNull(info) {
		if err := json.Unmarshal(info, &meta.clientInfo); err != nil {
			return nil, errorf(CodeInvalidParams, "invalid params for %s: _meta %q must be an object with string \"name\" and \"version\": %v", method, metaClientInfo, err)
		}
	}
	if lvl := m[metaLogLevel]; !isNull(lvl) {
		name, _ := unquote(lvl)
		idx, ok := levelIndex(name)
		if !ok {
			return nil, errorf(CodeInvalidParams, "invalid params for %s: _meta %q must be one of %s, got %s", method, metaLogLevel, strings.Join(logLevels, ", "), abbrev(lvl))
		}
		meta.logLevel = int32(idx)
	}
	return meta, nil
}

// metaOf returns params._meta when params is an object holding an object
// there, else nil.
func metaOf(params json.RawMessage) json.RawMessage {
	if isNull(params) || params[0] != '{' {
		return nil
	}
	var p struct {
		Meta json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil || isNull(p.Meta) || p.Meta[0] != '{' {
		return nil
	}
	return p.Meta
}

// unsupportedVersion is the UnsupportedProtocolVersionError for requested.
func unsupportedVersion(requested string) *Error {
	return &Error{
		Code:    CodeUnsupportedProtocolVersion,
		Message: "Unsupported protocol version",
		Data: struct {
			Supported []string `json:"supported"`
			Requested string   `json:"requested"`
		}{supportedVersions(), requested},
	}
}

// errModernNoRequests is why a 2026-07-28 session never sends a request:
// the specification replaced server-to-client requests by multi
// round-trip requests (see Session.Elicit).
var errModernNoRequests = errors.New("jsonrpc: MCP 2026-07-28 has no server-to-client requests")

// modernSession is the Session one 2026-07-28 request runs in: the
// capabilities, identity and log level its _meta declares, nothing
// remembered from other requests, and out (its route, or the stream) for
// the notifications sent while it runs.
func (c *conn) modernSession(meta *requestMeta, out outbound, mr *roundTrip) *Session {
	ss := newSession(out, c.s.logger)
	ss.caller.end(errModernNoRequests)
	ss.clientCaps, ss.clientInfo, ss.protocolVersion = meta.caps, meta.clientInfo, meta.version
	ss.logLevel.Store(meta.logLevel)
	ss.modern = mr
	return ss
}

// dispatchModern runs a 2026-07-28 request in its own Session and gives
// the result the fields every 2026-07-28 result carries.
func (c *conn) dispatchModern(ctx context.Context, msg *incoming, meta *requestMeta) (any, *Error) {
	var out outbound = c.out
	if rt, ok := ctx.Value(routeKey{}).(route); ok {
		out = rt
	}
	mr := newRoundTrip(c.s.secret, &c.s.usedStates, msg.method, msg.params)
	ss := c.modernSession(meta, out, mr)
	ctx = context.WithValue(ctx, sessionKey{}, ss)
	var (
		result any
		rerr   *Error
		fields []field
	)
	switch msg.method {
	case "server/discover":
		result = c.discover()
		fields = cacheFields()
		if fn := c.s.onDiscover; fn != nil {
			go fn(ctx)
		}
	case "tools/list":
		result, rerr = c.listTools(msg.params)
		fields = cacheFields()
	case "tools/call":
		if rerr = mr.parse(msg.params); rerr == nil {
			if ct := c.maybeTask(ss, msg); ct != nil {
				return c.decorate(ct, "task", nil)
			}
			result, rerr = c.callTool(ctx, msg.params)
		}
	case "tasks/get", "tasks/update", "tasks/cancel":
		result, rerr = c.taskMethod(ss, msg)
	case "subscriptions/listen":
		result, rerr = c.listen(ctx, msg, ss)
	default:
		return nil, errorf(CodeMethodNotFound,
			"method %q not found; in MCP %s this server implements %s", msg.method, ModernProtocolVersion, strings.Join(modernMethods, ", "))
	}
	if rerr != nil {
		return nil, rerr
	}
	if ir, ok := result.(*inputRequired); ok {
		return c.decorate(ir, "input_required", nil)
	}
	return c.decorate(result, "complete", fields)
}

// field is one member added to a result object.
type field struct {
	name  string
	value any
}

func cacheFields() []field {
	return []field{{"ttlMs", cacheTTLMs}, {"cacheScope", cacheScope}}
}

// decorate encodes result and adds resultType, the server's identity in
// _meta, and fields.
func (c *conn) decorate(result any, resultType string, fields []field) (any, *Error) {
	raw, err := marshalJSON(result)
	if err != nil {
		return nil, errorf(CodeInternalError, "internal error: the server could not encode its result: %v", err)
	}
	var meta map[string]json.RawMessage
	var p struct {
		Meta json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(raw, &p) == nil && !isNull(p.Meta) {
		_ = json.Unmarshal(p.Meta, &meta)
	}
	if meta == nil {
		meta = map[string]json.RawMessage{}
	}
	info, _ := json.Marshal(c.s.info)
	meta[metaServerInfo] = info
	fields = append([]field{{"resultType", resultType}, {"_meta", meta}}, fields...)
	return spliceFields(raw, fields)
}

// spliceFields sets fields in the JSON object raw, replacing members of
// the same name.
func spliceFields(raw json.RawMessage, fields []field) (json.RawMessage, *Error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, errorf(CodeInternalError, "internal error: the result is not a JSON object")
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range fields {
		v, err := marshalJSON(f.value)
		if err != nil {
			return nil, errorf(CodeInternalError, "internal error: encoding %s: %v", f.name, err)
		}
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(f.name)
		b.Write(name)
		b.WriteByte(':')
		b.Write(v)
		delete(obj, f.name)
	}
	// The result's own members follow in the order it encoded them.
	dec := json.NewDecoder(bytes.NewReader(raw))
	_, _ = dec.Token() // {
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		name, _ := tok.(string)
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			break
		}
		if _, keep := obj[name]; !keep {
			continue
		}
		key, _ := json.Marshal(name)
		b.WriteByte(',')
		b.Write(key)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// discoverCapabilities are serverCapabilities and, when the Handler runs
// long calls as tasks, the tasks extension.
func (s *Server) discoverCapabilities() string {
	if _, ok := s.handler.(TaskRunner); ok {
		return `{"tools":{"listChanged":false},"logging":{},"extensions":{"` + tasksExtension + `":{}}}`
	}
	return serverCapabilities
}

// DiscoverResult is the answer to server/discover, without the fields
// every 2026-07-28 result carries (added by decorate).
type DiscoverResult struct {
	SupportedVersions []string        `json:"supportedVersions"`
	Capabilities      json.RawMessage `json:"capabilities"`
	Instructions      string          `json:"instructions,omitempty"`
}

func (c *conn) discover() DiscoverResult {
	instructions := c.s.instructions
	if c.s.discoverInstructions != "" {
		instructions = c.s.discoverInstructions
	}
	return DiscoverResult{
		SupportedVersions: supportedVersions(),
		Capabilities:      json.RawMessage(c.s.discoverCapabilities()),
		Instructions:      instructions,
	}
}
