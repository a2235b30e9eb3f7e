package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"

	"github.com/devtools-mcp/devtools-mcp/jsonrpc"
)

// Client is an MCP client of a daemon, over its socket.
type Client struct {
	rpc *jsonrpc.Client
}

// Dial connects to the daemon listening on socket and initializes an MCP
// session; version names the client.
func Dial(ctx context.Context, socket, version string) (*Client, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", socket)
	if err != nil {
		return nil, err
	}
	c := &Client{rpc: jsonrpc.NewClient(conn)}
	if _, err := c.rpc.Initialize(ctx, jsonrpc.ServerInfo{Name: "devtools-mcp-cli", Version: version}); err != nil {
		c.Close()
		return nil, fmt.Errorf("initialize: %w", err)
	}
	return c, nil
}

// Close closes the connection; the daemon cancels what it still runs for us.
func (c *Client) Close() error { return c.rpc.Close() }

// call sends a request and returns the result of its answer. An error
// answer is returned as *jsonrpc.Error, e.g. for a tool the daemon does
// not have.
func (c *Client) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	var res json.RawMessage
	err := c.rpc.Call(ctx, method, params, &res)
	var rpcErr *jsonrpc.Error
	switch {
	case err == nil:
		return res, nil
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case errors.As(err, &rpcErr):
		return nil, rpcErr
	}
	return nil, fmt.Errorf("%s: %w", method, err)
}

// Tools returns the daemon's tools/list.
func (c *Client) Tools(ctx context.Context) ([]jsonrpc.Tool, error) {
	raw, err := c.call(ctx, "tools/list", nil)
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
	return c.call(ctx, "tools/call", map[string]any{"name": name, "arguments": args})
}

// Progress is one notifications/progress of a tool call.
type Progress struct {
	Progress float64 `json:"progress"`
	Total    float64 `json:"total"`
	Message  string  `json:"message"`
}

// CallToolProgress is CallTool asking for progress: each progress
// notification of the call goes to onProgress, on the connection's reading
// goroutine (it must not block). A Client runs one such call at a time.
func (c *Client) CallToolProgress(ctx context.Context, name string, args map[string]any, onProgress func(Progress)) (json.RawMessage, error) {
	const token = "cli"
	c.rpc.OnNotification(func(method string, params json.RawMessage) {
		var p struct {
			Token json.RawMessage `json:"progressToken"`
			Progress
		}
		if method == "notifications/progress" && json.Unmarshal(params, &p) == nil && string(p.Token) == `"`+token+`"` {
			onProgress(p.Progress)
		}
	})
	defer c.rpc.OnNotification(nil)
	return c.call(ctx, "tools/call", map[string]any{"name": name, "arguments": args, "_meta": map[string]any{"progressToken": token}})
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
	if err := c.rpc.Wait(ctx); err != nil {
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
