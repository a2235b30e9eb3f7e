package heapsnapshot

import (
	"cmp"
	"slices"
	"strings"
)

// Index is a node's position in the snapshot (its ordinal). Indexes are
// what the methods take; IDs are what users see and what stays the same
// across snapshots of one page.
type Index uint32

// Node describes one object.
type Node struct {
	Index Index
	ID    uint32
	// Name is the display name: a string's value, a DOM node's tag, a
	// function's name, a plain object's property list like "{x, y}".
	Name         string
	Type         string
	SelfSize     uint64
	RetainedSize uint64
	// Distance is the number of edges on a shortest path from the GC roots,
	// or Unreachable.
	Distance      int
	Detachedness  DOMState
	EdgeCount     int
	RetainerCount int
}

// Unreachable is the Distance of a node that no path from the roots reaches.
const Unreachable = -1

// NodeByID returns the index of the node with the given id.
func (s *Snapshot) NodeByID(id uint32) (Index, bool) {
	s.idOnce.Do(func() {
		s.byID = make([]uint32, len(s.nodeID))
		for i := range s.byID {
			s.byID[i] = uint32(i)
		}
		slices.SortFunc(s.byID, func(a, b uint32) int { return cmp.Compare(s.nodeID[a], s.nodeID[b]) })
	})
	k, ok := slices.BinarySearchFunc(s.byID, id, func(i, id uint32) int { return cmp.Compare(s.nodeID[i], id) })
	if !ok {
		return 0, false
	}
	return Index(s.byID[k]), true
}

// Node describes the node at index i.
func (s *Snapshot) Node(i Index) Node {
	return Node{
		Index: i, ID: s.nodeID[i], Name: s.name(uint32(i)), Type: s.nodeTypes[s.nodeType[i]],
		SelfSize: uint64(s.selfSize[i]), RetainedSize: s.retained[i], Distance: s.dist(uint32(i)),
		Detachedness:  DOMState(s.detachedness[i]),
		EdgeCount:     int(s.firstEdge[i+1] - s.firstEdge[i]),
		RetainerCount: int(s.firstRetainer[i+1] - s.firstRetainer[i]),
	}
}

// dist is node i's Distance.
func (s *Snapshot) dist(i uint32) int {
	if d := s.distance[i]; d != noDistance {
		return int(d)
	}
	return Unreachable
}

// name is node i's display name.
func (s *Snapshot) name(i uint32) string {
	switch {
	case i == s.root && s.rawName(i) == "":
		return "(root)"
	case s.isType(i, s.nt.consString):
		return s.consStringText(i)
	case s.isPlainObject(i):
		return s.plainObjectName(i)
	}
	return s.rawName(i)
}

// maxConsString bounds the text assembled from a concatenated string's parts.
const maxConsString = 1024

// consStringText assembles a concatenated string from its parts, up to
// about maxConsString bytes.
func (s *Snapshot) consStringText(i uint32) string {
	var b strings.Builder
	stack := []uint32{i}
	for len(stack) > 0 && b.Len() < maxConsString {
		j := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !s.isType(j, s.nt.consString) {
			b.WriteString(s.rawName(j))
			continue
		}
		first, second, ok1, ok2 := uint32(0), uint32(0), false, false
		for e := s.firstEdge[j]; e < s.firstEdge[j+1]; e++ {
			if !s.isEdge(e, s.et.internal) {
				continue
			}
			switch s.strings.get(s.edgeName[e]) {
			case "first":
				first, ok1 = s.edgeTo[e], true
			case "second":
				second, ok2 = s.edgeTo[e], true
			}
		}
		if ok2 {
			stack = append(stack, second)
		}
		if ok1 {
			stack = append(stack, first)
		}
	}
	return b.String()
}

// isFlatConsString reports whether node i is a concatenated string one of
// whose parts is empty: V8 flattened it, so its text is also elsewhere.
func (s *Snapshot) isFlatConsString(i uint32) bool {
	if !s.isType(i, s.nt.consString) {
		return false
	}
	for e := s.firstEdge[i]; e < s.firstEdge[i+1]; e++ {
		if !s.isEdge(e, s.et.internal) {
			continue
		}
		if n := s.strings.get(s.edgeName[e]); (n == "first" || n == "second") && s.name(s.edgeTo[e]) == "" {
			return true
		}
	}
	return false
}

// maxPlainObjectName bounds a plain object's "{a, b, ..., y, z}" name.
const maxPlainObjectName = 100

// plainObjectName lists a plain object's properties, alternately from the
// first and the last, eliding the middle when the name grows long.
func (s *Snapshot) plainObjectName(i uint32) string {
	start, end := "{", "}"
	lo, hi := int64(s.firstEdge[i]), int64(s.firstEdge[i+1])-1
	fromEnd := false
	for lo <= hi {
		e := uint32(lo)
		if fromEnd {
			e = uint32(hi)
		}
		prop := ""
		if s.isEdge(e, s.et.property) {
			prop = s.strings.get(s.edgeName[e])
		}
		if prop == "" || prop == "__proto__" {
			if fromEnd {
				hi--
			} else {
				lo++
			}
			continue
		}
		formatted := formatPropertyName(prop)
		if len(start) > 1 && len(start)+len(end)+len(formatted) > maxPlainObjectName {
			break
		}
		if fromEnd {
			hi--
			if len(end) > 1 {
				end = ", " + end
			}
			end = formatted + end
		} else {
			lo++
			if len(start) > 1 {
				start += ", "
			}
			start += formatted
		}
		fromEnd = !fromEnd
	}
	if lo <= hi {
		start += ", ..."
	}
	if len(end) > 1 {
		start += ", "
	}
	return start + end
}

// Sort orders for lists of nodes.
const (
	ByRetainedSize = "retainedSize"
	BySelfSize     = "selfSize"
	ByID           = "id"
	ByName         = "name"
)

// SortIndexes sorts nodes by retained size or self size (largest first),
// or by id; ties keep their order.
func (s *Snapshot) SortIndexes(nodes []Index, by string) {
	slices.SortStableFunc(nodes, func(a, b Index) int {
		switch by {
		case BySelfSize:
			return cmp.Compare(s.selfSize[b], s.selfSize[a])
		case ByID:
			return cmp.Compare(s.nodeID[a], s.nodeID[b])
		}
		return cmp.Compare(s.retained[b], s.retained[a])
	})
}

// Edge is a reference from one object to another.
type Edge struct {
	// Type is context, element, property, internal, hidden, shortcut or weak.
	Type string
	// Name is the property or variable name, or the element index.
	Name string
	// Node is the other end: the target of an outgoing edge, the retaining
	// object of a retainer.
	Node Node
	// named says the edge has a name rather than an index.
	named bool
}

// EdgeOptions select and order a node's outgoing edges.
type EdgeOptions struct {
	// SortBy is ByRetainedSize (the default), BySelfSize or ByName.
	SortBy string
	// MinRetainedSize drops targets retaining less.
	MinRetainedSize uint64
	// ExcludePrimitives drops targets that are strings, numbers, symbols or
	// big integers.
	ExcludePrimitives bool
}

// Edges returns the outgoing edges of node i.
func (s *Snapshot) Edges(i Index, opts EdgeOptions) []Edge {
	var edges []Edge
	for e := s.firstEdge[i]; e < s.firstEdge[i+1]; e++ {
		to := s.edgeTo[e]
		if opts.ExcludePrimitives && s.isTrivialValue(to) || s.retained[to] < opts.MinRetainedSize {
			continue
		}
		edges = append(edges, s.edge(e, to))
	}
	slices.SortStableFunc(edges, func(a, b Edge) int {
		switch opts.SortBy {
		case BySelfSize:
			return cmp.Or(cmp.Compare(b.Node.SelfSize, a.Node.SelfSize), compareEdgeNames(a, b))
		case ByName:
			return cmp.Or(compareEdgeNames(a, b), cmp.Compare(b.Node.RetainedSize, a.Node.RetainedSize))
		}
		return cmp.Or(cmp.Compare(b.Node.RetainedSize, a.Node.RetainedSize), compareEdgeNames(a, b))
	})
	return edges
}

// compareEdgeNames orders edges by name as DevTools does: __proto__ last,
// named edges before element indexes, and names compared as text (so
// element "10" comes before "2").
func compareEdgeNames(a, b Edge) int {
	switch {
	case b.Name == "__proto__":
		return -1
	case a.Name == "__proto__":
		return 1
	case a.named != b.named:
		return cmp.Compare(boolInt(b.named), boolInt(a.named))
	}
	return strings.Compare(a.Name, b.Name)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// isTrivialValue reports whether node i is a value that says nothing about
// memory: a number, or undefined, null, true or false. Strings are not
// trivial: a big string held in a property is the typical cache leak.
func (s *Snapshot) isTrivialValue(i uint32) bool {
	if s.isType(i, s.nt.number) {
		return true
	}
	if s.isType(i, s.nt.native) {
		switch s.rawName(i) {
		case "undefined", "null", "true", "false":
			return true
		}
	}
	return false
}

// edge describes edge e whose other end is node other.
func (s *Snapshot) edge(e, other uint32) Edge {
	named := s.hasStringName(e)
	if s.isEdge(e, s.et.shortcut) {
		_, isNumber := atou(s.edgeNameText(e))
		named = !isNumber
	}
	return Edge{Type: s.edgeTypes[s.edgeType[e]], Name: s.edgeNameText(e), Node: s.Node(Index(other)), named: named}
}

// Retainers returns the edges that point to node i, except weak ones and
// the root's, in DevTools' order: the reverse of the snapshot's order of
// the retaining edges.
func (s *Snapshot) Retainers(i Index) []Edge {
	var edges []Edge
	for r := s.firstRetainer[i+1]; r > s.firstRetainer[i]; {
		r--
		if e, from := s.retainerEdge[r], s.retainerNode[r]; s.retains(e, from) {
			edges = append(edges, s.edge(e, from))
		}
	}
	return edges
}

// retains reports whether edge e from node from is shown as a retainer.
func (s *Snapshot) retains(e, from uint32) bool {
	return from != s.root && !s.isEdge(e, s.et.weak)
}

// Dominators returns the dominator chain of node i as DevTools gives it:
// the node itself, its immediate dominator (the one object whose release
// would free it), that one's, and so on up to the root.
func (s *Snapshot) Dominators(i Index) []Node {
	chain := []Node{s.Node(i)}
	for j := uint32(i); j != s.root && s.dominator[j] != j; {
		j = s.dominator[j]
		chain = append(chain, s.Node(Index(j)))
	}
	return chain
}

// ClassName is the name of node i's class.
func (s *Snapshot) ClassName(i Index) string { return s.classes[s.class[i]].name }
