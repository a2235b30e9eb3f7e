package e2e

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestNewPageTimeoutIsTheNavigations gives new_page a timeout far too
// short for Chrome to open and set up a tab: the timeout bounds the
// navigation only, as the reference's does, so the page opens, the answer
// says the navigation ran out and what to pass, and the new page is the
// selected one beside the first.
func TestNewPageTimeoutIsTheNavigations(t *testing.T) {
	site := pages(t, map[string]string{"/form": `<title>Form</title><input aria-label="Word">`})
	s := startServer(t, headless...)
	got := s.ok("new_page", map[string]any{"url": site.URL + "/form", "timeout": 1})
	if strings.Contains(got, "deadline exceeded") {
		t.Fatalf("new_page's 1 ms timeout cut the page's set-up short:\n%s", got)
	}
	mustContain(t, got, "2: ")
	if strings.Contains(got, "Navigation timed out") {
		mustContain(t, got, "pass a longer timeout")
	}
	list := s.ok("list_pages", nil)
	mustContain(t, list, "1: about:blank", "2: ")
	if pageLine(list, "[selected]") == "" || !strings.HasPrefix(pageLine(list, "[selected]"), "2:") {
		t.Errorf("the page new_page opened is not the selected one:\n%s", list)
	}
	// The page is whole: it navigates and answers.
	s.ok("navigate_page", map[string]any{"url": site.URL + "/form"})
	mustContain(t, s.ok("take_snapshot", nil), `textbox "Word"`)
}

// TestHTTPSessionCostsOnePage attaches the HTTP server to a Chromium of
// the test's own and checks, through Chromium's own target list, that a
// session's first new_page takes over the session's untouched blank page
// instead of opening a second tab (a second renderer), that a later
// new_page does open one, and that the session may close the page it was
// given and go on working.
func TestHTTPSessionCostsOnePage(t *testing.T) {
	site := pages(t, map[string]string{"/one": `<title>One</title><p>one</p>`, "/two": `<title>Two</title>`})
	ws, _, _ := chromium(t)
	s := startHTTPServer(t, "--wsEndpoint", ws).connect()

	got := s.ok("new_page", map[string]any{"url": site.URL + "/one"})
	mustContain(t, got, "1: One ("+site.URL+"/one) [selected]")
	if strings.Contains(got, "2:") {
		t.Errorf("the session's first new_page left its blank page open beside the new one:\n%s", got)
	}
	tabs := targets(t, ws)
	if n := strings.Count(tabs, "about:blank"); n != 1 { // the user's own tab
		t.Errorf("Chromium has %d blank tabs, want only the user's one; its tabs:\n%s", n, tabs)
	}

	mustContain(t, s.ok("new_page", map[string]any{"url": site.URL + "/two"}), "1: One", "2: Two ("+site.URL+"/two) [selected]")
	s.ok("close_page", map[string]any{"pageId": 2})
	// The session's one page may be closed: its context is its own.
	s.ok("close_page", map[string]any{"pageId": 1})
	if tabs := targets(t, ws); strings.Contains(tabs, site.URL) {
		t.Errorf("closed pages are still open in Chromium:\n%s", tabs)
	}
	s.ok("navigate_page", map[string]any{"url": site.URL + "/one"})
	mustContain(t, s.ok("take_snapshot", nil), "one")
}

// TestHTTPRootsWarningOnce connects three clients without roots: each is
// told, but the server's log warns once, not once a session.
func TestHTTPRootsWarningOnce(t *testing.T) {
	hs := startHTTPServer(t, headless...)
	noRoots := func() *mcp.Client {
		return mcp.NewClient(&mcp.Implementation{Name: "plain", Version: "1"}, &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
	}
	for range 3 {
		hs.connectWith(noRoots()).ok("list_pages", nil)
	}
	eventually(t, "the warning about missing roots", func() bool { return strings.Contains(hs.log.String(), "shares no roots") })
	hs.connectWith(noRoots()).ok("list_pages", nil)
	if n := strings.Count(hs.log.String(), "shares no roots"); n != 1 {
		t.Errorf("the log says %d times that a client shares no roots, want once:\n%s", n, hs.log.String())
	}
}

// TestHTTPSessionCostsOneRenderer counts the renderer processes of the
// browser the server launched as sessions open a page each: every further
// session adds one renderer, its page's. Chromium 156 gave every browser
// context WebUI omnibox popups preloaded in a renderer of their own,
// which doubled a session's cost although headless never shows them.
func TestHTTPSessionCostsOneRenderer(t *testing.T) {
	site := pages(t, map[string]string{"/": scenarioPage})
	hs := startHTTPServer(t, headless...)
	renderers := func() (n int) {
		for _, p := range descendantsMem(hs.cmd.Process.Pid).procs {
			if p.kind == "renderer" {
				n++
			}
		}
		return n
	}
	var first int
	for i := range 3 {
		hs.connect().ok("new_page", map[string]any{"url": site.URL + "/"})
		if i == 0 {
			first = renderers()
		}
	}
	if added := renderers() - first; added > 2 {
		t.Errorf("two more sessions with a page each added %d renderer processes, want one each", added)
	}
}
