package jsonrpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
)

// outbound carries one side's messages to its peer, one whole line at a
// time. A stream connection's lineWriter is one; so is the route of a
// request answered on its own HTTP response (see route).
type outbound interface {
	writeLine(line []byte) error
}

// route carries the messages that belong to one client request somewhere
// other than the connection's own stream: a Streamable HTTP POST is
// answered on its own HTTP response, and what the server sends while
// handling it (progress, logs, roots/list, elicitation/create) travels
// there too. The request's handler context holds its route, so everything
// sent with that context finds it (see outboundFor).
type route interface {
	outbound // requests and notifications sent while the request runs
	// respond takes the request's response, the route's last message. A
	// nil line says that no response will come (the client cancelled the
	// request, or the session ended before it ran).
	respond(line []byte)
}

// routeKey is the context key of a request's route.
type routeKey struct{}

// outboundFor returns the route of the request ctx belongs to, or def when
// ctx has none (stream connections, and messages not tied to a request).
func outboundFor(ctx context.Context, def outbound) outbound {
	if rt, ok := ctx.Value(routeKey{}).(route); ok {
		return rt
	}
	return def
}

// caller is the requesting half of a connection, shared by the server
// (its requests to the client, see Session) and the client (see Client):
// it numbers requests, remembers which are awaiting an answer, and hands
// each response to the call waiting for it.
type caller struct {
	out    outbound
	nextID atomic.Int64

	mu      sync.Mutex
	pending map[string]chan *incoming // by idKey
	ended   error                     // why no more answers will come; nil while open
	done    chan struct{}             // closed once ended is set
}

func newCaller(out outbound) *caller {
	return &caller{out: out, pending: make(map[string]chan *incoming), done: make(chan struct{})}
}

// end fails every waiting call, and every later one, with err.
func (c *caller) end(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended != nil {
		return
	}
	c.ended = err
	close(c.done)
}

// call sends the request method with params (omitted when nil) and waits
// for its response, whose result it decodes into result (skipped when
// result is nil, or the result null or missing). An error response is
// returned as *Error. When ctx ends first, the peer is sent
// notifications/cancelled and ctx.Err() is returned.
func (c *caller) call(ctx context.Context, method string, params, result any) error {
	var rawParams json.RawMessage
	if params != nil {
		var err error
		if rawParams, err = marshalJSON(params); err != nil {
			return fmt.Errorf("jsonrpc: encoding %s params: %w", method, err)
		}
	}
	id := json.RawMessage(strconv.FormatInt(c.nextID.Add(1), 10))
	key := idKey(id)
	ch := make(chan *incoming, 1)

	c.mu.Lock()
	if c.ended != nil {
		err := c.ended
		c.mu.Unlock()
		return err
	}
	c.pending[key] = ch
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.pending, key)
		c.mu.Unlock()
	}()

	if err := c.write(ctx, wireRequest{JSONRPC: "2.0", ID: id, Method: method, Params: rawParams}); err != nil {
		if errors.Is(err, errWriterClosed) {
			return c.endErr()
		}
		return fmt.Errorf("jsonrpc: sending %s: %w", method, err)
	}

	select {
	case resp := <-ch:
		return decodeResponse(method, resp, result)
	case <-ctx.Done():
		cancel := struct {
			RequestID json.RawMessage `json:"requestId"`
			Reason    string          `json:"reason,omitempty"`
		}{id, ctx.Err().Error()}
		_ = c.notify(ctx, "notifications/cancelled", cancel) // best effort: we are not waiting any more
		return ctx.Err()
	case <-c.done:
		// The response may have come just before the end of the
		// stream (a daemon answers stop, then closes): select picks
		// among ready cases at random, so look again.
		select {
		case resp := <-ch:
			return decodeResponse(method, resp, result)
		default:
			return c.endErr()
		}
	}
}

// decodeResponse returns the error of a response to method, or decodes its
// result into result (skipped when result is nil, or the result null).
func decodeResponse(method string, resp *incoming, result any) error {
	if resp.err != nil {
		return resp.err
	}
	if result != nil && !isNull(resp.result) {
		if err := json.Unmarshal(resp.result, result); err != nil {
			return fmt.Errorf("jsonrpc: decoding the %s result: %w", method, err)
		}
	}
	return nil
}

// endErr returns why the connection ended.
func (c *caller) endErr() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended == nil {
		return errWriterClosed
	}
	return c.ended
}

// deliver hands a response to the call waiting for it and reports whether
// there was one.
func (c *caller) deliver(msg *incoming) bool {
	key := idKey(msg.id)
	c.mu.Lock()
	ch := c.pending[key]
	delete(c.pending, key)
	c.mu.Unlock()
	if ch == nil {
		return false
	}
	ch <- msg // buffered, and each id is delivered at most once
	return true
}

// notify sends a notification, on the route of the request ctx belongs to
// if it has one. After the connection has closed it does nothing:
// notifications are best effort.
func (c *caller) notify(ctx context.Context, method string, params any) error {
	req := wireRequest{JSONRPC: "2.0", Method: method}
	if params != nil {
		raw, err := marshalJSON(params)
		if err != nil {
			return fmt.Errorf("jsonrpc: encoding %s params: %w", method, err)
		}
		req.Params = raw
	}
	err := c.write(ctx, req)
	if errors.Is(err, errWriterClosed) {
		return nil
	}
	return err
}

// write encodes v and writes it as one line, on the route of the request
// ctx belongs to if it has one.
func (c *caller) write(ctx context.Context, v any) error {
	line, err := encodeLine(v)
	if err != nil {
		return err
	}
	return outboundFor(ctx, c.out).writeLine(line)
}
