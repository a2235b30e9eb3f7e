package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpServer is a devtools-mcp serving MCP over Streamable HTTP.
type httpServer struct {
	t   testing.TB
	url string // the MCP endpoint, http://127.0.0.1:PORT/mcp
	cmd *exec.Cmd
	log *syncBuffer
}

// listening is the line the server prints once it accepts connections.
var listening = regexp.MustCompile(`serving MCP over Streamable HTTP at (http://\S+)`)

// startHTTPServer runs the binary with --port 0 (a free port) and args and
// returns once it listens. It is stopped with SIGTERM, as a user's service
// manager would, when the test ends.
func startHTTPServer(t testing.TB, args ...string) *httpServer {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"--port", "0"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	hs := &httpServer{t: t, cmd: cmd, log: &syncBuffer{}}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Errorf("the HTTP server did not stop within 20 s of SIGTERM")
		}
		if t.Failed() {
			t.Logf("server stderr:\n%s", hs.log.String())
		}
	})
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		hs.log.Write([]byte(sc.Text() + "\n"))
		if m := listening.FindStringSubmatch(sc.Text()); m != nil {
			hs.url = m[1]
			go io.Copy(hs.log, stderr)
			return hs
		}
	}
	t.Fatalf("the server did not say where it listens:\n%s", hs.log.String())
	return nil
}

// connect opens an MCP session over HTTP, closed (DELETE) when the test ends.
func (hs *httpServer) connect() *server {
	hs.t.Helper()
	return hs.connectWith(mcp.NewClient(&mcp.Implementation{Name: "e2e-http", Version: "1"}, nil))
}

// connectWith is connect with a client of the caller's.
func (hs *httpServer) connectWith(client *mcp.Client) *server {
	hs.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.url, MaxRetries: -1}, legacySession)
	if err != nil {
		hs.t.Fatalf("connect to %s: %v", hs.url, err)
	}
	hs.t.Cleanup(func() { cs.Close() })
	return &server{t: hs.t, session: cs, stderr: hs.log}
}

// cookiePage sets nothing by itself: the test writes cookies and storage
// through evaluate_script, so both sessions use the very same origin.
const cookiePage = `<title>Jar</title><p>jar</p>`

// TestHTTPSessionsAreIsolated serves two MCP sessions at once from one
// launched browser and checks that neither sees the other's pages,
// cookies or storage on the same origin, that page ids are per session,
// and that ending a session (DELETE) leaves the other one working.
func TestHTTPSessionsAreIsolated(t *testing.T) {
	site := pages(t, map[string]string{"/a": cookiePage, "/b": cookiePage})
	hs := startHTTPServer(t, headless...)
	a, b := hs.connect(), hs.connect()

	mustContain(t, a.ok("navigate_page", map[string]any{"url": site.URL + "/a"}), "/a")
	mustContain(t, b.ok("navigate_page", map[string]any{"url": site.URL + "/b"}), "/b")
	a.ok("evaluate_script", map[string]any{"function": `() => { document.cookie = "who=A; path=/"; localStorage.setItem("who", "A"); }`})

	jar := `() => JSON.stringify([document.cookie, localStorage.getItem("who")])`
	mustContain(t, a.ok("evaluate_script", map[string]any{"function": jar}), `[\"who=A\",\"A\"]`)
	if got := b.ok("evaluate_script", map[string]any{"function": jar}); !strings.Contains(got, `[\"\",null]`) {
		t.Errorf("session B sees session A's cookie or storage on the same origin:\n%s", got)
	}

	a.ok("new_page", map[string]any{"url": site.URL + "/a?second"})
	listA, listB := a.ok("list_pages", nil), b.ok("list_pages", nil)
	mustContain(t, listA, "1: Jar ("+site.URL+"/a)", "2: Jar ("+site.URL+"/a?second) [selected]")
	mustContain(t, listB, "1: Jar ("+site.URL+"/b) [selected]")
	if strings.Contains(listB, "/a") || strings.Contains(listB, "2:") {
		t.Errorf("session B lists session A's pages:\n%s", listB)
	}
	if strings.Contains(listA, "/b") {
		t.Errorf("session A lists session B's pages:\n%s", listA)
	}
	mustContain(t, b.fails("select_page", map[string]any{"pageId": 2}), "no page with id 2")

	if err := a.session.Close(); err != nil {
		t.Fatalf("DELETE session A: %v", err)
	}
	mustContain(t, b.ok("take_snapshot", nil), "jar")
	// A new session starts afresh: no page, cookie or storage of A is left.
	c := hs.connect()
	mustContain(t, c.ok("list_pages", nil), "1: about:blank [selected]")
	c.ok("navigate_page", map[string]any{"url": site.URL + "/a"})
	mustContain(t, c.ok("evaluate_script", map[string]any{"function": jar}), `[\"\",null]`)
}

// TestHTTPAnswersAsStdio checks that an HTTP session lists the same tools
// and gives the same answers as stdio, for the same calls.
func TestHTTPAnswersAsStdio(t *testing.T) {
	site := pages(t, map[string]string{"/": `<title>Same</title><button>Press</button>`})
	stdio := startServer(t, headless...)
	web := startHTTPServer(t, headless...).connect()

	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	list := func(s *server) string {
		res, err := s.session.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		out, _ := json.Marshal(res.Tools)
		return string(out)
	}
	if list(stdio) != list(web) {
		t.Errorf("tools/list differs between stdio and HTTP")
	}
	for _, step := range []struct {
		tool string
		args map[string]any
	}{
		{"list_pages", nil},
		{"navigate_page", map[string]any{"url": site.URL + "/"}},
		{"take_snapshot", nil},
		{"click", map[string]any{"uid": "1_1"}},
		{"new_page", map[string]any{"url": "about:blank"}},
		{"close_page", map[string]any{"pageId": 2}},
		{"select_page", map[string]any{"pageId": 7}},
	} {
		got, want := text(web.call(step.tool, step.args)), text(stdio.call(step.tool, step.args))
		if got != want {
			t.Errorf("%s over HTTP answered\n%s\nover stdio\n%s", step.tool, got, want)
		}
		if step.tool == "take_snapshot" {
			mustContain(t, got, `button "Press"`)
		}
	}
}

// TestHTTPSessionEndDisposesItsContext attaches the HTTP server to a
// Chromium of the test's own and checks, through that Chromium's own
// target list, that a session's pages exist while it runs and are gone
// once the client DELETEs it, and that the user's own tab is never shown
// to a session nor closed.
func TestHTTPSessionEndDisposesItsContext(t *testing.T) {
	site := pages(t, map[string]string{"/mine": `<title>Mine</title>`})
	ws, _, _ := chromium(t)
	hs := startHTTPServer(t, "--wsEndpoint", ws)
	s := hs.connect()
	list := s.ok("list_pages", nil)
	if strings.Contains(list, "2:") {
		t.Errorf("a session over HTTP lists the attached browser's own tab:\n%s", list)
	}
	s.ok("navigate_page", map[string]any{"url": site.URL + "/mine"})
	if got := targets(t, ws); !strings.Contains(got, site.URL+"/mine") {
		t.Fatalf("Chromium has no tab of the session; its tabs:\n%s", got)
	}
	if err := s.session.Close(); err != nil {
		t.Fatalf("DELETE: %v", err)
	}
	got := targets(t, ws)
	if strings.Contains(got, site.URL+"/mine") {
		t.Errorf("the session's tab outlived the session; Chromium's tabs:\n%s", got)
	}
	if !strings.Contains(got, "about:blank") {
		t.Errorf("the user's own tab was closed with the session; Chromium's tabs:\n%s", got)
	}
}

// targets returns the URLs of the page targets of the Chromium at ws, as
// its /json/list reports them (every browser context's), one a line.
func targets(t testing.TB, ws string) string {
	t.Helper()
	resp, err := http.Get(browserURL(ws) + "/json/list")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var list []struct{ Type, URL string }
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		t.Fatal(err)
	}
	var urls []string
	for _, l := range list {
		if l.Type == "page" {
			urls = append(urls, l.URL)
		}
	}
	return strings.Join(urls, "\n")
}
