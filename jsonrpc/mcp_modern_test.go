package jsonrpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// modernParams returns request params carrying MCP 2026-07-28 _meta with
// caps as the client's capabilities, merged with extra.
func modernParams(caps map[string]any, extra map[string]any) map[string]any {
	if caps == nil {
		caps = map[string]any{}
	}
	p := map[string]any{"_meta": map[string]any{
		"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
		"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "ExampleClient", "version": "1.0.0"},
		"io.modelcontextprotocol/clientCapabilities": caps,
	}}
	for k, v := range extra {
		p[k] = v
	}
	return p
}

// modernResult is the part of every 2026-07-28 result the tests check.
type modernResult struct {
	ResultType string `json:"resultType"`
	Meta       struct {
		ServerInfo ServerInfo `json:"io.modelcontextprotocol/serverInfo"`
	} `json:"_meta"`
	TTLMs      *int   `json:"ttlMs"`
	CacheScope string `json:"cacheScope"`
}

func TestDiscoverWithoutInitialize(t *testing.T) {
	c := startServer(t, echoHandler(), WithInstructions("drive a browser"))
	m := c.call("discover-1", "server/discover", modernParams(nil, nil))
	var res struct {
		modernResult
		SupportedVersions []string        `json:"supportedVersions"`
		Capabilities      json.RawMessage `json:"capabilities"`
		Instructions      string          `json:"instructions"`
	}
	m.result(t, &res)
	if res.ResultType != "complete" || res.Meta.ServerInfo != (ServerInfo{Name: "test-server", Version: "1.2.3"}) {
		t.Fatalf("discover result = %s", m.raw)
	}
	want := []string{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}
	if !slices.Equal(res.SupportedVersions, want) || res.Instructions != "drive a browser" || !strings.Contains(string(res.Capabilities), `"tools"`) {
		t.Fatalf("discover result = %s", m.raw)
	}
	if res.TTLMs == nil || *res.TTLMs <= 0 || res.CacheScope != "public" {
		t.Fatalf("discover lacks cache hints: %s", m.raw)
	}
}

func TestModernRequestsNeedNoInitialize(t *testing.T) {
	c := startServer(t, echoHandler())
	m := c.call(1, "tools/list", modernParams(nil, nil))
	var list struct {
		modernResult
		Tools []Tool `json:"tools"`
	}
	m.result(t, &list)
	if list.ResultType != "complete" || len(list.Tools) != len(echoHandler()) || list.TTLMs == nil || list.CacheScope != "public" {
		t.Fatalf("tools/list = %.400s", m.raw)
	}
	m = c.call(2, "tools/call", modernParams(nil, map[string]any{"name": "echo", "arguments": map[string]any{"text": "hi"}}))
	var res modernResult
	m.result(t, &res)
	if text, _ := toolText(t, m); text != "hi" || res.ResultType != "complete" || res.Meta.ServerInfo.Name != "test-server" || res.TTLMs != nil {
		t.Fatalf("tools/call = %s", m.raw)
	}
	// A tool failure is still a result, with resultType.
	m = c.call(3, "tools/call", modernParams(nil, map[string]any{"name": "fail"}))
	if text, r := toolText(t, m); !r.IsError || !strings.Contains(text, "boom") || !strings.Contains(string(m.Result), `"resultType":"complete"`) {
		t.Fatalf("failing tools/call = %s", m.raw)
	}
	// The legacy session was never started by any of this.
	if v := c.session().ProtocolVersion(); v != "" {
		t.Fatalf("the connection's session has protocol %q after stateless requests", v)
	}
}

func TestModernRejectsBadMeta(t *testing.T) {
	c := startServer(t, echoHandler())
	m := c.call(1, "tools/list", map[string]any{"_meta": map[string]any{
		"io.modelcontextprotocol/protocolVersion": "1900-01-01", "io.modelcontextprotocol/clientCapabilities": map[string]any{}}})
	m.wantError(t, CodeUnsupportedProtocolVersion, "1")
	var data struct {
		Supported []string `json:"supported"`
		Requested string   `json:"requested"`
	}
	b, _ := json.Marshal(m.Error.Data)
	if json.Unmarshal(b, &data) != nil || data.Requested != "1900-01-01" || data.Supported[0] != "2026-07-28" || !slices.Contains(data.Supported, "2025-11-25") || m.Error.Message != "Unsupported protocol version" {
		t.Fatalf("unsupported version error = %s", m.raw)
	}
	c.call(2, "server/discover", map[string]any{"_meta": map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}).wantError(t, CodeInvalidParams, "2")
	c.call(3, "tools/call", map[string]any{"name": "echo", "_meta": map[string]any{
		"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": "all"}}).wantError(t, CodeInvalidParams, "3")
	c.call(4, "tools/list", map[string]any{"_meta": map[string]any{"io.modelcontextprotocol/protocolVersion": 2026}}).wantError(t, CodeInvalidParams, "4")
	// Methods 2026-07-28 removed, and unknown ones.
	c.call(5, "ping", modernParams(nil, nil)).wantError(t, CodeMethodNotFound, "5")
	c.call(6, "logging/setLevel", modernParams(nil, map[string]any{"level": "debug"})).wantError(t, CodeMethodNotFound, "6")
	// server/discover without _meta, from a legacy client, is malformed.
	c.call(7, "server/discover", nil).wantError(t, CodeInvalidParams, "7")
	// 2026-07-28 removed initialize; a 2025 initialize with other _meta is served.
	c.call(8, "initialize", modernParams(nil, map[string]any{"protocolVersion": "2025-11-25"})).wantError(t, CodeMethodNotFound, "8")
	c.call(9, "initialize", map[string]any{"protocolVersion": "2025-11-25", "_meta": map[string]any{"io.modelcontextprotocol/protocolVersion": "2025-11-25"}}).result(t, nil)
}

func TestDualEraOnOneStream(t *testing.T) {
	c := startServer(t, echoHandler())
	// The dual-era probe, then a stateless call, then a legacy session on
	// the same stream, then stateless again: each is served in its era.
	c.call(1, "server/discover", modernParams(nil, nil)).result(t, nil)
	if text, _ := toolText(t, c.call(2, "tools/call", modernParams(nil, map[string]any{"name": "echo", "arguments": map[string]any{"text": "modern"}}))); text != "modern" {
		t.Fatal(text)
	}
	var init InitializeResult
	c.call(3, "initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{"roots": map[string]any{}}}).result(t, &init)
	if init.ProtocolVersion != "2025-11-25" {
		t.Fatalf("initialize agreed on %q", init.ProtocolVersion)
	}
	c.notification("notifications/initialized", nil)
	m := c.call(4, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "legacy"}})
	if text, _ := toolText(t, m); text != "legacy" || strings.Contains(string(m.Result), "resultType") {
		t.Fatalf("legacy tools/call = %s", m.raw)
	}
	if text, _ := toolText(t, c.call(5, "tools/call", modernParams(nil, map[string]any{"name": "echo", "arguments": map[string]any{"text": "modern again"}}))); text != "modern again" {
		t.Fatal(text)
	}
	if ss := c.session(); ss.ProtocolVersion() != "2025-11-25" || !ss.HasCapability("roots") {
		t.Fatalf("the legacy session was changed by stateless requests: %q", ss.ProtocolVersion())
	}
}

// TestModernSessionIsPerRequest checks that a 2026-07-28 request sees the
// capabilities and log level of its own _meta, and is never sent roots/list.
func TestModernSessionIsPerRequest(t *testing.T) {
	h := fakeHandler{"who": func(ctx context.Context, _ json.RawMessage) (*CallToolResult, error) {
		ss := SessionFrom(ctx)
		_, err := ss.Roots(ctx)
		ss.Log("info", "t", "hello")
		return textResult(fmt.Sprintf("%s %v %v %s", ss.ProtocolVersion(), ss.HasCapability("elicitation"), errors.Is(err, errors.ErrUnsupported), ss.ClientInfo().Name)), nil
	}}
	c := startServer(t, h)
	if text, _ := toolText(t, c.call(1, "tools/call", modernParams(map[string]any{"roots": map[string]any{}}, map[string]any{"name": "who"}))); text != "2026-07-28 false true ExampleClient" {
		t.Fatal(text)
	}
	p := modernParams(map[string]any{"elicitation": map[string]any{}}, map[string]any{"name": "who"})
	p["_meta"].(map[string]any)["io.modelcontextprotocol/logLevel"] = "info"
	c.request(2, "tools/call", p)
	if m := c.next(); m.Method != "notifications/message" || !strings.Contains(string(m.Params), "hello") {
		t.Fatalf("expected the log entry the request asked for, got %s", m.raw)
	}
	if text, _ := toolText(t, c.next()); text != "2026-07-28 true true ExampleClient" {
		t.Fatal(text)
	}
}

// confirmTool asks the user before acting, as the sensitive-page guard
// does, and counts how often it acted.
func confirmTool(acted *atomic.Int32) fakeHandler {
	return fakeHandler{"pay": func(ctx context.Context, args json.RawMessage) (*CallToolResult, error) {
		res, err := SessionFrom(ctx).Elicit(ctx, "Pay "+string(args)+"?", nil)
		if err != nil {
			return nil, fmt.Errorf("refused: asking failed: %w", err)
		}
		if res.Action != "accept" {
			return nil, errors.New("refused: you declined")
		}
		acted.Add(1)
		return textResult("paid"), nil
	}}
}

func TestElicitationAsMultiRoundTrip(t *testing.T) {
	var acted atomic.Int32
	c := startServer(t, confirmTool(&acted))
	caps := map[string]any{"elicitation": map[string]any{"form": map[string]any{}}}
	args := map[string]any{"amount": 5}
	m := c.call(1, "tools/call", modernParams(caps, map[string]any{"name": "pay", "arguments": args}))
	var ir struct {
		ResultType    string `json:"resultType"`
		InputRequests map[string]struct {
			Method string `json:"method"`
			Params struct {
				Mode            string          `json:"mode"`
				Message         string          `json:"message"`
				RequestedSchema json.RawMessage `json:"requestedSchema"`
			} `json:"params"`
		} `json:"inputRequests"`
		RequestState string `json:"requestState"`
		TTLMs        *int   `json:"ttlMs"`
	}
	m.result(t, &ir)
	if ir.ResultType != "input_required" || len(ir.InputRequests) != 1 || ir.RequestState == "" || ir.TTLMs != nil {
		t.Fatalf("first attempt = %s", m.raw)
	}
	var key string
	for k, r := range ir.InputRequests {
		key = k
		if r.Method != "elicitation/create" || r.Params.Mode != "form" || r.Params.Message != `Pay {"amount":5}?` || !strings.Contains(string(r.Params.RequestedSchema), `"object"`) {
			t.Fatalf("input request = %s", m.raw)
		}
	}
	if acted.Load() != 0 {
		t.Fatal("the tool acted before the user answered")
	}
	retry := func(id int, state any, answers map[string]any, a map[string]any) message {
		extra := map[string]any{"name": "pay", "arguments": a, "inputResponses": answers}
		if state != nil {
			extra["requestState"] = state
		}
		return c.call(id, "tools/call", modernParams(caps, extra))
	}
	accept := map[string]any{key: map[string]any{"action": "accept", "content": map[string]any{}}}

	// An answer without the state, or with the state of other arguments,
	// does not count.
	if m := retry(2, nil, accept, args); !strings.Contains(string(m.Result), `"input_required"`) || acted.Load() != 0 {
		t.Fatalf("answer without requestState = %s", m.raw)
	}
	retry(3, ir.RequestState, accept, map[string]any{"amount": 5000}).wantError(t, CodeInvalidParams, "3")
	retry(4, ir.RequestState+"x", accept, args).wantError(t, CodeInvalidParams, "4")
	if acted.Load() != 0 {
		t.Fatal("the tool acted on a forged answer")
	}
	// Declined: refused, as a tool error.
	decline := map[string]any{key: map[string]any{"action": "decline"}}
	if text, r := toolText(t, retry(5, ir.RequestState, decline, args)); !r.IsError || !strings.Contains(text, "declined") {
		t.Fatalf("declined retry = %s", text)
	}
	// That answer is spent: the same state is asked again, with a new one.
	again := retry(50, ir.RequestState, accept, args)
	var ir2 struct {
		ResultType   string `json:"resultType"`
		RequestState string `json:"requestState"`
	}
	again.result(t, &ir2)
	if ir2.ResultType != "input_required" || ir2.RequestState == "" || ir2.RequestState == ir.RequestState || acted.Load() != 0 {
		t.Fatalf("a spent requestState counted: %s", again.raw)
	}
	// Accepted: it runs once, and a replay of the same retry does not run it again.
	if text, r := toolText(t, retry(6, ir2.RequestState, accept, args)); r.IsError || text != "paid" || acted.Load() != 1 {
		t.Fatalf("accepted retry = %s (acted %d)", text, acted.Load())
	}
	if m := retry(60, ir2.RequestState, accept, args); !strings.Contains(string(m.Result), `"input_required"`) || acted.Load() != 1 {
		t.Fatalf("replayed retry = %s (acted %d)", m.raw, acted.Load())
	}
	// A client that cannot show forms gets the specified error.
	m = c.call(7, "tools/call", modernParams(nil, map[string]any{"name": "pay", "arguments": args}))
	m.wantError(t, CodeMissingRequiredClientCapability, "7")
	if b, _ := json.Marshal(m.Error.Data); !strings.Contains(string(b), `"requiredCapabilities":{"elicitation"`) {
		t.Fatalf("missing capability error = %s", m.raw)
	}
}

func TestRequestStateExpires(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	rt := newRoundTrip([]byte("k"), new(usedStates), "tools/call", json.RawMessage(`{"name":"pay"}`))
	rt.now = func() time.Time { return now }
	state := rt.state()
	later := newRoundTrip([]byte("k"), new(usedStates), "tools/call", json.RawMessage(`{"name":"pay","_meta":{},"inputResponses":{"a":{}},"requestState":"`+state+`"}`))
	later.now = func() time.Time { return now.Add(stateLifetime + time.Second) }
	if err := later.parse(json.RawMessage(`{"name":"pay","inputResponses":{"a":{"action":"accept"}},"requestState":"` + state + `"}`)); err != nil || later.answers != nil {
		t.Fatalf("expired state: err %v, answers %v", err, later.answers)
	}
	later.now = func() time.Time { return now.Add(time.Minute) }
	if err := later.parse(json.RawMessage(`{"name":"pay","inputResponses":{"a":{"action":"accept"}},"requestState":"` + state + `"}`)); err != nil || later.answers == nil {
		t.Fatalf("fresh state: err %v, answers %v", err, later.answers)
	}
	other := newRoundTrip([]byte("other key"), new(usedStates), "tools/call", json.RawMessage(`{"name":"pay"}`))
	if err := other.parse(json.RawMessage(`{"name":"pay","requestState":"` + state + `"}`)); err == nil {
		t.Fatal("a state from another server process verified")
	}
}

func TestSubscriptionsListen(t *testing.T) {
	c := startServer(t, echoHandler())
	c.request(7, "subscriptions/listen", modernParams(nil, map[string]any{"notifications": map[string]any{"toolsListChanged": true, "resourceSubscriptions": []string{"file:///x"}}}))
	m := c.next()
	if m.Method != "notifications/subscriptions/acknowledged" || string(m.Params) != `{"_meta":{"io.modelcontextprotocol/subscriptionId":7},"notifications":{}}` {
		t.Fatalf("acknowledgement = %s", m.raw)
	}
	// The stream stays open while other requests are served.
	if text, _ := toolText(t, c.call(8, "tools/call", modernParams(nil, map[string]any{"name": "echo", "arguments": map[string]any{"text": "x"}}))); text != "x" {
		t.Fatal(text)
	}
	// Cancelling ends it without a response.
	c.notification("notifications/cancelled", map[string]any{"requestId": 7})
	c.call(9, "server/discover", modernParams(nil, nil)).result(t, nil)
	c.call(10, "subscriptions/listen", modernParams(nil, nil)).wantError(t, CodeInvalidParams, "10")

	// Shutting down ends a subscription gracefully.
	c.request(11, "subscriptions/listen", modernParams(nil, map[string]any{"notifications": map[string]any{}}))
	c.next()
	c.cancel()
	rest, _ := c.closeAndDrain()
	if len(rest) != 1 || string(rest[0].ID) != "11" || !strings.Contains(string(rest[0].Result), `"io.modelcontextprotocol/subscriptionId":11`) || !strings.Contains(string(rest[0].Result), `"resultType":"complete"`) {
		t.Fatalf("after shutdown: %v", rest)
	}
}

func TestDiscoverHandlerRuns(t *testing.T) {
	ran := make(chan *Session, 1)
	c := startServer(t, echoHandler(), WithDiscoverHandler(func(ctx context.Context) { ran <- SessionFrom(ctx) }))
	c.call(1, "server/discover", modernParams(nil, nil)).result(t, nil)
	if ss := recv(t, ran, "the discover handler"); ss == nil || ss.ProtocolVersion() != "2026-07-28" {
		t.Fatalf("discover handler ran with session %v", ss)
	}
}
