package e2e

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestEvaluateScript(t *testing.T) {
	site := fixtures(t)
	s := startServer(t, headless...)
	snap := s.open(site, "/pages/actions.html")
	if got := s.eval("async () => { await new Promise(r => setTimeout(r, 10)); return document.title; }"); got != `"Actions"` {
		t.Fatalf("async title = %s", got)
	}
	if got := s.eval("(el) => el.textContent", "args", []string{uidOf(t, snap, `button "Throw"`)}); got != `"Throw"` {
		t.Fatalf("element argument: %s", got)
	}
	// Elements in the result come back as uids the agent can click.
	got := s.eval("() => ({far: document.getElementById('far'), n: NaN, big: 10n, f: function named() {}, nested: [document.body.firstElementChild]})")
	mustContain(t, got, `"far":"uid=`, `"n":"NaN"`, `"big":"10n"`, `"f":"[Function named]"`, `"nested":["uid=`)
	farUID := strings.SplitN(strings.SplitN(got, `"far":"uid=`, 2)[1], `"`, 2)[0]
	mustContain(t, s.ok("click", map[string]any{"uid": farUID, "includeSnapshot": true}), `button "Far clicked"`)
	mustContain(t, s.eval("() => { const a = {x: 1}; a.self = a; return a; }"), `"self":"[Circular]"`)
	if got := s.eval("() => undefined"); got != "undefined" {
		t.Fatalf("undefined result = %s", got)
	}

	mustContain(t, s.fails("evaluate_script", map[string]any{"function": "() => { throw new Error('kaboom') }"}), "the script threw", "kaboom", "at ")
	mustContain(t, s.fails("evaluate_script", map[string]any{"function": "() => {"}), "does not parse", "SyntaxError")
	if got := s.eval("1 + 2; 40 + 2", "format", "script"); got != "42" {
		t.Fatalf("format=script = %s", got)
	}
	src := filepath.Join(t.TempDir(), "script.js")
	os.WriteFile(src, []byte("() => location.pathname"), 0o600)
	if got := s.eval("", "sourcePath", src); got != `"/pages/actions.html"` {
		t.Fatalf("sourcePath = %s", got)
	}
	out := filepath.Join(t.TempDir(), "result.json")
	mustContain(t, s.ok("evaluate_script", map[string]any{"function": "() => [1, 2, 3]", "filePath": out}), "Saved", out)
	if data, _ := os.ReadFile(out); string(data) != "[1,2,3]" {
		t.Fatalf("saved result = %q", data)
	}

	// Dialogs opened by the script are answered as asked.
	res := s.ok("evaluate_script", map[string]any{"function": "() => confirm('Proceed?')"})
	mustContain(t, res, "Accepted a confirm dialog", "true")
	mustContain(t, s.ok("evaluate_script", map[string]any{"function": "() => confirm('Proceed?')", "dialogAction": "dismiss"}), "Dismissed a confirm dialog", "false")
	mustContain(t, s.ok("evaluate_script", map[string]any{"function": "() => prompt('Name?')", "dialogAction": "Grace"}), `"Grace"`)
	// A script that navigates is reported.
	mustContain(t, s.ok("evaluate_script", map[string]any{"function": "() => { location.href = '/pages/form.html'; }"}), "navigated to "+site.URL+"/pages/form.html")
}

func TestConsoleMessages(t *testing.T) {
	site := fixtures(t)
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL + "/pages/console.html"})
	var list string
	eventually(t, "the uncaught error and the failed image in the console", func() bool {
		list = s.ok("list_console_messages", nil)
		return strings.Contains(list, "undefinedThing") && strings.Contains(list, "404")
	})
	mustContain(t, list, "## Console messages", "Showing 1-",
		`[log] form page loaded {"user":"ada","tags":Array(2)} (2 args)`, "[info] info line", "[warn] warn line", "[debug] debug line",
		"[log] repeated (1 args) [3 times]", "[error] bad Error: inner (2 args)",
		"[error] Uncaught ReferenceError: undefinedThing is not defined")
	mustContain(t, list, "[issue]")

	errorsOnly := s.ok("list_console_messages", map[string]any{"types": []string{"error"}})
	if strings.Contains(errorsOnly, "[log]") || !strings.Contains(errorsOnly, "[error] bad") {
		t.Fatalf("types=[error] gave:\n%s", errorsOnly)
	}
	page2 := s.ok("list_console_messages", map[string]any{"pageSize": 2, "pageIdx": 1})
	mustContain(t, page2, "Showing 3-4 of")
	mustContain(t, s.ok("list_console_messages", map[string]any{"pageSize": 2, "pageIdx": 99}), "Invalid page number", "Showing 1-2 of")
	mustContain(t, s.fails("list_console_messages", map[string]any{"pageSize": -1}), "0 or more")

	id := func(substr string) int {
		var n int
		line := pageLine(list, substr)
		if _, err := fmt.Sscanf(line, "msgid=%d", &n); err != nil {
			t.Fatalf("no msgid on %q", line)
		}
		return n
	}
	detail := s.ok("get_console_message", map[string]any{"msgid": id("form page loaded")})
	mustContain(t, detail, "Message: log> form page loaded", "### Arguments", "Arg #0: form page loaded", `Arg #1: {"user":"ada","tags":[1,2]}`, "### Stack trace", "console.html")
	detail = s.ok("get_console_message", map[string]any{"msgid": id("[error] bad")})
	mustContain(t, detail, "at fail (", "console.html:")
	mustContain(t, s.fails("get_console_message", map[string]any{"msgid": 9999}), "no console message with msgid 9999")

	withStacks := s.ok("list_console_messages", map[string]any{"includeStackTraces": true, "types": []string{"error"}})
	mustContain(t, withStacks, "  at fail (", "1-based")

	// After a navigation the old messages are preserved on request only.
	s.ok("navigate_page", map[string]any{"url": site.URL + "/pages/form.html"})
	if fresh := s.ok("list_console_messages", nil); strings.Contains(fresh, "form page loaded") {
		t.Fatalf("messages of the previous page listed after navigation:\n%s", fresh)
	}
	mustContain(t, s.ok("list_console_messages", map[string]any{"includePreservedMessages": true}), "form page loaded")
}

// networkSite serves the network fixture's endpoints and records the
// request bodies it got.
func networkSite(t *testing.T) *httptest.Server {
	mux := http.NewServeMux()
	mux.Handle("/pages/", http.FileServer(http.Dir("testdata")))
	mux.HandleFunc("/style.css", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/css")
		fmt.Fprint(w, "body { color: black }")
	})
	mux.HandleFunc("/api/login", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Set-Cookie", "session=abc123")
		fmt.Fprintf(w, `{"ok":true,"echo":%s}`, body)
	})
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/landing", http.StatusFound)
	})
	mux.HandleFunc("/landing", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "landed") })
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// closedPort returns a loopback URL where nothing listens.
func closedPort(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	return "http://" + l.Addr().String() + "/refused"
}

func TestNetworkRequests(t *testing.T) {
	site := networkSite(t)
	refused := closedPort(t)
	page := site.URL + "/pages/network.html?refused=" + refused
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": page})
	if got := s.eval("() => window.done"); got != `"ok"` {
		t.Fatalf("page fetches: %s", got)
	}
	list := s.ok("list_network_requests", nil)
	mustContain(t, list, "## Network requests",
		"GET "+page+" [200]",
		"GET "+site.URL+"/style.css [200]",
		"POST "+site.URL+"/api/login [200]",
		"GET "+site.URL+"/landing [200]",
		"GET "+refused+" [failed - net::ERR_CONNECTION_REFUSED]")
	only := s.ok("list_network_requests", map[string]any{"resourceTypes": []string{"stylesheet"}})
	if !strings.Contains(only, "style.css") || strings.Contains(only, "login") {
		t.Fatalf("resourceTypes=[stylesheet]:\n%s", only)
	}
	reqidIn := func(list, substr string) int {
		var n int
		if _, err := fmt.Sscanf(pageLine(list, substr), "reqid=%d", &n); err != nil {
			t.Fatalf("no reqid for %q in:\n%s", substr, list)
		}
		return n
	}
	reqid := func(substr string) int { return reqidIn(list, substr) }
	login := s.ok("get_network_request", map[string]any{"reqid": reqid("/api/login")})
	mustContain(t, login, "## Request "+site.URL+"/api/login", "Status: 200",
		"### Request Headers", "- Authorization:Bearer s3cret",
		"### Request Body", `{"user":"ada"}`,
		"### Response Headers", "### Response Body", `{"ok":true,"echo":{"user":"ada"}}`)
	mustContain(t, s.ok("get_network_request", map[string]any{"reqid": reqid("/landing [")}), "### Redirect chain", "GET "+site.URL+"/redirect [302]")
	mustContain(t, s.ok("get_network_request", map[string]any{"reqid": reqid("GET " + refused)}), "### Request failed with", "ERR_CONNECTION_REFUSED")
	mustContain(t, s.ok("get_network_request", nil), "## Request "+page)
	dir := t.TempDir()
	saved := s.ok("get_network_request", map[string]any{"reqid": reqid("/api/login"),
		"requestFilePath": filepath.Join(dir, "req.json"), "responseFilePath": filepath.Join(dir, "resp.json")})
	mustContain(t, saved, "Saved to "+filepath.Join(dir, "resp.json"))
	if data, _ := os.ReadFile(filepath.Join(dir, "req.json")); string(data) != `{"user":"ada"}` {
		t.Fatalf("saved request body = %q", data)
	}
	mustContain(t, s.fails("get_network_request", map[string]any{"reqid": 9999}), "no network request with reqid 9999")

	// Redaction hides credentials.
	r := startServer(t, append(headless, "--redactNetworkHeaders")...)
	r.ok("navigate_page", map[string]any{"url": page})
	r.eval("() => window.done")
	// This browser may have numbered the requests in another order.
	login2 := reqidIn(r.ok("list_network_requests", nil), "/api/login")
	var redacted string
	// Chrome reports the raw response headers (with Set-Cookie) a moment
	// after the response itself.
	eventually(t, "the raw response headers", func() bool {
		redacted = r.ok("get_network_request", map[string]any{"reqid": login2})
		return strings.Contains(redacted, "Set-Cookie")
	})
	mustContain(t, redacted, "- Authorization:<redacted>", "- Set-Cookie:<redacted>")
	if strings.Contains(redacted, "s3cret") || strings.Contains(redacted, "abc123") {
		t.Fatalf("redacted answer shows credentials:\n%s", redacted)
	}
}

func TestSourceMappedStackTraces(t *testing.T) {
	var mu sync.Mutex
	hits := map[string]int{}
	files := http.FileServer(http.Dir("testdata"))
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits[r.URL.Path]++
		mu.Unlock()
		files.ServeHTTP(w, r)
	}))
	defer site.Close()
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL + "/pages/sourcemap.html"})
	list := s.ok("list_console_messages", nil)
	var id int
	if _, err := fmt.Sscanf(pageLine(list, "mapped"), "msgid=%d", &id); err != nil {
		t.Fatalf("no mapped message in:\n%s", list)
	}
	detail := s.ok("get_console_message", map[string]any{"msgid": id})
	mustContain(t, detail, "at fail ("+site.URL+"/src/app.ts:2:3)", "at <anonymous> ("+site.URL+"/src/app.ts:4:1)")
	mustContain(t, s.ok("list_console_messages", map[string]any{"includeStackTraces": true}), "/src/app.ts:2:3")

	// The script and its map are read through CDP, not fetched by the
	// page: the script is not loaded again, and neither shows among the
	// page's requests.
	mu.Lock()
	scriptHits, mapHits := hits["/pages/bundle.js"], hits["/pages/bundle.js.map"]
	mu.Unlock()
	if scriptHits != 1 || mapHits != 1 {
		t.Errorf("the server saw bundle.js %d times and its map %d times, want once each", scriptHits, mapHits)
	}
	requests := s.ok("list_network_requests", nil)
	mustContain(t, requests, "/pages/bundle.js ")
	if strings.Contains(requests, "bundle.js.map") || strings.Count(requests, "/pages/bundle.js ") != 1 {
		t.Errorf("reading the source map shows among the page's requests:\n%s", requests)
	}
}
