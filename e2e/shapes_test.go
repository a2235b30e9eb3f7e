package e2e

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// These tests pin answers whose shape prompts and skills written for the
// reference server rely on.

func TestFailedNavigationIsTextAndKeepsTheURL(t *testing.T) {
	site := pages(t, map[string]string{"/": `<title>Start</title>`})
	gone := closedPort(t)
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	out := s.ok("navigate_page", map[string]any{"url": gone})
	mustContain(t, out, "Unable to navigate in the selected page: net::ERR_CONNECTION_REFUSED at "+gone+".")
	for _, list := range []string{out, s.ok("list_pages", nil)} {
		if line := pageLine(list, "[selected]"); !strings.Contains(line, "("+gone+")") {
			t.Fatalf("after the failed navigation the page is listed as %q, want its URL %s:\n%s", line, gone, list)
		}
	}
	// The page works afterwards.
	mustContain(t, s.ok("navigate_page", map[string]any{"url": site.URL}), "Navigated to "+site.URL)
}

func TestClosingTheSelectedPageNamesTheNewSelection(t *testing.T) {
	site := pages(t, map[string]string{"/a": `<title>Page A</title>`, "/b": `<title>Page B</title>`})
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL + "/a"})
	out := s.ok("new_page", map[string]any{"url": site.URL + "/b"})
	a, b := pageID(t, out, "Page A"), pageID(t, out, "Page B")
	out = s.ok("close_page", map[string]any{"pageId": b})
	mustContain(t, out, fmt.Sprintf("Note: the closed page was the selected one; page %d is now selected.", a))
	mustContain(t, pageLine(out, "Page A"), "[selected]")

	// Closing another page leaves the selection alone and says nothing of it.
	out = s.ok("new_page", map[string]any{"url": site.URL + "/b", "background": true})
	s.ok("select_page", map[string]any{"pageId": a})
	out = s.ok("close_page", map[string]any{"pageId": pageID(t, out, "Page B")})
	if strings.Contains(out, "now selected") {
		t.Fatalf("closing a page that was not selected reported a new selection:\n%s", out)
	}
}

// keyLog is a text field that records the events typing fires on it.
const keyLog = `<title>Keys</title><input id=f aria-label=Field><textarea id=t aria-label=Notes></textarea><script>
const log = [];
for (const el of [f, t]) for (const type of ['keydown', 'keypress', 'beforeinput', 'input', 'keyup', 'change'])
  el.addEventListener(type, e => log.push(type + ':' + (e.key ?? e.data ?? '')));
window.takeLog = () => log.splice(0).join(' ');
</script>`

func TestTypingFiresKeyEventsForEveryCharacter(t *testing.T) {
	site := pages(t, map[string]string{"/": keyLog})
	s := startServer(t, headless...)
	snap := s.open(site, "/")
	s.ok("click", map[string]any{"uid": uidOf(t, snap, `textbox "Field"`)})
	s.eval("() => takeLog()")
	s.ok("type_text", map[string]any{"text": "a!B é"})
	got := s.eval("() => takeLog()")
	// evaluate_script's JSON escapes é.
	for _, c := range []string{"a", "!", "B", " ", `\u00e9`} {
		mustContain(t, got, "keydown:"+c+" keypress:"+c+" beforeinput:"+c+" input:"+c+" keyup:"+c)
	}
	if v := s.eval("() => f.value"); v != `"a!B \u00e9"` {
		t.Fatalf("type_text left the field at %s", v)
	}

	// fill replaces the value key by key, as an autocomplete widget needs.
	s.ok("fill", map[string]any{"uid": uidOf(t, snap, `textbox "Field"`), "value": "x?Y"})
	got = s.eval("() => takeLog()")
	for _, c := range []string{"x", "?", "Y"} {
		mustContain(t, got, "keydown:"+c+" keypress:"+c+" beforeinput:"+c+" input:"+c+" keyup:"+c)
	}
	mustContain(t, got, "change:")
	if v := s.eval("() => f.value"); v != `"x?Y"` {
		t.Fatalf("fill left the field at %s", v)
	}

	// A long value: its start goes in as one input, its end is typed.
	long := strings.Repeat("0123456789", 50) + "tail!"
	s.ok("fill", map[string]any{"uid": uidOf(t, snap, `textbox "Notes"`), "value": long})
	got = s.eval("() => takeLog()")
	mustContain(t, got, "keydown:t keypress:t beforeinput:t input:t keyup:t", "keydown:! keypress:! beforeinput:! input:! keyup:!", "change:")
	if n := strings.Count(got, "keydown:"); n != 32 {
		t.Errorf("filling %d characters fired %d keydowns, want the last 32 typed", len(long), n)
	}
	if v := s.eval("() => t.value"); v != `"`+long+`"` {
		t.Fatalf("fill left the textarea at %s", v)
	}
}

var tabIDLine = regexp.MustCompile(`(?m)^Tab ID: ([0-9A-F]{32})$`)

func TestGetTabIDUnderInteropTools(t *testing.T) {
	site := pages(t, map[string]string{"/a": `<title>Page A</title>`, "/b": `<title>Page B</title>`})
	plain := startServer(t, headless...)
	if slices.Contains(toolNames(t, plain), "get_tab_id") {
		t.Fatal("get_tab_id is listed without --experimentalInteropTools")
	}

	s := startServer(t, append(headless, "--experimentalInteropTools")...)
	s.ok("navigate_page", map[string]any{"url": site.URL + "/a"})
	out := s.ok("new_page", map[string]any{"url": site.URL + "/b"})
	a, b := pageID(t, out, "Page A"), pageID(t, out, "Page B")
	tabOf := func(id int) string {
		t.Helper()
		out := s.ok("get_tab_id", map[string]any{"pageId": id})
		m := tabIDLine.FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("get_tab_id answered:\n%s", out)
		}
		return m[1]
	}
	ta, tb := tabOf(a), tabOf(b)
	if ta == tb || tabOf(a) != ta {
		t.Fatalf("tab ids: page A %s (then %s), page B %s; want one stable id per tab", ta, tabOf(a), tb)
	}
}
