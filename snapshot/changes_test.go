package snapshot

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// page describes an accessibility tree for the Diff tests, one node a
// line: "id parent role "name" prop=value...", the id being the backend
// DOM node id too (so that the same id is the same node in two trees),
// parent 0 for the root; a value is raw JSON.
func page(t *testing.T, lines ...string) *Frame {
	t.Helper()
	var nodes []cdp.AXNode
	at := map[string]int{}
	for _, l := range lines {
		var id, parent int
		var role string
		n, _ := fmt.Sscanf(l, "%d %d %s", &id, &parent, &role)
		if n != 3 {
			t.Fatalf("bad line %q", l)
		}
		rest := strings.SplitN(l, " ", 4)
		node := cdp.AXNode{NodeID: fmt.Sprint(id), Role: axv(`"` + role + `"`), BackendDOMNodeID: id}
		if len(rest) == 4 {
			props := rest[3]
			if strings.HasPrefix(props, `"`) {
				end := strings.Index(props[1:], `"`) + 1
				node.Name = axv(props[:end+1])
				props = strings.TrimSpace(props[end+1:])
			}
			for _, p := range strings.Fields(props) {
				k, v, _ := strings.Cut(p, "=")
				if k == "value" {
					node.Value = &cdp.AXValue{Value: json.RawMessage(v)}
					continue
				}
				node.Properties = append(node.Properties, cdp.AXProperty{Name: k, Value: cdp.AXValue{Value: json.RawMessage(v)}})
			}
		}
		at[node.NodeID] = len(nodes)
		nodes = append(nodes, node)
		if parent != 0 {
			p := &nodes[at[fmt.Sprint(parent)]]
			p.ChildIDs = append(p.ChildIDs, node.NodeID)
		}
	}
	return &Frame{Scope: "s", Nodes: nodes}
}

// diffOf takes the snapshots of before and after with one tracker and
// returns their changes, formatted, with the uids of the acted-on nodes
// named (by their name) in acted.
func diffOf(t *testing.T, before, after *Frame, ownValue bool, acted ...string) (Changes, string) {
	t.Helper()
	tr := NewTracker()
	b := tr.Take(before, false)
	a := tr.Take(after, false)
	var uids []string
	for _, name := range acted {
		var n *Node
		for _, s := range []*Snapshot{a, b} {
			walk(s.Root, func(x *Node) {
				if n == nil && x.Name == name {
					n = x
				}
			})
		}
		if n == nil {
			t.Fatalf("no node named %q", name)
		}
		uids = append(uids, n.UID)
	}
	c := Diff(b, a, uids, ownValue)
	return c, c.Format(0)
}

// TestDiffTellsWhatOpened checks the changes of a tree item's expansion:
// its new children, and its own state in words.
func TestDiffTellsWhatOpened(t *testing.T) {
	before := page(t, `1 0 RootWebArea "P"`, `2 1 tree "Files"`, `3 2 treeitem "Projects" expanded=false level=1`, `5 2 treeitem "notes" level=1 selected=false`)
	after := page(t, `1 0 RootWebArea "P"`, `2 1 tree "Files"`, `3 2 treeitem "Projects" expanded=true focused=true level=1`,
		`4 3 treeitem "a.docx" level=2 selected=false`, `6 3 treeitem "b.docx" level=2 selected=false`, `5 2 treeitem "notes" level=1 selected=false`)
	c, out := diffOf(t, before, after, true, "Projects")
	if !slices.Equal(c.Own, []string{"expanded"}) {
		t.Errorf("own = %q, want expanded", c.Own)
	}
	want := "Opened:\nuid=2_0 treeitem \"a.docx\" level=\"2\" selectable\nuid=2_1 treeitem \"b.docx\" level=\"2\" selectable\n"
	if out != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
}

// TestDiffOfTabs checks that a tab's selection is told in words, not the
// tab it moved from, nor the panel that replaced another.
func TestDiffOfTabs(t *testing.T) {
	before := page(t, `1 0 RootWebArea "P"`, `2 1 tab "One" selected=true`, `3 1 tab "Two" selected=false`, `4 1 tabpanel "One" focusable=true`, `5 4 StaticText "first"`)
	after := page(t, `1 0 RootWebArea "P"`, `2 1 tab "One" selected=false`, `3 1 tab "Two" selected=true focused=true`, `6 1 tabpanel "Two" focusable=true`, `7 6 StaticText "second"`)
	c, out := diffOf(t, before, after, true, "Two")
	if !slices.Equal(c.Own, []string{"selected"}) || out != "" {
		t.Errorf("own = %q and\n%s\nwant selected and nothing else", c.Own, out)
	}
	// Without the agent's click (a key press), the selection is told.
	_, out = diffOf(t, before, after, true)
	if want := "Changed:\nuid=1_2 tab \"Two\" focused selected\n"; out != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
}

// TestDiffOfADialogAndAMenu checks what opens and closes: a dialog with
// its fields (the focus in it told there), a menu that went away with the
// button that opened it collapsed, and a live region's new message.
func TestDiffOfADialogAndAMenu(t *testing.T) {
	before := page(t, `1 0 RootWebArea "P"`, `2 1 button "Actions" expanded=true`, `3 1 menu "Actions"`, `4 3 menuitem "Delete"`,
		`5 1 status "" live="polite"`, `6 5 StaticText "none"`)
	after := page(t, `1 0 RootWebArea "P"`, `2 1 button "Actions" expanded=false`, `5 1 status "" live="polite"`, `7 5 StaticText "Deleted"`,
		`8 1 dialog "Undo?"`, `9 8 textbox "Why" focused=true`)
	_, out := diffOf(t, before, after, true, "Delete")
	want := "Opened:\nuid=2_1 dialog \"Undo?\"\n  uid=2_2 textbox \"Why\" focused\n" +
		"Changed:\nuid=1_1 button \"Actions\" expandable\nuid=1_4 status live=\"polite\"\n  uid=2_0 \"Deleted\"\n" +
		"Closed: uid=1_2 menu \"Actions\"\n"
	if out != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
}

// TestDiffOfValuesAndFocus checks that fill's own value is not told back
// (nor the value of the textbox inside the combobox it filled), that a
// click's value change is, that new text is told with its element, and
// that a key press tells where the focus went.
func TestDiffOfValuesAndFocus(t *testing.T) {
	before := page(t, `1 0 RootWebArea "P"`, `2 1 combobox "City"`, `3 2 textbox "City" value=""`, `4 1 gridcell "Star"`, `5 4 StaticText "☆"`,
		`6 1 button "Save" focused=true`, `7 1 button "Next"`)
	after := page(t, `1 0 RootWebArea "P"`, `2 1 combobox "City"`, `3 2 textbox "City" value="Detroit"`, `4 1 gridcell "Star"`, `8 4 StaticText "★"`,
		`6 1 button "Save"`, `7 1 button "Next" focused=true`)
	c, out := diffOf(t, before, after, false, "City")
	want := "Changed:\nuid=1_3 gridcell \"Star\"\n  uid=2_0 \"★\"\nuid=1_6 button \"Next\" focused\n"
	if len(c.Own) != 0 || out != want {
		t.Errorf("own %q, got:\n%s\nwant:\n%s", c.Own, out, want)
	}
	c, _ = diffOf(t, before, after, true, "Star")
	if len(c.Own) != 0 {
		t.Errorf("own = %q for a node whose line did not change", c.Own)
	}
	if _, out = diffOf(t, before, after, true); !strings.Contains(out, `uid=1_2 textbox "City" value="Detroit"`) {
		t.Errorf("a value changed by a key press is not told:\n%s", out)
	}
}

// TestDiffIsCut checks that Format stops at maxChars, saying so.
func TestDiffIsCut(t *testing.T) {
	lines := []string{`1 0 RootWebArea "P"`, `2 1 button "Open" expanded=false`}
	before := page(t, lines...)
	lines[1] = `2 1 button "Open" expanded=true`
	for i := range 50 {
		lines = append(lines, fmt.Sprintf(`%d 1 link "link number %d"`, 10+i, i))
	}
	tr := NewTracker()
	c := Diff(tr.Take(before, false), tr.Take(page(t, lines...), false), nil, true)
	if len(c.Opened) != 50 {
		t.Fatalf("opened %d, want the 50 links an expansion showed", len(c.Opened))
	}
	out := c.Format(300)
	if n := len([]rune(out)); n > 300+80 || !strings.HasSuffix(out, "take a snapshot to see the page.\n") {
		t.Errorf("cut at 300 gives %d characters:\n%s", n, out)
	}
}
