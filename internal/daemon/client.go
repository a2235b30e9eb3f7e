package daemon

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"time"

	"github.com/devtools-mcp/devtools-mcp/jsonrpc"
)

// Client is an MCP client of a daemon: newline-delimited JSON-RPC over the
// socket, one request at a time.
type Client struct {
	conn   net.Conn
	r      *bufio.Reader
	lastID int
}

// RPCError is a JSON-RPC error answer, e.g. for a tool the daemon does not
// have.
type RPCError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *RPCError) Error() string { return e.Message }

// Dial connects to the daemon listening on socket and initializes an MCP
// session; version names the client.
func Dial(ctx context.Context, socket, version string) (*Client, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", socket)
	if err != nil {
		return nil, err
	}
	c := &Client{conn: conn, r: bufio.NewReaderSize(conn, 64<<10)}
	init := map[string]any{
		"protocolVersion": "2025-06-18",
		"capabilities":    map[string]any{},
		"clientInfo":      jsonrpc.ServerInfo{Name: "devtools-mcp-cli", Version: version},
	}
	if _, err := c.Call(ctx, "initialize", init); err != nil {
		conn.Close()
		return nil, fmt.Errorf("initialize: %w", err)
	}
	if err := c.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"}); err != nil {
		conn.Close()
		return nil, err
	}
	return c, nil
}

// Close closes the connection; the daemon cancels what it still runs for us.
func (c *Client) Close() error { return c.conn.Close() }

// Call sends a request and returns the result of its answer. Notifications
// from the daemon are skipped and its requests refused, since this client
// offers nothing (no roots, no sampling).
func (c *Client) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	c.lastID++
	id := strconv.Itoa(c.lastID)
	stop := context.AfterFunc(ctx, func() { c.conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	err := c.send(map[string]any{"jsonrpc": "2.0", "id": c.lastID, "method": method, "params": params})
	for err == nil {
		var line []byte
		if line, err = c.r.ReadBytes('\n'); err != nil {
			break
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
			Error  *RPCError       `json:"error"`
		}
		if err = json.Unmarshal(line, &msg); err != nil {
			err = fmt.Errorf("bad message from the daemon: %w", err)
			break
		}
		switch {
		case msg.Method != "" && msg.ID != nil:
			err = c.send(map[string]any{"jsonrpc": "2.0", "id": msg.ID,
				"error": RPCError{Code: -32601, Message: "the command-line client does not implement " + msg.Method}})
		case msg.Method != "" || string(msg.ID) != id:
			// A notification (progress, log), or an answer we gave up on.
		case msg.Error != nil:
			return nil, msg.Error
		default:
			return msg.Result, nil
		}
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if errors.Is(err, io.EOF) {
		err = fmt.Errorf("the daemon closed the connection: %w", io.ErrUnexpectedEOF)
	}
	return nil, fmt.Errorf("%s: %w", method, err)
}

func (c *Client) send(msg any) error {
	line, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	_, err = c.conn.Write(append(line, '\n'))
	return err
}

// Tools returns the daemon's tools/list.
func (c *Client) Tools(ctx context.Context) ([]jsonrpc.Tool, error) {
	raw, err := c.Call(ctx, "tools/list", nil)
	if err != nil {
		return nil, err
	}
	var res struct {
		Tools []jsonrpc.Tool `json:"tools"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("tools/list: %w", err)
	}
	return res.Tools, nil
}

// CallTool runs a tool and returns the raw MCP result.
func (c *Client) CallTool(ctx context.Context, name string, args map[string]any) (json.RawMessage, error) {
	return c.Call(ctx, "tools/call", map[string]any{"name": name, "arguments": args})
}

// Status asks the daemon about itself.
func (c *Client) Status(ctx context.Context) (Status, error) {
	return c.control(ctx, statusTool)
}

// Stop asks the daemon to stop and waits until it has shut its browser down
// and closed the connection.
func (c *Client) Stop(ctx context.Context) (Status, error) {
	s, err := c.control(ctx, stopTool)
	if err != nil {
		return s, err
	}
	stop := context.AfterFunc(ctx, func() { c.conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	if _, err := io.Copy(io.Discard, c.r); err != nil {
		return s, fmt.Errorf("waiting for daemon pid %d to stop: %w", s.PID, err)
	}
	return s, nil
}

func (c *Client) control(ctx context.Context, tool string) (Status, error) {
	raw, err := c.CallTool(ctx, tool, nil)
	if err != nil {
		return Status{}, err
	}
	var res struct {
		StructuredContent Status `json:"structuredContent"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return Status{}, fmt.Errorf("%s: %w", tool, err)
	}
	return res.StructuredContent, nil
}
