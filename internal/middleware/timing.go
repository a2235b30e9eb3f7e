package middleware

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/devtools-mcp/devtools-mcp/internal/browser"
	"github.com/devtools-mcp/devtools-mcp/jsonrpc"
	"github.com/devtools-mcp/devtools-mcp/tools"
)

// Timed logs, beside the tools' own line per call (at tools.LevelCall, so
// --logFile has it), how long each call took and how much of that it
// waited on Chrome (browser.TimeChrome), so that the time spent in the
// server's own code shows: the benchmarks read it from --logFile, and a
// slow call in a user's log says whose time it was. With debug logging
// (DEBUG=*) it also logs the call's CDP timeline (browser.TraceChrome):
// each command's method, when it was sent and how long its answer took.
func Timed(log *slog.Logger) jsonrpc.Middleware {
	return func(next jsonrpc.CallFunc) jsonrpc.CallFunc {
		return func(ctx context.Context, name string, args json.RawMessage) (*jsonrpc.CallToolResult, error) {
			traced := log.Enabled(ctx, slog.LevelDebug)
			var waited func() (time.Duration, int)
			var timeline func() string
			if traced {
				ctx, waited, timeline = browser.TraceChrome(ctx)
			} else {
				ctx, waited = browser.TimeChrome(ctx)
			}
			start := time.Now()
			res, err := next(ctx, name, args)
			wall := time.Since(start)
			chrome, commands := waited()
			log.Log(context.Background(), tools.LevelCall, "tool call timing", "tool", name, "wall", wall, "chrome", chrome, "own", wall-chrome, "commands", commands)
			if traced {
				log.Debug("tool call CDP timeline", "tool", name, "timeline", timeline())
			}
			return res, err
		}
	}
}
