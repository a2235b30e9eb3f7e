// Package snapshot turns Chromium accessibility trees into the text snapshot
// agents read, and keeps the element uids of one page stable across
// snapshots so that an agent can act on "uid=1_7" after reading it.
//
// The browser side fetches Accessibility.getFullAXTree for every frame of a
// page (or, for big documents, computes the same nodes with a script in the
// page; see Frame.World) and hands the trees over as a [Frame] tree; [Tracker.Take] grafts the
// iframe documents under their <iframe> element, keeps the nodes an agent
// cares about (the rules of Puppeteer's page.accessibility.snapshot(), which
// the TypeScript chrome-devtools-mcp uses) and numbers them; [Snapshot.Format]
// renders the text:
//
//	uid=1_0 RootWebArea "Probe form" url="http://127.0.0.1:8080/form.html"
//	  uid=1_1 heading "Sign in" level="1"
//	  uid=1_2 form
//	    uid=1_3 "Username"
//	    uid=1_4 textbox "Username" value="alice"
//	    uid=1_6 textbox "Password" value="••••"
//	    uid=1_7 checkbox "Remember me" checked
//	    uid=1_9 combobox "Color" expandable haspopup="menu" value="Green"
//	      uid=1_11 option "Green" selected
//	    uid=1_19 button "Log in" focusable focused
//	  uid=1_21 link "Big page" url="http://127.0.0.1:8080/big.html"
//
// One node per line, indented two spaces per level, in the reference
// server's shape (which agents and skills parse): the uid, the role (left
// out for StaticText, whose line is just its text; "none" is printed as
// "ignored"), the name in double quotes when there is one, then the
// properties sorted by name, boolean ones as bare words and the others as
// key="value". A node that has the property disabled, expanded, focused or
// selected prints it when true, and disableable, expandable, focusable or
// selectable when false (the reference prints the "-able" form in both
// cases, "expandable expanded", which says the state twice), except that an
// option or a tab, which always have the property, never says selectable
// (nor an option its own text as its value); a RootWebArea never says
// focused. Names and values are printed as they are, quotes and line breaks
// included (as the reference does: a name with a line break goes on over
// the next line). The children of a named node are not printed when they
// are only text that spells its name (the text of a link, a button, a
// cell). Password values are replaced by a fixed "••••", whatever their
// length.
//
// Where the output differs from the reference server: InlineTextBox nodes
// are never shown (they repeat their StaticText parent and have no DOM
// node); malformed trees (cycles, repeated or unknown ids) are cut rather
// than looped over; a node is tracked by its DOM node, so uids survive
// across snapshots (the reference forgets a uid as soon as one snapshot
// lacks its node).
//
// The package is pure Go: it needs no browser, and imports package cdp for
// its types only.
package snapshot

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// Frame is the accessibility tree of one frame's document, with the trees of
// the frames it hosts. Scope namespaces backend DOM node ids: ids are only
// unique within one renderer session, so every frame fetched through a
// different CDP session has a different Scope (the main frame and its
// same-process iframes share one).
//
// A child frame is grafted under the node of this frame whose
// backendDOMNodeId equals the child's Owner (the <iframe> element, role
// "Iframe"). A child whose owner is not in this frame's tree (for example a
// display:none iframe) is left out of the snapshot.
type Frame struct {
	Scope string `json:"scope"`
	// Nodes is Accessibility.getFullAXTree of this frame's document, as
	// returned (root first).
	Nodes []cdp.AXNode `json:"nodes"`
	// Owner is the backendDOMNodeId, in the PARENT frame's Scope, of the
	// <iframe>/<frame> element hosting this frame; 0 for the root frame.
	Owner    int      `json:"owner,omitempty"`
	Children []*Frame `json:"children,omitempty"`
	// Passwords holds the backend DOM node ids (in this frame's Scope) of
	// the <input type=password> elements of this frame, when the browser
	// side knows them. Their values are masked in the snapshot. This is
	// optional: Chromium 156 already reports a password input's value as
	// one "•" per character and nothing else in the AX data marks an input
	// as a password, so without this set a textbox is treated as a password
	// exactly when its value is non-empty and made of "•" only. A browser
	// configured to expose password values to accessibility would then go
	// undetected; pass the set to be safe.
	Passwords map[int]bool `json:"passwords,omitempty"`
	// World is set when Nodes were not read from Chromium's accessibility
	// tree but computed by a script in the page's frame of that id: their
	// backendDOMNodeId (and Owner of the frames below) are then the
	// script's own reference numbers for the DOM nodes, and their Keys
	// carry World so that the browser side resolves them through it.
	World string `json:"world,omitempty"`
	// ID is the CDP id of the frame, when the browser side knows it: the
	// Keys of the frame's nodes carry it, so that what acts on a node
	// knows the frame it acts in (the sensitive page guard).
	ID string `json:"id,omitempty"`
}

// Key identifies one DOM node across snapshots of a page: the Scope of the
// frame's session and the node's backend DOM node id. A negative
// BackendNodeID stands for an accessibility node without a DOM node of its
// own (derived from its AX node id); it cannot be resolved in the browser.
type Key struct {
	Scope         string
	BackendNodeID int
	// World is the frame whose in-page script numbered the node (see
	// Frame.World); BackendNodeID is then that number, not a backend DOM
	// node id. Empty for nodes of Chromium's accessibility tree.
	World string
	// Frame is the CDP id of the node's frame (Frame.ID), "" when unknown.
	// It is not part of the node's identity (see Tracker).
	Frame string
}

// Snapshot is one rendered view of the page.
type Snapshot struct {
	// Root is the root document's RootWebArea; nil when the root frame had
	// no accessibility nodes.
	Root *Node
	// Number is the snapshot's number, the part of new uids before the "_".
	Number int
	// Verbose tells whether the snapshot keeps every node.
	Verbose bool

	count int
}

// Node is one line of a snapshot.
type Node struct {
	// UID is what the agent passes back to act on the node.
	UID string
	// Key is the DOM node the line stands for, as Tracker.Lookup(UID)
	// returns it.
	Key Key
	// Role is the Chromium accessibility role ("none" for ignored nodes);
	// it is printed as is, except "none" which is printed as "ignored".
	Role string
	// Name is the accessible name; not printed when empty.
	Name string
	// Props are the node's properties in output order.
	Props []Prop
	// Children are the nodes below this one, in document order; iframe
	// documents come last under their <iframe> node.
	Children []*Node

	// The uid is tracked by Key with identID for BackendNodeID: the
	// node's own id, or a synthetic one for a duplicate (see identity).
	identID int
	ctx     int32 // Scope, World and Frame numbered, while building
}

// identity returns the key the node's uid is tracked by.
func (n *Node) identity() Key {
	k := n.Key
	k.BackendNodeID = n.identID
	return k
}

// Prop is one property of a node. Bool props print as the bare name (and are
// only present when true); the others print as Name="Value".
type Prop struct {
	Name, Value string
	Bool        bool
}

// Prop returns the node's property called name, if it has one.
func (n *Node) Prop(name string) (Prop, bool) {
	for _, p := range n.Props {
		if p.Name == name {
			return p, true
		}
	}
	return Prop{}, false
}

// Options control Format.
type Options struct {
	// UID, when set, renders only that node's subtree (an error if the node
	// is not in this snapshot).
	UID string
	// MaxChars, when > 0, stops at a node boundary so that the text is at
	// most MaxChars characters (runes), and ends it with a marker line
	// saying how many nodes were left out and how to see them. The marker
	// counts towards MaxChars, except when not even the first line fits:
	// the text is then the marker alone.
	MaxChars int
}

// Count returns how many nodes the snapshot has (for "N nodes" notes).
func (s *Snapshot) Count() int { return s.count }

// Node returns the node of this snapshot with the given uid, or nil.
func (s *Snapshot) Node(uid string) *Node {
	if s.Root == nil || uid == "" {
		return nil
	}
	stack := []*Node{s.Root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.UID == uid {
			return n
		}
		stack = append(stack, n.Children...)
	}
	return nil
}

// Format renders the text tree, one node per line, each line ending in "\n".
// An empty snapshot renders as "".
func (s *Snapshot) Format(opts Options) (string, error) {
	start := s.Root
	if opts.UID != "" {
		start = s.Node(opts.UID)
		if start == nil {
			return "", fmt.Errorf("no element with uid %q in snapshot %d; take a new snapshot and use a uid from it", opts.UID, s.Number)
		}
	}
	if start == nil {
		return "", nil
	}
	if opts.MaxChars <= 0 {
		var b strings.Builder
		b.Grow(64 * s.count)
		writeTree(&b, start, 0)
		return b.String(), nil
	}
	return formatCut(start, opts.MaxChars, start == s.Root, s.count), nil
}

// writeTree writes n's subtree, n at the given depth.
func writeTree(b *strings.Builder, n *Node, depth int) {
	type item struct {
		n     *Node
		depth int
	}
	stack := []item{{n, depth}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		writeLine(b, it.n, it.depth)
		for i := len(it.n.Children) - 1; i >= 0; i-- {
			stack = append(stack, item{it.n.Children[i], it.depth + 1})
		}
	}
}

// writeLine writes one node's line, with its newline.
func writeLine(b *strings.Builder, n *Node, depth int) {
	for range depth {
		b.WriteString("  ")
	}
	b.WriteString("uid=")
	b.WriteString(n.UID)
	if n.Role != "" && n.Role != "StaticText" {
		b.WriteByte(' ')
		if n.Role == "none" {
			b.WriteString("ignored")
		} else {
			b.WriteString(n.Role)
		}
	}
	if n.Name != "" {
		b.WriteString(` "`)
		b.WriteString(n.Name)
		b.WriteByte('"')
	}
	for _, p := range n.Props {
		b.WriteByte(' ')
		b.WriteString(p.Name)
		if !p.Bool {
			b.WriteString(`="`)
			b.WriteString(p.Value)
			b.WriteByte('"')
		}
	}
	b.WriteByte('\n')
}

// lineItem is a node with its place in the text, while formatting.
type lineItem struct {
	n      *Node
	parent *Node
	depth  int
}

// formatCut renders start's subtree within maxChars runes, marker included.
// isRoot and rootCount let it skip counting the subtree of the root.
func formatCut(start *Node, maxChars int, isRoot bool, rootCount int) string {
	var (
		b       strings.Builder
		line    strings.Builder
		used    int   // runes in b
		lineEnd []int // byte length of b after each line
		runes   []int // rune count of b after each line
		shown   []lineItem
		cut     lineItem // the first node not shown
		isCut   bool
	)
	stack := []lineItem{{start, nil, 0}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		line.Reset()
		writeLine(&line, it.n, it.depth)
		l := utf8.RuneCountInString(line.String())
		if used+l > maxChars {
			cut, isCut = it, true
			break
		}
		b.WriteString(line.String())
		used += l
		lineEnd = append(lineEnd, b.Len())
		runes = append(runes, used)
		shown = append(shown, it)
		for i := len(it.n.Children) - 1; i >= 0; i-- {
			stack = append(stack, lineItem{it.n.Children[i], it.n, it.depth + 1})
		}
	}
	if !isCut {
		return b.String()
	}
	total := rootCount
	if !isRoot {
		total = subtreeSize(start)
	}
	// Drop whole lines until the marker fits too; the first node left out
	// is then the last one dropped.
	out := b.String()
	for k := len(shown); ; k-- {
		if k < len(shown) {
			cut = shown[k]
		}
		text := marker(maxChars, total-k, cut, start)
		prev, end := 0, 0
		if k > 0 {
			prev, end = runes[k-1], lineEnd[k-1]
		}
		if k == 0 || prev+utf8.RuneCountInString(text) <= maxChars {
			return out[:end] + text
		}
	}
}

// marker is the last line of a cut snapshot. It names a node whose subtree
// was cut: the parent of the first node left out, or that node itself when
// its parent is the node the text starts at (or it is that node).
func marker(maxChars, missing int, cut lineItem, start *Node) string {
	suggest := cut.n
	if cut.parent != nil && cut.parent != start {
		suggest = cut.parent
	}
	return fmt.Sprintf("... snapshot cut at %d characters: %d more nodes not shown. Take a snapshot of a subtree with uid=%s, or pass filePath to save the whole snapshot.\n",
		maxChars, missing, suggest.UID)
}

// subtreeSize counts the nodes of n's subtree.
func subtreeSize(n *Node) int {
	count := 0
	stack := []*Node{n}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		count++
		stack = append(stack, x.Children...)
	}
	return count
}

// uidString returns "<snap>_<n>".
func uidString(snap, n int) string {
	buf := make([]byte, 0, 12)
	buf = strconv.AppendInt(buf, int64(snap), 10)
	buf = append(buf, '_')
	buf = strconv.AppendInt(buf, int64(n), 10)
	return string(buf)
}
