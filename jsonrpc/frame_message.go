package jsonrpc

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// nullID is the id of a response to a message whose id could not be read.
var nullID = json.RawMessage("null")

// msgKind says what an incoming line turned out to be.
type msgKind int

const (
	kindRequest      msgKind = iota // method and id: needs a response
	kindNotification                // method, no id: never answered
	kindResponse                    // id and result or error: answers one of our requests
	kindBadResponse                 // looks like a response but is unusable: logged and dropped
)

// incoming is one decoded client message. Raw members are copies, so they
// stay valid after the line buffer is reused.
type incoming struct {
	kind   msgKind
	id     json.RawMessage // requests and responses; byte-exact as sent
	method string          // requests and notifications
	params json.RawMessage // requests and notifications; nil when absent or null
	result json.RawMessage // responses
	err    *Error          // responses that carry an error
	reason string          // kindBadResponse: why it was dropped
}

// parseFailure is an envelope problem that must be answered with an error
// response; id is the request's id when it could be read, else null.
type parseFailure struct {
	id  json.RawMessage
	err *Error
}

// parseMessage classifies one non-empty line without surrounding space.
// It returns either a message or the error response to send.
func parseMessage(line []byte) (*incoming, *parseFailure) {
	parseErr := &parseFailure{nullID, errorf(CodeParseError,
		"parse error: the message is not valid JSON; send one complete JSON-RPC object per line")}
	if line[0] != '{' {
		switch {
		case !json.Valid(line):
			return nil, parseErr
		case line[0] == '[':
			return nil, &parseFailure{nullID, errorf(CodeInvalidRequest,
				"invalid request: batch arrays are not supported (MCP 2025-06-18 removed JSON-RPC batching); send each request as its own line")}
		default:
			return nil, &parseFailure{nullID, errorf(CodeInvalidRequest,
				"invalid request: a JSON-RPC message must be a JSON object, got %s", jsonKind(line))}
		}
	}
	// A map keeps member names exact (struct decoding would match "ID" or
	// "Method" case-insensitively) and tells absent apart from null. As the
	// line starts with '{', any decoding error is a syntax error.
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(line, &fields); err != nil {
		return nil, parseErr
	}

	id, hasID := fields["id"]
	idOK := hasID && validID(id)
	replyID := nullID
	if idOK {
		replyID = id
	}
	invalid := func(format string, args ...any) (*incoming, *parseFailure) {
		return nil, &parseFailure{replyID, errorf(CodeInvalidRequest, "invalid request: "+format, args...)}
	}

	rawMethod, hasMethod := fields["method"]
	if !hasMethod {
		rawResult, hasResult := fields["result"]
		rawErr, hasErr := fields["error"]
		if !hasResult && !hasErr {
			return invalid(`the message has no "method" member, so it is neither a request nor a notification`)
		}
		// A response to one of our requests. Responses are never answered,
		// even when broken, so problems are only reported to the log.
		if !idOK {
			return &incoming{kind: kindBadResponse, reason: "response without a usable id"}, nil
		}
		msg := &incoming{kind: kindResponse, id: id, result: rawResult}
		if hasErr && !isNull(rawErr) {
			var e Error
			if err := json.Unmarshal(rawErr, &e); err != nil {
				e = Error{Code: CodeInternalError, Message: "the client sent a malformed error object: " + string(rawErr)}
			}
			msg.err = &e
		}
		return msg, nil
	}

	if v, ok := fields["jsonrpc"]; !ok {
		return invalid(`missing "jsonrpc": "2.0" member`)
	} else if s, err := unquote(v); err != nil || s != "2.0" {
		return invalid(`"jsonrpc" must be "2.0", got %s`, abbrev(v))
	}
	method, err := unquote(rawMethod)
	if err != nil {
		return invalid(`"method" must be a string, got %s`, jsonKind(rawMethod))
	}
	if method == "" {
		return invalid(`"method" must not be empty`)
	}
	if hasID && !idOK {
		if isNull(id) {
			return invalid(`"id" must not be null; MCP requests need a string or number id (omit "id" to send a notification)`)
		}
		return invalid(`"id" must be a string or a number, got %s`, jsonKind(id))
	}
	msg := &incoming{kind: kindNotification, method: method}
	if p := fields["params"]; !isNull(p) {
		msg.params = p
	}
	if hasID {
		msg.kind = kindRequest
		msg.id = id
	}
	return msg, nil
}

// validID reports whether raw is a JSON string or number, the id types
// MCP allows.
func validID(raw json.RawMessage) bool {
	if len(raw) == 0 {
		return false
	}
	c := raw[0]
	return c == '"' || c == '-' || ('0' <= c && c <= '9')
}

// idKey maps an id to a map key so that equal ids compare equal even when
// spelled differently: strings by their decoded value, integers by value,
// other numbers by their text. Strings and numbers never collide.
func idKey(raw json.RawMessage) string {
	if len(raw) > 0 && raw[0] == '"' {
		if s, err := unquote(raw); err == nil {
			return "s:" + s
		}
	}
	if n, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
		return "n:" + strconv.FormatInt(n, 10)
	}
	return "n:" + string(raw)
}

// unquote decodes a JSON string.
func unquote(raw json.RawMessage) (string, error) {
	var s string
	err := json.Unmarshal(raw, &s)
	return s, err
}

// isNull reports whether raw is absent or the JSON literal null.
func isNull(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) == 0 || string(raw) == "null"
}

// abbrev shortens raw JSON for quoting in an error message.
func abbrev(raw json.RawMessage) string {
	const max = 40
	if len(raw) <= max {
		return string(raw)
	}
	return string(raw[:max]) + "..."
}

// jsonKind names the JSON type of raw for error messages.
func jsonKind(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}

// wireResponse is an outgoing response. ID is always present (null when
// the request's id was unreadable); exactly one of Result and Error is set.
type wireResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// wireRequest is an outgoing request, or a notification when ID is empty.
type wireRequest struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params,omitempty"`
}
