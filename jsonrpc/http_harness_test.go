package jsonrpc

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// httpServer is an HTTPHandler behind a real loopback HTTP server.
type httpServer struct {
	t  *testing.T
	h  *HTTPHandler
	ts *httptest.Server
}

// startHTTP serves h's tools over Streamable HTTP with opts. The handler
// is closed, and its sessions ended, when the test ends.
func startHTTP(t *testing.T, h Handler, opts HTTPOptions, srvOpts ...Option) *httpServer {
	t.Helper()
	srvOpts = append([]Option{WithLogger(testLogger(t))}, srvOpts...)
	hh := NewHTTPHandler(NewServer(ServerInfo{Name: "test", Version: "1"}, h, srvOpts...), opts)
	ts := httptest.NewServer(hh)
	t.Cleanup(func() {
		_ = hh.Close()
		ts.Close()
	})
	return &httpServer{t: t, h: hh, ts: ts}
}

// httpClient is one MCP client of an httpServer, speaking the transport
// by hand so the tests see every status code and header.
type httpClient struct {
	t       *testing.T
	url     string
	session string            // Mcp-Session-Id, once initialized
	header  map[string]string // extra headers on every request
}

func (s *httpServer) client() *httpClient {
	return &httpClient{t: s.t, url: s.ts.URL, header: map[string]string{}}
}

// do sends one HTTP request with the transport's usual headers. The
// response body is closed when the test ends.
func (c *httpClient) do(method, body string) *http.Response {
	c.t.Helper()
	return c.doContext(c.t.Context(), method, body)
}

// doContext is do with a context that can end the request early.
func (c *httpClient) doContext(ctx context.Context, method, body string) *http.Response {
	c.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.url, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.session != "" {
		req.Header.Set(headerSessionID, c.session)
		req.Header.Set(headerProtocolVersion, protocolVersions[0])
	}
	for k, v := range c.header {
		if k == "Host" { // the client sends req.Host, not the header
			req.Host = v
			continue
		}
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
	c.t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// post sends one JSON-RPC message, given as a Go value or a string.
func (c *httpClient) post(msg any) *http.Response {
	c.t.Helper()
	body, ok := msg.(string)
	if !ok {
		b, err := json.Marshal(msg)
		if err != nil {
			c.t.Fatal(err)
		}
		body = string(b)
	}
	return c.do(http.MethodPost, body)
}

// request builds a JSON-RPC request.
func request(id any, method string, params any) map[string]any {
	m := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		m["params"] = params
	}
	return m
}

// initialize runs the handshake with caps as the client's capabilities
// and name as its clientInfo name, and keeps the session id.
func (c *httpClient) initialize(name string, caps map[string]any) {
	c.t.Helper()
	if caps == nil {
		caps = map[string]any{}
	}
	resp := c.post(request(0, "initialize", map[string]any{
		"protocolVersion": protocolVersions[0],
		"capabilities":    caps,
		"clientInfo":      map[string]any{"name": name, "version": "1"},
	}))
	m := single(c.t, resp)
	var res InitializeResult
	m.result(c.t, &res)
	if res.ProtocolVersion != protocolVersions[0] {
		c.t.Fatalf("initialize agreed on %q, want %q", res.ProtocolVersion, protocolVersions[0])
	}
	c.session = resp.Header.Get(headerSessionID)
	if c.session == "" {
		c.t.Fatalf("initialize response has no %s header", headerSessionID)
	}
	wantStatus(c.t, c.post(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"}), http.StatusAccepted)
}

// callTool posts tools/call and returns the response.
func (c *httpClient) callTool(id any, name string, args any, meta map[string]any) *http.Response {
	c.t.Helper()
	params := map[string]any{"name": name, "arguments": args}
	if meta != nil {
		params["_meta"] = meta
	}
	return c.post(request(id, "tools/call", params))
}

// wantStatus fails unless resp has the status code.
func wantStatus(t *testing.T, resp *http.Response, code int) {
	t.Helper()
	if resp.StatusCode != code {
		body, _ := io.ReadAll(resp.Body)
		t.Fatalf("status %d, want %d; body: %.300s", resp.StatusCode, code, body)
	}
}

// single reads a 200 application/json response holding one message.
func single(t *testing.T, resp *http.Response) message {
	t.Helper()
	wantStatus(t, resp, http.StatusOK)
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type %q, want application/json", ct)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return decodeMessage(t, append(bytes.TrimSpace(body), '\n'))
}

// httpErrorBody reads a transport error response: its status, and the
// JSON-RPC error it carries.
func httpErrorBody(t *testing.T, resp *http.Response, code int) *Error {
	t.Helper()
	wantStatus(t, resp, code)
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("error Content-Type %q, want application/json", ct)
	}
	var m message
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		t.Fatalf("error body is not JSON: %v", err)
	}
	if m.JSONRPC != "2.0" || m.Error == nil || m.Error.Message == "" {
		t.Fatalf("error body is not a JSON-RPC error response: %+v", m)
	}
	return m.Error
}

// events reads an SSE response; each message event's data arrives on the
// channel, which closes when the stream ends.
func events(t *testing.T, resp *http.Response) <-chan message {
	t.Helper()
	wantStatus(t, resp, http.StatusOK)
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q, want text/event-stream", ct)
	}
	ch := make(chan message, 16)
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		var data []string
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "data:"):
				data = append(data, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
			case line == "" && len(data) > 0:
				var m message
				raw := strings.Join(data, "\n")
				if err := json.Unmarshal([]byte(raw), &m); err != nil {
					m = message{Method: "decode-error: " + err.Error()}
				}
				m.raw = []byte(raw)
				ch <- m
				data = nil
			}
		}
	}()
	return ch
}

// streamEnd fails unless the stream ends without another event.
func streamEnd(t *testing.T, ch <-chan message) {
	t.Helper()
	if m, ok := <-ch; ok {
		t.Fatalf("unexpected event after the response: %s", m.raw)
	}
}

// answer posts the client's result for the server's request m.
func (c *httpClient) answer(m message, result any) {
	c.t.Helper()
	resp := c.post(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
	wantStatus(c.t, resp, http.StatusAccepted)
}

// sessionTool reports what the calling session knows about its client:
// id, client name and roots.
func sessionTool(ctx context.Context, _ json.RawMessage) (*CallToolResult, error) {
	ss := SessionFrom(ctx)
	roots, err := ss.Roots(ctx)
	if err != nil {
		return nil, err
	}
	var uris []string
	for _, r := range roots {
		uris = append(uris, r.URI)
	}
	return textResult(fmt.Sprintf("%s %s %s", ss.ID(), ss.ClientInfo().Name, strings.Join(uris, ","))), nil
}
