package browser

import (
	"context"
	"strings"

	"github.com/devtools-mcp/devtools-mcp/cdp"
	"github.com/devtools-mcp/devtools-mcp/internal/audit"
)

// domPlace is where an element sits in the DOM (rather than the flat
// tree the snapshot gives): the backend id of the element its node path
// goes on with (its parent element, or its shadow root's host), its index
// among its parent's child nodes, the shadow root it is in (backend id, 0
// for its document's own tree) and whether its parent is that shadow
// root.
type domPlace struct {
	parent, sib, tree int
	shadowTop         bool
}

// hasOpenShadow tells whether a snapshot shows any node of an open shadow
// tree: only then do the audits need the DOM's own structure.
func hasOpenShadow(snap *cdp.CaptureSnapshotResult) bool {
	for _, d := range snap.Documents {
		for _, v := range d.Nodes.ShadowRootType.Value {
			if v >= 0 && v < len(snap.Strings) && snap.Strings[v] == "open" {
				return true
			}
		}
	}
	return false
}

// shadowPlaces reads the session's DOM, through shadow roots and frames,
// and gives the elements' DOM places by backend id; nil when it cannot.
func shadowPlaces(ctx context.Context, s *cdp.Session) map[int]domPlace {
	doc, err := cdp.DOMGetDocument.Call(ctx, s, cdp.GetDocumentParams{Depth: -1, Pierce: true})
	if err != nil {
		return nil
	}
	places := map[int]domPlace{}
	walkPlaces(&doc.Root, 0, 0, false, places)
	return places
}

// walkPlaces records the places of node n's children (whose parent
// element, or host, is parent) in tree, and goes down.
func walkPlaces(n *cdp.DOMTreeNode, parent, tree int, shadowTop bool, places map[int]domPlace) {
	sib := 0
	for i := range n.Children {
		c := &n.Children[i]
		if c.NodeType == 3 && strings.TrimSpace(c.NodeValue) == "" {
			continue
		}
		if c.NodeType == 1 {
			places[c.BackendNodeID] = domPlace{parent: parent, sib: sib, tree: tree, shadowTop: shadowTop}
			walkPlaces(c, c.BackendNodeID, tree, false, places)
		}
		sib++
	}
	if n.NodeType != 1 {
		return
	}
	for i := range n.ShadowRoots {
		if r := &n.ShadowRoots[i]; r.ShadowRootType == "open" {
			walkPlaces(r, n.BackendNodeID, r.BackendNodeID, true, places)
		}
	}
	if d := n.ContentDocument; d != nil {
		walkPlaces(d, 0, 0, false, places)
	}
}

// applyPlaces gives the elements of nodes from first on (one session's,
// whose backend ids places names) their DOM places: sibling index, shadow
// tree, and the element their path goes on with where that is not their
// flat-tree parent (slotted content, whose parent is its host's light
// child list, not the slot).
func applyPlaces(nodes []audit.Node, first int, places map[int]domPlace) {
	index := map[int]int{}
	for i := first; i < len(nodes); i++ {
		index[nodes[i].Backend] = i
	}
	for i := first; i < len(nodes); i++ {
		n := &nodes[i]
		pl, ok := places[n.Backend]
		if !ok {
			continue
		}
		n.Sib, n.Shadow, n.ShadowTop = pl.sib, pl.tree, pl.shadowTop
		if pl.parent == 0 {
			continue // a document's root element
		}
		if p, ok := index[pl.parent]; ok && p != n.Parent {
			n.DOMParent = p + 1
		}
	}
}
