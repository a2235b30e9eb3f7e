package jsonrpc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func echoHandler() fakeHandler {
	return fakeHandler{
		"echo": func(_ context.Context, args json.RawMessage) (*CallToolResult, error) {
			var a struct {
				Text string `json:"text"`
			}
			if err := json.Unmarshal(args, &a); err != nil {
				return nil, err
			}
			return textResult(a.Text), nil
		},
		"len": func(_ context.Context, args json.RawMessage) (*CallToolResult, error) {
			var a struct {
				Text string `json:"text"`
			}
			if err := json.Unmarshal(args, &a); err != nil {
				return nil, err
			}
			return textResult(strconv.Itoa(len(a.Text))), nil
		},
		"args": func(_ context.Context, args json.RawMessage) (*CallToolResult, error) {
			return textResult(string(args)), nil
		},
		"fail": func(context.Context, json.RawMessage) (*CallToolResult, error) {
			return nil, fmt.Errorf("could not click: %w", errBoom)
		},
		"rpcerr": func(context.Context, json.RawMessage) (*CallToolResult, error) {
			return nil, fmt.Errorf("wrapped: %w", &Error{Code: CodeInvalidParams, Message: "uid is required"})
		},
		"boom": func(context.Context, json.RawMessage) (*CallToolResult, error) {
			panic("kaboom")
		},
		"nil": func(context.Context, json.RawMessage) (*CallToolResult, error) {
			return nil, nil
		},
		"structured": func(context.Context, json.RawMessage) (*CallToolResult, error) {
			return &CallToolResult{
				Content:           []Content{TextContent("see structured"), ImageContent([]byte{0x89, 'P', 'N', 'G'}, "image/png")},
				StructuredContent: map[string]int{"count": 3},
			}, nil
		},
	}
}

func TestInitializeVersions(t *testing.T) {
	c := startServer(t, echoHandler(), WithInstructions("Use take_snapshot first."))
	cases := []struct{ client, want string }{
		{"2025-11-25", "2025-11-25"},
		{"2025-06-18", "2025-06-18"},
		{"2025-03-26", "2025-03-26"},
		{"2024-11-05", "2024-11-05"},
		{"1999-01-01", "2025-11-25"},
		{"", "2025-11-25"},
	}
	for i, tc := range cases {
		m := c.call(i+1, "initialize", map[string]any{
			"protocolVersion": tc.client,
			"capabilities":    map[string]any{"roots": map[string]any{"listChanged": true}},
			"clientInfo":      map[string]any{"name": "test-client", "version": "0.1"},
		})
		var r struct {
			ProtocolVersion string `json:"protocolVersion"`
			Capabilities    struct {
				Tools *struct {
					ListChanged bool `json:"listChanged"`
				} `json:"tools"`
				Logging *struct{} `json:"logging"`
			} `json:"capabilities"`
			ServerInfo   ServerInfo `json:"serverInfo"`
			Instructions string     `json:"instructions"`
		}
		m.result(t, &r)
		if r.ProtocolVersion != tc.want {
			t.Errorf("client %q: protocolVersion = %q, want %q", tc.client, r.ProtocolVersion, tc.want)
		}
		if r.Capabilities.Tools == nil || r.Capabilities.Tools.ListChanged || r.Capabilities.Logging == nil {
			t.Errorf("capabilities = %s", m.Result)
		}
		if r.ServerInfo != (ServerInfo{Name: "test-server", Version: "1.2.3"}) {
			t.Errorf("serverInfo = %+v", r.ServerInfo)
		}
		if r.Instructions != "Use take_snapshot first." {
			t.Errorf("instructions = %q", r.Instructions)
		}
		if got := c.session().ProtocolVersion(); got != tc.want {
			t.Errorf("ProtocolVersion() = %q, want %q", got, tc.want)
		}
	}
	ss := c.session()
	if got := string(ss.clientCapabilities()); got != `{"roots":{"listChanged":true}}` {
		t.Errorf("clientCapabilities() = %s", got)
	}
	if !ss.HasCapability("roots") || ss.HasCapability("elicitation") {
		t.Errorf("HasCapability: roots %v, elicitation %v; want true, false", ss.HasCapability("roots"), ss.HasCapability("elicitation"))
	}
	if got := ss.ClientInfo(); got.Name != "test-client" || got.Version != "0.1" {
		t.Errorf("ClientInfo() = %+v", got)
	}
}

func TestInitializeWithoutInstructions(t *testing.T) {
	c := startServer(t, nil)
	ss := c.session()
	if ss.clientCapabilities() != nil || ss.ProtocolVersion() != "" {
		t.Error("capabilities and protocol version before initialize should be empty")
	}
	m := c.call(1, "initialize", map[string]any{"protocolVersion": "2025-06-18"})
	if bytes.Contains(m.Result, []byte("instructions")) {
		t.Errorf("instructions should be omitted: %s", m.Result)
	}
	if ss.clientCapabilities() != nil || ss.HasCapability("roots") {
		t.Errorf("no capabilities were sent, got %s", ss.clientCapabilities())
	}
	c.notification("notifications/initialized", nil)
	// A nil Handler serves no tools.
	var r struct{ Tools []Tool }
	c.call(2, "tools/list", nil).result(t, &r)
	if r.Tools == nil || len(r.Tools) != 0 {
		t.Errorf("tools = %#v, want an empty list", r.Tools)
	}
	c.call(3, "tools/call", map[string]any{"name": "x"}).wantError(t, CodeInvalidParams, "3")
}

func TestInitializeBadParams(t *testing.T) {
	c := startServer(t, echoHandler())
	c.call(1, "initialize", []int{1}).wantError(t, CodeInvalidParams, "1")
	c.call(2, "initialize", map[string]any{"protocolVersion": 20250618}).wantError(t, CodeInvalidParams, "2")
	c.call(3, "initialize", map[string]any{"capabilities": "all"}).wantError(t, CodeInvalidParams, "3")
	c.call(4, "initialize", map[string]any{"clientInfo": []string{"x"}}).wantError(t, CodeInvalidParams, "4")
}

func TestPing(t *testing.T) {
	c := startServer(t, echoHandler())
	m := c.call("p", "ping", nil)
	if string(m.Result) != "{}" {
		t.Errorf("ping result = %s, want {}", m.Result)
	}
}

func TestToolsList(t *testing.T) {
	c := startServer(t, echoHandler())
	var r struct{ Tools []Tool }
	c.call(1, "tools/list", map[string]any{"cursor": "ignored"}).result(t, &r)
	if len(r.Tools) != len(echoHandler()) || r.Tools[0].Name != "args" {
		t.Fatalf("tools = %+v", r.Tools)
	}
	if string(r.Tools[0].InputSchema) != `{"type":"object"}` {
		t.Errorf("inputSchema = %s", r.Tools[0].InputSchema)
	}
	c.call(2, "tools/list", "page2").wantError(t, CodeInvalidParams, "2")
}

type schemaless struct{ fakeHandler }

func (schemaless) ListTools() []Tool {
	return []Tool{{Name: "bare", Description: "no schema", Annotations: &ToolAnnotations{Title: "Bare", ReadOnlyHint: true, IdempotentHint: true}}}
}

func TestToolsListDefaults(t *testing.T) {
	c := startServer(t, schemaless{})
	m := c.call(1, "tools/list", nil)
	want := `{"tools":[{"name":"bare","description":"no schema","inputSchema":{"type":"object"},"annotations":{"title":"Bare","readOnlyHint":true,"openWorldHint":false}}]}`
	if string(m.Result) != want {
		t.Errorf("result = %s\nwant     %s", m.Result, want)
	}
}

func TestToolsCall(t *testing.T) {
	c := startServer(t, echoHandler())
	c.call(0, "initialize", map[string]any{"protocolVersion": "2025-06-18"})

	text, r := toolText(t, c.call(1, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "hi <b>&</b>"}}))
	if text != "hi <b>&</b>" || r.IsError || r.Content[0].Type != "text" {
		t.Errorf("echo = %+v", r)
	}

	text, r = toolText(t, c.call(2, "tools/call", map[string]any{"name": "fail", "arguments": map[string]any{}}))
	if !r.IsError || text != "could not click: boom" {
		t.Errorf("handler error = %+v, want isError with the error text", r)
	}

	c.call(3, "tools/call", map[string]any{"name": "rpcerr"}).wantError(t, CodeInvalidParams, "3")
	m := c.call(4, "tools/call", map[string]any{"name": "nope"})
	m.wantError(t, CodeInvalidParams, "4")
	if !strings.Contains(m.Error.Message, "nope") {
		t.Errorf("unknown tool message %q should name the tool", m.Error.Message)
	}

	m = c.call(5, "tools/call", map[string]any{"name": "nil"})
	if string(m.Result) != `{"content":[]}` {
		t.Errorf("nil result = %s, want {\"content\":[]}", m.Result)
	}

	m = c.call(6, "tools/call", map[string]any{"name": "structured"})
	want := `{"content":[{"type":"text","text":"see structured"},{"type":"image","data":"iVBORw==","mimeType":"image/png"}],"structuredContent":{"count":3}}`
	if string(m.Result) != want {
		t.Errorf("structured = %s\nwant %s", m.Result, want)
	}
}

func TestToolsCallParams(t *testing.T) {
	c := startServer(t, echoHandler())
	for _, args := range []string{`absent`, `null`} {
		p := map[string]any{"name": "args"}
		if args == "null" {
			p["arguments"] = nil
		}
		if text, _ := toolText(t, c.call(1, "tools/call", p)); text != "{}" {
			t.Errorf("arguments %s: handler got %s, want {}", args, text)
		}
	}
	if text, _ := toolText(t, c.call(2, "tools/call", map[string]any{"name": "args", "arguments": map[string]int{"a": 1}})); text != `{"a":1}` {
		t.Errorf("handler got %s", text)
	}
	c.call(3, "tools/call", nil).wantError(t, CodeInvalidParams, "3")
	c.call(4, "tools/call", map[string]any{}).wantError(t, CodeInvalidParams, "4")
	c.call(5, "tools/call", map[string]any{"name": 7}).wantError(t, CodeInvalidParams, "5")
	m := c.call(6, "tools/call", map[string]any{"name": "args", "arguments": []int{1}})
	m.wantError(t, CodeInvalidParams, "6")
	if !strings.Contains(m.Error.Message, "arguments") {
		t.Errorf("message %q should say arguments are wrong", m.Error.Message)
	}
	c.call(7, "tools/call", map[string]any{"name": "args", "arguments": "x"}).wantError(t, CodeInvalidParams, "7")
	c.call(8, "tools/call", "echo").wantError(t, CodeInvalidParams, "8")
}

func TestConcurrentCalls(t *testing.T) {
	gates := map[string]chan struct{}{"a": make(chan struct{}), "b": make(chan struct{})}
	h := fakeHandler{"wait": func(ctx context.Context, args json.RawMessage) (*CallToolResult, error) {
		var a struct{ Gate string }
		if err := json.Unmarshal(args, &a); err != nil {
			return nil, err
		}
		select {
		case <-gates[a.Gate]:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return textResult(a.Gate), nil
	}}
	c := startServer(t, h)
	c.request(1, "tools/call", map[string]any{"name": "wait", "arguments": map[string]string{"gate": "a"}})
	c.request(2, "tools/call", map[string]any{"name": "wait", "arguments": map[string]string{"gate": "b"}})
	close(gates["b"])
	m := c.next()
	if text, _ := toolText(t, m); string(m.ID) != "2" || text != "b" {
		t.Fatalf("first response = %s, want id 2 with b", m.raw)
	}
	close(gates["a"])
	m = c.next()
	if text, _ := toolText(t, m); string(m.ID) != "1" || text != "a" {
		t.Fatalf("second response = %s, want id 1 with a", m.raw)
	}
}

func TestCancelledRequestGetsNoResponse(t *testing.T) {
	started := make(chan struct{})
	observed := make(chan error, 1)
	h := fakeHandler{"block": func(ctx context.Context, _ json.RawMessage) (*CallToolResult, error) {
		close(started)
		<-ctx.Done()
		observed <- ctx.Err()
		return textResult("too late"), nil
	}}
	c := startServer(t, h)
	c.request("c1", "tools/call", map[string]any{"name": "block"})
	recv(t, started, "the tool to start")
	c.notification("notifications/cancelled", map[string]any{"requestId": "c1", "reason": "user pressed stop"})
	if err := recv(t, observed, "the tool to see cancellation"); !errors.Is(err, context.Canceled) {
		t.Fatalf("handler ctx error = %v, want context.Canceled", err)
	}
	rest, err := c.closeAndDrain()
	if err != nil {
		t.Fatalf("Serve = %v, want nil", err)
	}
	for _, m := range rest {
		t.Errorf("unexpected output after cancellation: %s", m.raw)
	}
}

func TestCancelUnknownAndInitializeIgnored(t *testing.T) {
	c := startServer(t, echoHandler())
	c.notification("notifications/cancelled", map[string]any{"requestId": 424242})
	c.call(1, "ping", nil)
}

func TestEOFCancelsInFlightAndWaits(t *testing.T) {
	started := make(chan struct{})
	sawCancel := make(chan struct{})
	release := make(chan struct{})
	h := fakeHandler{"block": func(ctx context.Context, _ json.RawMessage) (*CallToolResult, error) {
		close(started)
		<-ctx.Done()
		close(sawCancel)
		<-release
		return textResult("done"), nil
	}}
	c := startServer(t, h)
	c.request(5, "tools/call", map[string]any{"name": "block"})
	recv(t, started, "the tool to start")
	c.in.Close()
	recv(t, sawCancel, "EOF to cancel the call")
	select {
	case err := <-c.served:
		t.Fatalf("Serve returned (%v) while a call was still running", err)
	default:
	}
	close(release)
	if err := c.wait(); err != nil {
		t.Fatalf("Serve after EOF = %v, want nil", err)
	}
}

func TestContextCancelStopsServe(t *testing.T) {
	observed := make(chan error, 1)
	started := make(chan struct{})
	h := fakeHandler{"block": func(ctx context.Context, _ json.RawMessage) (*CallToolResult, error) {
		close(started)
		<-ctx.Done()
		observed <- ctx.Err()
		return nil, ctx.Err()
	}}
	c := startServer(t, h)
	c.call(0, "initialize", map[string]any{"capabilities": map[string]any{"roots": map[string]any{}}})
	ss := c.session()
	c.request(1, "tools/call", map[string]any{"name": "block"})
	recv(t, started, "the tool to start")
	c.cancel()
	if err := c.wait(); !errors.Is(err, context.Canceled) {
		t.Fatalf("Serve = %v, want context.Canceled", err)
	}
	if err := recv(t, observed, "the handler to see cancellation"); !errors.Is(err, context.Canceled) {
		t.Fatalf("handler ctx = %v", err)
	}
	// After Serve returns its session is over: notifications are dropped
	// and requests fail.
	if err := ss.Notify("notifications/tools/list_changed", nil); err != nil {
		t.Errorf("Notify after Serve = %v, want nil", err)
	}
	if _, err := ss.Roots(context.Background()); !errors.Is(err, ErrSessionClosed) {
		t.Errorf("Roots after Serve = %v, want ErrSessionClosed", err)
	}
}

func TestMalformedInput(t *testing.T) {
	c := startServer(t, echoHandler())
	cases := []struct {
		name, line string
		code       int
		id         string
	}{
		{"not json", `this is not json`, CodeParseError, "null"},
		{"truncated", `{"jsonrpc":"2.0","id":1,"method":"ping"`, CodeParseError, "null"},
		{"no method", `{"jsonrpc":"2.0","id":1}`, CodeInvalidRequest, "1"},
		{"no method, params", `{"jsonrpc":"2.0","id":"x","params":{}}`, CodeInvalidRequest, `"x"`},
		{"wrong version", `{"jsonrpc":"1.0","id":2,"method":"ping"}`, CodeInvalidRequest, "2"},
		{"no version", `{"id":3,"method":"ping"}`, CodeInvalidRequest, "3"},
		{"numeric version", `{"jsonrpc":2.0,"id":4,"method":"ping"}`, CodeInvalidRequest, "4"},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, CodeInvalidRequest, "null"},
		{"array id", `{"jsonrpc":"2.0","id":[1],"method":"ping"}`, CodeInvalidRequest, "null"},
		{"bool id", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, CodeInvalidRequest, "null"},
		{"null id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, CodeInvalidRequest, "null"},
		{"method not string", `{"jsonrpc":"2.0","id":5,"method":42}`, CodeInvalidRequest, "5"},
		{"empty method", `{"jsonrpc":"2.0","id":6,"method":""}`, CodeInvalidRequest, "6"},
		{"unknown method", `{"jsonrpc":"2.0","id":7,"method":"resources/list"}`, CodeMethodNotFound, "7"},
		{"batch", `[{"jsonrpc":"2.0","id":8,"method":"ping"}]`, CodeInvalidRequest, "null"},
		{"empty batch", `[]`, CodeInvalidRequest, "null"},
		{"string", `"ping"`, CodeInvalidRequest, "null"},
		{"number", `42`, CodeInvalidRequest, "null"},
		{"null", `null`, CodeInvalidRequest, "null"},
		{"setLevel unknown", `{"jsonrpc":"2.0","id":9,"method":"logging/setLevel","params":{"level":"verbose"}}`, CodeInvalidParams, "9"},
		{"setLevel missing", `{"jsonrpc":"2.0","id":10,"method":"logging/setLevel","params":{}}`, CodeInvalidParams, "10"},
		{"setLevel number", `{"jsonrpc":"2.0","id":11,"method":"logging/setLevel","params":{"level":3}}`, CodeInvalidParams, "11"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c.t = t
			c.send(tc.line)
			m := c.next()
			m.wantError(t, tc.code, tc.id)
			t.Logf("message: %s", m.Error.Message)
			if tc.code == CodeMethodNotFound && !strings.Contains(m.Error.Message, "resources/list") {
				t.Errorf("message %q should name the method", m.Error.Message)
			}
		})
	}
	c.t = t
	// Blank lines and CRLF endings are fine, and the server is still up.
	c.send("")
	c.send("   ")
	c.send("{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"ping\"}\r")
	if m := c.next(); string(m.ID) != "99" || string(m.Result) != "{}" {
		t.Fatalf("ping after bad input = %s", m.raw)
	}
}

func TestIDsEchoedExactly(t *testing.T) {
	c := startServer(t, echoHandler())
	for _, id := range []string{`"abc"`, `0`, `-1`, `1.5`, `12345678901234567890`, `""`, `"a\u0062c"`, `1e3`, `-0.25`, `"😀"`} {
		c.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
		m := c.next()
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(m.raw, &fields); err != nil {
			t.Fatal(err)
		}
		if string(fields["id"]) != id {
			t.Errorf("id %s echoed as %s", id, fields["id"])
		}
		// Tool calls (which run on their own goroutine) echo ids too.
		c.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}`)
		m = c.next()
		if err := json.Unmarshal(m.raw, &fields); err != nil {
			t.Fatal(err)
		}
		if string(fields["id"]) != id {
			t.Errorf("tools/call id %s echoed as %s", id, fields["id"])
		}
	}
}

func TestNotificationsNeverAnswered(t *testing.T) {
	c := startServer(t, echoHandler())
	for _, line := range []string{
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized","params":"weird"}`,
		`{"jsonrpc":"2.0","method":"notifications/unknown","params":{"x":1}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":"garbage"}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{"bad":1}}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled"}`,
		`{"jsonrpc":"2.0","method":"logging/setLevel","params":{"level":"nope"}}`,
		`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"echo"}}`,
		`{"jsonrpc":"2.0","method":"tools/call","params":[1,2]}`,
		`{"jsonrpc":"2.0","method":"ping","params":7}`,
		`{"jsonrpc":"2.0","method":"initialize"}`,
		`{"jsonrpc":"2.0","id":12345,"result":{}}`,
		`{"jsonrpc":"2.0","id":12346,"error":{"code":1,"message":"x"}}`,
		`{"jsonrpc":"2.0","result":{}}`,
		`{"jsonrpc":"2.0","id":{},"error":5}`,
	} {
		c.send(line)
	}
	rest, err := c.closeAndDrain()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range rest {
		t.Errorf("notification or response was answered: %s", m.raw)
	}
}

func TestDuplicateInFlightID(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{})
	h := fakeHandler{"block": func(context.Context, json.RawMessage) (*CallToolResult, error) {
		close(started)
		<-release
		return textResult("ok"), nil
	}}
	c := startServer(t, h)
	c.request(9, "tools/call", map[string]any{"name": "block"})
	recv(t, started, "the tool to start")
	c.call(9, "ping", nil).wantError(t, CodeInvalidRequest, "9")
	close(release)
	if text, _ := toolText(t, c.next()); text != "ok" {
		t.Fatal(text)
	}
	c.call(9, "ping", nil) // free again
}

func TestPanicInHandler(t *testing.T) {
	c := startServer(t, echoHandler())
	m := c.call(1, "tools/call", map[string]any{"name": "boom"})
	m.wantError(t, CodeInternalError, "1")
	if !strings.Contains(m.Error.Message, "kaboom") || !strings.Contains(m.Error.Message, "boom") {
		t.Errorf("message %q should name the tool and the panic", m.Error.Message)
	}
	if text, _ := toolText(t, c.call(2, "tools/call", map[string]any{"name": "echo", "arguments": map[string]string{"text": "still here"}})); text != "still here" {
		t.Fatal(text)
	}
}

type panickyList struct{ fakeHandler }

func (panickyList) ListTools() []Tool { panic("list exploded") }

func TestPanicInListTools(t *testing.T) {
	c := startServer(t, panickyList{})
	c.call(1, "tools/list", nil).wantError(t, CodeInternalError, "1")
	c.call(2, "ping", nil)
}

type unencodable struct{}

func (unencodable) CallTool(context.Context, string, json.RawMessage) (*CallToolResult, error) {
	return &CallToolResult{StructuredContent: make(chan int)}, nil
}

func (unencodable) ListTools() []Tool { return nil }

func TestUnencodableResult(t *testing.T) {
	c := startServer(t, unencodable{})
	c.call(1, "tools/call", map[string]any{"name": "x"}).wantError(t, CodeInternalError, "1")
	c.call(2, "ping", nil)
}

func TestHugeLine(t *testing.T) {
	c := startServer(t, echoHandler())
	// 6 MB: a hundred times bufio's default buffer, like a big snapshot,
	// yet small enough to parse within waitLimit under -race on a loaded
	// machine (20 MB did not).
	big := strings.Repeat("x", 6<<20)
	c.request(1, "tools/call", map[string]any{"name": "len", "arguments": map[string]string{"text": big}})
	if text, _ := toolText(t, c.next()); text != strconv.Itoa(len(big)) {
		t.Fatalf("server saw %s bytes, want %d", text, len(big))
	}
	// Large responses are written whole, on one line.
	big = big[:2<<20]
	if text, _ := toolText(t, c.call(2, "tools/call", map[string]any{"name": "echo", "arguments": map[string]string{"text": big}})); text != big {
		t.Fatalf("echoed %d bytes, want %d", len(text), len(big))
	}
	c.call(3, "ping", nil)
}

func TestLineOverCap(t *testing.T) {
	c := startServer(t, echoHandler(), WithMaxLineSize(1024))
	c.request(1, "tools/call", map[string]any{"name": "echo", "arguments": map[string]string{"text": strings.Repeat("y", 4096)}})
	m := c.next()
	m.wantError(t, CodeParseError, "null")
	if !strings.Contains(m.Error.Message, "1024") {
		t.Errorf("message %q should state the limit", m.Error.Message)
	}
	// A line just under the cap still works, and so does the next line.
	if text, _ := toolText(t, c.call(2, "tools/call", map[string]any{"name": "echo", "arguments": map[string]string{"text": strings.Repeat("z", 900)}})); len(text) != 900 {
		t.Fatalf("got %d bytes", len(text))
	}
	c.call(3, "ping", nil)
}

func TestRequestRoundTrip(t *testing.T) {
	c := startServer(t, echoHandler())
	ss := c.session()

	type roots struct {
		Roots []struct{ URI, Name string } `json:"roots"`
	}
	type outcome struct {
		r   roots
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		var r roots
		err := ss.call(context.Background(), "roots/list", map[string]any{"x": 1}, &r)
		done <- outcome{r, err}
	}()
	req := c.next()
	if req.Method != "roots/list" || len(req.ID) == 0 || string(req.Params) != `{"x":1}` {
		t.Fatalf("server request = %s", req.raw)
	}
	// An answer to an unknown id is dropped without harm.
	c.send(`{"jsonrpc":"2.0","id":"nobody","result":{}}`)
	c.send(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"roots":[{"uri":"file:///tmp","name":"tmp"}]}}`)
	o := recv(t, done, "Request to return")
	if o.err != nil || len(o.r.Roots) != 1 || o.r.Roots[0].URI != "file:///tmp" {
		t.Fatalf("Request = %+v, %v", o.r, o.err)
	}

	// An error response becomes *Error.
	errc := make(chan error, 1)
	go func() { errc <- ss.call(context.Background(), "roots/list", nil, nil) }()
	req = c.next()
	if req.Params != nil {
		t.Errorf("nil params should be omitted: %s", req.raw)
	}
	c.send(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"error":{"code":-32601,"message":"no roots"}}`)
	var rpcErr *Error
	if err := recv(t, errc, "Request to fail"); !errors.As(err, &rpcErr) || rpcErr.Code != CodeMethodNotFound || rpcErr.Message != "no roots" {
		t.Fatalf("Request error = %v, want *Error -32601", err)
	}

	// Giving up on a request tells the client.
	ctx, cancel := context.WithCancel(context.Background())
	go func() { errc <- ss.call(ctx, "sampling/createMessage", nil, nil) }()
	req = c.next()
	cancel()
	if err := recv(t, errc, "Request to give up"); !errors.Is(err, context.Canceled) {
		t.Fatalf("Request = %v, want context.Canceled", err)
	}
	n := c.next()
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if n.Method != "notifications/cancelled" || json.Unmarshal(n.Params, &p) != nil || string(p.RequestID) != string(req.ID) {
		t.Fatalf("expected notifications/cancelled for %s, got %s", req.ID, n.raw)
	}
	// A late answer is dropped.
	c.send(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{}}`)
	c.call(1, "ping", nil)
}

func TestRequestEndsWithSession(t *testing.T) {
	c := startServer(t, echoHandler())
	ss := c.session()
	errc := make(chan error, 1)
	go func() { errc <- ss.call(context.Background(), "roots/list", nil, nil) }()
	c.next() // the request
	if _, err := c.closeAndDrain(); err != nil {
		t.Fatal(err)
	}
	if err := recv(t, errc, "Request to end"); !errors.Is(err, ErrSessionClosed) {
		t.Fatalf("Request = %v, want ErrSessionClosed", err)
	}
}

func TestLogRespectsLevel(t *testing.T) {
	c := startServer(t, echoHandler())
	ss := c.session()
	// Not sent before the client sets a level: the ping answer comes next.
	ss.Log("emergency", "cdp", "ignored")
	c.call(1, "ping", nil)

	c.call(2, "logging/setLevel", map[string]string{"level": "warning"}).result(t, nil)
	ss.Log("info", "cdp", "too low")
	ss.Log("bogus", "cdp", "unknown level")
	ss.Log("error", "cdp", map[string]string{"msg": "navigation failed"})
	m := c.next()
	if m.Method != "notifications/message" || string(m.Params) != `{"level":"error","logger":"cdp","data":{"msg":"navigation failed"}}` {
		t.Fatalf("log notification = %s", m.raw)
	}
	ss.Log("warning", "", "at threshold")
	m = c.next()
	if string(m.Params) != `{"level":"warning","data":"at threshold"}` {
		t.Fatalf("log notification = %s", m.raw)
	}
	c.call(3, "logging/setLevel", map[string]string{"level": "debug"})
	ss.Log("debug", "x", nil)
	if m = c.next(); string(m.Params) != `{"level":"debug","logger":"x","data":null}` {
		t.Fatalf("log notification = %s", m.raw)
	}
}

func TestProgress(t *testing.T) {
	var late atomic.Pointer[func(float64, float64, string)]
	h := fakeHandler{"slow": func(ctx context.Context, _ json.RawMessage) (*CallToolResult, error) {
		report := ProgressFrom(ctx)
		report(1, 3, "loading")
		report(2, 0, "")
		late.Store(&report)
		return textResult("done"), nil
	}}
	c := startServer(t, h)
	for _, token := range []string{`"tok-1"`, `17`} {
		c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","_meta":{"progressToken":` + token + `}}}`)
		for _, want := range []string{
			`{"progressToken":` + token + `,"progress":1,"total":3,"message":"loading"}`,
			`{"progressToken":` + token + `,"progress":2}`,
		} {
			m := c.next()
			if m.Method != "notifications/progress" || string(m.Params) != want || m.ID != nil {
				t.Fatalf("got %s, want progress %s", m.raw, want)
			}
		}
		if text, _ := toolText(t, c.next()); text != "done" {
			t.Fatal(text)
		}
		// Progress after the response is not sent.
		(*late.Load())(3, 3, "late")
	}
	// No token: the reporter does nothing, so the response comes first.
	if text, _ := toolText(t, c.call(2, "tools/call", map[string]any{"name": "slow", "_meta": map[string]any{}})); text != "done" {
		t.Fatal(text)
	}
	if text, _ := toolText(t, c.call(3, "tools/call", map[string]any{"name": "slow", "_meta": "junk"})); text != "done" {
		t.Fatal(text)
	}
	ProgressFrom(context.Background())(1, 2, "no-op")
	rest, err := c.closeAndDrain()
	if err != nil || len(rest) != 0 {
		t.Fatalf("unexpected output %v, %v", rest, err)
	}
}

func TestNotifyAndOnNotification(t *testing.T) {
	// The panicking handler logs after the test could otherwise have ended,
	// so its log goes to a channel the test waits on, not to t.
	logs := make(logLines, 100)
	got := make(chan string, 2)
	sessions := make(chan *Session, 2)
	s := NewServer(ServerInfo{Name: "n", Version: "1"}, echoHandler(),
		WithLogger(slog.New(slog.NewTextHandler(logs, nil))),
		WithNotificationHandler("notifications/roots/list_changed", func(_ context.Context, p json.RawMessage) { got <- "roots:" + string(p) }),
		WithNotificationHandler("notifications/initialized", func(ctx context.Context, p json.RawMessage) {
			sessions <- SessionFrom(ctx)
			got <- "initialized:" + string(p)
		}),
		WithNotificationHandler("notifications/panics", func(context.Context, json.RawMessage) { panic("handler bug") }),
		WithNotificationHandler("notifications/removed", func(context.Context, json.RawMessage) { got <- "removed" }),
		WithNotificationHandler("notifications/removed", nil))
	c := startWith(t, s)

	c.notification("notifications/removed", nil)
	c.notification("notifications/panics", nil)
	for {
		line := recv(t, logs, "the panic to be logged")
		if strings.Contains(line, "panic in a notification handler") {
			if !strings.Contains(line, "handler bug") || !strings.Contains(line, "stack=") {
				t.Errorf("panic log lacks the value or stack: %s", line)
			}
			break
		}
	}
	c.notification("notifications/roots/list_changed", map[string]int{"n": 1})
	if v := recv(t, got, "the roots handler"); v != `roots:{"n":1}` {
		t.Errorf("handler got %q", v)
	}
	c.notification("notifications/initialized", nil)
	if v := recv(t, got, "the initialized hook"); v != "initialized:" {
		t.Errorf("hook got %q", v)
	}
	ss := recv(t, sessions, "the hook's session")
	if ss == nil {
		t.Fatal("the notification handler's ctx carries no session")
	}

	if err := ss.Notify("notifications/tools/list_changed", nil); err != nil {
		t.Fatal(err)
	}
	if m := c.next(); m.Method != "notifications/tools/list_changed" || m.ID != nil || m.Params != nil {
		t.Fatalf("notification = %s", m.raw)
	}
	if err := ss.Notify("x", make(chan int)); err == nil {
		t.Error("Notify with unencodable params should fail")
	}
	c.call(1, "ping", nil)
}

// logLines collects log output one write (one record) at a time, never
// blocking the writer.
type logLines chan string

func (l logLines) Write(p []byte) (int, error) {
	select {
	case l <- string(p):
	default:
	}
	return len(p), nil
}

func TestErrorString(t *testing.T) {
	e := &Error{Code: CodeInvalidParams, Message: "unknown tool"}
	if got := e.Error(); !strings.Contains(got, "-32602") || !strings.Contains(got, "unknown tool") {
		t.Errorf("Error() = %q", got)
	}
}

func TestErrorDataUnencodable(t *testing.T) {
	h := fakeHandler{"x": func(context.Context, json.RawMessage) (*CallToolResult, error) {
		return nil, &Error{Code: CodeInvalidParams, Message: "bad", Data: make(chan int)}
	}}
	c := startServer(t, h)
	m := c.call(1, "tools/call", map[string]any{"name": "x"})
	m.wantError(t, CodeInvalidParams, "1")
}

func TestReadErrorEndsServe(t *testing.T) {
	s := NewServer(ServerInfo{Name: "r", Version: "1"}, echoHandler())
	var out bytes.Buffer
	err := s.Serve(context.Background(), errReader{}, &out)
	if !errors.Is(err, errBoom) {
		t.Fatalf("Serve = %v, want the read error", err)
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errBoom }

func TestHeartbeatWhileAToolReportsNothing(t *testing.T) {
	release := make(chan struct{})
	h := fakeHandler{
		"quiet": func(ctx context.Context, _ json.RawMessage) (*CallToolResult, error) {
			<-release
			return textResult("done"), nil
		},
		"chatty": func(ctx context.Context, _ json.RawMessage) (*CallToolResult, error) {
			ProgressFrom(ctx)(10, 100, "own")
			<-release
			return textResult("done"), nil
		},
	}
	c := startServer(t, h)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"quiet","_meta":{"progressToken":"q"}}}`)
	m := c.next()
	want := `{"progressToken":"q","progress":1,"message":"quiet: still running after 1s"}`
	if m.Method != "notifications/progress" || string(m.Params) != want {
		t.Fatalf("got %s, want the heartbeat %s", m.raw, want)
	}
	release <- struct{}{}
	for m = c.next(); m.Method == "notifications/progress"; m = c.next() {
	}
	if text, _ := toolText(t, m); text != "done" {
		t.Fatal(text)
	}
	// A tool that reports its own progress gets no heartbeat mixed in,
	// which would break MCP's rule that progress only increases.
	c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"chatty","_meta":{"progressToken":"c"}}}`)
	if m := c.next(); string(m.Params) != `{"progressToken":"c","progress":10,"total":100,"message":"own"}` {
		t.Fatalf("got %s, want the tool's own progress", m.raw)
	}
	// Two heartbeat periods pass with the tool still running; the next
	// message must be the answer.
	time.AfterFunc(2*heartbeatInterval+100*time.Millisecond, func() { release <- struct{}{} })
	if text, _ := toolText(t, c.next()); text != "done" {
		t.Fatalf("a heartbeat followed the tool's own progress: %s", text)
	}
}

func TestAnnotationsOmitMCPDefaults(t *testing.T) {
	for _, tc := range []struct {
		a    ToolAnnotations
		want string
	}{
		{ToolAnnotations{DestructiveHint: true, OpenWorldHint: true}, `{"readOnlyHint":false}`},
		{ToolAnnotations{Title: "Emulate", IdempotentHint: true}, `{"title":"Emulate","readOnlyHint":false,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false}`},
		{ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: true}, `{"readOnlyHint":true}`},
	} {
		got, err := json.Marshal(tc.a)
		if err != nil || string(got) != tc.want {
			t.Errorf("%+v encodes as %s (%v), want %s", tc.a, got, err, tc.want)
		}
	}
}
