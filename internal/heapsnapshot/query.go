package heapsnapshot

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf16"
)

// Query selects objects by what they are. Zero fields select everything.
type Query struct {
	// ClassName is a regular expression, or else plain text, matched
	// case-insensitively against the object's name, as DevTools matches
	// it: a constructor's name, a plain object's "{a, b}", a string's
	// text, a DOM node's "<div>" or "Detached <li>".
	ClassName string
	// PropertyName keeps objects with an outgoing edge (a property, a
	// closure variable, an internal field, an element index) whose name
	// it matches, as DevTools matches it: a regular expression, or else
	// plain text, case-insensitive.
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
	match, matchEdge := classMatcher(q.ClassName), classMatcher(q.PropertyName)
	edgeOK := map[uint32]bool{} // by string index, for edges named by a string
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
	// Names that are the node's raw name are matched once per string.
	nameOK := make([]int8, s.strings.len()+len(s.strings.added)) // 0 unknown, 1 matches, -1 does not
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
			if i == s.root || s.isType(i, s.nt.consString) || s.isPlainObject(i) {
				if !match(s.name(i)) {
					continue
				}
			} else {
				n := s.nodeName[i]
				if nameOK[n] == 0 {
					nameOK[n] = -1
					if match(s.strings.get(n)) {
						nameOK[n] = 1
					}
				}
				if nameOK[n] < 0 {
					continue
				}
			}
		}
		if matchEdge != nil && !s.hasEdgeMatching(i, matchEdge, edgeOK) {
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

// hasEdgeMatching reports whether one of node i's outgoing edges has a
// name match accepts; seen caches the answers for string names.
func (s *Snapshot) hasEdgeMatching(i uint32, match func(string) bool, seen map[uint32]bool) bool {
	for e := s.firstEdge[i]; e < s.firstEdge[i+1]; e++ {
		if !s.hasStringName(e) {
			if match(uitoa(s.edgeName[e])) {
				return true
			}
			continue
		}
		ok, known := seen[s.edgeName[e]]
		if !known {
			ok = match(s.strings.get(s.edgeName[e]))
			seen[s.edgeName[e]] = ok
		}
		if ok {
			return true
		}
	}
	return false
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
	// Value is the text as the snapshot has it.
	Value string
	// Length is the string's length in UTF-16 code units, V8's count.
	Length int
	// Truncated says V8 wrote only the start of the text (long strings):
	// the copies share Value, Length and V8's hash of the whole text.
	Truncated bool
	Count     int
	// SelfSize and RetainedSize are the totals of the copies.
	SelfSize, RetainedSize uint64
	// Nodes are the copies, up to MaxGroupNodes.
	Nodes []Index
}

// MaxGroupNodes bounds StringGroup.Nodes.
const MaxGroupNodes = 10

// stringKey identifies a string's whole value: its text, and for a text V8
// truncated, the whole string's length and hash.
type stringKey struct {
	text         string
	length, hash int64
}

// DuplicateStrings groups the string objects with the same value, the most
// retained memory first, as DevTools does: strings with a zero self size
// and concatenations V8 already flattened are left out; a string V8
// truncated in the snapshot matches only strings with the same text,
// length and hash.
func (s *Snapshot) DuplicateStrings() []StringGroup {
	groups := map[stringKey]*StringGroup{}
	var whole, truncated []*StringGroup
	for i := range uint32(len(s.nodeType)) {
		if !s.isType(i, s.nt.str) && !s.isType(i, s.nt.consString) || s.selfSize[i] == 0 || s.isFlatConsString(i) {
			continue
		}
		key := stringKey{text: s.name(i)}
		length, hash, cut := s.truncatedString(i)
		if cut {
			key.length, key.hash = length, hash
		}
		g := groups[key]
		if g == nil {
			g = &StringGroup{Value: key.text, Truncated: cut, Length: int(length)}
			if !cut {
				g.Length = utf16Len(key.text)
			}
			groups[key] = g
			if cut {
				truncated = append(truncated, g)
			} else {
				whole = append(whole, g)
			}
		}
		g.Count++
		g.SelfSize += uint64(s.selfSize[i])
		g.RetainedSize += s.retained[i]
		if len(g.Nodes) < MaxGroupNodes {
			g.Nodes = append(g.Nodes, Index(i))
		}
	}
	var out []StringGroup
	for _, g := range append(whole, truncated...) {
		if g.Count > 1 {
			out = append(out, *g)
		}
	}
	sortBy(out, func(g StringGroup) uint64 { return g.RetainedSize })
	return out
}

// truncatedString reports whether V8 truncated string node i's text in the
// snapshot, and then the whole string's length and hash, which V8 records
// as internal edges "truncated", "length" and "hash" to boxed values.
func (s *Snapshot) truncatedString(i uint32) (length, hash int64, ok bool) {
	if v, found := s.boxedValue(i, "truncated", "bool"); !found || v != "true" {
		return 0, 0, false
	}
	l, okL := s.boxedValue(i, "length", "int")
	h, okH := s.boxedValue(i, "hash", "int")
	length, errL := strconv.ParseInt(l, 10, 64)
	hash, errH := strconv.ParseInt(h, 10, 64)
	if !okL || errL != nil {
		length = -1
	}
	if !okH || errH != nil {
		hash = -1
	}
	return length, hash, true
}

// boxedValue returns the text of the value V8 boxes behind node i's
// internal edge name: a number node named kind ("int", "bool") whose
// internal edge "value" leads to a node named by the value.
func (s *Snapshot) boxedValue(i uint32, name, kind string) (string, bool) {
	box, ok := s.internal(i, name)
	if !ok || !s.isType(box, s.nt.number) || s.rawName(box) != kind {
		return "", false
	}
	v, ok := s.internal(box, "value")
	if !ok {
		return "", false
	}
	return s.rawName(v), true
}

// utf16Len is the length of text in UTF-16 code units.
func utf16Len(text string) int {
	n := 0
	for _, r := range text {
		n += utf16.RuneLen(r)
	}
	return n
}
