package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// TestPopupsOfUserTabsAreTheAgents checks the pages an agent's call opens
// from one of the user's tabs (a target=_blank link it clicks, with
// rel=opener or without, a window.open it runs): they are the agent's, listed so and closable,
// and nothing the agent does in them leads a user's tab away, by its
// opener (opener.location, location.replace, a script run in the
// opener), or by the name the user's page gave its window
// (window.open(url, name)), nor close or lead away another user's popup
// of the same tab.
func TestPopupsOfUserTabsAreTheAgents(t *testing.T) {
	site := pages(t, map[string]string{
		"/mine": `<title>My mail</title><script>window.name = "usermail"</script>` +
			`<a href="/popup" target="_blank" rel="opener">Open</a><a href="/popup?plain" target="_blank">Plain</a>`,
		"/popup":     `<title>Popup</title>`,
		"/mine2":     `<title>My chat</title>`,
		"/elsewhere": `<title>Elsewhere</title>`,
	})
	tab := attachToUserTab(t, site.URL+"/mine", "My mail")
	s, conn, user := tab.s, tab.conn, tab.page
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// The user's own popup of that tab, named: the agent's popups share
	// its browsing context group.
	att, err := cdp.TargetAttachToTarget.Call(ctx, conn.Session(""), cdp.AttachToTargetParams{TargetID: tab.target, Flatten: true})
	if err != nil {
		t.Fatal(err)
	}
	var res struct{}
	if err := conn.Session(att.SessionID).Call(ctx, "Runtime.evaluate", map[string]any{"expression": "window.open('/mine2', 'userchat'); 1", "userGesture": true}, &res); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the user's popup", func() bool { return strings.Contains(s.ok("list_pages", nil), "My chat") })
	chat := pageID(t, s.ok("list_pages", nil), "My chat")

	s.ok("select_page", map[string]any{"pageId": user})
	snap := s.ok("take_snapshot", nil)
	s.ok("click", map[string]any{"uid": uidOf(t, snap, `link "Open"`)})
	var list string
	eventually(t, "the popup", func() bool {
		list = s.ok("list_pages", nil)
		return strings.Contains(list, "Popup (")
	})
	mustContain(t, pageLine(list, "Popup ("), "[opened by agent]")
	popup := pageID(t, list, "Popup (")
	// The click's own guard of the user's tab lasts 2 s after the call
	// (and a second for clocks): past it, only acting in the popup guards
	// the tab. No event marks its end.
	time.Sleep(3500 * time.Millisecond)

	stays := func(what string, out string) {
		t.Helper()
		eventually(t, what+" refused", func() bool {
			if !strings.Contains(out, "Refused:") {
				out = s.ok("list_pages", nil)
			}
			return strings.Contains(out, "Refused:")
		})
		list := s.ok("list_pages", nil)
		for id, title := range map[int]string{user: "My mail", chat: "My chat"} {
			if line := pageLine(list, fmt.Sprintf("%d: ", id)); !strings.Contains(line, title) {
				t.Fatalf("%s: a user's tab left its page: %q\n%s", what, line, out)
			}
		}
	}
	stays("navigate_page's initScript", s.ok("navigate_page", map[string]any{"pageId": popup, "url": site.URL + "/popup?init", "initScript": "opener.location = '/elsewhere'"}))
	for _, script := range []string{
		"() => { opener.location = '/elsewhere'; }",
		"() => { opener.location.replace('/elsewhere'); }",
		"() => { opener.eval(\"location.href = '/elsewhere'\"); }",
		"() => { window.open('/elsewhere', 'usermail'); }",
		"() => { window.open('/elsewhere', 'userchat'); }",
		"() => { window.open('', 'userchat').close(); }",
		"() => { window.open('', 'usermail').eval(\"window.open('', 'userchat').close()\"); }",
	} {
		stays(script, s.ok("evaluate_script", map[string]any{"pageId": popup, "function": script}))
	}
	// So does a target=_blank link without rel=opener, which has none.
	snap = s.ok("take_snapshot", map[string]any{"pageId": user})
	s.ok("click", map[string]any{"pageId": user, "uid": uidOf(t, snap, `link "Plain"`)})
	eventually(t, "the plain popup", func() bool {
		list = s.ok("list_pages", nil)
		return strings.Contains(list, "?plain")
	})
	mustContain(t, pageLine(list, "?plain"), "[opened by agent]")
	s.ok("close_page", map[string]any{"pageId": pageID(t, list, "?plain")})
	// A window.open run in the user's tab opens a page of the agent's too.
	s.eval("() => { window.open('/popup?again'); }", "pageId", user)
	eventually(t, "the second popup", func() bool {
		list = s.ok("list_pages", nil)
		return strings.Contains(list, "?again")
	})
	mustContain(t, pageLine(list, "?again"), "[opened by agent]")
	again := pageID(t, list, "?again")
	stays("opener.location from the second popup", s.ok("evaluate_script", map[string]any{"pageId": again, "function": "() => { opener.location = '/elsewhere'; }"}))
	s.ok("close_page", map[string]any{"pageId": again})
	s.ok("close_page", map[string]any{"pageId": popup})
	mustContain(t, s.fails("close_page", map[string]any{"pageId": chat}), "one of your own tabs")
}
