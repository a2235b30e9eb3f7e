package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHugeResultLeavesThePageUsable has a script return a 500 MB string
// under a short --scriptTimeout: the call ends in time saying the page is
// usable again, and it is: the next navigate_page, given 4 s, gets there
// (Chrome used to spend the next half minute sending the string, and the
// navigation timed out on the old page).
func TestHugeResultLeavesThePageUsable(t *testing.T) {
	site := pages(t, map[string]string{"/": `<title>One</title>`, "/two": `<title>Two</title>`})
	s := startServer(t, append([]string{"--scriptTimeout", "1000"}, headless...)...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	start := time.Now()
	res := s.answerWithin(30*time.Second, "evaluate_script", map[string]any{"function": `() => 'x'.repeat(5e8)`})
	t.Logf("evaluate_script answered in %v", time.Since(start))
	if !res.IsError {
		t.Fatalf("reading a 500 MB result fit in 1 s: %.200s", text(res))
	}
	mustContain(t, text(res), "usable again")
	start = time.Now()
	res = s.answerWithin(20*time.Second, "navigate_page", map[string]any{"url": site.URL + "/two", "timeout": 4000})
	t.Logf("navigate_page answered in %v", time.Since(start))
	mustContain(t, text(res), "Navigated to "+site.URL+"/two")
	mustContain(t, s.ok("list_pages", nil), "Two ("+site.URL+"/two)")

	// Inside an object, the string makes JSON text as long.
	res = s.answerWithin(30*time.Second, "evaluate_script", map[string]any{"function": `() => ({s: 'x'.repeat(3e8)})`})
	if !res.IsError {
		t.Fatalf("reading a 300 MB object fit in 1 s: %.200s", text(res))
	}
	mustContain(t, text(res), "usable again")
	res = s.answerWithin(20*time.Second, "navigate_page", map[string]any{"url": site.URL, "timeout": 4000})
	mustContain(t, text(res), "Navigated to "+site.URL)
}

// TestLongStringResultsArriveWhole returns strings longer than one read
// (a character of two UTF-16 units across the boundary, markup, quotes)
// and checks the saved result is the whole string; a page script cannot
// pass its own string for the server's stand-in.
func TestLongStringResultsArriveWhole(t *testing.T) {
	site := pages(t, map[string]string{"/": `<title>Long</title>`})
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	path := filepath.Join(t.TempDir(), "out.json")
	s.ok("evaluate_script", map[string]any{"function": `async () => 'a' + '😀<&>"\\'.repeat(400000) + 'END'`, "filePath": path})
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var got string
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatalf("the saved result is not one JSON string: %v (%.100s)", err, data)
	}
	if want := "a" + strings.Repeat(`😀<&>"\`, 400000) + "END"; got != want {
		t.Fatalf("got %d bytes, want %d: the string was not read whole", len(got), len(want))
	}
	mustContain(t, s.ok("evaluate_script", map[string]any{"function": `() => '\u0000devtools-mcp-result:X:5'`}), `devtools-mcp-result:X:5`)

	// An object holding one, and DOM nodes beside it, too.
	s.ok("evaluate_script", map[string]any{"function": `() => ({s: '😀<&>"\\'.repeat(400000), title: document.querySelector('title')})`, "filePath": path})
	data, err = os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var obj struct{ S, Title string }
	if err := json.Unmarshal(data, &obj); err != nil {
		t.Fatalf("the saved object is not JSON: %v (%.100s)", err, data)
	}
	if want := strings.Repeat(`😀<&>"\`, 400000); obj.S != want || !strings.HasPrefix(obj.Title, "uid=") {
		t.Fatalf("got %d bytes and title %q, want %d bytes and a uid", len(obj.S), obj.Title, len(want))
	}
}

// TestScriptsSeeThePagesGlobals checks that the wrapper that keeps long
// results in the page hides nothing of the page from the agent's function:
// globals (and elements by id) named as the wrapper's own variables read
// as the page set them.
func TestScriptsSeeThePagesGlobals(t *testing.T) {
	site := pages(t, map[string]string{"/": `<title>Globals</title><input id="f" value="field">
<script>var keep = 'k', args = 'a', r = 'r', v = 'v', p = 'p', k = 'k2', m = 'm', n = 'n';</script>`})
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	if got := s.eval("() => [f.value, keep, args, r, v, p, k, m, n].join()"); got != `"field,k,a,r,v,p,k2,m,n"` {
		t.Fatalf("the function read the page's globals as %s", got)
	}
	if got := s.eval("async () => [f.value, keep, args].join()"); got != `"field,k,a"` {
		t.Fatalf("the async function read the page's globals as %s", got)
	}
}
