package heapsnapshot

import (
	"bytes"
	"cmp"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// classInfo is one class: objects aggregate by class name and, for objects
// (type "object") whose constructor's location is known, that location, since
// different constructors often share a name.
type classInfo struct {
	name   string
	loc    location
	hasLoc bool
}

// key identifies the class across snapshots of one page.
func (c classInfo) key() string {
	if !c.hasLoc {
		return "," + c.name
	}
	return strconv.FormatUint(uint64(c.loc.scriptID), 10) + "," + strconv.FormatUint(uint64(c.loc.line), 10) + "," +
		strconv.FormatUint(uint64(c.loc.column), 10) + "," + c.name
}

// interfaceDef names plain objects ("Object") that have at least these
// properties, like "{x, y}", so that they do not all fall into one class.
type interfaceDef struct {
	name  string
	props []string
}

// Limits of interface inference, as DevTools has them.
const (
	maxInterfaces          = 1000
	maxInterfaceNameLength = 120
	minInterfaceObjects    = 2
	minInterfaceShare      = 1000
)

func (s *Snapshot) assignClasses() {
	s.interfaces = s.inferInterfaces()
	s.class, s.classes = s.classify(s.interfaces)
}

// isPlainObject reports whether node i is a plain JavaScript object.
func (s *Snapshot) isPlainObject(i uint32) bool {
	return s.isType(i, s.nt.object) && s.rawName(i) == "Object"
}

// inferInterfaces finds the most common property lists (in declaration
// order) of plain objects, as DevTools does: those shared by at least two
// objects and by one plain object in a thousand.
func (s *Snapshot) inferInterfaces() []interfaceDef {
	type candidate struct {
		interfaceDef
		count int
		first int
	}
	candidates := map[string]*candidate{}
	var name strings.Builder
	plain := 0
	for i := range uint32(len(s.nodeType)) {
		if !s.isPlainObject(i) {
			continue
		}
		plain++
		name.Reset()
		name.WriteByte('{')
		var props []string
		for e := s.firstEdge[i]; e < s.firstEdge[i+1]; e++ {
			if !s.isEdge(e, s.et.property) {
				continue
			}
			prop := s.strings.get(s.edgeName[e])
			if prop == "__proto__" {
				continue
			}
			formatted := formatPropertyName(prop)
			if name.Len() > 1 && name.Len()+len(formatted) > maxInterfaceNameLength {
				break
			}
			if name.Len() > 1 {
				name.WriteString(", ")
			}
			name.WriteString(formatted)
			props = append(props, prop)
		}
		if len(props) == 0 {
			continue
		}
		name.WriteByte('}')
		if c, ok := candidates[name.String()]; ok {
			c.count++
		} else {
			candidates[name.String()] = &candidate{interfaceDef{name.String(), props}, 1, len(candidates)}
		}
	}
	// A property list names a class when at least one plain object in
	// minInterfaceShare has it (and at least minInterfaceObjects do).
	least := max(float64(minInterfaceObjects), float64(plain)/minInterfaceShare)
	sorted := make([]*candidate, 0, len(candidates))
	for _, c := range candidates {
		if float64(c.count) >= least {
			sorted = append(sorted, c)
		}
	}
	slices.SortFunc(sorted, func(a, b *candidate) int {
		return cmp.Or(cmp.Compare(b.count, a.count), cmp.Compare(a.first, b.first))
	})
	defs := make([]interfaceDef, 0, min(len(sorted), maxInterfaces))
	for _, c := range sorted[:min(len(sorted), maxInterfaces)] {
		defs = append(defs, c.interfaceDef)
	}
	return defs
}

// formatPropertyName quotes a property name that would be ambiguous in a
// "{a, b}" list.
func formatPropertyName(name string) string {
	if !strings.ContainsAny(name, `,'"{}`) {
		return name
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(name) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// propertyTrie matches an object's sorted property names against the
// interface definitions: each path from the root spells the sorted
// properties of a definition.
type propertyTrie struct {
	next     map[string]*propertyTrie
	greatest string // the greatest key of next
	match    *interfaceMatch
}

type interfaceMatch struct {
	name  string
	props int
	index int
}

// better is the better of two matches: more properties, then earlier
// definition.
func better(a, b *interfaceMatch) *interfaceMatch {
	switch {
	case b == nil:
		return a
	case a == nil, b.props > a.props, b.props == a.props && b.index < a.index:
		return b
	}
	return a
}

func buildTrie(defs []interfaceDef) *propertyTrie {
	root := &propertyTrie{}
	for i, d := range defs {
		props := slices.Sorted(slices.Values(d.props))
		t := root
		for _, p := range props {
			next := t.next[p]
			if next == nil {
				if t.next == nil {
					t.next = map[string]*propertyTrie{}
				}
				next = &propertyTrie{}
				t.next[p] = next
				t.greatest = max(t.greatest, p)
			}
			t = next
		}
		if t.match == nil {
			t.match = &interfaceMatch{d.name, len(props), i}
		}
	}
	return root
}

// classify gives each node a class, naming plain objects after the best
// matching interface of defs. It returns the class of each node and the
// classes.
func (s *Snapshot) classify(defs []interfaceDef) ([]uint32, []classInfo) {
	trie := buildTrie(defs)
	class := make([]uint32, len(s.nodeType))
	var classes []classInfo
	byInfo := map[classInfo]uint32{}
	byName := map[uint32]uint32{} // objects' and native objects' raw name index → class
	byType := map[uint8]uint32{}  // other types → class
	intern := func(c classInfo) uint32 {
		k, ok := byInfo[c]
		if !ok {
			k = uint32(len(classes))
			classes = append(classes, c)
			byInfo[c] = k
		}
		return k
	}
	var props []string
	var states, next []*propertyTrie
	for i := range uint32(len(s.nodeType)) {
		loc, hasLoc := s.locations[i]
		hasLoc = hasLoc && s.isType(i, s.nt.object)
		if s.isPlainObject(i) {
			props = props[:0]
			for e := s.firstEdge[i]; e < s.firstEdge[i+1]; e++ {
				if s.isEdge(e, s.et.property) {
					props = append(props, s.strings.get(s.edgeName[e]))
				}
			}
			slices.Sort(props)
			match := trie.match
			states = append(states[:0], trie)
			for _, p := range props {
				next = next[:0]
				for _, st := range states {
					if st.next == nil {
						continue
					}
					if p < st.greatest {
						next = append(next, st) // it may still match a later property
					}
					if child := st.next[p]; child != nil {
						next = append(next, child)
						match = better(match, child.match)
					}
				}
				states, next = next, states
			}
			if match != nil {
				class[i] = intern(classInfo{name: match.name, loc: loc, hasLoc: hasLoc})
				continue
			}
		}
		switch {
		case hasLoc:
			class[i] = intern(classInfo{name: s.className(i), loc: loc, hasLoc: true})
		case s.isType(i, s.nt.object) || s.isType(i, s.nt.native):
			k, ok := byName[s.nodeName[i]]
			if !ok {
				k = intern(classInfo{name: s.className(i)})
				byName[s.nodeName[i]] = k
			}
			class[i] = k
		default:
			// The other types' class names depend on the type only.
			k, ok := byType[s.nodeType[i]]
			if !ok {
				k = intern(classInfo{name: s.className(i)})
				byType[s.nodeType[i]] = k
			}
			class[i] = k
		}
	}
	return class, classes
}

// className is the class name of node i other than a plain object's.
func (s *Snapshot) className(i uint32) string {
	switch int(s.nodeType[i]) {
	case s.nt.hidden:
		return "(system)"
	case s.nt.object, s.nt.native:
		name := s.rawName(i)
		// '<div id="a">' is of class '<div>', and so for detached nodes.
		if rest, ok := strings.CutPrefix(name, "Detached <"); ok {
			if sp := strings.IndexByte(rest, ' '); sp >= 0 {
				return "Detached <" + rest[:sp] + ">"
			}
		} else if strings.HasPrefix(name, "<") {
			if sp := strings.IndexByte(name, ' '); sp >= 0 {
				return name[:sp] + ">"
			}
		}
		return name
	case s.nt.code:
		return "(compiled code)"
	case s.nt.closure:
		return "Function"
	case s.nt.regexp:
		return "RegExp"
	}
	return "(" + s.nodeTypes[s.nodeType[i]] + ")"
}

// buildDominatedNodes lists for each node the nodes it immediately dominates.
func (s *Snapshot) buildDominatedNodes() {
	n := len(s.nodeType)
	first := make([]uint32, n+1)
	for i, d := range s.dominator {
		if uint32(i) != s.root {
			first[d+1]++
		}
	}
	for i := 1; i <= n; i++ {
		first[i] += first[i-1]
	}
	next := slices.Clone(first[:n])
	s.dominated = make([]uint32, first[n])
	for i, d := range s.dominator {
		if uint32(i) != s.root {
			s.dominated[next[d]] = uint32(i)
			next[d]++
		}
	}
	s.firstDominated = first
}
