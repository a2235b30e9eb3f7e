package snapshot

import (
	"encoding/json"
	"testing"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// TestWidgetItemsKept checks that the default snapshot lists what an agent
// acts on inside custom widgets, with its state: the options of an ARIA
// listbox (not focusable, inside a control), a grid's cells and its
// selectable rows, and a non-modal dialog, while a table's plain rows and
// the text that only spells an item's name stay out.
func TestWidgetItemsKept(t *testing.T) {
	prop := func(name, raw string) cdp.AXProperty {
		return cdp.AXProperty{Name: name, Value: cdp.AXValue{Value: json.RawMessage(raw)}}
	}
	text := func(id, name string, backend int) cdp.AXNode {
		return cdp.AXNode{NodeID: id, Role: axv(`"StaticText"`), Name: axv(name), BackendDOMNodeID: backend}
	}
	f := &Frame{Scope: "s", Nodes: []cdp.AXNode{
		{NodeID: "1", Role: axv(`"RootWebArea"`), Name: axv(`"W"`), ChildIDs: []string{"2", "10", "20", "30"}, BackendDOMNodeID: 1},
		{NodeID: "2", Role: axv(`"listbox"`), Name: axv(`"Elements"`), ChildIDs: []string{"3", "5"}, BackendDOMNodeID: 2,
			Properties: []cdp.AXProperty{prop("focusable", "true")}},
		{NodeID: "3", Role: axv(`"option"`), Name: axv(`"Curium"`), ChildIDs: []string{"4"}, BackendDOMNodeID: 3,
			Properties: []cdp.AXProperty{prop("selected", "true")}},
		text("4", `"Curium"`, 4),
		{NodeID: "5", Role: axv(`"option"`), Name: axv(`"Fermium"`), ChildIDs: []string{"6"}, BackendDOMNodeID: 5,
			Properties: []cdp.AXProperty{prop("selected", "false"), prop("disabled", "true")}},
		text("6", `"Fermium"`, 6),
		{NodeID: "10", Role: axv(`"grid"`), Name: axv(`"Inbox"`), ChildIDs: []string{"11"}, BackendDOMNodeID: 10},
		{NodeID: "11", Role: axv(`"row"`), Name: axv(`"Ada"`), ChildIDs: []string{"12"}, BackendDOMNodeID: 11,
			Properties: []cdp.AXProperty{prop("selected", "false")}},
		{NodeID: "12", Role: axv(`"gridcell"`), Name: axv(`"Ada"`), ChildIDs: []string{"13"}, BackendDOMNodeID: 12},
		text("13", `"Ada"`, 13),
		{NodeID: "20", Role: axv(`"table"`), ChildIDs: []string{"21"}, BackendDOMNodeID: 20},
		{NodeID: "21", Role: axv(`"row"`), Name: axv(`"x"`), ChildIDs: []string{"22"}, BackendDOMNodeID: 21},
		{NodeID: "22", Role: axv(`"cell"`), Name: axv(`"x"`), ChildIDs: []string{"23"}, BackendDOMNodeID: 22},
		text("23", `"x"`, 23),
		{NodeID: "30", Role: axv(`"dialog"`), Name: axv(`"Add address"`), ChildIDs: []string{"31"}, BackendDOMNodeID: 30,
			Properties: []cdp.AXProperty{prop("modal", "false")}},
		{NodeID: "31", Role: axv(`"button"`), Name: axv(`"Actions "`), BackendDOMNodeID: 31,
			Properties: []cdp.AXProperty{prop("focusable", "true")}},
	}}
	out := format(t, NewTracker().Take(f, false), Options{})
	want := `uid=1_0 RootWebArea "W"
  uid=1_1 listbox "Elements"
    uid=1_2 option "Curium" selected
    uid=1_3 option "Fermium" disabled
  uid=1_4 grid "Inbox"
    uid=1_5 row "Ada" selectable
      uid=1_6 gridcell "Ada"
  uid=1_7 "x"
  uid=1_8 dialog "Add address"
    uid=1_9 button "Actions "
`
	if out != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
}
