package main

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
	"github.com/devtools-mcp/devtools-mcp/jsonrpc"
	"github.com/devtools-mcp/devtools-mcp/tools"
)

// timedCalls is a tool handler that logs, beside the tools' own line per
// call (at tools.LevelCall, so --logFile has it), how long each
// call took and how much of that it waited on Chrome (cdp.WaitClock), so
// that the time spent in the server's own code shows: the benchmarks read
// it from --logFile, and a slow call in a user's log says whose time it was.
type timedCalls struct {
	jsonrpc.Handler
	log *slog.Logger
}

// CallTool runs the call with a WaitClock and logs the figures.
func (t *timedCalls) CallTool(ctx context.Context, name string, args json.RawMessage) (*jsonrpc.CallToolResult, error) {
	clock := &cdp.WaitClock{}
	start := time.Now()
	res, err := t.Handler.CallTool(cdp.WithWaitClock(ctx, clock), name, args)
	wall := time.Since(start)
	chrome, commands := clock.Total()
	t.log.Log(context.Background(), tools.LevelCall, "tool call timing", "tool", name, "wall", wall, "chrome", chrome, "own", wall-chrome, "commands", commands)
	return res, err
}
