package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/devtools-mcp/devtools-mcp/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sessionTools exercise what a tool reaches through its session over
// HTTP: progress, roots, elicitation and logging.
type sessionTools struct{}

func (sessionTools) ListTools() []jsonrpc.Tool {
	var tools []jsonrpc.Tool
	for _, name := range []string{"progress", "roots", "ask", "log"} {
		tools = append(tools, jsonrpc.Tool{Name: name, Description: name})
	}
	return tools
}

func (sessionTools) CallTool(ctx context.Context, name string, _ json.RawMessage) (*jsonrpc.CallToolResult, error) {
	ss := jsonrpc.SessionFrom(ctx)
	text := ""
	switch name {
	case "progress":
		jsonrpc.ProgressFrom(ctx)(1, 2, "half")
		text = "done"
	case "roots":
		roots, err := ss.Roots(ctx)
		if err != nil {
			return nil, err
		}
		for _, r := range roots {
			text += r.URI
		}
	case "ask":
		res, err := ss.Elicit(ctx, "Go ahead?", nil)
		if err != nil {
			return nil, err
		}
		text = res.Action
	case "log":
		ss.Log("info", "test", "outside the call's stream")
		text = "logged"
	}
	return &jsonrpc.CallToolResult{Content: []jsonrpc.Content{jsonrpc.TextContent(text)}}, nil
}

// TestStreamableHTTPWithTheOfficialSDK checks that jsonrpc's Streamable
// HTTP transport interoperates with the official Go SDK's client: every
// server-to-client path (progress on the call's stream, roots/list and
// elicitation/create answered by POST, a log on the GET stream) and
// session end with DELETE.
func TestStreamableHTTPWithTheOfficialSDK(t *testing.T) {
	closed := make(chan string, 1)
	h := jsonrpc.NewHTTPHandler(jsonrpc.NewServer(jsonrpc.ServerInfo{Name: "http", Version: "1"}, sessionTools{}),
		jsonrpc.HTTPOptions{OnSessionClose: func(ss *jsonrpc.Session) { closed <- ss.ID() }})
	ts := httptest.NewServer(h)
	t.Cleanup(func() { h.Close(); ts.Close() })

	progress := make(chan string, 1)
	logs := make(chan string, 1)
	client := mcp.NewClient(&mcp.Implementation{Name: "sdk", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "decline"}, nil
		},
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			progress <- req.Params.Message
		},
		//lint:ignore SA1019 logging is deprecated in the newest protocol, but the server implements it for the clients our users run.
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			logs <- fmt.Sprint(req.Params.Data)
		},
	})
	//lint:ignore SA1019 roots are deprecated in the newest protocol, but the clients our users run send them.
	client.AddRoots(&mcp.Root{URI: "file:///work"})
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL, MaxRetries: -1}, legacySession)
	if err != nil {
		t.Fatal(err)
	}
	id := cs.ID()
	if id == "" {
		t.Fatal("the SDK saw no Mcp-Session-Id")
	}

	call := func(name string, token any) string {
		t.Helper()
		params := &mcp.CallToolParams{Name: name, Arguments: map[string]any{}}
		if token != nil {
			params.SetProgressToken(token)
		}
		res, err := cs.CallTool(ctx, params)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.IsError || len(res.Content) != 1 {
			t.Fatalf("%s: %+v", name, res)
		}
		return res.Content[0].(*mcp.TextContent).Text
	}
	wait := func(ch <-chan string, what string) string {
		t.Helper()
		select {
		case v := <-ch:
			return v
		case <-ctx.Done():
			t.Fatalf("timed out waiting for %s", what)
			return ""
		}
	}

	if got := call("progress", "tok"); got != "done" {
		t.Errorf("progress tool answered %q", got)
	}
	if got := wait(progress, "the progress notification"); got != "half" {
		t.Errorf("progress message %q", got)
	}
	if got := call("roots", nil); got != "file:///work" {
		t.Errorf("roots tool saw %q", got)
	}
	if got := call("ask", nil); got != "decline" {
		t.Errorf("ask tool saw %q", got)
	}
	//lint:ignore SA1019 as above: the server still serves logging/setLevel.
	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	call("log", nil)
	if got := wait(logs, "the log on the GET stream"); !strings.Contains(got, "outside the call's stream") {
		t.Errorf("log data %q", got)
	}

	if err := cs.Close(); err != nil {
		t.Fatal(err)
	}
	if got := wait(closed, "the session to end"); got != id {
		t.Errorf("closed session %q, want %q", got, id)
	}
}
