package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// eval runs evaluate_script with fn and returns the JSON it returned.
func (s *server) eval(fn string, extra ...any) string {
	s.t.Helper()
	args := map[string]any{"function": fn}
	for i := 0; i+1 < len(extra); i += 2 {
		args[extra[i].(string)] = extra[i+1]
	}
	out := s.ok("evaluate_script", args)
	m := regexp.MustCompile("(?s)```json\n(.*)\n```").FindStringSubmatch(out)
	if m == nil {
		s.t.Fatalf("evaluate_script answer has no JSON block:\n%s", out)
	}
	return m[1]
}

// eventually polls cond (a page-list query) until it holds or 30 s pass. It
// is used only for changes that the browser makes on its own time, such as a
// tab closing itself or a cross-site frame's process starting, which under
// the race detector on a loaded CI machine took over 10 s.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// pageLine finds the line of the page list that mentions substr.
func pageLine(list, substr string) string {
	for line := range strings.Lines(list) {
		if strings.Contains(line, substr) {
			return strings.TrimSpace(line)
		}
	}
	return ""
}

// pageID returns the id of the page whose line mentions substr.
func pageID(t testing.TB, list, substr string) int {
	t.Helper()
	var id int
	if _, err := fmt.Sscanf(pageLine(list, substr), "%d:", &id); err != nil {
		t.Fatalf("no page %q in list:\n%s", substr, list)
	}
	return id
}

func TestNewPageSelectAndClose(t *testing.T) {
	site := pages(t, map[string]string{
		"/a": `<title>Page A</title>A`,
		"/b": `<title>Page B</title>B`,
	})
	s := startServer(t, headless...)
	out := s.ok("new_page", map[string]any{"url": site.URL + "/a"})
	mustContain(t, out, "## Pages", "Page A ("+site.URL+"/a) [selected]")
	out = s.ok("new_page", map[string]any{"url": site.URL + "/b"})
	a, b := pageID(t, out, "Page A"), pageID(t, out, "Page B")
	if !strings.HasSuffix(pageLine(out, "Page B"), "[selected]") || strings.HasSuffix(pageLine(out, "Page A"), "[selected]") {
		t.Fatalf("new_page must select the new page:\n%s", out)
	}
	if got := s.eval("() => document.title"); got != `"Page B"` {
		t.Fatalf("selected page title = %s", got)
	}
	// pageId routes one call without changing the selection.
	if got := s.eval("() => document.title", "pageId", a); got != `"Page A"` {
		t.Fatalf("pageId=%d title = %s", a, got)
	}
	out = s.ok("select_page", map[string]any{"pageId": a, "bringToFront": true})
	mustContain(t, pageLine(out, "Page A"), "[selected]")
	if got := s.eval("() => document.title"); got != `"Page A"` {
		t.Fatalf("after select_page title = %s", got)
	}
	out = s.ok("close_page", map[string]any{"pageId": b})
	if strings.Contains(out, "Page B") {
		t.Fatalf("closed page still listed:\n%s", out)
	}
	mustContain(t, s.fails("select_page", map[string]any{"pageId": b}), fmt.Sprintf("no page with id %d", b), "open pages:")
	mustContain(t, s.fails("evaluate_script", map[string]any{"function": "() => 1", "pageId": 999}), "no page with id 999", fmt.Sprint(a))

	// Close everything but one page; the last one stays.
	list := s.ok("list_pages", nil)
	for line := range strings.Lines(list) {
		var id int
		if _, err := fmt.Sscanf(line, "%d:", &id); err == nil && id != a {
			s.ok("close_page", map[string]any{"pageId": id})
		}
	}
	mustContain(t, s.fails("close_page", map[string]any{"pageId": a}), "last open page cannot be closed")
	mustContain(t, s.ok("list_pages", nil), "Page A")
}

func TestPopupsAndSelfClosingTabsAreTracked(t *testing.T) {
	site := pages(t, map[string]string{
		"/":       `<title>Opener</title><a id=l href="/target" target=_blank>blank</a>`,
		"/popup":  `<title>Popup</title>popup`,
		"/target": `<title>Target blank</title>`,
	})
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	s.eval(`async () => { const w = window.open('/popup'); await new Promise(r => w.addEventListener('load', r)); }`)
	s.eval(`() => document.getElementById('l').click()`)
	var list string
	eventually(t, "the popup and the target=_blank tab in list_pages", func() bool {
		list = s.ok("list_pages", nil)
		return strings.Contains(list, "Popup (") && strings.Contains(list, "Target blank (")
	})
	popup := pageID(t, list, "Popup (")
	s.ok("select_page", map[string]any{"pageId": popup})
	if got := s.eval("() => document.title"); got != `"Popup"` {
		t.Fatalf("popup title = %s", got)
	}
	s.eval("() => { window.close(); }")
	eventually(t, "the self-closed popup to leave list_pages", func() bool {
		return !strings.Contains(s.ok("list_pages", nil), "Popup (")
	})
	// The selection moved to a page that still exists.
	if !strings.Contains(s.ok("list_pages", nil), "[selected]") {
		t.Fatal("no page is selected after the selected one closed")
	}
	s.eval("() => 1")
}

func TestIsolatedContextsKeepCookiesApart(t *testing.T) {
	site := pages(t, map[string]string{"/": `<title>Cookies</title>`})
	s := startServer(t, headless...)
	out := s.ok("new_page", map[string]any{"url": site.URL, "isolatedContext": "A"})
	mustContain(t, pageLine(out, "[selected]"), "isolatedContext=A")
	s.eval(`() => { document.cookie = "who=A; max-age=3600"; }`)
	s.ok("new_page", map[string]any{"url": site.URL, "isolatedContext": "B"})
	if got := s.eval("() => document.cookie"); got != `""` {
		t.Fatalf("context B sees cookies %s", got)
	}
	out = s.ok("new_page", map[string]any{"url": site.URL, "isolatedContext": "A"})
	if got := s.eval("() => document.cookie"); got != `"who=A"` {
		t.Fatalf("second page of context A sees cookies %s", got)
	}
	if n := strings.Count(out, "isolatedContext=A"); n != 2 {
		t.Fatalf("want 2 pages in context A:\n%s", out)
	}
	mustContain(t, out, "isolatedContext=B")
}

func TestBackForwardReload(t *testing.T) {
	var assetHits atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/one", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>One</title><script src="/asset.js"></script>`)
	})
	mux.HandleFunc("/two", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>Two</title>`)
	})
	mux.HandleFunc("/asset.js", func(w http.ResponseWriter, r *http.Request) {
		assetHits.Add(1)
		w.Header().Set("Cache-Control", "max-age=3600")
		w.Header().Set("Content-Type", "text/javascript")
		fmt.Fprint(w, `window.asset = true;`)
	})
	site := httptest.NewServer(mux)
	defer site.Close()

	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL + "/one"})
	mustContain(t, s.ok("navigate_page", map[string]any{"type": "forward"}), "Unable to navigate forward in the selected page: cannot go forward")
	s.ok("navigate_page", map[string]any{"url": site.URL + "/two"})
	mustContain(t, s.ok("navigate_page", map[string]any{"type": "back"}), "Went back to "+site.URL+"/one")
	if got := s.eval("() => document.title"); got != `"One"` {
		t.Fatalf("after back title = %s", got)
	}
	mustContain(t, s.ok("navigate_page", map[string]any{"type": "forward"}), "Went forward to "+site.URL+"/two")
	s.ok("navigate_page", map[string]any{"type": "back"})

	before := assetHits.Load()
	mustContain(t, s.ok("navigate_page", map[string]any{"type": "reload", "ignoreCache": true}), "Reloaded "+site.URL+"/one")
	if assetHits.Load() != before+1 {
		t.Fatalf("reload with ignoreCache fetched the cached script %d times, want once", assetHits.Load()-before)
	}
	if got := s.eval("() => window.asset"); got != "true" {
		t.Fatalf("after reload window.asset = %s", got)
	}
	mustContain(t, s.fails("navigate_page", map[string]any{}), "needs a url")
}

func TestInitScriptRunsBeforePageScriptsOnce(t *testing.T) {
	site := pages(t, map[string]string{"/": `<script>document.title = String(window.__init)</script>`})
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL, "initScript": "window.__init = 42"})
	if got := s.eval("() => document.title"); got != `"42"` {
		t.Fatalf("with initScript the page saw %s", got)
	}
	s.ok("navigate_page", map[string]any{"type": "reload"})
	if got := s.eval("() => document.title"); got != `"undefined"` {
		t.Fatalf("initScript ran again on the next navigation: %s", got)
	}
}

func TestBeforeUnloadAcceptAndDismiss(t *testing.T) {
	site := pages(t, map[string]string{
		"/stay":  `<title>Stay</title><script>addEventListener('beforeunload', e => { e.preventDefault(); e.returnValue = 'sure?'; })</script>`,
		"/other": `<title>Other</title>`,
	})
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL + "/stay"})
	// Chrome only asks after the user interacted with the page.
	s.ok("wait_for", map[string]any{"text": []string{"Stay"}})
	activate := func() {
		s.eval("() => { document.body.click(); }")
	}
	activate()
	out := s.ok("navigate_page", map[string]any{"url": site.URL + "/other", "handleBeforeUnload": "dismiss"})
	mustContain(t, out, "Dismissed a beforeunload dialog")
	if got := s.eval("() => document.title"); got != `"Stay"` {
		t.Fatalf("after dismiss the page is at %s", got)
	}
	activate()
	out = s.ok("navigate_page", map[string]any{"url": site.URL + "/other"})
	mustContain(t, out, "Accepted a beforeunload dialog", "Navigated to "+site.URL+"/other")
}

func TestWaitFor(t *testing.T) {
	site := pages(t, map[string]string{"/": `<title>Later</title><script>setTimeout(() => document.body.append('Ready now'), 500)</script>`})
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	// The snapshot after the text is found gives the agent its uids.
	mustContain(t, s.ok("wait_for", map[string]any{"text": []string{"nope", "Ready now"}, "timeout": 5000}), `"Ready now"`,
		"## Latest page snapshot", `"Ready now"`)
	out := s.fails("wait_for", map[string]any{"text": []string{"never", "also never"}, "timeout": 300})
	mustContain(t, out, `Timed out after waiting 300ms: none of ["never" "also never"] appeared on the page.`)
}

func TestCallsOnDifferentPagesRunTogether(t *testing.T) {
	// Each page's script waits at a barrier that opens only when both have
	// reached it: if calls on two pages were serialized, this would hang.
	var mu sync.Mutex
	arrived := 0
	open := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/barrier", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		arrived++
		if arrived == 2 {
			close(open)
		}
		mu.Unlock()
		select {
		case <-open:
			fmt.Fprint(w, "ok")
		case <-time.After(20 * time.Second):
			http.Error(w, "alone at the barrier", http.StatusGatewayTimeout)
		}
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, `<title>P</title>`) })
	site := httptest.NewServer(mux)
	defer site.Close()

	s := startServer(t, headless...)
	p1 := pageID(t, s.ok("new_page", map[string]any{"url": site.URL}), "[selected]")
	p2 := pageID(t, s.ok("new_page", map[string]any{"url": site.URL}), "[selected]")
	var wg sync.WaitGroup
	results := make([]string, 2)
	for i, id := range []int{p1, p2} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Distinct URLs: Chrome's HTTP cache holds a second request for a URL
			// until the first one finishes.
			results[i] = s.eval(fmt.Sprintf("async () => (await fetch('/barrier?page=%d')).text()", id), "pageId", id)
		}()
	}
	// list_pages answers while both pages are busy.
	mustContain(t, s.ok("list_pages", nil), "## Pages")
	wg.Wait()
	if results[0] != `"ok"` || results[1] != `"ok"` {
		t.Fatalf("barrier results %v", results)
	}
}

func TestCrashedPageIsReportedAndRecovers(t *testing.T) {
	site := pages(t, map[string]string{"/": `<title>Alive</title>`})
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	other := pageID(t, s.ok("new_page", map[string]any{"url": site.URL, "background": true}), "[selected]")
	list := s.ok("list_pages", nil)
	crashed := pageID(t, list, "1:")
	s.ok("select_page", map[string]any{"pageId": crashed})
	s.call("navigate_page", map[string]any{"url": "chrome://crash", "timeout": 3000})
	eventually(t, "the crash to show in list_pages", func() bool {
		return strings.Contains(pageLine(s.ok("list_pages", nil), fmt.Sprintf("%d:", crashed)), "crashed")
	})
	mustContain(t, s.fails("evaluate_script", map[string]any{"function": "() => 1"}), "crashed", "navigate_page", "close_page")
	// Other pages keep working.
	if got := s.eval("() => 1 + 1", "pageId", other); got != "2" {
		t.Fatalf("other page answered %s", got)
	}
	s.ok("navigate_page", map[string]any{"url": site.URL})
	if got := s.eval("() => document.title"); got != `"Alive"` {
		t.Fatalf("after recovery title = %s", got)
	}
}

func TestManyTabsAreListedWithoutAttaching(t *testing.T) {
	ws, _, _ := chromium(t)
	conn := openTabs(t, ws, 200)
	s := startServer(t, "--browserUrl", browserURL(ws))
	list := s.ok("list_pages", nil)
	if n := strings.Count(list, "about:blank"); n != 201 {
		t.Fatalf("list_pages shows %d blank pages, want 201", n)
	}
	targets, err := cdp.TargetGetTargets.Call(context.Background(), conn.Session(""), cdp.GetTargetsParams{})
	if err != nil {
		t.Fatal(err)
	}
	for _, ti := range targets.TargetInfos {
		if ti.Type == "page" && ti.Attached {
			t.Fatalf("list_pages attached to %s", ti.TargetID)
		}
	}
}

func TestPageIDsFromADeadBrowserAreRejected(t *testing.T) {
	s := startServer(t, headless...)
	id := pageID(t, s.ok("list_pages", nil), "[selected]")
	for _, pid := range childPIDs(t, s.cmd.Process.Pid) {
		killGroup(t, pid)
	}
	// Calls right after the kill may still see the dying browser.
	eventually(t, "a new browser", func() bool {
		res := s.call("list_pages", nil)
		return !res.IsError && !strings.Contains(text(res), fmt.Sprintf("%d: ", id))
	})
	out := s.fails("evaluate_script", map[string]any{"function": "() => 1", "pageId": id})
	mustContain(t, out, fmt.Sprintf("page %d belonged to a browser that has since closed", id))
}

// openTabs opens n blank tabs in the browser at ws through a CDP connection
// of the test's own, which it returns.
func openTabs(t testing.TB, ws string, n int) *cdp.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	tr, err := cdp.DialWebSocket(ctx, ws, nil)
	if err != nil {
		t.Fatal(err)
	}
	conn := cdp.NewConn(tr)
	t.Cleanup(func() { conn.Close() })
	for range n {
		if err := cdp.TargetCreateTarget.Do(ctx, conn.Session(""), cdp.CreateTargetParams{URL: "about:blank"}); err != nil {
			t.Fatal(err)
		}
	}
	return conn
}

// userTab is a browser of the user's with one tab of theirs, and our
// server attached to it (see attachToUserTab).
type userTab struct {
	s      *server
	conn   *cdp.Conn // the test's own connection to the browser
	target string    // the tab's target id
	page   int       // the tab's page id in the server's list
}

// attachToUserTab starts a browser, opens url in a tab of the user's (one
// the agent did not open), attaches a server with --browserUrl and waits
// until it lists the tab, whose title must contain title.
func attachToUserTab(t *testing.T, url, title string) userTab {
	t.Helper()
	ws, _, _ := chromium(t)
	conn := openTabs(t, ws, 0)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tab, err := cdp.TargetCreateTarget.Call(ctx, conn.Session(""), cdp.CreateTargetParams{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	s := startServer(t, "--browserUrl", browserURL(ws))
	eventually(t, "the user's page", func() bool { return strings.Contains(s.ok("list_pages", nil), title) })
	return userTab{s: s, conn: conn, target: tab.TargetID, page: pageID(t, s.ok("list_pages", nil), title)}
}

// browserURL turns a browser WebSocket URL into its HTTP debugging address.
func browserURL(ws string) string {
	return "http://127.0.0.1:" + regexp.MustCompile(`:(\d+)/`).FindStringSubmatch(ws)[1]
}
