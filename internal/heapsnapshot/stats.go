package heapsnapshot

import (
	"cmp"
	"slices"
)

// Statistics break the snapshot's memory down by kind, as the DevTools
// summary pie does. Sizes are in bytes.
type Statistics struct {
	NodeCount, EdgeCount int
	// Total is the self size of all objects.
	Total uint64
	// V8Heap is the JavaScript heap: Total minus Native.
	V8Heap uint64
	// Native is the self size of Blink's and other embedders' objects.
	Native uint64
	// TypedArrays is the part of Native that holds ArrayBuffer contents.
	TypedArrays uint64
	// Code, Strings and JSArrays (with their element stores) are parts of
	// V8Heap reachable from user roots; System is what only the GC roots
	// reach (in snapshots that tell them apart).
	Code, Strings, JSArrays, System uint64
	// ExtraNativeBytes is memory the embedder reported without objects.
	ExtraNativeBytes uint64
	// MaxJSObjectID is the highest id of a JavaScript object (they have
	// odd ids); objects of a later snapshot with a higher id are new.
	MaxJSObjectID uint32
}

func (s *Snapshot) calculateStatistics() {
	st := Statistics{NodeCount: len(s.nodeType), EdgeCount: len(s.edgeType), Total: s.retained[s.root], ExtraNativeBytes: s.extraNative}
	for i := range uint32(len(s.nodeType)) {
		if id := s.nodeID[i]; id%2 == 1 && id > st.MaxJSObjectID {
			st.MaxJSObjectID = id
		}
		size := uint64(s.selfSize[i])
		if s.distance[i] >= baseSystemDistance {
			st.System += size
			continue
		}
		switch int(s.nodeType[i]) {
		case s.nt.native:
			st.Native += size
			if s.rawName(i) == "system / JSArrayBufferData" {
				st.TypedArrays += size
			}
		case s.nt.code:
			st.Code += size
		case s.nt.str, s.nt.consString, s.nt.slicedString:
			st.Strings += size
		default:
			if s.rawName(i) == "Array" {
				st.JSArrays += s.arraySize(i)
			}
		}
	}
	st.V8Heap = st.Total - st.Native
	s.stats = st
}

// arraySize is an array's self size plus its element store's when the
// array is the store's only holder.
func (s *Snapshot) arraySize(i uint32) uint64 {
	size := uint64(s.selfSize[i])
	for e := s.firstEdge[i]; e < s.firstEdge[i+1]; e++ {
		if s.isEdge(e, s.et.internal) && s.strings.get(s.edgeName[e]) == "elements" {
			if to := s.edgeTo[e]; s.firstRetainer[to+1]-s.firstRetainer[to] == 1 {
				size += uint64(s.selfSize[to])
			}
			break
		}
	}
	return size
}

// Statistics returns the memory breakdown.
func (s *Snapshot) Statistics() Statistics { return s.stats }

// sortBy sorts xs by key, largest first, keeping the order of ties.
func sortBy[T any](xs []T, key func(T) uint64) {
	slices.SortStableFunc(xs, func(a, b T) int { return cmp.Compare(key(b), key(a)) })
}
