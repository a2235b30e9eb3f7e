package jsonrpc

import (
	"context"
	"encoding/json"
)

// CallFunc answers one tool call, as Handler.CallTool does.
type CallFunc func(ctx context.Context, name string, args json.RawMessage) (*CallToolResult, error)

// Middleware wraps the tool calls of a Handler: it is given the call
// further in (next) and returns the call to make instead, which does its
// work around next (timing it, say).
type Middleware func(next CallFunc) CallFunc

// Wrap returns h with its tool calls passed through mw, the first one
// outermost. Everything else stays h's: its tool list and, when h is a
// TaskRunner, which calls run as tasks, so that a middleware never hides
// what the server asks of the handler.
func Wrap(h Handler, mw ...Middleware) Handler {
	call := h.CallTool
	for i := len(mw) - 1; i >= 0; i-- {
		call = mw[i](call)
	}
	w := &wrapped{Handler: h, call: call}
	if r, ok := h.(TaskRunner); ok {
		return wrappedTasks{w, r}
	}
	return w
}

// wrapped is a Handler whose tool calls go through middleware.
type wrapped struct {
	Handler
	call CallFunc
}

func (w *wrapped) CallTool(ctx context.Context, name string, args json.RawMessage) (*CallToolResult, error) {
	return w.call(ctx, name, args)
}

// wrappedTasks is a wrapped TaskRunner.
type wrappedTasks struct {
	*wrapped
	TaskRunner
}
