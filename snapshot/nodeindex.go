package snapshot

import "github.com/devtools-mcp/devtools-mcp/cdp"

// nodeIndex finds the AX nodes of one frame by id. Chromium's node ids are
// decimal numbers in two runs, positive ones from the DOM and negative ones
// (below -1,000,000,000) for the nodes it makes up, and pagewalk.js's are
// positive: a run is looked up in a slice, which on a big page is several
// times quicker than hashing every id into a map. Other ids, and numbers
// far from their run, go into a map.
type nodeIndex struct {
	pos, neg idRun            // ids >= 0, and the magnitude of ids < 0
	other    map[string]int32 // the rest, nil when there is none
}

// idRun indexes a run of numbers.
type idRun struct {
	lo  int     // the smallest number of the run
	idx []int32 // by number - lo: the node's index + 1, 0 for none
}

// newNodeIndex indexes nodes; the first of nodes with the same id wins.
func newNodeIndex(nodes []cdp.AXNode) nodeIndex {
	// Each run spans at most a few times the node count: trees are
	// numbered from an offset, with gaps where nodes were left out.
	span := 8*len(nodes) + 1024
	posLo, posHi, negLo, negHi := -1, -1, -1, -1
	for i := range nodes {
		n, neg, ok := decimalID(nodes[i].NodeID)
		switch {
		case !ok:
		case neg:
			negLo, negHi = lowHigh(negLo, negHi, n)
		default:
			posLo, posHi = lowHigh(posLo, posHi, n)
		}
	}
	x := nodeIndex{pos: newIDRun(posLo, posHi, span), neg: newIDRun(negLo, negHi, span)}
	for i := range nodes {
		id := nodes[i].NodeID
		if slot := x.slot(id); slot != nil {
			if *slot == 0 {
				*slot = int32(i) + 1
			}
			continue
		}
		if x.other == nil {
			x.other = map[string]int32{}
		}
		if _, dup := x.other[id]; !dup {
			x.other[id] = int32(i)
		}
	}
	return x
}

// lowHigh returns the smallest and largest of lo, hi and n; -1 is none.
func lowHigh(lo, hi, n int) (int, int) {
	if lo < 0 || n < lo {
		lo = n
	}
	return lo, max(hi, n)
}

// newIDRun returns a run for the numbers from lo to hi, at most span of
// them; -1 for lo is no number.
func newIDRun(lo, hi, span int) idRun {
	if lo < 0 {
		return idRun{}
	}
	return idRun{lo: lo, idx: make([]int32, min(hi-lo+1, span))}
}

// slot returns where id's entry is in a run, or nil when id goes to the
// map.
func (x *nodeIndex) slot(id string) *int32 {
	n, neg, ok := decimalID(id)
	if !ok {
		return nil
	}
	r := &x.pos
	if neg {
		r = &x.neg
	}
	if n < r.lo || n-r.lo >= len(r.idx) {
		return nil
	}
	return &r.idx[n-r.lo]
}

// find returns the index of the node with id.
func (x *nodeIndex) find(id string) (int32, bool) {
	if slot := x.slot(id); slot != nil {
		if *slot == 0 {
			return 0, false
		}
		return *slot - 1, true
	}
	i, ok := x.other[id]
	return i, ok
}

// decimalID returns the magnitude of the number id spells, and whether it
// is negative, when id is written as strconv.Itoa writes numbers (no plus
// sign, no leading zero, no "-0") with at most 18 digits. Other strings,
// such as "07", are not numbers here, so that ids equal as numbers are
// equal as strings.
func decimalID(id string) (n int, neg bool, ok bool) {
	digits := id
	if len(id) > 0 && id[0] == '-' {
		digits, neg = id[1:], true
	}
	if len(digits) == 0 || len(digits) > 18 || (digits[0] == '0' && (len(digits) > 1 || neg)) {
		return 0, false, false
	}
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		if c < '0' || c > '9' {
			return 0, false, false
		}
		n = n*10 + int(c-'0')
	}
	return n, neg, true
}
