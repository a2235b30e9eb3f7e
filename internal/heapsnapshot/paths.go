package heapsnapshot

import (
	"cmp"
	"slices"
)

// PathLimits bound RetainingPaths.
type PathLimits struct {
	// MaxDepth is the most retainers followed up from the object.
	MaxDepth int
	// MaxNodes is the most retainers listed in all.
	MaxNodes int
	// MaxSiblings is the most retainers listed for one object.
	MaxSiblings int
}

// DefaultPathLimits are the limits used for those not set.
var DefaultPathLimits = PathLimits{MaxDepth: 30, MaxNodes: 60, MaxSiblings: 3}

// PathNode is one retainer in a tree of retaining paths: Node holds the
// object below it in the tree through an edge of EdgeType named EdgeName,
// and is itself held by Retainers.
type PathNode struct {
	Node      Node
	EdgeType  string
	EdgeName  string
	Retainers []PathNode
}

// RetainingPaths is a tree of the paths by which the GC roots reach an
// object, and which limits cut it short.
type RetainingPaths struct {
	Paths                                       []PathNode
	DepthLimited, NodesLimited, SiblingsLimited bool
}

// RetainingPaths returns the paths from the GC roots to node i, as a tree
// rooted at i's retainers. Each level follows the retainers closer to the
// roots than the object they hold, nearest first, so every branch is a
// shortest way from a root; an object no root reaches shows all its
// retainers instead. Weak edges are not followed.
func (s *Snapshot) RetainingPaths(i Index, limits PathLimits) RetainingPaths {
	limits.MaxDepth = cmp.Or(limits.MaxDepth, DefaultPathLimits.MaxDepth)
	limits.MaxNodes = cmp.Or(limits.MaxNodes, DefaultPathLimits.MaxNodes)
	limits.MaxSiblings = cmp.Or(limits.MaxSiblings, DefaultPathLimits.MaxSiblings)
	w := pathWalk{s: s, limits: limits, onPath: map[uint32]bool{uint32(i): true}}
	w.out.Paths = w.retainers(uint32(i), 1)
	return w.out
}

type pathWalk struct {
	s      *Snapshot
	limits PathLimits
	onPath map[uint32]bool // the nodes between the target and the current one
	nodes  int
	out    RetainingPaths
}

// retainers lists the retainers of node i at the given depth, and theirs.
func (w *pathWalk) retainers(i uint32, depth int) []PathNode {
	s := w.s
	type retainer struct{ node, edge uint32 }
	var closer, other []retainer
	seen := map[uint32]bool{} // one edge per retainer is enough
	for r := s.firstRetainer[i]; r < s.firstRetainer[i+1]; r++ {
		from, e := s.retainerNode[r], s.retainerEdge[r]
		switch {
		case !s.retains(e, from) || w.onPath[from] || seen[from]:
		case s.reachable(from) && (!s.reachable(i) || s.distance[from] < s.distance[i]):
			closer = append(closer, retainer{from, e})
			seen[from] = true
		case !s.reachable(i):
			other = append(other, retainer{from, e})
			seen[from] = true
		}
	}
	list := append(closer, other...)
	if len(list) > 0 && depth > w.limits.MaxDepth {
		w.out.DepthLimited = true
		return nil
	}
	slices.SortStableFunc(list, func(a, b retainer) int {
		return compareDistance(s.dist(a.node), s.dist(b.node))
	})
	if len(list) > w.limits.MaxSiblings {
		list = list[:w.limits.MaxSiblings]
		w.out.SiblingsLimited = true
	}
	var out []PathNode
	for _, r := range list {
		if w.nodes >= w.limits.MaxNodes {
			w.out.NodesLimited = true
			break
		}
		w.nodes++
		p := PathNode{Node: s.Node(Index(r.node)), EdgeType: s.edgeTypes[s.edgeType[r.edge]], EdgeName: s.edgeNameText(r.edge)}
		w.onPath[r.node] = true
		p.Retainers = w.retainers(r.node, depth+1)
		delete(w.onPath, r.node)
		out = append(out, p)
	}
	return out
}
