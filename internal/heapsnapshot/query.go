package heapsnapshot

import (
	"fmt"
	"regexp"
	"strings"
)

// Query selects objects by what they are. Zero fields select everything.
type Query struct {
	// ClassName is a regular expression, or else plain text, matched
	// case-insensitively against the class name.
	ClassName string
	// PropertyName keeps objects with an outgoing named edge of that name
	// (a property, a closure variable, an internal field).
	PropertyName string
	// NodeType keeps objects of that type (object, closure, string, array,
	// native, code, ...).
	NodeType string
	// Retained and Self bound the sizes.
	Retained, Self SizeRange
	// Detached, when set, keeps DOM nodes that are (true) or are not
	// (false) detached.
	Detached *bool
	// SortBy is ByRetainedSize (the default), BySelfSize or ByID.
	SortBy string
}

// SizeRange is an inclusive range of sizes in bytes; Max 0 means no bound.
type SizeRange struct{ Min, Max uint64 }

// Contains reports whether v is in the range.
func (r SizeRange) Contains(v uint64) bool { return v >= r.Min && (r.Max == 0 || v <= r.Max) }

// Query returns the objects matching q, sorted.
func (s *Snapshot) Query(q Query) ([]Index, error) {
	match := classMatcher(q.ClassName)
	nodeType := -1
	if q.NodeType != "" {
		for t, name := range s.nodeTypes {
			if strings.EqualFold(name, q.NodeType) {
				nodeType = t
			}
		}
		if nodeType < 0 {
			return nil, fmt.Errorf("unknown node type %q; this snapshot has %s", q.NodeType, strings.Join(s.nodeTypes, ", "))
		}
	}
	classOK := make([]int8, len(s.classes)) // 0 unknown, 1 matches, -1 does not
	var out []Index
	for i := range uint32(len(s.nodeType)) {
		switch {
		case nodeType >= 0 && int(s.nodeType[i]) != nodeType,
			!q.Retained.Contains(s.retained[i]),
			!q.Self.Contains(uint64(s.selfSize[i])),
			q.Detached != nil && *q.Detached != (DOMState(s.detachedness[i]) == DOMDetached):
			continue
		}
		if match != nil {
			c := s.class[i]
			if classOK[c] == 0 {
				classOK[c] = -1
				if match(s.classes[c].name) {
					classOK[c] = 1
				}
			}
			if classOK[c] < 0 {
				continue
			}
		}
		if q.PropertyName != "" && !s.hasNamedEdge(i, q.PropertyName) {
			continue
		}
		out = append(out, Index(i))
	}
	s.SortIndexes(out, q.SortBy)
	return out, nil
}

// classMatcher compiles a class name pattern: a regular expression when it
// is one, else literal text, case-insensitive either way.
func classMatcher(pattern string) func(string) bool {
	if pattern == "" {
		return nil
	}
	re, err := regexp.Compile("(?i)" + pattern)
	if err != nil {
		re = regexp.MustCompile("(?i)" + regexp.QuoteMeta(pattern))
	}
	return re.MatchString
}

// hasNamedEdge reports whether node i has an outgoing string-named edge
// called name.
func (s *Snapshot) hasNamedEdge(i uint32, name string) bool {
	for e := s.firstEdge[i]; e < s.firstEdge[i+1]; e++ {
		if s.hasStringName(e) && s.strings.get(s.edgeName[e]) == name {
			return true
		}
	}
	return false
}

// StringGroup is a string value held by several string objects.
type StringGroup struct {
	Value string
	Count int
	// SelfSize and RetainedSize are the totals of the copies.
	SelfSize, RetainedSize uint64
	// Nodes are the copies, up to MaxGroupNodes; Truncated says there are
	// more.
	Nodes     []Index
	Truncated bool
}

// MaxGroupNodes bounds StringGroup.Nodes.
const MaxGroupNodes = 10

// DuplicateStrings groups the string objects with the same text, the most
// memory first. Concatenated strings count by their text (the first
// maxConsString bytes), except those V8 already flattened.
func (s *Snapshot) DuplicateStrings() []StringGroup {
	groups := map[string]*StringGroup{}
	var order []*StringGroup
	for i := range uint32(len(s.nodeType)) {
		if !s.isType(i, s.nt.str) && !s.isType(i, s.nt.consString) || s.isFlatConsString(i) {
			continue
		}
		text := s.name(i)
		g := groups[text]
		if g == nil {
			g = &StringGroup{Value: text}
			groups[text] = g
			order = append(order, g)
		}
		g.Count++
		g.SelfSize += uint64(s.selfSize[i])
		g.RetainedSize += s.retained[i]
		if len(g.Nodes) < MaxGroupNodes {
			g.Nodes = append(g.Nodes, Index(i))
		} else {
			g.Truncated = true
		}
	}
	var out []StringGroup
	for _, g := range order {
		if g.Count > 1 {
			out = append(out, *g)
		}
	}
	sortBy(out, func(g StringGroup) uint64 { return g.SelfSize })
	return out
}
