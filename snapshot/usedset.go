package snapshot

// usedSet is the identities handed out in one snapshot. The ids of DOM
// nodes, and pagewalk.js's numbers, are small positive numbers: those are
// marked in a slice per context, which is quicker than a map on a page of
// thousands of nodes; the others (synthetic negative ids, numbers past a
// few times the node count) go into a map.
type usedSet struct {
	limit int      // ids from limit on go into other
	dense [][]bool // by context, then id
	other map[usedKey]bool
}

// newUsedSet returns an empty set for a snapshot of about n nodes.
func newUsedSet(n int) usedSet {
	return usedSet{limit: 8*n + 1024}
}

// has tells whether k is in the set.
func (u *usedSet) has(k usedKey) bool {
	if k.id < 0 || k.id >= u.limit {
		return u.other[k]
	}
	return int(k.ctx) < len(u.dense) && k.id < len(u.dense[k.ctx]) && u.dense[k.ctx][k.id]
}

// add puts k in the set.
func (u *usedSet) add(k usedKey) {
	if k.id < 0 || k.id >= u.limit {
		if u.other == nil {
			u.other = map[usedKey]bool{}
		}
		u.other[k] = true
		return
	}
	for int(k.ctx) >= len(u.dense) {
		u.dense = append(u.dense, nil)
	}
	if d := u.dense[k.ctx]; k.id >= len(d) {
		grown := make([]bool, min(max(k.id+1, 2*len(d), 1024), u.limit))
		copy(grown, d)
		u.dense[k.ctx] = grown
	}
	u.dense[k.ctx][k.id] = true
}

// remove takes k out of the set.
func (u *usedSet) remove(k usedKey) {
	if k.id < 0 || k.id >= u.limit {
		delete(u.other, k)
		return
	}
	if int(k.ctx) < len(u.dense) && k.id < len(u.dense[k.ctx]) {
		u.dense[k.ctx][k.id] = false
	}
}
