package heapsnapshot

import (
	"math"
	"strings"
)

// stringTable holds the snapshot's strings in one arena, so that a hundred
// thousand strings cost two allocations instead of one each, plus the few
// strings the analysis adds (class names such as "Detached <div>").
type stringTable struct {
	arena   strings.Builder // while parsing
	text    string          // the arena once parsed
	offsets []uint32        // string i is text[offsets[i]:offsets[i+1]]
	added   []string        // indexes continue after the parsed strings
	index   map[string]uint32
}

// seal ends parsing.
func (t *stringTable) seal() {
	t.text = t.arena.String()
	t.arena = strings.Builder{}
}

// len is the number of parsed strings.
func (t *stringTable) len() int { return max(0, len(t.offsets)-1) }

// get returns string i.
func (t *stringTable) get(i uint32) string {
	if n := uint32(t.len()); i >= n {
		return t.added[i-n]
	}
	return t.text[t.offsets[i]:t.offsets[i+1]]
}

// find returns the index of the first parsed string equal to s, or
// math.MaxUint32 when there is none.
func (t *stringTable) find(s string) uint32 {
	for i := range uint32(t.len()) {
		if t.get(i) == s {
			return i
		}
	}
	return math.MaxUint32
}

// intern returns the index of an added string equal to s, adding it when
// new. Parsed strings are not searched: callers compare indexes only among
// strings they interned.
func (t *stringTable) intern(s string) uint32 {
	if i, ok := t.index[s]; ok {
		return i
	}
	if t.index == nil {
		t.index = map[string]uint32{}
	}
	i := uint32(t.len() + len(t.added))
	t.added = append(t.added, s)
	t.index[s] = i
	return i
}

// bitset is a set of small integers (node ordinals, edge indexes).
type bitset []uint64

func newBitset(n int) bitset       { return make(bitset, (n+63)/64) }
func (b bitset) has(i uint32) bool { return b[i/64]&(1<<(i%64)) != 0 }
func (b bitset) set(i uint32)      { b[i/64] |= 1 << (i % 64) }
