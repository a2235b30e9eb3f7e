package snapshot

import (
	"maps"
	"slices"
	"strings"
	"unicode/utf8"
)

// Changes is what an action changed on the page, told from the snapshot
// the agent last read and one taken after the action (both of the same
// document: their uids name the same nodes). It holds what the agent acts
// on next, not every difference:
//
//   - Own: how the element acted on changed itself ("selected", "not
//     expanded", a new name or value), when the action acted on one;
//   - Opened: the new subtrees that are popups (a dialog, a menu, a
//     listbox, a tree, a grid, a tooltip), new nodes inside a popup or an
//     expanded node (a tree item's children, a combobox's new options),
//     and, when the action expanded something, every new subtree (the
//     content a disclosure button shows);
//   - Changed: other nodes whose state, name or value changed, new text,
//     the element that took the focus, and live regions (status, alert,
//     log) whose content changed, printed whole;
//   - Closed: the popups that went away.
//
// Content that only replaced other content (a tab panel for another) is
// not told, nor what lost a selection another node of the same parent
// gained (the tab or option deselected by the selection of another).
type Changes struct {
	Own     []string
	Opened  []*Node
	Changed []*Node
	Closed  []*Node

	whole map[string]bool // Changed nodes told with their subtree (new text in them)
}

// popupRoles are the roles of what an action opens for the agent to act in.
var popupRoles = map[string]bool{
	"dialog": true, "alertdialog": true, "menu": true, "menubar": true, "listbox": true,
	"tree": true, "treegrid": true, "grid": true, "tooltip": true,
}

// isLive tells whether n is a live region, whose new content is a message.
func isLive(n *Node) bool {
	switch n.Role {
	case "status", "alert", "log", "marquee", "timer":
		return true
	}
	p, ok := n.Prop("live")
	return ok && p.Value != "" && p.Value != "off"
}

// Diff returns what changed from before to after. acted are the uids of
// the elements the action acted on; with ownValue false their new values
// are not told (fill set them, as the agent asked).
func Diff(before, after *Snapshot, acted []string, ownValue bool) Changes {
	var c Changes
	if before == nil || before.Root == nil || after == nil || after.Root == nil {
		return c
	}
	old := index(before.Root)
	cur := index(after.Root)
	isActed := func(uid string) bool { return slices.Contains(acted, uid) }

	// State changes of nodes in both, and which states a node gained
	// under each parent (for the selection that moved).
	diffs := map[string]stateDiff{}
	gained := map[string]map[string]bool{} // parent uid -> state -> gained by a child
	expandedNow := false
	for uid, a := range cur {
		b, ok := old[uid]
		if !ok {
			continue
		}
		d := diffStates(b.n, a.n)
		if d.empty() {
			continue
		}
		diffs[uid] = d
		for _, s := range d.gained {
			if s == "expanded" {
				expandedNow = true
			}
			if gained[a.parent] == nil {
				gained[a.parent] = map[string]bool{}
			}
			gained[a.parent][s] = true
		}
	}
	if len(acted) == 1 {
		// Several elements acted on change as lines of their own.
		if d, ok := diffs[acted[0]]; ok {
			c.Own = d.words(ownValue)
		}
	}

	// New nodes and changed ones, in the order of the page.
	printed := map[string]bool{}
	liveChanged := map[string]bool{}
	textIn := map[string]bool{} // elements told whole for their new text
	actedSet := map[string]bool{}
	for _, uid := range acted {
		actedSet[uid] = true
	}
	var walk func(n *Node, live *Node, inPopup bool)
	walk = func(n *Node, live *Node, inPopup bool) {
		_, existed := old[n.UID]
		if !existed {
			switch {
			case live != nil:
				liveChanged[live.UID] = true
			case n.Role == "StaticText" && len(n.Children) == 0:
				// New text: told with the element it is in, when small.
				t := n
				if p := cur[cur[n.UID].parent].n; p != nil && p != after.Root && subtreeSize(p) <= 10 {
					t = p
				}
				if !printed[t.UID] && !(len(acted) == 1 && actedSet[t.UID]) {
					if t != n {
						c.Changed = slices.DeleteFunc(c.Changed, func(x *Node) bool { return x == t })
						textIn[t.UID] = true
					}
					c.Changed = append(c.Changed, t)
					markTree(t, printed)
				}
			case popupRoles[n.Role] || isLive(n) || inPopup || expandedNow:
				c.Opened = append(c.Opened, n)
				markTree(n, printed)
			}
			return
		}
		if d, ok := diffs[n.UID]; ok && !d.movedAway(gained[cur[n.UID].parent]) && d.told(isActed(n.UID), len(acted) > 1, ownValue || !inside(cur, n.UID, actedSet)) {
			c.Changed = append(c.Changed, n)
			printed[n.UID] = true
		}
		if live == nil && isLive(n) {
			live = n
		}
		_, expanded := n.Prop("expanded")
		inPopup = inPopup || popupRoles[n.Role] || expanded
		for _, ch := range n.Children {
			walk(ch, live, inPopup)
		}
	}
	walk(after.Root, nil, false)

	// What went away: popups, and the content of live regions.
	for uid, b := range old {
		if _, ok := cur[uid]; ok {
			continue
		}
		parent, ok := cur[b.parent]
		if !ok {
			continue // inside what went away
		}
		if popupRoles[b.n.Role] {
			c.Closed = append(c.Closed, b.n)
		}
		for p := parent; p.n != nil; p = cur[p.parent] {
			if isLive(p.n) {
				liveChanged[p.n.UID] = true
				break
			}
		}
	}
	slices.SortFunc(c.Closed, func(x, y *Node) int { return strings.Compare(x.UID, y.UID) })
	if len(liveChanged) > 0 {
		// A live region is told whole, in place of its changed lines.
		var kept []*Node
		for _, n := range c.Changed {
			if !inside(cur, n.UID, liveChanged) {
				kept = append(kept, n)
			}
		}
		c.Changed = kept
		for _, uid := range slices.Sorted(maps.Keys(liveChanged)) {
			if !inside(cur, cur[uid].parent, liveChanged) && !printed[uid] {
				c.Changed = append(c.Changed, cur[uid].n)
				markTree(cur[uid].n, printed)
			}
		}
	}

	c.whole = textIn

	// The focus, when it went to an element not told yet, other than the
	// one acted on or what holds it (a click focuses them).
	if f := focusedUID(after.Root); f != "" && f != focusedUID(before.Root) && !printed[f] && !holds(cur, f, actedSet) {
		c.Changed = append(c.Changed, cur[f].n)
	}
	return c
}

// Format renders the changes other than Own, within about maxChars
// characters (whole lines; a last line says when some were left out):
//
//	Opened:
//	uid=2_0 dialog "Add address"
//	  uid=2_1 textbox "Street" focused
//	Changed:
//	uid=1_4 status live="polite"
//	  uid=2_5 "Saved"
//	Closed: uid=1_7 menu "Actions"
func (c Changes) Format(maxChars int) string {
	var b strings.Builder
	used, full := 0, false
	add := func(text string) bool {
		n := utf8.RuneCountInString(text)
		if full || maxChars > 0 && used+n > maxChars {
			if !full {
				b.WriteString("… more changes not shown; take a snapshot to see the page.\n")
			}
			full = true
			return false
		}
		b.WriteString(text)
		used += n
		return true
	}
	render := func(n *Node, whole bool) string {
		var t strings.Builder
		if whole {
			writeTree(&t, n, 0)
		} else {
			writeLine(&t, n, 0)
		}
		return t.String()
	}
	if len(c.Opened) > 0 && add("Opened:\n") {
		for _, n := range c.Opened {
			add(render(n, true))
		}
	}
	if len(c.Changed) > 0 && add("Changed:\n") {
		for _, n := range c.Changed {
			add(render(n, isLive(n) || c.whole[n.UID]))
		}
	}
	if len(c.Closed) > 0 {
		parts := make([]string, len(c.Closed))
		for i, n := range c.Closed {
			parts[i] = "uid=" + n.UID + " " + n.Role
			if n.Name != "" {
				parts[i] += ` "` + n.Name + `"`
			}
		}
		add("Closed: " + strings.Join(parts, ", ") + "\n")
	}
	return b.String()
}

// placed is a node with its parent's uid ("" for the root).
type placed struct {
	n      *Node
	parent string
}

// index maps the uids of root's subtree to their nodes.
func index(root *Node) map[string]placed {
	m := map[string]placed{}
	var walk func(n *Node, parent string)
	walk = func(n *Node, parent string) {
		m[n.UID] = placed{n, parent}
		for _, ch := range n.Children {
			walk(ch, n.UID)
		}
	}
	walk(root, "")
	return m
}

// markTree records the uids of n's subtree in seen.
func markTree(n *Node, seen map[string]bool) {
	seen[n.UID] = true
	for _, ch := range n.Children {
		markTree(ch, seen)
	}
}

// inside tells whether uid or one of its ancestors in m is in set.
func inside(m map[string]placed, uid string, set map[string]bool) bool {
	for uid != "" {
		if set[uid] {
			return true
		}
		uid = m[uid].parent
	}
	return false
}

// holds tells whether uid is one of set or an ancestor of one, in m.
func holds(m map[string]placed, uid string, set map[string]bool) bool {
	for a := range set {
		if inside(m, a, map[string]bool{uid: true}) {
			return true
		}
	}
	return false
}

// focusedUID returns the uid of the first focused node of root's
// subtree, in the order of the page; "" when none is.
func focusedUID(root *Node) string {
	if _, ok := root.Prop("focused"); ok {
		return root.UID
	}
	for _, ch := range root.Children {
		if f := focusedUID(ch); f != "" {
			return f
		}
	}
	return ""
}

// stateDiff is how a node's line changed, the focus aside.
type stateDiff struct {
	gained, lost []string          // boolean states
	values       map[string]string // other properties, new value ("" when gone)
	name         *string           // the new name, when it changed
	role         string            // the new role, when it changed
}

func (d stateDiff) empty() bool {
	return len(d.gained) == 0 && len(d.lost) == 0 && len(d.values) == 0 && d.name == nil && d.role == ""
}

// told tells whether a node's change is told as a line of its own: not
// when it is the one element acted on (its change is in words), nor when
// only its value changed and values is false (fill set it).
func (d stateDiff) told(acted, several, values bool) bool {
	if acted && !several {
		return false
	}
	return len(d.words(values)) > 0
}

// movedAway tells whether the change is only the loss of a selection or a
// check that a node of the same parent gained (gained, by state).
func (d stateDiff) movedAway(gained map[string]bool) bool {
	if len(d.gained) > 0 || len(d.values) > 0 || d.name != nil || d.role != "" || len(d.lost) != 1 {
		return false
	}
	s := d.lost[0]
	return (s == "selected" || s == "checked") && gained[s]
}

// words says the change in words, for the element acted on: "selected",
// "not expanded", `named "Pause"`, `value="3"`; values only with value.
func (d stateDiff) words(value bool) []string {
	var out []string
	if d.role != "" {
		out = append(out, "a "+d.role)
	}
	if d.name != nil {
		out = append(out, `named "`+*d.name+`"`)
	}
	out = append(out, d.gained...)
	for _, s := range d.lost {
		out = append(out, "not "+s)
	}
	for _, k := range slices.Sorted(maps.Keys(d.values)) {
		if (k == "value" || k == "valuetext") && !value {
			continue
		}
		out = append(out, k+`="`+d.values[k]+`"`)
	}
	return out
}

// ableForms maps a property's "-able" form, which a line prints when the
// state is false, to that state.
var ableForms = map[string]string{"disableable": "disabled", "expandable": "expanded", "selectable": "selected"}

// states returns a line's properties as state -> value: "true" for the
// boolean ones, "false" for an "-able" form; the focus is left out.
func states(n *Node) map[string]string {
	m := map[string]string{}
	for _, p := range n.Props {
		switch {
		case p.Name == "focused" || p.Name == "focusable":
		case ableForms[p.Name] != "":
			m[ableForms[p.Name]] = "false"
		case p.Bool:
			m[p.Name] = "true"
		default:
			m[p.Name] = p.Value
		}
	}
	return m
}

// diffStates returns how b's line became a's.
func diffStates(b, a *Node) stateDiff {
	var d stateDiff
	if a.Role != b.Role {
		d.role = a.Role
	}
	if a.Name != b.Name {
		name := a.Name
		d.name = &name
	}
	sb, sa := states(b), states(a)
	for _, k := range slices.Sorted(maps.Keys(sa)) {
		v := sa[k]
		switch {
		case v == sb[k]:
		case v == "true":
			d.gained = append(d.gained, k)
		case v == "false" && sb[k] == "":
			// The state appeared, false: nothing changed for the agent.
		case v == "false" && sb[k] == "true":
			d.lost = append(d.lost, k)
		default:
			if d.values == nil {
				d.values = map[string]string{}
			}
			d.values[k] = v
		}
	}
	for _, k := range slices.Sorted(maps.Keys(sb)) {
		if _, ok := sa[k]; ok {
			continue
		}
		switch sb[k] {
		case "true":
			d.lost = append(d.lost, k)
		case "false":
		default:
			if d.values == nil {
				d.values = map[string]string{}
			}
			d.values[k] = ""
		}
	}
	return d
}
