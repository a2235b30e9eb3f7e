package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// tryConnect opens an MCP session over HTTP like connect, returning the
// error instead of failing the test.
func (hs *httpServer) tryConnect() (*mcp.ClientSession, error) {
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e-http", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.url, MaxRetries: -1}, legacySession)
	if err == nil {
		hs.t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

// blindInitialize is what a web page can send the MCP endpoint without
// reading the answer: initialize requests whose body carries the JSON
// type (a typed Blob), no type, or text, as no-cors fetches, beacons and
// the like. Each one that got through would hold a session and a browser
// context.
const blindInitialize = `async () => {
	const mcp = 'MCPURL';
	const init = JSON.stringify({jsonrpc: '2.0', id: 1, method: 'initialize',
		params: {protocolVersion: '2025-11-25', capabilities: {}, clientInfo: {name: 'page', version: '1'}}});
	const sent = [];
	for (let i = 0; i < 4; i++) {
		sent.push(fetch(mcp, {method: 'POST', mode: 'no-cors', body: new Blob([init], {type: 'application/json'})}));
		sent.push(fetch(mcp, {method: 'POST', mode: 'no-cors', body: new Blob([init])}));
		sent.push(fetch(mcp, {method: 'POST', mode: 'no-cors', body: init}));
		sent.push(fetch(mcp, {method: 'POST', mode: 'no-cors', headers: {'Accept': 'application/json, text/event-stream'},
			body: new Blob([init], {type: 'application/json'})}));
	}
	// MCP 2026-07-28 needs no session: a stateless tools/call.
	const call = JSON.stringify({jsonrpc: '2.0', id: 2, method: 'tools/call', params: {name: 'new_page',
		arguments: {url: location.origin + '/pwned'},
		_meta: {'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}}}});
	sent.push(fetch(mcp, {method: 'POST', mode: 'no-cors', body: new Blob([call], {type: 'application/json'})}));
	navigator.sendBeacon(mcp, new Blob([init], {type: 'application/json'}));
	const done = await Promise.allSettled(sent);
	return 'sent ' + done.length;
}`

// TestHTTPWebPagesCannotOpenSessions has a page on another loopback port,
// opened by the agent in the controlled browser, fire initialize requests
// at the server started with default settings, as many as would fill its
// sessions; real clients still connect. Then initialize requests nobody
// follows up (a program's blind POSTs) fill the cap and are dropped
// within seconds, not after the 30-minute idle timeout.
func TestHTTPWebPagesCannotOpenSessions(t *testing.T) {
	pwned := make(chan struct{}, 1)
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, `<title>Hostile</title><p>hi</p>`) })
	mux.HandleFunc("/pwned", func(http.ResponseWriter, *http.Request) { pwned <- struct{}{} })
	site := httptest.NewServer(mux)
	t.Cleanup(site.Close)
	hs := startHTTPServer(t, append(headless[:len(headless):len(headless)], "--httpMaxSessions", "3")...)

	agent := hs.connect()
	agent.ok("navigate_page", map[string]any{"url": site.URL + "/"})
	mustContain(t, agent.ok("evaluate_script", map[string]any{
		"function": strings.ReplaceAll(blindInitialize, "MCPURL", hs.url),
	}), "sent 17")

	for i := range 2 {
		if _, err := hs.tryConnect(); err != nil {
			t.Fatalf("client %d could not connect after a page fired initialize requests at the server: %v", i+2, err)
		}
	}
	mustContain(t, hs.log.String(), "warning: serving without --httpToken")
	if strings.Contains(agent.ok("list_pages", nil), "/pwned") {
		t.Error("a page's stateless tools/call opened a page")
	}
	select {
	case <-pwned:
		t.Error("a page's stateless tools/call reached a tool: /pwned was loaded")
	default:
	}

	// A DNS-rebinding page names its own host; so would a program that
	// does, and the server is not that host.
	for _, host := range []string{"evil.example", "EVIL.example:" + portOf(hs.url), "127.0.0.1.evil.example"} {
		if code := rawInitialize(t, hs.url, host, ""); code != http.StatusForbidden {
			t.Errorf("Host %q: status %d, want 403", host, code)
		}
	}
	for _, origin := range []string{"null", "http://127.0.0.1:1", strings.TrimSuffix(site.URL, "/"), "http://localhost:" + portOf(site.URL)} {
		if code := rawInitialize(t, hs.url, "", origin); code != http.StatusForbidden {
			t.Errorf("Origin %q: status %d, want 403", origin, code)
		}
	}
}

// TestHTTPUnfinishedSessionsAreDropped fills the sessions with
// initialize requests that nothing follows (no notifications/initialized)
// and checks that a real client gets in within seconds.
func TestHTTPUnfinishedSessionsAreDropped(t *testing.T) {
	hs := startHTTPServer(t, append(headless[:len(headless):len(headless)], "--httpMaxSessions", "2")...)
	for range 2 {
		if code := rawInitialize(t, hs.url, "", ""); code != http.StatusOK {
			t.Fatalf("blind initialize: status %d, want 200", code)
		}
	}
	if code := rawInitialize(t, hs.url, "", ""); code != http.StatusServiceUnavailable {
		t.Fatalf("initialize beyond the cap: status %d, want 503", code)
	}
	start := time.Now()
	for {
		_, err := hs.tryConnect()
		if err == nil {
			break
		}
		if time.Since(start) > 30*time.Second {
			t.Fatalf("no place freed 30 s after initialize requests nobody followed up: %v", err)
		}
		time.Sleep(500 * time.Millisecond) // the server announces nothing: ask again
	}
	t.Logf("a place freed after %v", time.Since(start).Round(time.Second))
}

// rawInitialize POSTs an initialize as a client would, with host and
// origin when not empty, and returns the status.
func rawInitialize(t *testing.T, url, host, origin string) int {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if host != "" {
		req.Host = host
	}
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST initialize: %v", err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// portOf returns the port of an http://host:port/... URL.
func portOf(u string) string {
	rest := strings.TrimPrefix(u, "http://")
	hostport, _, _ := strings.Cut(rest, "/")
	return hostport[strings.LastIndex(hostport, ":")+1:]
}
