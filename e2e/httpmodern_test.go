package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// modernPost sends one 2026-07-28 request to an HTTP server with the
// headers that mirror its body, and returns the status and the response
// (from JSON or the last event of a stream).
func modernPost(t *testing.T, url string, id any, method string, params map[string]any) (int, http.Header, rpcReply) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	version := "2026-07-28"
	if meta, ok := params["_meta"].(map[string]any); ok {
		version, _ = meta["io.modelcontextprotocol/protocolVersion"].(string)
	}
	req.Header.Set("MCP-Protocol-Version", version)
	req.Header.Set("Mcp-Method", method)
	if name, ok := params["name"].(string); ok {
		req.Header.Set("Mcp-Name", name)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var r rpcReply
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		for line := range strings.Lines(string(raw)) {
			if data, ok := strings.CutPrefix(strings.TrimSpace(line), "data:"); ok {
				var m rpcReply
				json.Unmarshal([]byte(strings.TrimSpace(data)), &m)
				if m.ID == nil {
					r.notes = append(r.notes, data)
				} else {
					notes := r.notes
					r, r.notes = m, notes
				}
			}
		}
	} else if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("%s: body is not JSON-RPC: %q", method, raw)
	}
	return resp.StatusCode, resp.Header, r
}

func TestModernHTTPWithoutSessions(t *testing.T) {
	site := pages(t, map[string]string{"/hello": `<title>Hello HTTP</title><h1>Hi</h1>`})
	hs := startHTTPServer(t, headless...)

	status, header, r := modernPost(t, hs.url, "discover-1", "server/discover", map[string]any{"_meta": modernMeta(nil)})
	var disc struct {
		SupportedVersions []string `json:"supportedVersions"`
	}
	r.complete(t, &disc)
	if status != 200 || header.Get("Mcp-Session-Id") != "" || disc.SupportedVersions[0] != "2026-07-28" {
		t.Fatalf("server/discover: status %d, session %q, %s", status, header.Get("Mcp-Session-Id"), r.Result)
	}
	_, _, r = modernPost(t, hs.url, 2, "tools/call", toolCall(nil, "navigate_page", map[string]any{"url": site.URL + "/hello"}))
	mustContain(t, r.text(t), "Hello HTTP")
	params := toolCall(nil, "take_snapshot", nil)
	params["_meta"].(map[string]any)["progressToken"] = 9
	_, _, r = modernPost(t, hs.url, 3, "tools/call", params)
	mustContain(t, r.text(t), `heading "Hi"`)

	status, _, r = modernPost(t, hs.url, 4, "tools/list", map[string]any{"_meta": map[string]any{
		"io.modelcontextprotocol/protocolVersion": "1900-01-01", "io.modelcontextprotocol/clientCapabilities": map[string]any{}}})
	if status != 400 || r.Error == nil || r.Error.Code != -32022 || !strings.Contains(string(r.Error.Data), `"supported":["2026-07-28"`) {
		t.Fatalf("unsupported version: %d %+v", status, r.Error)
	}
	if status, _, r = modernPost(t, hs.url, 5, "ping", map[string]any{"_meta": modernMeta(nil)}); status != 404 || r.Error == nil || r.Error.Code != -32601 {
		t.Fatalf("ping: %d %+v", status, r.Error)
	}

	// A 2025-era client of the same endpoint still gets its session.
	legacy := hs.connect()
	mustContain(t, legacy.ok("list_pages", nil), "about:blank")
}

// TestModernHTTPAgentsKeepPagesApart is the README's recipe for agents
// sharing one server without sessions: each opens its pages in its own
// isolatedContext and names them by pageId on every call, so neither
// acts on the other's page nor sees its cookies or storage.
func TestModernHTTPAgentsKeepPagesApart(t *testing.T) {
	site := pages(t, map[string]string{"/jar": cookiePage})
	hs := startHTTPServer(t, headless...)
	agent := func(name string) *server {
		client := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, nil)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.url, MaxRetries: -1}, nil)
		if err != nil {
			t.Fatalf("connect %s: %v", name, err)
		}
		t.Cleanup(func() { cs.Close() })
		if v := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" {
			t.Fatalf("%s: the Go SDK agreed on %q over HTTP, want 2026-07-28", name, v)
		}
		return &server{t: t, session: cs, stderr: hs.log}
	}
	a, b := agent("agent-a"), agent("agent-b")

	open := func(s *server, ctxName string) int {
		out := s.ok("new_page", map[string]any{"url": site.URL + "/jar?" + ctxName, "isolatedContext": ctxName})
		return pageID(t, out, "/jar?"+ctxName)
	}
	pa, pb := open(a, "agent-a"), open(b, "agent-b")
	if pa == pb {
		t.Fatalf("both agents got page %d", pa)
	}
	a.ok("evaluate_script", map[string]any{"pageId": pa, "function": `() => { document.cookie = "who=A; path=/"; localStorage.setItem("who", "A"); }`})
	jar := `() => JSON.stringify([document.cookie, localStorage.getItem("who"), location.search])`
	mustContain(t, a.ok("evaluate_script", map[string]any{"pageId": pa, "function": jar}), `[\"who=A\",\"A\",\"?agent-a\"]`)
	if got := b.ok("evaluate_script", map[string]any{"pageId": pb, "function": jar}); !strings.Contains(got, `[\"\",null,\"?agent-b\"]`) {
		t.Errorf("agent B sees agent A's cookie or storage on the same origin:\n%s", got)
	}
	// B's calls with its handle act on its own page even after A selected its own.
	a.ok("select_page", map[string]any{"pageId": pa})
	mustContain(t, b.ok("take_snapshot", map[string]any{"pageId": pb}), fmt.Sprintf("url=\"%s/jar?agent-b\"", site.URL))
}
