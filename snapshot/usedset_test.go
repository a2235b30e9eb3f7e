package snapshot

import "testing"

// TestUsedSet checks the set against a map, for ids in and out of its
// slices.
func TestUsedSet(t *testing.T) {
	u, want := newUsedSet(1), map[usedKey]bool{}
	keys := []usedKey{{0, 1}, {0, 5000}, {2, 7}, {0, -3}, {1, 1 << 40}, {0, 0}, {2, 1031}, {2, 1032}}
	for i, k := range keys {
		if i%3 != 2 {
			u.add(k)
			want[k] = true
		}
	}
	u.remove(keys[0])
	delete(want, keys[0])
	u.remove(usedKey{5, 5})
	for _, k := range append(keys, usedKey{1, 7}, usedKey{9, 1}) {
		if u.has(k) != want[k] {
			t.Errorf("has(%v) = %v, want %v", k, u.has(k), want[k])
		}
	}
}
