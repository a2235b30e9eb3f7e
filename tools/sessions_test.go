package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/devtools-mcp/devtools-mcp/internal/browser"
	"github.com/devtools-mcp/devtools-mcp/jsonrpc"
)

// fakeBrowsers stand for one session's browser: Get fails with their
// name, so a tool's answer tells whose browser it asked for.
type fakeBrowsers struct {
	name   string
	closed chan string
}

func (f *fakeBrowsers) Get(context.Context) (*browser.Browser, error) {
	return nil, fmt.Errorf("browser of %s", f.name)
}
func (f *fakeBrowsers) Attached() bool            { return false }
func (f *fakeBrowsers) Close(ctx context.Context) { f.closed <- f.name }

// TestEachHTTPSessionHasItsOwnBrowsers serves the tools over Streamable
// HTTP and checks that each session's calls reach browsers made for it
// alone, once, and that EndSession closes them.
func TestEachHTTPSessionHasItsOwnBrowsers(t *testing.T) {
	closed := make(chan string, 4)
	var mu sync.Mutex
	made := map[string]int{}
	s := NewServer(Options{SessionBrowsers: func(id string) SessionBrowsers {
		mu.Lock()
		defer mu.Unlock()
		made[id]++
		return &fakeBrowsers{name: id, closed: closed}
	}}, nil, nil)
	h := jsonrpc.NewHTTPHandler(jsonrpc.NewServer(jsonrpc.ServerInfo{Name: "t", Version: "1"}, s),
		jsonrpc.HTTPOptions{OnSessionClose: func(ss *jsonrpc.Session) { s.EndSession(context.Background(), ss.ID()) }})
	srv := httptest.NewServer(h)
	defer srv.Close()
	defer h.Close()

	post := func(id, body string) (string, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if id != "" {
			req.Header.Set("Mcp-Session-Id", id)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		return resp.Header.Get("Mcp-Session-Id"), string(out)
	}
	open := func() string {
		id, _ := post("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
		if id == "" {
			t.Fatal("no session id")
		}
		post(id, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		return id
	}
	call := func(id string) string {
		_, out := post(id, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_pages","arguments":{}}}`)
		var resp struct {
			Result struct {
				Content []struct{ Text string }
			}
		}
		if err := json.Unmarshal(bytes.TrimSpace([]byte(out)), &resp); err != nil || len(resp.Result.Content) == 0 {
			t.Fatalf("tools/call answered %s", out)
		}
		return resp.Result.Content[0].Text
	}

	a, b := open(), open()
	for _, id := range []string{a, b, a} {
		if got := call(id); !strings.Contains(got, "browser of "+id) {
			t.Errorf("session %s's call reached %q", id, got)
		}
	}
	mu.Lock()
	if s.SessionCount() != 2 || made[a] != 1 || made[b] != 1 {
		t.Errorf("%d session states, browsers made %v; want one per session", s.SessionCount(), made)
	}
	mu.Unlock()
	req, _ := http.NewRequest(http.MethodDelete, srv.URL, nil)
	req.Header.Set("Mcp-Session-Id", a)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE: %v %v", resp, err)
	}
	if got := <-closed; got != a {
		t.Errorf("closed the browsers of %s, want %s", got, a)
	}
	if s.SessionCount() != 1 {
		t.Errorf("%d session states after one ended, want 1", s.SessionCount())
	}
	if got := call(b); !strings.Contains(got, "browser of "+b) {
		t.Errorf("the other session's call reached %q", got)
	}
}
