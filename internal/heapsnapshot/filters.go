package heapsnapshot

import (
	"fmt"
	"strings"
)

// The named filters: each keeps the objects retained for one reason.
const (
	// FilterDetachedDOM keeps what detached DOM nodes retain: the objects
	// the GC roots would no longer reach if detached nodes were gone
	// (the detached nodes included).
	FilterDetachedDOM = "objectsRetainedByDetachedDomNodes"
	// FilterConsole keeps what only the DevTools console's references
	// ($0, $_, console history) retain.
	FilterConsole = "objectsRetainedByConsole"
	// FilterEventHandlers keeps what only event listeners retain.
	FilterEventHandlers = "objectsRetainedByEventHandlers"
	// FilterContexts keeps what only closure contexts retain: variables
	// captured by functions and what they reach.
	FilterContexts = "objectsRetainedByContexts"
	// FilterSharedNativeContext keeps the objects attributed to several
	// native contexts (JavaScript realms: the page, iframes, extensions);
	// see Snapshot.attribution for DevTools' rule.
	FilterSharedNativeContext = "sharedNativeContext"
	// FilterNoNativeContext keeps the objects attributed to no native
	// context.
	FilterNoNativeContext = "noNativeContext"
	// FilterNativeContext keeps the objects attributed to one native
	// context, Filter.NativeContext.
	FilterNativeContext = "attributedToSpecificNativeContext"
)

// FilterNames lists the named filters.
var FilterNames = []string{FilterDetachedDOM, FilterConsole, FilterEventHandlers, FilterContexts,
	FilterSharedNativeContext, FilterNoNativeContext, FilterNativeContext}

// Filter selects objects by what retains them. The zero Filter keeps all.
type Filter struct {
	Name string
	// NativeContext is the native context of FilterNativeContext.
	NativeContext Index
}

// filterSet returns the set of nodes filter keeps, computing it once.
func (s *Snapshot) filterSet(f Filter) (bitset, error) {
	key := f.Name
	if f.Name == FilterNativeContext {
		if int(f.NativeContext) >= len(s.nodeType) {
			return nil, fmt.Errorf("no node at index %d", f.NativeContext)
		}
		if !s.isNativeContext(uint32(f.NativeContext)) {
			return nil, fmt.Errorf("node @%d is not a native context; get_heapsnapshot_summary lists them", s.nodeID[f.NativeContext])
		}
		key += uitoa(uint32(f.NativeContext))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if set, ok := s.filters[key]; ok {
		return set, nil
	}
	var set bitset
	switch f.Name {
	case FilterDetachedDOM:
		set = s.retainedOnlyThrough(func(from, e uint32) bool {
			return DOMState(s.detachedness[s.edgeTo[e]]) == DOMDetached
		})
	case FilterConsole:
		set = s.retainedOnlyThrough(func(from, e uint32) bool {
			return s.isType(from, s.nt.synthetic) && s.hasStringName(e) && strings.HasSuffix(s.strings.get(s.edgeName[e]), " / DevTools console")
		})
	case FilterEventHandlers:
		handlers := s.eventHandlers()
		set = s.retainedOnlyThrough(func(from, e uint32) bool { return handlers.has(s.edgeTo[e]) })
	case FilterContexts:
		set = s.retainedOnlyThrough(func(from, e uint32) bool { return s.isContext(s.edgeTo[e]) })
	case FilterSharedNativeContext, FilterNoNativeContext, FilterNativeContext:
		want := int32(attributedShared)
		switch f.Name {
		case FilterNoNativeContext:
			want = attributedNone
		case FilterNativeContext:
			want = int32(f.NativeContext)
		}
		attr := s.attribution()
		set = newBitset(len(s.nodeType))
		for i, a := range attr {
			if a == want {
				set.set(uint32(i))
			}
		}
	default:
		return nil, fmt.Errorf("unknown filter %q; use one of %s", f.Name, strings.Join(FilterNames, ", "))
	}
	s.filters[key] = set
	return set, nil
}

// retainedOnlyThrough returns the reachable objects that the GC roots no
// longer reach when the edges blocked says are removed.
func (s *Snapshot) retainedOnlyThrough(blocked func(from, e uint32) bool) bitset {
	n := len(s.nodeType)
	seen := newBitset(n)
	seen.set(s.root)
	queue := []uint32{s.root}
	for head := 0; head < len(queue); head++ {
		i := queue[head]
		for e := s.firstEdge[i]; e < s.firstEdge[i+1]; e++ {
			to := s.edgeTo[e]
			if seen.has(to) || s.isEdge(e, s.et.weak) || blocked(i, e) {
				continue
			}
			seen.set(to)
			queue = append(queue, to)
		}
	}
	set := newBitset(n)
	for i := range uint32(n) {
		if !seen.has(i) && s.reachable(i) {
			set.set(i)
		}
	}
	return set
}

// eventHandlers returns the JavaScript functions event listeners call, as
// DevTools finds them: the callback a V8EventListener holds as "1", or
// when that is not a function (an object with a handleEvent method, a
// bound function), the first object it holds that has code. The listener
// wrappers themselves (V8EventListener, blink::RegisteredEventListener)
// are not handlers: what only they retain is the handlers' doing.
func (s *Snapshot) eventHandlers() bitset {
	set := newBitset(len(s.nodeType))
	for i := range uint32(len(s.nodeType)) {
		if s.rawName(i) != "V8EventListener" {
			continue
		}
		callback, ok := s.edgeTarget(i, "1")
		if !ok {
			continue
		}
		handler := callback
		if _, ok := s.edgeTarget(callback, "code"); !ok {
			for e := s.firstEdge[callback]; e < s.firstEdge[callback+1]; e++ {
				if _, ok := s.edgeTarget(s.edgeTo[e], "code"); ok {
					handler = s.edgeTo[e]
					break
				}
			}
		}
		set.set(handler)
	}
	return set
}

// edgeTarget returns the target of node i's first edge named name (an
// element index counts by its decimal text).
func (s *Snapshot) edgeTarget(i uint32, name string) (uint32, bool) {
	for e := s.firstEdge[i]; e < s.firstEdge[i+1]; e++ {
		if s.edgeNameText(e) == name {
			return s.edgeTo[e], true
		}
	}
	return 0, false
}

// isContext reports whether node i is a closure or block context, the
// object holding variables captured by functions.
func (s *Snapshot) isContext(i uint32) bool {
	name := s.rawName(i)
	return name == "system / Context" || strings.HasPrefix(name, "system / Context / ")
}

// isNativeContext reports whether node i is a native context: a realm's
// global state (the page's window, an iframe's, an extension's), attached
// or detached.
func (s *Snapshot) isNativeContext(i uint32) bool {
	name := strings.TrimPrefix(s.rawName(i), "Detached ")
	return name == "system / NativeContext" || strings.HasPrefix(name, "system / NativeContext / ")
}

// Attribution of nodes to native contexts: a native context's index, or one
// of these.
const (
	attributedNone   = -1
	attributedShared = -2
)

// attribution gives each node the native context (realm) it belongs to, by
// DevTools' rule: a native context belongs to itself; an object whose map's
// map (the realm's meta map) names a native context belongs to that one,
// whatever else reaches it; every other object takes the realm of the
// objects that reach it through strong, non-shortcut edges, or
// attributedShared when objects of several realms reach it, or
// attributedNone when none does. It is computed once. Called with s.mu
// held.
func (s *Snapshot) attribution() []int32 {
	if s.attr == nil {
		s.attr = s.attributeRealms()
	}
	return s.attr
}

// attributeRealms computes attribution.
func (s *Snapshot) attributeRealms() []int32 {
	n := len(s.nodeType)
	attr := make([]int32, n)
	fixed := newBitset(n)
	mapOf, contextOf := s.realmEdges()
	var queue []uint32
	for i := range uint32(n) {
		attr[i] = attributedNone
		switch {
		case s.isNativeContext(i):
			attr[i] = int32(i)
		case mapOf[i] >= 0 && mapOf[mapOf[i]] >= 0 && contextOf[mapOf[mapOf[i]]] >= 0:
			attr[i] = contextOf[mapOf[mapOf[i]]]
		default:
			continue
		}
		fixed.set(i)
		queue = append(queue, i)
	}
	for head := 0; head < len(queue); head++ {
		i := queue[head]
		a := attr[i]
		for e := s.firstEdge[i]; e < s.firstEdge[i+1]; e++ {
			to := s.edgeTo[e]
			if s.isEdge(e, s.et.weak) || s.isEdge(e, s.et.shortcut) || to == i || fixed.has(to) {
				continue
			}
			merged := a
			if b := attr[to]; b != attributedNone && b != a {
				merged = attributedShared
			}
			if merged != attr[to] {
				attr[to] = merged
				queue = append(queue, to)
			}
		}
	}
	return attr
}

// realmEdges returns, for each node, the target of its first internal edge
// named "map", and of its first internal edge named "native_context" when
// that is a native context; -1 for none.
func (s *Snapshot) realmEdges() (mapOf, contextOf []int32) {
	n := len(s.nodeType)
	mapOf, contextOf = make([]int32, n), make([]int32, n)
	mapName, contextName := s.strings.find("map"), s.strings.find("native_context")
	for i := range uint32(n) {
		mapOf[i], contextOf[i] = -1, -1
		for e := s.firstEdge[i]; e < s.firstEdge[i+1]; e++ {
			if !s.isEdge(e, s.et.internal) {
				continue
			}
			switch name, to := s.edgeName[e], s.edgeTo[e]; {
			case name == contextName && contextOf[i] < 0 && s.isNativeContext(to):
				contextOf[i] = int32(to)
			case name == mapName && mapOf[i] < 0:
				mapOf[i] = int32(to)
			}
		}
	}
	return mapOf, contextOf
}

// NativeContext is a JavaScript realm and the memory attributed to it.
type NativeContext struct {
	Node Node
	// AttributedSize is the self size of the objects attributed to this
	// native context alone.
	AttributedSize uint64
}

// NativeContextSizes splits the reachable memory between native contexts.
type NativeContextSizes struct {
	Contexts []NativeContext
	// SharedSize is the self size of objects attributed to several native
	// contexts; UnattributedSize of those attributed to none (unreachable
	// objects included, as in DevTools).
	SharedSize, UnattributedSize uint64
}

// NativeContexts attributes memory to native contexts, the largest first.
func (s *Snapshot) NativeContexts() NativeContextSizes {
	s.mu.Lock()
	attr := s.attribution()
	s.mu.Unlock()
	var out NativeContextSizes
	sizes := map[int32]uint64{}
	for i, a := range attr {
		size := uint64(s.selfSize[i])
		switch a {
		case attributedNone:
			out.UnattributedSize += size
		case attributedShared:
			out.SharedSize += size
		default:
			sizes[a] += size
		}
	}
	for i, a := range attr {
		if a == int32(i) {
			out.Contexts = append(out.Contexts, NativeContext{Node: s.Node(Index(i)), AttributedSize: sizes[a]})
		}
	}
	sortBy(out.Contexts, func(c NativeContext) uint64 { return c.AttributedSize })
	return out
}

// ContextSummary says how much memory only closure contexts retain.
type ContextSummary struct {
	// Contexts is the number of closure and block contexts.
	Contexts int
	// Retained are the objects FilterContexts keeps; NotRetained the other
	// reachable objects.
	RetainedCount, NotRetainedCount int
	RetainedSize, NotRetainedSize   uint64
}

// RetainedByContexts summarizes FilterContexts.
func (s *Snapshot) RetainedByContexts() ContextSummary {
	set, _ := s.filterSet(Filter{Name: FilterContexts}) // a known name
	var sum ContextSummary
	for i := range uint32(len(s.nodeType)) {
		if s.selfSize[i] == 0 {
			continue
		}
		if s.isContext(i) {
			sum.Contexts++
		}
		if set.has(i) {
			sum.RetainedCount++
			sum.RetainedSize += uint64(s.selfSize[i])
		} else {
			sum.NotRetainedCount++
			sum.NotRetainedSize += uint64(s.selfSize[i])
		}
	}
	return sum
}
