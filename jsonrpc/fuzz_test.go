package jsonrpc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// fuzzHandler has tools that return at once, so every fuzz input ends.
type fuzzHandler struct{}

func (fuzzHandler) ListTools() []Tool {
	return []Tool{{Name: "echo", Description: "echo", InputSchema: json.RawMessage(`{"type":"object"}`)}}
}

func (fuzzHandler) CallTool(ctx context.Context, name string, args json.RawMessage) (*CallToolResult, error) {
	ProgressFrom(ctx)(1, 2, name)
	switch name {
	case "echo":
		return textResult(string(args)), nil
	case "fail":
		return nil, errors.New("failed")
	case "panic":
		panic(name)
	case "nil":
		return nil, nil
	}
	return nil, &Error{Code: CodeInvalidParams, Message: "unknown tool " + name, Data: args}
}

// FuzzServeLine feeds arbitrary input to Serve and checks that it neither
// panics nor hangs and that every line it writes is one JSON-RPC object.
func FuzzServeLine(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":"a","method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"x":[1,2]},"_meta":{"progressToken":"t"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"panic"}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"zzz","arguments":[]}}`,
		`{"jsonrpc":"2.0","id":5,"method":"logging/setLevel","params":{"level":"debug"}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`,
		`{"jsonrpc":"2.0","id":6,"result":{}}`,
		`[{"jsonrpc":"2.0","id":7,"method":"ping"}]`,
		`{"jsonrpc":"1.0","id":{},"method":"ping"}`,
		"{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"}\r\n\n{\"id\"",
		`not json`,
		strings.Repeat(`[`, 5000),
		`{"jsonrpc":"2.0","id":1e400,"method":"ping"}`,
		"\xff\xfe{}",
		// MCP 2026-07-28, stateless.
		`{"jsonrpc":"2.0","id":"d","method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`,
		`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"echo","inputResponses":{"k":{"action":"accept"}},"requestState":"AAAA","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}},"io.modelcontextprotocol/logLevel":"debug"}}}`,
		`{"jsonrpc":"2.0","id":10,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`,
		`{"jsonrpc":"2.0","id":11,"method":"tasks/get","params":{"taskId":"x","_meta":{"io.modelcontextprotocol/protocolVersion":"1900-01-01","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s := NewServer(ServerInfo{Name: "fuzz", Version: "0"}, fuzzHandler{}, WithMaxLineSize(4096))
		var out bytes.Buffer
		if err := s.Serve(context.Background(), bytes.NewReader(data), &out); err != nil {
			t.Fatalf("Serve = %v, want nil at EOF", err)
		}
		for _, line := range bytes.Split(out.Bytes(), []byte("\n")) {
			if len(line) == 0 {
				continue
			}
			var m map[string]json.RawMessage
			if err := json.Unmarshal(line, &m); err != nil {
				t.Fatalf("output line is not a JSON object: %v: %q", err, line)
			}
			if string(m["jsonrpc"]) != `"2.0"` {
				t.Fatalf("output line lacks jsonrpc 2.0: %q", line)
			}
		}
		if out.Len() > 0 && out.Bytes()[out.Len()-1] != '\n' {
			t.Fatalf("output does not end with a newline: %q", out.Bytes())
		}
	})
}
