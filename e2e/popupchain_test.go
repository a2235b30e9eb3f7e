package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestPopupChainsOfUserTabsAreGuarded checks a chain of popups on an
// attached browser: the agent's popup of a user's tab opens a popup of
// its own, and a script there reaches back two openers (opener.opener),
// or by the user's window name, to lead the user's tab away, close it or
// script it into leading itself away. Both popups are the agent's; the
// user's tab stays where it is.
func TestPopupChainsOfUserTabsAreGuarded(t *testing.T) {
	site := pages(t, map[string]string{
		"/mine":      `<title>My mail</title><script>window.name = "usermail"</script>`,
		"/popup":     `<title>Popup</title>`,
		"/elsewhere": `<title>Elsewhere</title>`,
	})
	tab := attachToUserTab(t, site.URL+"/mine", "My mail")
	s, user := tab.s, tab.page
	var list string
	opened := func(what, substr string) int {
		t.Helper()
		eventually(t, what, func() bool {
			list = s.ok("list_pages", nil)
			return strings.Contains(list, substr)
		})
		mustContain(t, pageLine(list, substr), "[opened by agent]")
		return pageID(t, list, substr)
	}
	s.eval("() => { window.open('/popup?child'); }", "pageId", user)
	child := opened("the popup", "?child")
	s.eval("() => { window.open('/popup?grandchild'); }", "pageId", child)
	grand := opened("the popup's popup", "?grandchild")
	// The guards the calls in the user's tab and the first popup set last
	// 2 s after them (and a second for clocks): past them, only acting in
	// the second popup guards the tab. No event marks their end.
	time.Sleep(3500 * time.Millisecond)
	for _, script := range []string{
		"() => { opener.opener.location = '/elsewhere'; }",
		"() => { opener.opener.location.replace('/elsewhere'); }",
		"() => { opener.opener.eval(\"location.href = '/elsewhere'\"); }",
		"() => { opener.opener.close(); }",
		"() => { window.open('/elsewhere', 'usermail'); }",
		"() => { window.open('', 'usermail').close(); }",
		"() => { opener.eval(\"opener.location = '/elsewhere'\"); }",
		"() => { opener.eval(\"setTimeout(() => opener.location = '/elsewhere', 300)\"); }",
	} {
		out := s.ok("evaluate_script", map[string]any{"pageId": grand, "function": script})
		eventually(t, script+" refused", func() bool {
			if !strings.Contains(out, "Refused:") {
				out = s.ok("list_pages", nil)
			}
			return strings.Contains(out, "Refused:")
		})
		if line := pageLine(s.ok("list_pages", nil), fmt.Sprintf("%d: ", user)); !strings.Contains(line, "My mail") {
			t.Fatalf("%s: the user's tab left its page: %q\n%s", script, line, out)
		}
	}
	s.ok("close_page", map[string]any{"pageId": grand})
	s.ok("close_page", map[string]any{"pageId": child})
}
