package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// chromedriver starts Debian's chromedriver (the WebDriver protocol a grid
// node speaks) on a free loopback port and returns its URL. It is killed,
// with any browser left, when the test ends.
func chromedriver(t testing.TB) string {
	t.Helper()
	url, _ := startChromedriver(t)
	return url
}

// startChromedriver is chromedriver, which also returns its pid: the
// browsers it starts are its children.
func startChromedriver(t testing.TB) (url string, pid int) {
	t.Helper()
	exe, err := exec.LookPath("chromedriver")
	if err != nil {
		t.Fatalf("chromedriver is needed (apt-get install chromium-driver): %v", err)
	}
	cmd := exec.Command(exe, "--port=0")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	})
	started := regexp.MustCompile(`started successfully on port (\d+)`)
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if m := started.FindStringSubmatch(sc.Text()); m != nil {
			go io.Copy(io.Discard, out)
			return "http://127.0.0.1:" + m[1], cmd.Process.Pid
		}
	}
	t.Fatalf("chromedriver did not say where it listens: %v", sc.Err())
	return "", 0
}

// driverSessions returns how many sessions the chromedriver at url runs.
func driverSessions(t testing.TB, url string) int {
	t.Helper()
	resp, err := http.Get(url + "/sessions") // chromedriver's own listing, outside W3C
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v struct{ Value []json.RawMessage }
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		t.Fatal(err)
	}
	return len(v.Value)
}

// noSandbox is what a browser started as root needs; a grid node's image
// sets it up itself, chromedriver here does not.
func noSandbox() []string {
	if os.Geteuid() == 0 {
		return []string{"--chromeArg=--no-sandbox"}
	}
	return nil
}

// TestWebDriverWithChromedriver drives a browser that chromedriver starts
// (found through goog:chromeOptions.debuggerAddress) and checks that the
// WebDriver session is deleted when the server exits.
func TestWebDriverWithChromedriver(t *testing.T) {
	site := pages(t, map[string]string{"/": `<title>Driven</title><button onclick="this.textContent='Pressed'">Press</button>`})
	wd := chromedriver(t)
	s := startServer(t, append([]string{"--webdriverUrl", wd, "--headless"}, noSandbox()...)...)
	if n := driverSessions(t, wd); n != 0 {
		t.Errorf("%d WebDriver sessions before the first tool call; want them created lazily", n)
	}
	mustContain(t, s.ok("navigate_page", map[string]any{"url": site.URL}), "Driven")
	mustContain(t, s.ok("take_snapshot", nil), `button "Press"`)
	s.ok("click", map[string]any{"uid": "1_1"})
	mustContain(t, s.ok("take_snapshot", nil), `button "Pressed"`)
	if n := driverSessions(t, wd); n != 1 {
		t.Fatalf("%d WebDriver sessions while the server runs, want 1", n)
	}
	if err := s.session.Close(); err != nil {
		t.Fatal(err)
	}
	if n := driverSessions(t, wd); n != 0 {
		t.Errorf("%d WebDriver sessions after the server exited, want 0", n)
	}
}

// TestWebDriverOneBrowserPerHTTPSession serves two MCP sessions over HTTP
// with browsers from chromedriver: each gets its own WebDriver session on
// its first tool call, and ending an MCP session deletes its browser.
func TestWebDriverOneBrowserPerHTTPSession(t *testing.T) {
	site := pages(t, map[string]string{"/a": `<title>A</title>`, "/b": `<title>B</title>`})
	wd := chromedriver(t)
	hs := startHTTPServer(t, append([]string{"--webdriverUrl", wd, "--headless"}, noSandbox()...)...)
	a, b := hs.connect(), hs.connect()
	a.ok("navigate_page", map[string]any{"url": site.URL + "/a"})
	if n := driverSessions(t, wd); n != 1 {
		t.Errorf("%d WebDriver sessions after one MCP session's first call, want 1", n)
	}
	b.ok("navigate_page", map[string]any{"url": site.URL + "/b"})
	if n := driverSessions(t, wd); n != 2 {
		t.Errorf("%d WebDriver sessions for two MCP sessions, want 2", n)
	}
	if list := b.ok("list_pages", nil); strings.Contains(list, "/a") {
		t.Errorf("session B lists session A's page:\n%s", list)
	}
	if err := a.session.Close(); err != nil {
		t.Fatal(err)
	}
	if n := driverSessions(t, wd); n != 1 {
		t.Errorf("%d WebDriver sessions after one MCP session ended, want 1", n)
	}
	mustContain(t, b.ok("list_pages", nil), "B ("+site.URL+"/b)")
}

// fakeGrid is a Selenium-Grid-like WebDriver endpoint: every new session
// is a real Chromium of its own, handed out as se:cdp.
type fakeGrid struct {
	t  testing.TB
	mu sync.Mutex
	// browsers by session id; created counts POST /session, deleted the
	// DELETEs that named a live session.
	browsers         map[string]*os.Process
	created, deleted int
}

func newFakeGrid(t testing.TB) (*fakeGrid, *httptest.Server) {
	g := &fakeGrid{t: t, browsers: map[string]*os.Process{}}
	srv := httptest.NewServer(g)
	t.Cleanup(srv.Close)
	return g, srv
}

func (g *fakeGrid) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	reply := func(status int, v any) {
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(map[string]any{"value": v})
	}
	id, _ := strings.CutPrefix(r.URL.Path, "/session/")
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/session":
		ws, _, proc := chromium(g.t)
		g.mu.Lock()
		g.created++
		id := fmt.Sprintf("grid-%d", g.created)
		g.browsers[id] = proc
		g.mu.Unlock()
		reply(http.StatusOK, map[string]any{"sessionId": id, "capabilities": map[string]any{"browserName": "chrome", "se:cdp": ws}})
	case r.Method == http.MethodDelete:
		if g.end(id) {
			reply(http.StatusOK, nil)
			return
		}
		reply(http.StatusNotFound, map[string]any{"error": "invalid session id", "message": "no session " + id})
	default:
		reply(http.StatusNotFound, map[string]any{"error": "unknown command", "message": r.Method + " " + r.URL.Path})
	}
}

// end kills the browser of session id, as a grid that deletes or times
// out a session does, and reports whether there was one.
func (g *fakeGrid) end(id string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	proc := g.browsers[id]
	if proc == nil {
		return false
	}
	delete(g.browsers, id)
	g.deleted++
	syscall.Kill(-proc.Pid, syscall.SIGKILL)
	return true
}

func (g *fakeGrid) counts() (created, deleted, live int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.created, g.deleted, len(g.browsers)
}

// TestWebDriverGridSessionEndedBehindOurBack drives a grid browser through
// its se:cdp address, has the grid end that session, and checks that a
// call says so and a later one gets a new grid browser, which is deleted
// when the server exits.
func TestWebDriverGridSessionEndedBehindOurBack(t *testing.T) {
	site := pages(t, map[string]string{"/": `<title>Grid</title>`})
	g, grid := newFakeGrid(t)
	s := startServer(t, "--webdriverUrl", grid.URL, "--headless")
	mustContain(t, s.ok("navigate_page", map[string]any{"url": site.URL}), "Grid")
	if created, _, _ := g.counts(); created != 1 {
		t.Fatalf("%d grid sessions created, want 1", created)
	}
	g.end("grid-1")

	var answers []string
	eventually(t, "a new grid browser", func() bool {
		res := s.call("list_pages", nil)
		answers = append(answers, text(res))
		return !res.IsError && strings.Contains(text(res), "about:blank")
	})
	all := strings.Join(answers, "\n---\n")
	if !strings.Contains(all, "went away") && !strings.Contains(all, "restarted") {
		t.Errorf("no answer said the browser went away or was replaced:\n%s", all)
	}
	if created, _, live := g.counts(); created != 2 || live != 1 {
		t.Errorf("grid created %d sessions with %d live; want a second one, live", created, live)
	}
	mustContain(t, s.ok("navigate_page", map[string]any{"url": site.URL}), "Grid")
	if err := s.session.Close(); err != nil {
		t.Fatal(err)
	}
	if _, deleted, live := g.counts(); live != 0 || deleted != 2 {
		t.Errorf("after exit the grid has %d live sessions (%d deleted); want the server to delete its own", live, deleted)
	}
}
