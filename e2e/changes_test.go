package e2e

import (
	"strings"
	"testing"
)

// TestActionsTellWhatTheyChanged checks what an action without
// includeSnapshot answers: the dialog a click opened, with fields the agent
// fills next by their uids; the tree item's children an expansion showed;
// the state of what was clicked in words; the focus a key moved; the
// popup that closed and the live region's message; and nothing more for
// an action that changed nothing on the page.
func TestActionsTellWhatTheyChanged(t *testing.T) {
	site := fixtures(t)
	s := startServer(t, headless...)

	snap := s.open(site, "/widgets/dialog.html")
	out := s.ok("click", map[string]any{"uid": uidOf(t, snap, `button "Add delivery address"`)})
	mustContain(t, out, "Successfully clicked on the element.\nOpened:\n", `dialog "Add delivery address"`, `textbox "Street" focused`, `button "Save"`)
	mustNotContain(t, out, "## Latest page snapshot", `heading "Addresses"`)
	s.ok("fill_form", map[string]any{"elements": []map[string]any{
		{"uid": uidOf(t, out, `textbox "Street"`), "value": "1 Main St"}, {"uid": uidOf(t, out, `textbox "City"`), "value": "Springfield"}}})
	out = s.ok("click", map[string]any{"uid": uidOf(t, out, `button "Save"`)})
	mustContain(t, out, "Changed:\n", `"1 Main St, Springfield"`, `Closed: uid=`, `dialog "Add delivery address"`)
	// Clicking the heading changes nothing: no snapshot lines.
	if out = s.ok("click", map[string]any{"uid": uidOf(t, snap, `heading "Addresses"`)}); out != "Successfully clicked on the element." {
		t.Errorf("a click that changed nothing answered:\n%s", out)
	}

	snap = s.open(site, "/widgets/tree.html")
	out = s.ok("click", map[string]any{"uid": uidOf(t, snap, "treeitem \"\uF07B Projects\"")})
	mustContain(t, out, "Successfully clicked on the element. It is now expanded.\nOpened:\n", `treeitem "project-1.docx" level="2"`, `treeitem "project-2.docx" level="2"`)
	out = s.ok("click", map[string]any{"uid": uidOf(t, out, `treeitem "project-2.docx"`)})
	if out != "Successfully clicked on the element. It is now selected." {
		t.Errorf("selecting a tree item answered:\n%s", out)
	}
	// A key moves the focus; the answer says where.
	out = s.ok("press_key", map[string]any{"key": "Shift+Tab"})
	mustContain(t, out, "Changed:\n", "treeitem \"\uF07B Projects\" expanded focused")

	// includeSnapshot still gives the whole page, without the changes.
	snap = s.open(site, "/widgets/menubutton.html")
	out = s.ok("click", map[string]any{"uid": uidOf(t, snap, `button "Actions`), "includeSnapshot": true})
	mustContain(t, out, "## Latest page snapshot", `menuitem "Delete"`, `heading "Menu button"`)
	mustNotContain(t, out, "Opened:")
	out = s.ok("click", map[string]any{"uid": uidOf(t, out, `menuitem "Delete"`)})
	mustContain(t, out, `Closed: uid=`, `menu "Actions ▾"`, "status", `"Delete"`)
	if strings.Contains(out, "menuitem") {
		t.Errorf("the closed menu's items are told:\n%s", out)
	}
}

// mustNotContain fails the test when got contains any of unwanted.
func mustNotContain(t testing.TB, got string, unwanted ...string) {
	t.Helper()
	for _, u := range unwanted {
		if strings.Contains(got, u) {
			t.Errorf("answer contains %q:\n%s", u, got)
		}
	}
}

// TestClicksTellThePagesTheyOpen checks that a click on a link to a new
// tab, and on a button that opens a popup, says which page opened.
func TestClicksTellThePagesTheyOpen(t *testing.T) {
	site := pages(t, map[string]string{
		"/":       `<title>Opener</title><a href="/target" target=_blank>New tab</a><button onclick="window.open('/popup')">Popup</button>`,
		"/popup":  `<title>Popup</title>popup`,
		"/target": `<title>Target blank</title>`,
	})
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	snap := s.ok("take_snapshot", nil)
	for _, line := range []string{`link "New tab"`, `button "Popup"`} {
		out := s.ok("click", map[string]any{"uid": uidOf(t, snap, line)})
		mustContain(t, out, "The action opened page ", "select_page with pageId")
	}
}
