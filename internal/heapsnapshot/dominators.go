package heapsnapshot

// essentialEdges marks the edges that keep their target alive, the ones the
// dominator tree is built over: not weak edges, not self references, not
// shortcuts (except the root's), not a WeakMap table's edge to a value (the
// key's edge is kept), and, in snapshots with user roots, not an edge from
// an object outside the page to one inside it (the debugger's references).
func (s *Snapshot) essentialEdges() bitset {
	n := uint32(len(s.nodeType))
	var page bitset
	if s.userRoots {
		page = s.pageObjects()
	}
	ess := newBitset(len(s.edgeType))
	for i := range n {
		for e := s.firstEdge[i]; e < s.firstEdge[i+1]; e++ {
			to := s.edgeTo[e]
			switch {
			case s.isEdge(e, s.et.weak), to == i:
				continue
			case s.isEdge(e, s.et.internal):
				if eph, ok := s.ephemerons[s.edgeName[e]]; ok && eph.table == s.nodeID[i] {
					continue
				}
			}
			if i != s.root {
				if s.isEdge(e, s.et.shortcut) || page != nil && page.has(to) && !page.has(i) {
					continue
				}
			}
			ess.set(e)
		}
	}
	return ess
}

// pageObjects marks what the page owns: what its global objects and DOM
// trees reach without weak edges.
func (s *Snapshot) pageObjects() bitset {
	page := newBitset(len(s.nodeType))
	var stack []uint32
	for e := s.firstEdge[s.root]; e < s.firstEdge[s.root+1]; e++ {
		to := s.edgeTo[e]
		isDOMTrees := s.isEdge(e, s.et.element) && s.isType(to, s.nt.synthetic) && s.rawName(to) == "(Document DOM trees)"
		if (isDOMTrees || s.isEdge(e, s.et.shortcut)) && !page.has(to) {
			page.set(to)
			stack = append(stack, to)
		}
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for e := s.firstEdge[i]; e < s.firstEdge[i+1]; e++ {
			if to := s.edgeTo[e]; !s.isEdge(e, s.et.weak) && !page.has(to) {
				page.set(to)
				stack = append(stack, to)
			}
		}
	}
	return page
}

// buildDominatorTree computes each node's immediate dominator over the
// essential edges with the Lengauer–Tarjan algorithm (simple version, with
// path compression), then the retained sizes. Nodes the root does not reach
// are hung under the root: first those with only non-essential retainers,
// with what they reach, then the rest one by one. Unlike DevTools, such
// garbage does not count as a way to reach the live nodes it references,
// so it cannot move their dominators up to the root.
//
// Vertices are numbered from 1 (ordinal + 1) so that 0 means "none".
func (s *Snapshot) buildDominatorTree() {
	ess := s.essentialEdges()
	n := uint32(len(s.nodeType))
	size := n + 1
	parent := make([]uint32, size)
	ancestor := make([]uint32, size)
	vertex := make([]uint32, size)
	label := make([]uint32, size)
	semi := make([]uint32, size)
	dom := make([]uint32, size)
	nextEdge := make([]uint32, size)
	bucketHead := make([]uint32, size)
	bucketNext := make([]uint32, size)
	var count uint32

	number := func(v uint32) {
		count++
		semi[v] = count
		vertex[count] = v
		label[v] = v
	}
	// dfs numbers the vertices reachable from start, iteratively.
	dfs := func(start uint32) {
		nextEdge[start] = s.firstEdge[start-1]
		for v := start; v != 0; {
			if semi[v] == 0 {
				number(v)
			}
			next := parent[v]
			for end := s.firstEdge[v]; nextEdge[v] < end; nextEdge[v]++ {
				e := nextEdge[v]
				if !ess.has(e) {
					continue
				}
				if w := s.edgeTo[e] + 1; semi[w] == 0 {
					parent[w] = v
					nextEdge[w] = s.firstEdge[w-1]
					next = w
					break
				}
			}
			v = next
		}
	}
	onlyWeakRetainers := func(i uint32) bool {
		for r := s.firstRetainer[i]; r < s.firstRetainer[i+1]; r++ {
			if ess.has(s.retainerEdge[r]) {
				return false
			}
		}
		return true
	}

	r := s.root + 1
	dfs(r)
	live := newBitset(int(size)) // vertices the root reaches
	for i := uint32(1); i <= count; i++ {
		live.set(vertex[i])
	}
	if count < n {
		for v := uint32(1); v <= n; v++ {
			if semi[v] == 0 && onlyWeakRetainers(v-1) {
				parent[v] = r
				dfs(v)
			}
		}
	}
	hung := newBitset(int(size)) // numbered one by one, not by a DFS
	if count < n {
		for v := uint32(1); v <= n; v++ {
			if semi[v] == 0 {
				parent[v] = r
				number(v)
				hung.set(v)
			}
		}
	}

	var stack []uint32
	for i := count; i >= 2; i-- {
		w := vertex[i]
		orphan := true
		for k := s.firstRetainer[w-1]; k < s.firstRetainer[w] && !hung.has(w); k++ {
			if !ess.has(s.retainerEdge[k]) || live.has(w) && !live.has(s.retainerNode[k]+1) {
				continue
			}
			orphan = false
			if u := evalLT(s.retainerNode[k]+1, ancestor, label, semi, &stack); semi[u] < semi[w] {
				semi[w] = semi[u]
			}
		}
		if orphan {
			semi[w] = semi[r]
		}
		b := vertex[semi[w]]
		bucketNext[w] = bucketHead[b]
		bucketHead[b] = w
		p := parent[w]
		ancestor[w] = p
		for v := bucketHead[p]; v != 0; v = bucketNext[v] {
			if u := evalLT(v, ancestor, label, semi, &stack); semi[u] < semi[v] {
				dom[v] = u
			} else {
				dom[v] = p
			}
		}
		bucketHead[p] = 0
	}
	dom[r] = r
	for i := uint32(2); i <= count; i++ {
		if w := vertex[i]; dom[w] != vertex[semi[w]] {
			dom[w] = dom[dom[w]]
		}
	}

	s.dominator = make([]uint32, n)
	s.retained = make([]uint64, n)
	for i := range n {
		s.dominator[i] = dom[i+1] - 1
		s.retained[i] = uint64(s.selfSize[i])
	}
	// Children come after their dominator in DFS order.
	for i := count; i > 1; i-- {
		v := vertex[i] - 1
		s.retained[s.dominator[v]] += s.retained[v]
	}
}

// evalLT is EVAL of Lengauer–Tarjan: the vertex with the smallest semi on the
// forest path from v up to (not including) its tree's root, compressing
// that path. stack is scratch space.
func evalLT(v uint32, ancestor, label, semi []uint32, stack *[]uint32) uint32 {
	if ancestor[v] == 0 {
		return v
	}
	st := (*stack)[:0]
	w := v
	for ancestor[ancestor[w]] != 0 {
		st = append(st, w)
		w = ancestor[w]
	}
	for k := len(st) - 1; k >= 0; k-- {
		x := st[k]
		if semi[label[ancestor[x]]] < semi[label[x]] {
			label[x] = label[ancestor[x]]
		}
		ancestor[x] = ancestor[ancestor[x]]
	}
	*stack = st
	return label[v]
}
