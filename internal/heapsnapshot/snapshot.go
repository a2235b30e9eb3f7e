// Package heapsnapshot parses V8 heap snapshots (.heapsnapshot files, as
// Chrome DevTools and the HeapProfiler domain write them) and answers the
// questions asked when hunting memory leaks: which classes hold the memory,
// what retains an object, which objects a detached DOM tree keeps alive,
// what grew between two snapshots.
//
// Nodes and edges are kept in flat integer arrays indexed by node ordinal
// (the node's position in the file) and edge index; the analyses follow
// DevTools' heap snapshot worker: distances from the GC roots ignoring weak
// edges, DOM detachedness propagated from Blink's own marks, a dominator tree
// (Lengauer–Tarjan) over the edges that retain, class names including
// interface names for plain objects.
//
// A Snapshot is immutable once loaded and safe for concurrent use.
package heapsnapshot

import (
	"context"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
)

// Snapshot is a parsed and analysed heap snapshot.
type Snapshot struct {
	// The graph, one entry per node ordinal or edge index.
	nodeType     []uint8
	nodeName     []uint32 // string index; detached DOM nodes are renamed
	nodeID       []uint32
	selfSize     []uint32
	detachedness []uint8  // DOMState per node
	firstEdge    []uint32 // edges of node i are firstEdge[i]:firstEdge[i+1]
	edgeType     []uint8
	edgeName     []uint32 // string index, or element index
	edgeTo       []uint32 // node ordinal
	strings      stringTable
	nodeTypes    []string // type names, by raw node type
	edgeTypes    []string // type names, by raw edge type
	nt           nodeKinds
	et           edgeKinds
	root         uint32
	extraNative  uint64
	locations    map[uint32]location
	scopes       scopeTables

	// Derived by analyze.
	firstRetainer  []uint32 // retainers of node i are firstRetainer[i]:firstRetainer[i+1]
	retainerNode   []uint32 // retaining node ordinal
	retainerEdge   []uint32 // the retaining edge's index
	userRoots      bool     // the root has edges to user roots (older snapshots)
	ephemerons     map[uint32]ephemeron
	distance       []int32
	dominator      []uint32 // immediate dominator ordinal; the root's is itself
	retained       []uint64
	firstDominated []uint32 // nodes dominated by i are dominated[firstDominated[i]:firstDominated[i+1]]
	dominated      []uint32
	class          []uint32 // index into classes
	classes        []classInfo
	interfaces     []interfaceDef
	stats          Statistics

	idOnce  sync.Once
	byID    []uint32 // node ordinals sorted by id
	mu      sync.Mutex
	filters map[string]bitset // computed named filters
	agg     []Class           // unfiltered aggregates, sorted, with ids
	aggByID []int32           // positions in agg by class id - 1
	attr    []int32           // native context attribution, see attribution
}

// nodeKinds are the raw type numbers of the node types the analysis looks
// at, or -1 when the snapshot does not have the type.
type nodeKinds struct {
	hidden, str, object, code, closure, regexp, number, native, synthetic, consString, slicedString, symbol, bigint int
}

// edgeKinds are the raw type numbers of the edge types.
type edgeKinds struct {
	context, element, property, internal, hidden, shortcut, weak int
}

// Distances of nodes: baseSystemDistance is added to nodes reached only
// from the GC roots when user roots exist; noDistance marks unreachable
// nodes.
const (
	baseSystemDistance = 100_000_000
	noDistance         = -5
)

// DOMState is whether a DOM node is in a document.
type DOMState uint8

// The DOM states, as V8 and Blink number them.
const (
	DOMUnknown DOMState = iota
	DOMAttached
	DOMDetached
)

func (d DOMState) String() string {
	switch d {
	case DOMAttached:
		return "attached"
	case DOMDetached:
		return "detached"
	}
	return "unknown"
}

// ephemeron is a parsed WeakMap edge name: the key → value part shared by
// the table's edge and the key's edge, and the table's id.
type ephemeron struct {
	pair  string
	table uint32
}

var ephemeronName = regexp.MustCompile(`^\d+( / part of key \(.*? @\d+\) -> value \(.*? @\d+\) pair in WeakMap \(table @(\d+)\))$`)

func analyze(ctx context.Context, raw *rawSnapshot) (*Snapshot, error) {
	raw.strings.seal()
	s := &Snapshot{
		nodeType: raw.nodeType, nodeName: raw.nodeName, nodeID: raw.nodeID, selfSize: raw.selfSize,
		detachedness: raw.detachedness, edgeType: raw.edgeType, edgeName: raw.edgeName, edgeTo: raw.edgeTo,
		strings: raw.strings, nodeTypes: raw.l.nodeTypes, edgeTypes: raw.l.edgeTypes, root: raw.root,
		extraNative: raw.extraNativeBytes, locations: raw.locations, scopes: raw.scopes,
		filters: map[string]bitset{},
	}
	kind := func(names []string, name string) int { return slices.Index(names, name) }
	s.nt = nodeKinds{
		hidden: kind(s.nodeTypes, "hidden"), str: kind(s.nodeTypes, "string"),
		object: kind(s.nodeTypes, "object"), code: kind(s.nodeTypes, "code"), closure: kind(s.nodeTypes, "closure"),
		regexp: kind(s.nodeTypes, "regexp"), number: kind(s.nodeTypes, "number"), native: kind(s.nodeTypes, "native"),
		synthetic: kind(s.nodeTypes, "synthetic"), consString: kind(s.nodeTypes, "concatenated string"),
		slicedString: kind(s.nodeTypes, "sliced string"), symbol: kind(s.nodeTypes, "symbol"), bigint: kind(s.nodeTypes, "bigint"),
	}
	s.et = edgeKinds{
		context: kind(s.edgeTypes, "context"), element: kind(s.edgeTypes, "element"), property: kind(s.edgeTypes, "property"),
		internal: kind(s.edgeTypes, "internal"), hidden: kind(s.edgeTypes, "hidden"), shortcut: kind(s.edgeTypes, "shortcut"),
		weak: kind(s.edgeTypes, "weak"),
	}
	if s.detachedness == nil {
		s.detachedness = make([]uint8, len(s.nodeType))
	}
	s.buildEdgeIndexes(raw.nodeEdges)
	s.buildRetainers()
	s.propagateDOMState()
	s.findEphemerons()
	steps := []func(){s.calculateDistances, s.buildDominatorTree, s.buildDominatedNodes, s.assignClasses, s.calculateStatistics}
	for _, step := range steps {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		step()
	}
	return s, nil
}

// NodeCount is the number of nodes.
func (s *Snapshot) NodeCount() int { return len(s.nodeType) }

// EdgeCount is the number of edges.
func (s *Snapshot) EdgeCount() int { return len(s.edgeType) }

func (s *Snapshot) isType(i uint32, kind int) bool { return int(s.nodeType[i]) == kind }
func (s *Snapshot) isEdge(e uint32, kind int) bool { return int(s.edgeType[e]) == kind }

// rawName is the node's name as the file has it (after DOM renaming).
func (s *Snapshot) rawName(i uint32) string { return s.strings.get(s.nodeName[i]) }

// hasStringName reports whether edge e is named by a string rather than an index.
func (s *Snapshot) hasStringName(e uint32) bool {
	return !s.isEdge(e, s.et.element) && !s.isEdge(e, s.et.hidden)
}

// edgeNameText is edge e's name: a property name or an element index.
func (s *Snapshot) edgeNameText(e uint32) string {
	if s.hasStringName(e) {
		return s.strings.get(s.edgeName[e])
	}
	return uitoa(s.edgeName[e])
}

func (s *Snapshot) buildEdgeIndexes(counts []uint32) {
	s.firstEdge = make([]uint32, len(counts)+1)
	var next uint32
	for i, c := range counts {
		s.firstEdge[i] = next
		next += c
	}
	s.firstEdge[len(counts)] = next
}

// buildRetainers inverts the edges: for each node, the edges that point to
// it and the nodes they come from.
func (s *Snapshot) buildRetainers() {
	n := len(s.nodeType)
	first := make([]uint32, n+1)
	for _, to := range s.edgeTo {
		first[to+1]++
	}
	for i := 1; i <= n; i++ {
		first[i] += first[i-1]
	}
	next := slices.Clone(first[:n])
	s.retainerNode = make([]uint32, len(s.edgeTo))
	s.retainerEdge = make([]uint32, len(s.edgeTo))
	for src := range n {
		for e := s.firstEdge[src]; e < s.firstEdge[src+1]; e++ {
			to := s.edgeTo[e]
			slot := next[to]
			next[to]++
			s.retainerNode[slot] = uint32(src)
			s.retainerEdge[slot] = e
		}
	}
	s.firstRetainer = first
}

// propagateDOMState spreads Blink's attached and detached marks: whatever
// native object an attached one reaches is attached, whatever a detached one
// reaches and is not attached is detached. Detached nodes are renamed
// "Detached <name>". JavaScript objects keep their state unknown.
func (s *Snapshot) propagateDOMState() {
	n := uint32(len(s.nodeType))
	visited := newBitset(int(n))
	renamed := map[uint32]uint32{}
	var attached, detached []uint32
	visit := func(i uint32, state DOMState) {
		if visited.has(i) {
			return
		}
		visited.set(i)
		if !s.isType(i, s.nt.native) {
			return
		}
		s.detachedness[i] = uint8(state)
		switch state {
		case DOMAttached:
			attached = append(attached, i)
		case DOMDetached:
			name, ok := renamed[s.nodeName[i]]
			if !ok {
				name = s.strings.intern("Detached " + s.rawName(i))
				renamed[s.nodeName[i]] = name
			}
			s.nodeName[i] = name
			detached = append(detached, i)
		}
	}
	spread := func(i uint32, state DOMState) {
		for e := s.firstEdge[i]; e < s.firstEdge[i+1]; e++ {
			if !s.isEdge(e, s.et.hidden) && !s.isEdge(e, s.et.weak) {
				visit(s.edgeTo[e], state)
			}
		}
	}
	for i := range n {
		if state := DOMState(s.detachedness[i]); state == DOMAttached || state == DOMDetached {
			visit(i, state)
		} else {
			s.detachedness[i] = uint8(DOMUnknown)
		}
	}
	for len(attached) > 0 {
		i := attached[len(attached)-1]
		attached = attached[:len(attached)-1]
		spread(i, DOMAttached)
	}
	for len(detached) > 0 {
		i := detached[len(detached)-1]
		detached = detached[:len(detached)-1]
		if DOMState(s.detachedness[i]) != DOMAttached {
			spread(i, DOMDetached)
		}
	}
}

// findEphemerons parses the names of the internal edges that stand for
// WeakMap entries.
func (s *Snapshot) findEphemerons() {
	s.ephemerons = map[uint32]ephemeron{}
	checked := map[uint32]bool{}
	for e := range uint32(len(s.edgeType)) {
		if !s.isEdge(e, s.et.internal) {
			continue
		}
		name := s.edgeName[e]
		if checked[name] {
			continue
		}
		checked[name] = true
		text := s.strings.get(name)
		if !strings.Contains(text, " pair in WeakMap (table @") {
			continue
		}
		if m := ephemeronName.FindStringSubmatch(text); m != nil {
			if table, ok := atou(m[2]); ok {
				s.ephemerons[name] = ephemeron{pair: m[1], table: table}
			}
		}
	}
}

// isUserRoot reports whether node i, a child of the root, is a user root:
// a global object or the document DOM trees (older snapshots have them).
func (s *Snapshot) isUserRoot(i uint32) bool {
	return !s.isType(i, s.nt.synthetic) || s.rawName(i) == "(Document DOM trees)"
}

// calculateDistances sets each node's distance from the roots: breadth
// first from the user roots when there are any, then from the root for what
// is left, never through weak edges, and reaching a WeakMap value only
// through the later of its two edges (key and table).
func (s *Snapshot) calculateDistances() {
	n := len(s.nodeType)
	s.distance = make([]int32, n)
	for i := range s.distance {
		s.distance[i] = noDistance
	}
	queue := make([]uint32, 0, n)
	for e := s.firstEdge[s.root]; e < s.firstEdge[s.root+1]; e++ {
		if to := s.edgeTo[e]; s.isUserRoot(to) && s.distance[to] == noDistance {
			s.distance[to] = 1
			queue = append(queue, to)
		}
	}
	s.userRoots = len(queue) > 0
	pending := map[string]bool{}
	s.bfs(queue, pending)
	s.distance[s.root] = 0
	if s.userRoots {
		s.distance[s.root] = baseSystemDistance
	}
	s.bfs(append(queue[:0], s.root), pending)
}

func (s *Snapshot) bfs(queue []uint32, pending map[string]bool) {
	for head := 0; head < len(queue); head++ {
		i := queue[head]
		d := s.distance[i] + 1
		for e := s.firstEdge[i]; e < s.firstEdge[i+1]; e++ {
			to := s.edgeTo[e]
			if s.isEdge(e, s.et.weak) || s.distance[to] != noDistance {
				continue
			}
			if eph, ok := s.ephemerons[s.edgeName[e]]; ok && s.isEdge(e, s.et.internal) {
				// Wait for the second of the key's and the table's edges.
				if !pending[eph.pair] {
					pending[eph.pair] = true
					continue
				}
				delete(pending, eph.pair)
			}
			s.distance[to] = d
			queue = append(queue, to)
		}
	}
}

// reachable reports whether node i is reachable from the GC roots.
func (s *Snapshot) reachable(i uint32) bool { return s.distance[i] != noDistance }

func uitoa(v uint32) string {
	var b [10]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + v%10)
		v /= 10
		if v == 0 {
			return string(b[i:])
		}
	}
}

// atou parses a decimal uint32.
func atou(s string) (uint32, bool) {
	if s == "" || len(s) > 10 {
		return 0, false
	}
	var v uint64
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + uint64(c-'0')
	}
	return uint32(v), v <= 1<<32-1
}

// Release returns the memory of dropped snapshots to the operating system
// at once, rather than when the runtime gets to it: call it after the last
// reference to a big snapshot is gone (a snapshot's graph is several
// hundred megabytes for a big page).
func Release() { debug.FreeOSMemory() }
