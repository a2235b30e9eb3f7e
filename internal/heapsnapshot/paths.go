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

// DefaultPathLimits are the limits used for those not set: DevTools'.
var DefaultPathLimits = PathLimits{MaxDepth: 30, MaxNodes: 5000, MaxSiblings: 100}

// pathRootDistance is where retaining paths stop: the distance of the
// objects the GC roots' categories hold ((Global handles), (Handle
// scope)...), which DevTools shows as the paths' ends.
const pathRootDistance = 2

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
	// Limits are the limits applied, defaults filled in.
	Limits PathLimits
}

// RetainingPaths returns every distinct chain of retainers from node i up
// to the GC roots' categories (distance 2), as a tree rooted at i's
// retainers, within limits, the way DevTools' retainers view explores
// them: each object's strong retainers nearest the roots first, skipping
// those too far to end within MaxDepth, cycles, and objects already
// explored at a smaller depth; a branch that does not reach the roots is
// dropped. MaxNodes counts the objects explored, not those listed.
func (s *Snapshot) RetainingPaths(i Index, limits PathLimits) RetainingPaths {
	limits.MaxDepth = cmp.Or(limits.MaxDepth, DefaultPathLimits.MaxDepth)
	limits.MaxNodes = cmp.Or(limits.MaxNodes, DefaultPathLimits.MaxNodes)
	limits.MaxSiblings = cmp.Or(limits.MaxSiblings, DefaultPathLimits.MaxSiblings)
	w := pathWalk{s: s, limits: limits, visiting: map[uint32]bool{}, visited: map[uint32]int{}}
	w.out.Paths = w.forest(uint32(i), 0)
	w.out.Limits = limits
	return w.out
}

type pathWalk struct {
	s        *Snapshot
	limits   PathLimits
	visiting map[uint32]bool // the objects between the target and the current one
	visited  map[uint32]int  // the smallest depth an object was explored at
	nodes    int             // objects explored
	out      RetainingPaths
}

// pathRetainer is a retainer considered for a path.
type pathRetainer struct {
	node, edge uint32
	dist       int32
}

// forest returns the paths from node i, at depth, to the roots.
func (w *pathWalk) forest(i uint32, depth int) []PathNode {
	s := w.s
	w.nodes++
	if w.nodes > w.limits.MaxNodes {
		w.out.NodesLimited = true
		return nil
	}
	if depth >= w.limits.MaxDepth {
		w.out.DepthLimited = true
		return nil
	}
	if s.distance[i] <= pathRootDistance || w.visiting[i] {
		return nil
	}
	if d, ok := w.visited[i]; ok && depth >= d {
		return nil
	}
	w.visiting[i] = true
	var list []pathRetainer
	for r := s.firstRetainer[i+1]; r > s.firstRetainer[i]; {
		r--
		from, e := s.retainerNode[r], s.retainerEdge[r]
		dist := s.distance[from]
		if s.isEdge(e, s.et.weak) || dist < 0 {
			continue
		}
		if int(dist)-pathRootDistance < w.limits.MaxDepth-depth {
			list = append(list, pathRetainer{from, e, dist})
		} else {
			w.out.DepthLimited = true
		}
	}
	slices.SortStableFunc(list, func(a, b pathRetainer) int { return cmp.Compare(a.dist, b.dist) })
	if len(list) > w.limits.MaxSiblings {
		list = list[:w.limits.MaxSiblings]
		w.out.SiblingsLimited = true
	}
	var out []PathNode
	for _, r := range list {
		var above []PathNode
		if r.dist == pathRootDistance {
			w.nodes++
			if w.nodes > w.limits.MaxNodes {
				w.out.NodesLimited = true
				break
			}
		} else if above = w.forest(r.node, depth+1); len(above) == 0 {
			continue
		}
		out = append(out, PathNode{Node: s.Node(Index(r.node)), EdgeType: s.edgeTypes[s.edgeType[r.edge]], EdgeName: s.edgeNameText(r.edge), Retainers: above})
	}
	delete(w.visiting, i)
	w.visited[i] = depth
	return out
}
