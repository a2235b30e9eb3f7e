package jsonrpc

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// modernHTTP is a 2026-07-28 client of an httpServer: no session, and the
// headers that mirror each request's body.
func (s *httpServer) modernClient() *httpClient {
	c := s.client()
	c.header[headerProtocolVersion] = ModernProtocolVersion
	return c
}

// modernPost posts a 2026-07-28 request with the standard headers.
func (c *httpClient) modernPost(id any, method string, params map[string]any) *http.Response {
	c.t.Helper()
	c.header[headerMethod] = method
	delete(c.header, headerName)
	if name, ok := params["name"].(string); ok {
		c.header[headerName] = name
	}
	return c.post(request(id, method, params))
}

func TestHTTPStatelessDiscoverAndCall(t *testing.T) {
	s := startHTTP(t, fakeHandler{"echo": echoTool}, HTTPOptions{})
	c := s.modernClient()
	resp := c.modernPost("discover-1", "server/discover", modernParams(nil, nil))
	if id := resp.Header.Get(headerSessionID); id != "" {
		t.Fatalf("a 2026-07-28 answer carries %s %q", headerSessionID, id)
	}
	m := single(t, resp)
	if !strings.Contains(string(m.Result), `"resultType":"complete"`) || !strings.Contains(string(m.Result), `"supportedVersions":["2026-07-28"`) {
		t.Fatalf("discover = %s", m.raw)
	}
	m = single(t, c.modernPost(2, "tools/list", modernParams(nil, nil)))
	if !strings.Contains(string(m.Result), `"ttlMs":`) || !strings.Contains(string(m.Result), `"name":"echo"`) {
		t.Fatalf("tools/list = %s", m.raw)
	}
	// A session id, as a 2025 client would send, is ignored.
	c.header[headerSessionID] = "no-such-session"
	m = single(t, c.modernPost(3, "tools/call", modernParams(nil, map[string]any{"name": "echo", "arguments": map[string]any{"text": "hi"}})))
	if text, _ := toolText(t, m); text != `{"text":"hi"}` {
		t.Fatalf("tools/call = %s", m.raw)
	}
}

func TestHTTPStatelessProgressStreams(t *testing.T) {
	h := fakeHandler{"slow": func(ctx context.Context, _ json.RawMessage) (*CallToolResult, error) {
		ProgressFrom(ctx)(1, 2, "half")
		return textResult("done"), nil
	}}
	s := startHTTP(t, h, HTTPOptions{})
	p := modernParams(nil, map[string]any{"name": "slow"})
	p["_meta"].(map[string]any)["progressToken"] = "t"
	ch := events(t, s.modernClient().modernPost(1, "tools/call", p))
	if m := <-ch; m.Method != "notifications/progress" || !strings.Contains(string(m.Params), `"half"`) {
		t.Fatalf("first event = %s", m.raw)
	}
	if text, _ := toolText(t, <-ch); text != "done" {
		t.Fatal(text)
	}
	streamEnd(t, ch)
}

func TestHTTPStatelessErrors(t *testing.T) {
	s := startHTTP(t, confirmTool(new(atomic.Int32)), HTTPOptions{})
	c := s.modernClient()
	params := modernParams(nil, map[string]any{"name": "pay"})

	c.header[headerProtocolVersion] = "1900-01-01"
	e := httpErrorBody(t, c.modernPost(1, "tools/list", map[string]any{"_meta": map[string]any{
		"io.modelcontextprotocol/protocolVersion": "1900-01-01", "io.modelcontextprotocol/clientCapabilities": map[string]any{}}}), http.StatusBadRequest)
	if e.Code != CodeUnsupportedProtocolVersion {
		t.Fatalf("unsupported version: %+v", e)
	}
	c.header[headerProtocolVersion] = ModernProtocolVersion
	// 2026-07-28 removed initialize: with its header, it is an unknown method.
	if e := httpErrorBody(t, c.modernPost(0, "initialize", modernParams(nil, map[string]any{"protocolVersion": "2026-07-28"})), http.StatusNotFound); e.Code != CodeMethodNotFound {
		t.Fatalf("initialize: %+v", e)
	}
	if e := httpErrorBody(t, c.modernPost(2, "tools/list", map[string]any{"_meta": map[string]any{
		"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}), http.StatusBadRequest); e.Code != CodeInvalidParams {
		t.Fatalf("missing capabilities: %+v", e)
	}
	if e := httpErrorBody(t, c.modernPost(3, "ping", modernParams(nil, nil)), http.StatusNotFound); e.Code != CodeMethodNotFound {
		t.Fatalf("removed method: %+v", e)
	}
	// Headers that do not match the body, or are missing.
	for _, tc := range []struct{ header, value string }{
		{headerMethod, "tools/list"}, {headerMethod, ""}, {headerName, "echo"}, {headerName, ""},
		{headerProtocolVersion, "2025-11-25"}, {headerName, "=?base64?!!?="},
	} {
		c.header[headerMethod], c.header[headerName] = "tools/call", "pay"
		c.header[tc.header] = tc.value
		if e := httpErrorBody(t, c.post(request(4, "tools/call", params)), http.StatusBadRequest); e.Code != CodeHeaderMismatch {
			t.Fatalf("%s: %q: %+v", tc.header, tc.value, e)
		}
	}
	c.header[headerProtocolVersion] = ModernProtocolVersion
	// A 2026-07-28 header on a body without the _meta is malformed.
	c.header[headerMethod] = "tools/list"
	if e := httpErrorBody(t, c.post(request(5, "tools/list", nil)), http.StatusBadRequest); e.Code != CodeInvalidParams {
		t.Fatalf("no _meta: %+v", e)
	}
	// A guarded call from a client without elicitation.
	c.header[headerMethod], c.header[headerName] = "tools/call", "=?base64?cGF5?=" // "pay", encoded
	if e := httpErrorBody(t, c.post(request(6, "tools/call", params)), http.StatusBadRequest); e.Code != CodeMissingRequiredClientCapability {
		t.Fatalf("missing capability: %+v", e)
	}
}

func TestHTTPStatelessMultiRoundTrip(t *testing.T) {
	var acted atomic.Int32
	s := startHTTP(t, confirmTool(&acted), HTTPOptions{})
	c := s.modernClient()
	caps := map[string]any{"elicitation": map[string]any{"form": map[string]any{}}}
	m := single(t, c.modernPost(1, "tools/call", modernParams(caps, map[string]any{"name": "pay", "arguments": map[string]any{"to": "bob"}})))
	var ir struct {
		ResultType    string                     `json:"resultType"`
		InputRequests map[string]json.RawMessage `json:"inputRequests"`
		RequestState  string                     `json:"requestState"`
	}
	m.result(t, &ir)
	if ir.ResultType != "input_required" || len(ir.InputRequests) != 1 || acted.Load() != 0 {
		t.Fatalf("first attempt = %s", m.raw)
	}
	answers := map[string]any{}
	for k := range ir.InputRequests {
		answers[k] = map[string]any{"action": "accept"}
	}
	// The retry is a new request on a new connection: nothing is kept
	// between the two but what the client sends back.
	m = single(t, s.modernClient().modernPost(2, "tools/call", modernParams(caps, map[string]any{
		"name": "pay", "arguments": map[string]any{"to": "bob"}, "inputResponses": answers, "requestState": ir.RequestState})))
	if text, _ := toolText(t, m); text != "paid" || acted.Load() != 1 {
		t.Fatalf("retry = %s", m.raw)
	}
}

func TestHTTPStatelessClosingTheStreamCancels(t *testing.T) {
	started, cancelled := make(chan struct{}), make(chan struct{})
	h := fakeHandler{"wait": func(ctx context.Context, _ json.RawMessage) (*CallToolResult, error) {
		close(started)
		<-ctx.Done()
		close(cancelled)
		return nil, ctx.Err()
	}}
	s := startHTTP(t, h, HTTPOptions{})
	c := s.modernClient()
	ctx, cancel := context.WithCancel(t.Context())
	c.header[headerMethod], c.header[headerName] = "tools/call", "wait"
	body, _ := json.Marshal(request(1, "tools/call", modernParams(nil, map[string]any{"name": "wait"})))
	go func() {
		recv(t, started, "the tool to start")
		cancel()
	}()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.url, strings.NewReader(string(body)))
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	for k, v := range c.header {
		req.Header.Set(k, v)
	}
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
	}
	recv(t, cancelled, "the tool to be cancelled")
}

func TestHTTPStatelessListen(t *testing.T) {
	s := startHTTP(t, fakeHandler{"echo": echoTool}, HTTPOptions{})
	ch := events(t, s.modernClient().modernPost("sub", "subscriptions/listen", modernParams(nil, map[string]any{"notifications": map[string]any{"toolsListChanged": true}})))
	if m := <-ch; m.Method != "notifications/subscriptions/acknowledged" || !strings.Contains(string(m.Params), `"io.modelcontextprotocol/subscriptionId":"sub"`) {
		t.Fatalf("acknowledgement = %s", m.raw)
	}
	// Shutting the server down ends the subscription gracefully.
	s.h.Close()
	m := <-ch
	if string(m.ID) != `"sub"` || !strings.Contains(string(m.Result), `"io.modelcontextprotocol/subscriptionId":"sub"`) {
		t.Fatalf("closing response = %s", m.raw)
	}
	streamEnd(t, ch)
}
