package tools

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/devtools-mcp/devtools-mcp/jsonrpc"
)

// LevelCall is the level of the one line per tool call: above debug (so
// --logFile records it without DEBUG=*), below info (so stderr does not).
const LevelCall = slog.LevelDebug + 2

// logCall writes one line per tool call, at LevelCall:
// the tool, the page it acted on, how long it took, how it ended, and its
// arguments with what may be secret elided.
func (s *Server) logCall(name string, args json.RawMessage, c *Call, began time.Time, res *jsonrpc.CallToolResult) {
	bg := context.Background() // the line is for the log file, not the client
	if !s.log.Enabled(bg, LevelCall) {
		return
	}
	outcome := "ok"
	if res == nil || res.IsError {
		outcome = "error"
	}
	attrs := []any{"tool", name, "duration", time.Since(began).Round(time.Millisecond), "outcome", outcome, "args", elideArgs(args)}
	if c != nil && c.Page != nil {
		attrs = append(attrs, "page", c.Page.ID)
	}
	s.log.Log(bg, LevelCall, "tool call", attrs...)
}

// elidedKeys are arguments whose values are typed or filled-in text, or
// look like credentials: the log says that they were there, not what they
// were.
var elidedKeys = []string{"value", "values", "text", "password", "secret", "token", "cookie", "authorization", "headers", "credentials"}

// elideArgs renders args as JSON with secret-looking values replaced by
// "…" and URLs stripped of their query, fragment and user info.
func elideArgs(args json.RawMessage) string {
	var v any
	if json.Unmarshal(args, &v) != nil {
		return "(unparsable)"
	}
	b, err := json.Marshal(elide("", v))
	if err != nil {
		return "(unencodable)"
	}
	return string(b)
}

func elide(key string, v any) any {
	lower := strings.ToLower(key)
	for _, k := range elidedKeys {
		if strings.Contains(lower, k) {
			if v == nil {
				return nil
			}
			return "…"
		}
	}
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = elide(k, e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = elide(key, e)
		}
		return out
	case string:
		return elideURL(x)
	}
	return v
}

// elideURL drops the parts of a URL that carry tokens (query, fragment,
// user info); other strings pass unchanged.
func elideURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return s
	}
	if u.RawQuery != "" {
		u.RawQuery = "…"
	}
	if u.Fragment != "" {
		u.Fragment = "…"
	}
	if u.User != nil {
		u.User = url.User("…")
	}
	return u.String()
}
