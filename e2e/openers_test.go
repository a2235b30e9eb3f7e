package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// TestClicksOpenPopupsOneAfterAnother clicks, one after the other, links
// to new tabs and buttons that run window.open on the same page, with
// select_page to a popup and back between them, then hovers there: each
// answer names the page the click opened, the opener stays selected, and
// the opener is shown to its scripts as visible when each action lands. A
// page in the background is not drawn, and Chrome holds the mouse move
// that starts a click or a hover there until it gives up waiting for a
// frame, 5 s later: every click after the first popup took that long
// (the opener had gone to the background), though the first answered in
// a quarter of a second. Visible but behind another tab, a page gets one
// frame a second once a few of its frames went undrawn, so in the agent's
// own browser the action also brings its page to the front. The same
// holds in a browser the server attached to with --browserUrl, but for
// the front: the user's tabs are left where they are.
func TestClicksOpenPopupsOneAfterAnother(t *testing.T) {
	site := pages(t, map[string]string{
		"/": `<title>Opener</title><script>window.seen = [];
function note(e) { seen.push(e.type + ' ' + e.currentTarget.textContent + ': ' + document.visibilityState); }</script>
<a href="/tab1" target=_blank onclick="note(event)">First tab</a>
<button onclick="note(event); window.open('/popup2')">Second popup</button>
<a href="/tab3" target=_blank onclick="note(event)">Third tab</a>
<button onclick="note(event); window.open('/popup4', 'fourth')">Fourth popup</button>
<button onmouseenter="note(event)">Hover me</button>`,
		"/tab1":   `<title>Tab one</title>` + tellsHiding,
		"/popup2": `<title>Popup two</title>` + tellsHiding,
		"/tab3":   `<title>Tab three</title>` + tellsHiding,
		"/popup4": `<title>Popup four</title>` + tellsHiding,
	})
	for _, attached := range []bool{false, true} {
		t.Run(map[bool]string{false: "launched", true: "attached"}[attached], func(t *testing.T) {
			var s *server
			if attached {
				ws, _, _ := chromium(t)
				s = startServer(t, "--browserUrl", browserURL(ws))
				s.ok("new_page", map[string]any{"url": site.URL})
			} else {
				s = startServer(t, headless...)
				s.ok("navigate_page", map[string]any{"url": site.URL})
			}
			opener := pageID(t, s.ok("list_pages", nil), "Opener")
			snap := s.ok("take_snapshot", nil)
			var want []string
			for i, c := range []struct{ line, path, title string }{
				{`link "First tab"`, "/tab1", "Tab one"},
				{`button "Second popup"`, "/popup2", "Popup two"},
				{`link "Third tab"`, "/tab3", "Tab three"},
				{`button "Fourth popup"`, "/popup4", "Popup four"},
			} {
				before := s.ok("list_pages", nil)
				out := s.ok("click", map[string]any{"uid": uidOf(t, snap, c.line)})
				var id int
				if _, err := fmt.Sscanf(out[strings.Index(out, "The action opened page ")+len("The action opened page "):], "%d", &id); err != nil || strings.Contains(before, fmt.Sprintf("\n%d: ", id)) {
					t.Fatalf("click %s: the answer names no new page:\n%s\npages before:\n%s", c.line, out, before)
				}
				// Chrome tells a new tab's URL after the tab: a click
				// that settles first says so.
				if told := fmt.Sprintf("The action opened page %d (%s%s); select_page with pageId %d acts in it.", id, site.URL, c.path, id); !strings.Contains(out, told) {
					mustContain(t, out, fmt.Sprintf("The action opened page %d (its URL not known yet); select_page with pageId %d acts in it.", id, id))
				}
				var list string
				eventually(t, c.title+" to load", func() bool {
					list = s.ok("list_pages", nil)
					return strings.Contains(pageLine(list, fmt.Sprintf("%d: ", id)), c.title)
				})
				mustContain(t, pageLine(list, fmt.Sprintf("%d: ", id)), site.URL+c.path)
				mustContain(t, pageLine(list, fmt.Sprintf("%d: ", opener)), "Opener", "[selected]")
				if i == 1 {
					// To the popup and back: the opener is selected, not brought to the front.
					mustContain(t, pageLine(s.ok("select_page", map[string]any{"pageId": id}), fmt.Sprintf("%d: ", id)), "[selected]")
					mustContain(t, pageLine(s.ok("select_page", map[string]any{"pageId": opener}), fmt.Sprintf("%d: ", opener)), "[selected]")
				}
				want = append(want, "click "+strings.Split(c.line, `"`)[1]+": visible")
			}
			s.ok("hover", map[string]any{"uid": uidOf(t, snap, `button "Hover me"`)})
			want = append(want, "mouseenter Hover me: visible")
			got := s.eval("() => seen.join('\\n')")
			if wantJSON := fmt.Sprintf("%q", strings.Join(want, "\n")); got != wantJSON {
				t.Fatalf("what the opener saw of the actions:\n%s\nwant:\n%s", got, wantJSON)
			}
			if !attached {
				// The hover brought the opener to the front, as a person
				// would: the last popup went behind it. (A browser the
				// server attached to is the user's: its tabs stay put.)
				mustContain(t, s.ok("list_pages", nil), "Popup four, hidden (")
			}
		})
	}
}

// tellsHiding has a page add ", hidden" to its title when it goes to the
// background.
const tellsHiding = `<script>document.addEventListener('visibilitychange', () => { if (document.hidden) document.title += ', hidden'; })</script>`

// TestUserTabsKeepTheirFocusState checks that, in a browser the server
// attached to, a tab of the user's behind another is still shown to its
// scripts as hidden and unfocused after the agent used it: it does not
// emulate focus as the agent's pages do (a mail or chat page that believes
// it is seen marks what arrives as read, and a hover handler under the
// pointer ran when emulate changed its layout). The agent's own page
// behind another, in the same browser, does emulate it, and so does a
// blank tab of the user's once the agent navigated it (it is the agent's).
func TestUserTabsKeepTheirFocusState(t *testing.T) {
	site := pages(t, map[string]string{"/mine": `<title>My mail</title>`, "/front": `<title>In front</title>`})
	ws, _, _ := chromium(t)
	conn := openTabs(t, ws, 0)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, path := range []string{"/mine", "/front"} { // the last one opened is in front
		if err := cdp.TargetCreateTarget.Do(ctx, conn.Session(""), cdp.CreateTargetParams{URL: site.URL + path}); err != nil {
			t.Fatal(err)
		}
	}
	s := startServer(t, "--browserUrl", browserURL(ws))
	eventually(t, "the user's pages", func() bool { return strings.Count(s.ok("list_pages", nil), "(http") == 2 })
	state := "() => document.visibilityState + ', focused: ' + document.hasFocus()"
	if got := s.eval(state, "pageId", pageID(t, s.ok("list_pages", nil), "My mail")); got != `"hidden, focused: false"` {
		t.Errorf("the user's tab behind another shows itself to its scripts as %s, want hidden and unfocused", got)
	}
	s.ok("new_page", map[string]any{"url": site.URL + "/front?agent"})
	agents := pageID(t, s.ok("list_pages", nil), "?agent")
	s.ok("new_page", map[string]any{"url": site.URL + "/front?agent2"})
	if got := s.eval(state, "pageId", agents); got != `"visible, focused: true"` {
		t.Errorf("the agent's page behind another shows itself as %s, want visible and focused (focus emulation)", got)
	}
	// A blank tab of the user's that the agent navigated is the agent's.
	if err := cdp.TargetCreateTarget.Do(ctx, conn.Session(""), cdp.CreateTargetParams{URL: "about:blank"}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the user's blank tab", func() bool { return strings.Contains(s.ok("list_pages", nil), "about:blank") })
	s.ok("select_page", map[string]any{"pageId": pageID(t, s.ok("list_pages", nil), "about:blank")})
	s.ok("navigate_page", map[string]any{"url": site.URL + "/front?adopted"})
	adopted := pageID(t, s.ok("list_pages", nil), "?adopted")
	s.ok("new_page", map[string]any{"url": site.URL + "/front?agent3"})
	if got := s.eval(state, "pageId", adopted); got != `"visible, focused: true"` {
		t.Errorf("the user's blank tab the agent navigated, behind another, shows itself as %s, want visible and focused as the agent's pages", got)
	}
}
