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
	// FilterSharedNativeContext keeps the objects reachable from several
	// native contexts (JavaScript realms: the page, iframes, extensions).
	FilterSharedNativeContext = "sharedNativeContext"
	// FilterNoNativeContext keeps the objects no native context reaches.
	FilterNoNativeContext = "noNativeContext"
	// FilterNativeContext keeps the objects reachable from exactly one
	// native context, Filter.NativeContext.
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
		set = s.retainedOnlyThrough(func(from, e uint32) bool { return s.isEventListener(s.edgeTo[e]) })
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

// isEventListener reports whether node i is one of Blink's event listener
// objects, through which listeners retain their JavaScript functions.
func (s *Snapshot) isEventListener(i uint32) bool {
	return s.isType(i, s.nt.native) && strings.HasSuffix(s.rawName(i), "EventListener")
}

// isContext reports whether node i is a closure or block context, the
// object holding variables captured by functions.
func (s *Snapshot) isContext(i uint32) bool {
	return strings.HasPrefix(s.rawName(i), "system / Context")
}

// isNativeContext reports whether node i is a native context: a realm's
// global state (the page's window, an iframe's, an extension's).
func (s *Snapshot) isNativeContext(i uint32) bool {
	return strings.HasPrefix(s.rawName(i), "system / NativeContext")
}

// Attribution of nodes to native contexts: a native context's index, or one
// of these.
const (
	attributedNone   = -1
	attributedShared = -2
)

// attribution gives each node the native context it is reachable from
// (without weak edges and without entering another native context), or
// attributedShared when several reach it, or attributedNone. Called with
// s.mu held.
func (s *Snapshot) attribution() []int32 {
	n := len(s.nodeType)
	attr := make([]int32, n)
	var work []uint32
	for i := range uint32(n) {
		attr[i] = attributedNone
		if s.isNativeContext(i) {
			attr[i] = int32(i)
			work = append(work, i)
		}
	}
	for len(work) > 0 {
		i := work[len(work)-1]
		work = work[:len(work)-1]
		a := attr[i]
		for e := s.firstEdge[i]; e < s.firstEdge[i+1]; e++ {
			to := s.edgeTo[e]
			if s.isEdge(e, s.et.weak) || s.isNativeContext(to) {
				continue
			}
			switch attr[to] {
			case a, attributedShared:
				continue
			case attributedNone:
				attr[to] = a
			default:
				attr[to] = attributedShared
			}
			work = append(work, to)
		}
	}
	return attr
}

// NativeContext is a JavaScript realm and the memory attributed to it.
type NativeContext struct {
	Node Node
	// AttributedSize is the self size of the objects only this native
	// context reaches.
	AttributedSize uint64
}

// NativeContextSizes splits the reachable memory between native contexts.
type NativeContextSizes struct {
	Contexts []NativeContext
	// SharedSize is the self size of objects several native contexts reach;
	// UnattributedSize of those none reaches.
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
		if !s.reachable(uint32(i)) {
			continue
		}
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
		if s.isContext(i) {
			sum.Contexts++
		}
		switch {
		case set.has(i):
			sum.RetainedCount++
			sum.RetainedSize += uint64(s.selfSize[i])
		case s.reachable(i):
			sum.NotRetainedCount++
			sum.NotRetainedSize += uint64(s.selfSize[i])
		}
	}
	return sum
}
