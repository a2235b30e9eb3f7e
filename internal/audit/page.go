package audit

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// page indexes an Input for the checks: children, accessibility nodes by
// element, ids.
type page struct {
	in       *Input
	children [][]int
	ax       map[int]*AXNode
	ids      map[string][]int
	html     int // the root element, -1 when none
	body     int
	// Tables' grids, cells' places in them and their scopes, worked out
	// once (the table checks ask for them cell by cell).
	grids  map[int][][]int
	places map[int][2]int
	scopes map[int]string
	// headWalks are the header walks axe-core remembers (walkHeaders).
	headWalks map[headKey][]int
}

// newPage indexes in.
func newPage(in *Input) *page {
	pg := &page{in: in, children: make([][]int, len(in.Nodes)), ax: map[int]*AXNode{}, ids: map[string][]int{}, html: -1, body: -1,
		grids: map[int][][]int{}, places: map[int][2]int{}, scopes: map[int]string{}}
	for i, n := range in.Nodes {
		if n.Parent >= 0 && n.Parent < len(in.Nodes) {
			pg.children[n.Parent] = append(pg.children[n.Parent], i)
		}
		if id := n.Attrs["id"]; id != "" {
			k := idKey(n.Frame, n.Shadow, id)
			pg.ids[k] = append(pg.ids[k], i)
		}
		switch {
		case n.Frame != 0:
		case n.Tag == "html" && pg.html < 0:
			pg.html = i
		case n.Tag == "body" && pg.body < 0:
			pg.body = i
		}
	}
	for i := range in.AX {
		a := &in.AX[i]
		if a.Backend != 0 {
			pg.ax[axKey(a.Scope, a.Backend)] = a
		}
	}
	return pg
}

// idKey is the key of an id in page.ids: ids are scoped to their
// document and within it to their shadow tree (the main document's own
// tree keeps the bare id).
func idKey(frame, shadow int, id string) string {
	if frame == 0 && shadow == 0 {
		return id
	}
	return strconv.Itoa(frame) + "\x00" + strconv.Itoa(shadow) + "\x00" + id
}

// byID returns the elements with an id in element i's tree.
func (pg *page) byID(i int, id string) []int {
	n := pg.node(i)
	return pg.ids[idKey(n.Frame, n.Shadow, id)]
}

// node returns element i.
func (pg *page) node(i int) *Node { return &pg.in.Nodes[i] }

// attr returns an attribute of element i and whether it is there.
func (pg *page) attr(i int, name string) (string, bool) {
	v, ok := pg.in.Nodes[i].Attrs[name]
	return v, ok
}

// each returns the indexes of the elements with one of the tags.
func (pg *page) each(tags ...string) []int {
	var out []int
	for i, n := range pg.in.Nodes {
		if slices.Contains(tags, n.Tag) {
			out = append(out, i)
		}
	}
	return out
}

// rendered reports whether element i has a box and is not
// visibility:hidden.
func (pg *page) rendered(i int) bool {
	n := pg.node(i)
	return n.Box != nil && n.Style != nil && n.Style.Visibility != "hidden" && n.Style.Visibility != "collapse"
}

// hiddenFromAT reports whether element i is out of the accessibility tree:
// not rendered (display:none somewhere up), aria-hidden on it or an
// ancestor, or ignored by Chrome without a role.
func (pg *page) hiddenFromAT(i int) bool {
	for j := i; j >= 0; j = pg.node(j).Parent {
		if v, _ := pg.attr(j, "aria-hidden"); strings.EqualFold(strings.TrimSpace(v), "true") {
			return true
		}
		if _, ok := pg.attr(j, "hidden"); ok && pg.node(j).Box == nil {
			return true
		}
		if _, ok := pg.attr(j, "inert"); ok {
			return true
		}
	}
	n := pg.node(i)
	if n.Style == nil && n.Box == nil {
		// display:none (or inside it): no computed style was captured.
		return true
	}
	// visibility is inherited: the element's own computed value says.
	return n.Style != nil && (n.Style.Visibility == "hidden" || n.Style.Visibility == "collapse")
}

// axOf returns element i's accessibility node, nil when Chrome has none.
func (pg *page) axOf(i int) *AXNode { return pg.ax[axKey(pg.node(i).Scope, pg.node(i).Backend)] }

// axKey keys a backend node id by the process it is in.
func axKey(scope, backend int) int { return scope<<32 | backend }

// name returns element i's accessible name as Chrome computes it.
func (pg *page) name(i int) string {
	if a := pg.axOf(i); a != nil {
		return strings.TrimSpace(a.Name)
	}
	return ""
}

// role returns the first valid token of element i's role attribute, lower
// case, "" when none.
func (pg *page) explicitRole(i int) string {
	v, _ := pg.attr(i, "role")
	for _, tok := range strings.Fields(strings.ToLower(v)) {
		if validRoles[tok] {
			return tok
		}
	}
	return ""
}

// presentational reports whether element i has role none or presentation.
func (pg *page) presentational(i int) bool {
	r := pg.explicitRole(i)
	return r == "none" || r == "presentation"
}

// text returns the text of element i and its descendants, whitespace
// collapsed, stopping after max characters.
func (pg *page) text(i, max int) string {
	var b strings.Builder
	var walk func(j int)
	walk = func(j int) {
		if b.Len() > max {
			return
		}
		n := pg.node(j)
		if n.Tag == "script" || n.Tag == "style" || n.Tag == "template" {
			return
		}
		if n.Text != "" {
			b.WriteString(n.Text)
			b.WriteByte(' ')
		}
		for _, c := range pg.children[j] {
			walk(c)
		}
	}
	walk(i)
	s := strings.Join(strings.Fields(b.String()), " ")
	if len(s) > max {
		s = s[:max]
	}
	return s
}

// ancestor returns the nearest ancestor of i that pred accepts, -1 when none.
func (pg *page) ancestor(i int, pred func(j int) bool) int {
	for j := pg.node(i).Parent; j >= 0; j = pg.node(j).Parent {
		if pred(j) {
			return j
		}
	}
	return -1
}

// ref describes element i for a details table.
func (pg *page) ref(i int, explanation string) Item {
	return Item{"node": pg.nodeRef(i, explanation)}
}

// nodeRef describes element i as Lighthouse's node values do: a CSS
// selector, the start tag, a label and the box.
func (pg *page) nodeRef(i int, explanation string) *NodeRef {
	n := pg.node(i)
	// A cross-process frame's backend ids are another process's: not
	// given, so no snapshot uid is looked up for them.
	r := &NodeRef{Type: "node", Selector: pg.selector(i), Snippet: pg.snippet(i), NodeLabel: pg.label(i), Explanation: explanation, Backend: n.Backend * boolInt(n.Scope == 0), LhID: fmt.Sprintf("dtm-%d", i), Path: pg.path(i)}
	if n.Box != nil {
		b := n.Box
		r.BoundingRect = &Rect{Top: b[1], Left: b[0], Width: b[2], Height: b[3], Bottom: b[1] + b[3], Right: b[0] + b[2]}
	}
	return r
}

// selector is Lighthouse's selector of element i: up to four levels
// below the root element, each the tag with its id or else its first
// class, closest last.
func (pg *page) selector(i int) string {
	var parts []string
	for j := i; j >= 0 && len(parts) < 4; j = pg.domParent(j) {
		n := pg.node(j)
		part := n.Tag
		if id := n.Attrs["id"]; id != "" {
			part += "#" + id
		} else if cls := strings.Fields(n.Attrs["class"]); len(cls) > 0 {
			part += "." + cls[0]
		}
		parts = append(parts, part)
		p := pg.domParent(j)
		if p < 0 || n.ShadowTop || pg.node(p).Frame != n.Frame || pg.node(p).Tag == "html" {
			break
		}
	}
	slices.Reverse(parts)
	return strings.Join(parts, " > ")
}

// path is Lighthouse's node path: the index among its siblings (text
// that is only white space left out) and the node name of each node from
// the document down, a shadow root named "a,#document-fragment" under its
// host; a frame's document joins its frame element's path with "/". Inputs recorded without sibling indexes count elements only.
func (pg *page) path(i int) string {
	var b []string
	var parts []string
	for j := i; j >= 0; j = pg.domParent(j) {
		n := pg.node(j)
		p := pg.domParent(j)
		idx := n.Sib
		if !pg.in.SiblingIndexes {
			idx = 0
			if p >= 0 && pg.node(p).Frame == n.Frame {
				idx = slices.Index(pg.children[p], j)
			}
		}
		name := n.Tag
		if pg.htmlElement(j) {
			name = strings.ToUpper(name)
		}
		parts = append(parts, name, strconv.Itoa(idx))
		if n.ShadowTop {
			parts = append(parts, "#document-fragment", "a") // the host's shadow root
		}
		if p >= 0 && pg.node(p).Frame != n.Frame {
			slices.Reverse(parts)
			b = append(b, strings.Join(parts, ","))
			parts = nil
		}
	}
	slices.Reverse(parts)
	b = append(b, strings.Join(parts, ","))
	slices.Reverse(b)
	return strings.Join(b, "/")
}

// domParent is the element element i's node path and selector go on
// with: its parent in the DOM, or its shadow root's host.
func (pg *page) domParent(i int) int {
	if dp := pg.node(i).DOMParent; dp > 0 {
		return dp - 1
	}
	return pg.node(i).Parent
}

// inHead reports whether element i is inside its document's head.
func (pg *page) inHead(i int) bool {
	return pg.ancestor(i, func(j int) bool { return pg.node(j).Tag == "head" && pg.node(j).Frame == pg.node(i).Frame }) >= 0
}

// truncate shortens s to limit characters, the last an ellipsis.
func truncate(s string, limit int) string {
	r := []rune(s)
	if len(r) <= limit {
		return s
	}
	return string(r[:limit-1]) + "…"
}

// attrEscaper escapes an attribute value as outerHTML does.
var attrEscaper = strings.NewReplacer("&", "&amp;", `"`, "&quot;", "\u00a0", "&nbsp;", "<", "&lt;", ">", "&gt;")

// snippet is element i's start tag as Lighthouse shows it: attributes in
// source order (title left out), values cut at 75 characters, and the
// attributes after the first 500 characters dropped.
func (pg *page) snippet(i int) string {
	n := pg.node(i)
	names := n.AttrOrder
	if len(names) != len(n.Attrs) {
		names = sortedIDs(n.Attrs)
	}
	var b strings.Builder
	b.WriteString("<" + n.Tag)
	count, cut := 0, false
	for _, k := range names {
		if k == "title" {
			continue
		}
		if count > 500 {
			cut = true
			continue
		}
		v := truncate(n.Attrs[k], 75)
		count += len([]rune(k)) + len([]rune(v))
		b.WriteString(" " + k + `="` + attrEscaper.Replace(v) + `"`)
	}
	if cut || count > 500 {
		b.WriteString(" …")
	}
	b.WriteString(">")
	return b.String()
}

// label is Lighthouse's label of element i: its text, alt or aria-label,
// or that of its first descendant with an alt or aria-label, cut at 80
// characters; the selector when it has none (and for the root and body).
func (pg *page) label(i int) string {
	if t := pg.node(i).Tag; t != "html" && t != "body" {
		if l := pg.ownLabel(i); l != "" {
			return truncate(l, 80)
		}
		for _, d := range pg.descendants(i) {
			if pg.node(d).Frame != pg.node(i).Frame {
				continue
			}
			if hasAttr(pg.node(d), "alt") || hasAttr(pg.node(d), "aria-label") {
				if l := pg.ownLabel(d); l != "" {
					return truncate(l, 80)
				}
				break
			}
		}
	}
	return pg.selector(i)
}

// ownLabel is element i's shown text, or else its alt or aria-label.
func (pg *page) ownLabel(i int) string {
	if t := pg.visibleText(i); t != "" {
		return t
	}
	if v := pg.node(i).Attrs["alt"]; v != "" {
		return v
	}
	return pg.node(i).Attrs["aria-label"]
}
