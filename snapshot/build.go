package snapshot

import (
	"bytes"
	"hash/fnv"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// This file turns a Frame tree into a tree of Nodes (without uids). The
// selection of "interesting" nodes follows Puppeteer's
// page.accessibility.snapshot({interestingOnly: true, includeIframes: true}),
// and the properties follow its node serialization, since that is what the
// TypeScript chrome-devtools-mcp prints. Where this package differs:
//
//   - InlineTextBox nodes are always left out, also in verbose snapshots: they
//     repeat their StaticText parent's text and have no DOM node of their own.
//   - The children of a named node are left out of a non-verbose snapshot
//     when they are all StaticText leaves that together spell its name
//     (whitespace aside), as for the text of a link or a table cell: the
//     reference prints the same lines, it only skips them when formatting.
//   - The tree is built from childIds with every node placed at most once
//     (first parent wins, cycles cut); nodes not reachable from the first
//     node are left out.
//   - A frame grafted below a node that is not kept is lifted to the nearest
//     kept ancestor instead of being lost.
//   - Password values are masked (see Frame.Passwords).
//   - Options, grids, grid cells, selectable rows and dialogs are kept in a
//     non-verbose snapshot too (see isWidgetItem).

// passwordMask replaces the value of password inputs, whatever its length.
const passwordMask = "••••"

// item is one accessibility node while building. A big page has tens of
// thousands, so an item holds no strings or slices of its own beyond its
// role and name: its frame is a *Frame, and its children a range of items.
type item struct {
	ax     *cdp.AXNode
	f      *Frame // the frame of ax, whose Scope, World and ID its Key has
	role   string
	name   string
	grafts []int32 // roots of frames hosted by this node
	// The children are items[first:first+n] (same frame): frame() adds
	// the children of a node one after the other.
	first, n int32
	ctx      int32 // the number of f's Scope, World and ID (builder.context)

	focusable, richlyEditable, editable, hidden bool
	busy, modal, hasErrormessage, hasDetails    bool
	live                                        bool // a live region, other than "off"
	roledescription                             bool // has a roledescription
	password                                    bool // a password input, or inside one

	focusableChild int8 // hasFocusableChild cache: 0 unknown, 1 no, 2 yes
	keep           bool
}

// end returns the index after it's last child.
func (it *item) end() int32 { return it.first + it.n }

// builder holds the state of one Take.
type builder struct {
	items    []item
	verbose  bool
	frames   map[*Frame]bool    // frames already built, against cycles
	used     usedSet            // identities handed out in this snapshot
	contexts map[frameKey]int32 // numbers the frames' Scope, World and ID
	count    int
	roles    map[string]string // interned roles, by raw JSON value
	kv       []kv              // scratch for props
	slab     []Node            // Nodes are allocated from here, in chunks
	propSlab []Prop            // and their Props
}

// kv is a property while props sorts them.
type kv struct {
	name string
	kind propKind
	v    *cdp.AXValue
}

// build returns the unnumbered node tree of root, or nil.
func build(root *Frame, verbose bool) (*Node, int) {
	if root == nil {
		return nil, 0
	}
	b := &builder{verbose: verbose, frames: map[*Frame]bool{}}
	b.items = make([]item, 0, countNodes(root))
	top := b.frame(root)
	if top < 0 {
		return nil, 0
	}
	if !verbose {
		b.collect(top, false)
		b.items[top].keep = true // the page itself, whatever Chromium says
	}
	b.used = newUsedSet(len(b.items))
	nodes := b.serialize(top, nil)
	return nodes[0], b.count
}

// usedKey is an identity handed out in a snapshot: a node's Key, its
// Scope, World and Frame numbered by builder.context, which hashes quicker
// than three strings.
type usedKey struct {
	ctx int32
	id  int
}

// frameKey is what the Keys of a frame's nodes have besides their id.
type frameKey struct{ scope, world, id string }

// context returns the number of f's Scope, World and ID in this snapshot:
// frames alike in all three (same-process iframes without an ID) share
// one, as their nodes' Keys are alike.
func (b *builder) context(f *Frame) int32 {
	k := frameKey{f.Scope, f.World, f.ID}
	if c, ok := b.contexts[k]; ok {
		return c
	}
	if b.contexts == nil {
		b.contexts = map[frameKey]int32{}
	}
	c := int32(len(b.contexts))
	b.contexts[k] = c
	return c
}

// countNodes returns how many AX nodes root's frames have, to size buffers.
func countNodes(root *Frame) int {
	seen := map[*Frame]bool{}
	total := 0
	stack := []*Frame{root}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if f == nil || seen[f] {
			continue
		}
		seen[f] = true
		total += len(f.Nodes)
		stack = append(stack, f.Children...)
	}
	return total
}

// frame adds the items of f and of the frames it hosts, and returns the
// index of f's root item, or -1 when f has no nodes.
func (b *builder) frame(f *Frame) int32 {
	if f == nil || b.frames[f] || len(f.Nodes) == 0 {
		return -1
	}
	b.frames[f] = true
	ctx := b.context(f)

	byID := newNodeIndex(f.Nodes)
	// Child frames by owner element.
	var owned map[int][]*Frame
	for _, c := range f.Children {
		if c != nil && c.Owner != 0 {
			if owned == nil {
				owned = map[int][]*Frame{}
			}
			owned[c.Owner] = append(owned[c.Owner], c)
		}
	}

	base := int32(len(b.items))
	placed := make([]bool, len(f.Nodes))

	// Depth-first over childIds from the first node, each node placed once.
	rootItem := b.newItem(f, ctx, 0, b.roleOf(&f.Nodes[0]), false)
	placed[0] = true
	stack := []int32{rootItem}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		ax, password := b.items[it].ax, b.items[it].password
		first := int32(len(b.items))
		for _, cid := range ax.ChildIDs {
			ci, ok := byID.find(cid)
			if !ok || placed[ci] {
				continue
			}
			role := b.roleOf(&f.Nodes[ci])
			if role == "InlineTextBox" {
				continue
			}
			placed[ci] = true
			b.newItem(f, ctx, ci, role, password)
		}
		end := int32(len(b.items))
		b.items[it].first, b.items[it].n = first, end-first
		// Push in reverse so that children are visited in order.
		for c := end - 1; c >= first; c-- {
			stack = append(stack, c)
		}
	}
	if owned == nil {
		return rootItem
	}
	// Graft hosted frames under their owner element, in document order.
	end := int32(len(b.items)) // grafting appends the child frames' items
	for i := base; i < end; i++ {
		id := b.items[i].ax.BackendDOMNodeID
		if id == 0 {
			continue
		}
		for _, c := range owned[id] {
			if g := b.frame(c); g >= 0 {
				b.items[i].grafts = append(b.items[i].grafts, g)
			}
		}
		delete(owned, id)
	}
	return rootItem
}

// newItem adds an item for f.Nodes[local], with the given role; ctx is
// f's context number.
func (b *builder) newItem(f *Frame, ctx, local int32, role string, inPassword bool) int32 {
	ax := &f.Nodes[local]
	it := item{ax: ax, f: f, ctx: ctx, role: role, name: accessibleName(role, str(ax.Name))}
	for i := range ax.Properties {
		p := &ax.Properties[i]
		switch p.Name {
		case "editable":
			it.editable = true
			it.richlyEditable = str(&p.Value) == "richtext"
		case "focusable":
			it.focusable = truthy(&p.Value)
		case "hidden":
			it.hidden = truthy(&p.Value)
		case "busy":
			it.busy = truthy(&p.Value)
		case "live":
			live := str(&p.Value)
			it.live = live != "" && live != "off"
		case "modal":
			it.modal = truthy(&p.Value)
		case "roledescription":
			it.roledescription = str(&p.Value) != ""
		case "errormessage":
			it.hasErrormessage = true
		case "details":
			it.hasDetails = true
		}
	}
	it.password = inPassword || isPassword(f, ax, it.role)
	b.items = append(b.items, it)
	return int32(len(b.items) - 1)
}

// accessibleName is name as an agent reads it, the same whatever the
// Chromium version: Chromium up to about 150 keeps the whitespace around a
// label's text (textbox "Username ", checkbox " Remember me"), later ones
// trim it. Other names (text, line breaks, links, headings) keep theirs, as
// every version reports them.
func accessibleName(role, name string) string {
	if name == "" || !labelled(role) {
		return name
	}
	return strings.Trim(name, htmlSpace)
}

// labelled tells whether a role's name may come from a <label>, the names
// older Chromium versions pad. Others keep the spaces their content gives
// them, in every version, as the reference prints them: link " Index ", and
// button "Actions " (a button is named by its content, not by a <label>).
func labelled(role string) bool {
	switch role {
	case "textbox", "searchbox", "checkbox", "radio", "combobox", "listbox", "slider", "spinbutton", "switch",
		"ColorWell", "Date", "DateTime", "InputTime", "meter", "progressbar":
		return true
	}
	return false
}

// htmlSpace is the ASCII whitespace HTML collapses and trims in names; a
// no-break space is content, not padding.
const htmlSpace = " \t\n\f\r"

// isPassword tells whether ax is a password input: listed in f.Passwords, or
// a textbox whose value Chromium masked (non-empty, all "•").
func isPassword(f *Frame, ax *cdp.AXNode, role string) bool {
	if ax.BackendDOMNodeID != 0 && f.Passwords[ax.BackendDOMNodeID] {
		return true
	}
	if role != "textbox" || ax.Value == nil {
		return false
	}
	v := str(ax.Value)
	return v != "" && strings.Trim(v, "•") == ""
}

// str is v.String() without the JSON decoder for plain strings, which is
// most of the time of a snapshot otherwise.
func str(v *cdp.AXValue) string {
	if v == nil || len(v.Value) == 0 {
		return ""
	}
	raw := v.Value
	if raw[0] != '"' {
		return string(raw) // a number or boolean, as AXValue.String
	}
	if len(raw) >= 2 && raw[len(raw)-1] == '"' {
		inner := raw[1 : len(raw)-1]
		if bytes.IndexByte(inner, '\\') < 0 && bytes.IndexByte(inner, '"') < 0 && utf8.Valid(inner) {
			return string(inner)
		}
	}
	return v.String()
}

// roleOf returns ax's role, "Unknown" when it has none (as Puppeteer). Role
// strings are interned per snapshot: there are few and every node has one.
func (b *builder) roleOf(ax *cdp.AXNode) string {
	if ax.Role == nil || len(ax.Role.Value) == 0 {
		return "Unknown"
	}
	if r, ok := b.roles[string(ax.Role.Value)]; ok {
		return r
	}
	r := str(ax.Role)
	if r == "" {
		r = "Unknown"
	}
	if b.roles == nil {
		b.roles = map[string]string{}
	}
	b.roles[string(ax.Role.Value)] = r
	return r
}

// truthy tells whether a property value counts as set: true, or a string or
// number that JavaScript would take as true.
func truthy(v *cdp.AXValue) bool {
	s := bytes.TrimSpace(v.Value)
	return !(len(s) == 0 || string(s) == "false" || string(s) == "null" || string(s) == "0" || string(s) == `""`)
}

// isLeaf is Puppeteer's AXNode.isLeafNode.
func (b *builder) isLeaf(i int32) bool {
	it := &b.items[i]
	if it.n == 0 {
		return true
	}
	if it.isPlainTextField() || isTextOnly(it.role) {
		return true
	}
	switch it.role {
	case "doc-cover", "graphics-symbol", "img", "image", "Meter", "scrollbar", "slider", "separator", "progressbar":
		return true
	}
	if b.hasFocusableChild(i) {
		return false
	}
	return it.role == "heading" && it.name != ""
}

func (it *item) isPlainTextField() bool {
	if it.richlyEditable {
		return false
	}
	return it.editable || it.role == "textbox" || it.role == "searchbox"
}

func isTextOnly(role string) bool {
	switch role {
	case "LineBreak", "text", "InlineTextBox", "StaticText":
		return true
	}
	return false
}

// hasFocusableChild tells whether some descendant of i (same frame) is
// focusable. Results are cached, so all calls together are linear.
func (b *builder) hasFocusableChild(i int32) bool {
	switch b.items[i].focusableChild {
	case 1:
		return false
	case 2:
		return true
	}
	found := false
	for c := b.items[i].first; c < b.items[i].end(); c++ {
		if b.items[c].focusable || b.hasFocusableChild(c) {
			found = true
			break
		}
	}
	if found {
		b.items[i].focusableChild = 2
	} else {
		b.items[i].focusableChild = 1
	}
	return found
}

// isControl is Puppeteer's AXNode.isControl.
func isControl(role string) bool {
	switch role {
	case "button", "checkbox", "ColorWell", "combobox", "DisclosureTriangle", "listbox", "menu", "menubar",
		"menuitem", "menuitemcheckbox", "menuitemradio", "radio", "scrollbar", "searchbox", "slider",
		"spinbutton", "switch", "tab", "textbox", "tree", "treeitem":
		return true
	}
	return false
}

// isWidgetItem tells whether a node is something an agent acts on that
// Puppeteer's rules leave out: an option of a listbox (the options of an
// ARIA listbox are rarely focusable, and what is inside a control is only
// kept when it is), a grid and its cells (Chromium says gridcell only inside a
// grid or treegrid; a table's are cell), a row that can be selected, and
// a dialog, so that an open popup is found without a verbose snapshot.
// Where this package differs from the reference, on purpose: an agent
// that must ask for a verbose snapshot to see a listbox's options pays
// ten to a hundred times the characters.
func isWidgetItem(role string, ax *cdp.AXNode) bool {
	switch role {
	case "option", "grid", "treegrid", "gridcell", "dialog", "alertdialog":
		return true
	case "row":
		for i := range ax.Properties {
			if ax.Properties[i].Name == "selected" {
				return true
			}
		}
	}
	return false
}

// isLandmark is Puppeteer's AXNode.isLandmark.
func isLandmark(role string) bool {
	switch role {
	case "banner", "complementary", "contentinfo", "form", "main", "navigation", "region", "search":
		return true
	}
	return false
}

// isInteresting is Puppeteer's AXNode.isInteresting.
func (b *builder) isInteresting(i int32, insideControl bool) bool {
	it := &b.items[i]
	if it.role == "Ignored" || it.hidden || it.ax.Ignored {
		return false
	}
	if isLandmark(it.role) {
		return true
	}
	if it.focusable || it.richlyEditable || it.busy || it.live ||
		it.modal || it.hasErrormessage || it.hasDetails || it.roledescription {
		return true
	}
	if isControl(it.role) || isWidgetItem(it.role, it.ax) {
		return true
	}
	if insideControl {
		return false
	}
	return b.isLeaf(i) && (it.name != "" || str(it.ax.Description) != "")
}

// collect marks the interesting nodes of i's subtree (Puppeteer's
// collectInterestingNodes); hosted frames start afresh.
func (b *builder) collect(i int32, insideControl bool) {
	type visit struct {
		i             int32
		insideControl bool
	}
	stack := []visit{{i, insideControl}}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		it := &b.items[v.i]
		if len(it.grafts) > 0 || b.isInteresting(v.i, v.insideControl) {
			it.keep = true
		}
		for _, g := range it.grafts {
			stack = append(stack, visit{g, false})
		}
		if b.isLeaf(v.i) {
			continue
		}
		inside := v.insideControl || isControl(it.role)
		for c := it.first; c < it.end(); c++ {
			stack = append(stack, visit{c, inside})
		}
	}
}

// serialize returns the nodes i stands for: itself with its kept
// descendants, or, when it is not kept, its kept descendants lifted.
func (b *builder) serialize(i int32, dst []*Node) []*Node {
	it := &b.items[i]
	if !b.verbose && !it.keep {
		for c := it.first; c < it.end(); c++ {
			dst = b.serialize(c, dst)
		}
		for _, g := range it.grafts {
			dst = b.serialize(g, dst)
		}
		return dst
	}
	n := b.node(it)
	var kids []*Node
	for c := it.first; c < it.end(); c++ {
		kids = b.serialize(c, kids)
	}
	for _, g := range it.grafts {
		kids = b.serialize(g, kids)
	}
	if !b.verbose && spellsName(n.Name, kids) {
		for _, k := range kids {
			b.used.remove(usedKey{k.ctx, k.identID})
		}
		b.count -= len(kids)
		kids = nil
	}
	n.Children = kids
	return append(dst, n)
}

// spellsName tells whether kids, the kept children of a node named name,
// only repeat that name: all of them text leaves whose texts, joined, are
// the name once whitespace is taken out. The reference prints the node
// without them (the text of a link, a button, a cell).
func spellsName(name string, kids []*Node) bool {
	if name == "" || len(kids) == 0 {
		return false
	}
	rest := withoutSpace(name)
	for _, k := range kids {
		if k.Role != "StaticText" || len(k.Children) != 0 {
			return false
		}
		t := withoutSpace(k.Name)
		if !strings.HasPrefix(rest, t) {
			return false
		}
		rest = rest[len(t):]
	}
	return rest == ""
}

// withoutSpace is s without its whitespace, as JavaScript's /\s+/g matches
// it (Unicode spaces, line terminators and the byte order mark included).
func withoutSpace(s string) string {
	if !strings.ContainsFunc(s, isJSSpace) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if isJSSpace(r) {
			return -1
		}
		return r
	}, s)
}

// isJSSpace is JavaScript's \s: WhiteSpace and LineTerminator.
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// node makes the Node of it (without uid and children), with its key and
// properties.
func (b *builder) node(it *item) *Node {
	b.count++
	if len(b.slab) == cap(b.slab) {
		b.slab = make([]Node, 0, 256)
	}
	b.slab = append(b.slab, Node{Role: it.role, Name: it.name})
	n := &b.slab[len(b.slab)-1]
	ax := it.ax
	n.Key = Key{Scope: it.f.Scope, BackendNodeID: ax.BackendDOMNodeID, World: it.f.World, Frame: it.f.ID}
	id := ax.BackendDOMNodeID
	if id <= 0 || b.used.has(usedKey{it.ctx, id}) {
		id = syntheticID(ax.NodeID)
		for b.used.has(usedKey{it.ctx, id}) {
			id--
		}
		if ax.BackendDOMNodeID <= 0 {
			n.Key.BackendNodeID = id
		}
	}
	b.used.add(usedKey{it.ctx, id})
	n.identID, n.ctx = id, it.ctx
	n.Props = b.props(it)
	if it.password && n.Name != "" && it.role != "textbox" {
		// The text inside a password input.
		n.Name = passwordMask
	}
	return n
}

// syntheticID derives a negative id from an AX node id, for nodes without a
// DOM node (or sharing one with another node).
func syntheticID(nodeID string) int {
	const span = 1 << 30
	if n, err := strconv.Atoi(nodeID); err == nil && n > 0 && n < span {
		return -n
	}
	h := fnv.New32a()
	h.Write([]byte(nodeID))
	return -(span + int(h.Sum32()%span))
}
