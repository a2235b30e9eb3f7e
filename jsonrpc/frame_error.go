package jsonrpc

import "fmt"

// Standard JSON-RPC 2.0 error codes. They are exported so handlers can
// return an *Error with the code a client expects, e.g. CodeInvalidParams
// for an unknown tool name.
const (
	CodeParseError     = -32700 // the line was not valid JSON
	CodeInvalidRequest = -32600 // valid JSON, but not a JSON-RPC request object
	CodeMethodNotFound = -32601 // the method is not implemented by this server
	CodeInvalidParams  = -32602 // the params do not fit the method
	CodeInternalError  = -32603 // the server failed while handling the request
)

// Error is a JSON-RPC error object. It is what an error response carries
// on the wire, and it doubles as a Go error so that a Handler can choose
// the error code of the response (see Handler) and so that a request to
// the other side (Session, Client) can report its error response.
type Error struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

// Error formats the code and message, so an *Error reads well in logs.
func (e *Error) Error() string {
	return fmt.Sprintf("jsonrpc error %d: %s", e.Code, e.Message)
}

// errorf builds an *Error with a formatted message.
func errorf(code int, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}
