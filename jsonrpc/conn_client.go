package jsonrpc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
)

// Client is the client side of one MCP connection over a newline-delimited
// stream, e.g. a socket to a daemon or the pipes of a server process. It
// uses the same framing as Serve. Calls may run concurrently: a goroutine
// reads the stream and hands each response to the call with its id.
// Notifications from the server (progress, logs) go to the handler set
// with OnNotification, if any, and are dropped otherwise; its requests
// (roots/list, elicitation/create) are answered with CodeMethodNotFound,
// since a Client offers no capabilities.
type Client struct {
	*caller
	rwc io.ReadWriteCloser

	mu      sync.Mutex
	readErr error // why reading ended: nil at EOF; valid once caller.done is closed
	onNote  func(method string, params json.RawMessage)
}

// OnNotification sets the function that gets the server's notifications,
// on the reading goroutine: it must not block.
func (c *Client) OnNotification(h func(method string, params json.RawMessage)) {
	c.mu.Lock()
	c.onNote = h
	c.mu.Unlock()
}

// NewClient starts a client on rwc and its reading goroutine, which ends
// when rwc reports EOF or an error, e.g. after Close.
func NewClient(rwc io.ReadWriteCloser) *Client {
	return newClient(rwc, DefaultMaxLineSize)
}

// newClient is NewClient accepting messages of up to maxLine bytes.
func newClient(rwc io.ReadWriteCloser, maxLine int) *Client {
	c := &Client{caller: newCaller(&lineWriter{w: rwc}), rwc: rwc}
	go c.readLoop(newLineReader(rwc, maxLine))
	return c
}

// Initialize runs the MCP handshake: initialize, naming the client as info
// and asking for the newest protocol version, then
// notifications/initialized. It returns the server's answer.
func (c *Client) Initialize(ctx context.Context, info ServerInfo) (*InitializeResult, error) {
	params := struct {
		ProtocolVersion string     `json:"protocolVersion"`
		Capabilities    struct{}   `json:"capabilities"`
		ClientInfo      ServerInfo `json:"clientInfo"`
	}{ProtocolVersion: protocolVersions[0], ClientInfo: info}
	var res InitializeResult
	if err := c.Call(ctx, "initialize", params, &res); err != nil {
		return nil, err
	}
	if err := c.Notify("notifications/initialized", nil); err != nil {
		return nil, err
	}
	return &res, nil
}

// Call sends the request method with params (omitted when nil) and waits
// for its response, whose result it decodes into result (skipped when
// result is nil; a *json.RawMessage keeps it as sent). An error response
// is returned as *Error. When ctx ends first, the server is sent
// notifications/cancelled and ctx.Err() is returned. When the connection
// ends first, the error wraps the read error, or io.ErrUnexpectedEOF when
// the server closed it.
func (c *Client) Call(ctx context.Context, method string, params, result any) error {
	return c.call(ctx, method, params, result)
}

// Notify sends the notification method with params (omitted when nil).
func (c *Client) Notify(method string, params any) error {
	return c.notify(context.Background(), method, params)
}

// Wait blocks until the server closes the connection and returns nil, or
// the read error that ended it; it returns ctx.Err() when ctx ends first.
func (c *Client) Wait(ctx context.Context) error {
	select {
	case <-c.done:
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.readErr
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close closes the connection, which ends waiting calls. A server cancels
// what it still runs for this client when it sees the connection close.
func (c *Client) Close() error { return c.rwc.Close() }

// readLoop dispatches what the server sends until the stream ends.
func (c *Client) readLoop(lr *lineReader) {
	var err error
	for err == nil {
		var line []byte
		line, err = lr.next()
		switch {
		case err == nil:
			c.handleLine(bytes.TrimSpace(line))
		case errors.Is(err, errLineTooLong):
			// The lost line may be the answer a call waits for: give up
			// on the connection rather than let that call hang.
			err = fmt.Errorf("jsonrpc: the server sent a message over the %d-byte limit", lr.max)
			c.rwc.Close()
		}
	}
	cause := err
	if errors.Is(err, io.EOF) {
		err, cause = nil, io.ErrUnexpectedEOF
	}
	c.mu.Lock()
	c.readErr = err
	c.mu.Unlock()
	c.end(fmt.Errorf("jsonrpc: the connection ended: %w", cause))
}

// handleLine handles one message from the server.
func (c *Client) handleLine(line []byte) {
	if len(line) == 0 {
		return
	}
	msg, fail := parseMessage(line)
	if fail != nil {
		return // nothing to answer: the server's own framing is broken
	}
	switch msg.kind {
	case kindResponse:
		c.deliver(msg)
	case kindNotification:
		c.mu.Lock()
		h := c.onNote
		c.mu.Unlock()
		if h != nil {
			h(msg.method, msg.params)
		}
	case kindRequest:
		resp := wireResponse{JSONRPC: "2.0", ID: msg.id,
			Error: errorf(CodeMethodNotFound, "this client does not implement %s", msg.method)}
		_ = c.write(context.Background(), resp) // a failed write ends the connection, which readLoop sees
	}
}
