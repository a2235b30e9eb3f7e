package heapsnapshot

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
)

// The snapshots recorded from Chromium by testdata/record.go, loaded once.
var recorded = sync.OnceValues(func() (map[string]*Snapshot, error) {
	out := map[string]*Snapshot{}
	for _, name := range corpusNames {
		s, err := Open(context.Background(), "testdata/"+name+".heapsnapshot.gz")
		if err != nil {
			return nil, err
		}
		out[name] = s
	}
	return out, nil
})

func load(t *testing.T, name string) *Snapshot {
	t.Helper()
	all, err := recorded()
	if err != nil {
		t.Fatal(err)
	}
	return all[name]
}

// cooperHarveyKennedy computes immediate dominators over the essential
// edges with the iterative algorithm of Cooper, Harvey and Kennedy, for the
// nodes the root reaches; the others are left at -1.
func cooperHarveyKennedy(s *Snapshot) []int {
	ess := s.essentialEdges()
	n := s.NodeCount()
	// Reverse postorder from the root.
	order := make([]int, n) // postorder number, -1 unvisited
	for i := range order {
		order[i] = -1
	}
	var post []uint32
	visited := newBitset(n)
	type frame struct{ node, next uint32 }
	stack := []frame{{s.root, s.firstEdge[s.root]}}
	visited.set(s.root)
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.next < s.firstEdge[f.node+1] {
			e := f.next
			f.next++
			if to := s.edgeTo[e]; ess.has(e) && !visited.has(to) {
				visited.set(to)
				stack = append(stack, frame{to, s.firstEdge[to]})
			}
			continue
		}
		order[f.node] = len(post)
		post = append(post, f.node)
		stack = stack[:len(stack)-1]
	}
	idom := make([]int, n)
	for i := range idom {
		idom[i] = -1
	}
	idom[s.root] = int(s.root)
	intersect := func(a, b int) int {
		for a != b {
			for order[a] < order[b] {
				a = idom[a]
			}
			for order[b] < order[a] {
				b = idom[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for k := len(post) - 1; k >= 0; k-- {
			b := post[k]
			if b == s.root {
				continue
			}
			d := -1
			for r := s.firstRetainer[b]; r < s.firstRetainer[b+1]; r++ {
				p := int(s.retainerNode[r])
				if !ess.has(s.retainerEdge[r]) || idom[p] < 0 {
					continue
				}
				if d < 0 {
					d = p
				} else {
					d = intersect(p, d)
				}
			}
			if d != idom[b] {
				idom[b] = d
				changed = true
			}
		}
	}
	return idom
}

// TestDominatorsMatchCooperHarveyKennedy checks Lengauer–Tarjan against the
// simple iterative algorithm on the recorded snapshots.
func TestDominatorsMatchCooperHarveyKennedy(t *testing.T) {
	for _, name := range []string{"detached", "array-1", "array-2"} {
		s := load(t, name)
		idom := cooperHarveyKennedy(s)
		checked := 0
		for i, d := range idom {
			if d < 0 {
				continue
			}
			checked++
			if got := s.dominator[i]; int(got) != d {
				t.Fatalf("%s: idom(@%d) = @%d, Cooper-Harvey-Kennedy says @%d", name, s.nodeID[i], s.nodeID[got], s.nodeID[d])
			}
		}
		if checked < s.NodeCount()*9/10 {
			t.Errorf("%s: only %d of %d nodes reachable from the root", name, checked, s.NodeCount())
		}
		// Retained sizes are what each node dominates.
		var total uint64
		for _, size := range s.selfSize {
			total += uint64(size)
		}
		if s.Statistics().Total != total {
			t.Errorf("%s: total %d, self sizes add up to %d", name, s.Statistics().Total, total)
		}
	}
}

// TestRecordedDetachedLeak checks the page that keeps 20 detached <li>
// through the closure variable leakedItems.
func TestRecordedDetachedLeak(t *testing.T) {
	s := load(t, "detached")
	classes, err := s.Classes(Filter{Name: FilterDetachedDOM})
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for _, c := range classes {
		counts[c.Name] = c.Count
	}
	if counts["Detached <li>"] != 20 || counts["Detached Text"] != 20 || len(counts) != 2 {
		t.Errorf("retained by detached DOM: %v, want 20 Detached <li> and 20 Detached Text", counts)
	}
	li := classes[slices.IndexFunc(classes, func(c Class) bool { return c.Name == "Detached <li>" })]
	nodes, err := s.ClassNodes(li, Filter{})
	if err != nil || len(nodes) != 20 {
		t.Fatalf("nodes of Detached <li>: %d, %v", len(nodes), err)
	}
	n := s.Node(nodes[0])
	if n.Detachedness != DOMDetached || n.Type != "native" || n.Distance == Unreachable {
		t.Errorf("a leaked row: %+v", n)
	}

	paths := s.RetainingPaths(nodes[0], PathLimits{})
	var edges []string
	for p := paths.Paths; len(p) > 0; p = p[0].Retainers {
		edges = append(edges, p[0].EdgeType+" "+p[0].EdgeName+" of "+p[0].Node.Name)
	}
	path := strings.Join(edges, " <- ")
	for _, want := range []string{"element", "context leakedItems of system / Context", "internal context of holder", "property keep of Window"} {
		if !strings.Contains(path, want) {
			t.Errorf("first retaining path %q lacks %q", path, want)
		}
	}
	if last := paths.Paths[0]; last.Node.Distance >= n.Distance {
		t.Errorf("the first retainer is at distance %d, not closer to the roots than the row at %d", last.Node.Distance, n.Distance)
	}

	// The closure and its context are what retains the rows: the filter of
	// objects retained by contexts holds them.
	contexts, _ := s.Classes(Filter{Name: FilterContexts})
	if !slices.ContainsFunc(contexts, func(c Class) bool { return c.Name == "Detached <li>" && c.Count == 20 }) {
		t.Errorf("objects retained by contexts lack the rows: %+v", contexts)
	}
	if sum := s.RetainedByContexts(); sum.Contexts == 0 || sum.RetainedCount < 40 {
		t.Errorf("context summary: %+v", sum)
	}

	analysis := s.AnalyzeContexts()
	if len(analysis.Scopes) != 1 {
		t.Fatalf("scopes with dead variables: %+v, want makeCounter's only", analysis.Scopes)
	}
	sc := analysis.Scopes[0]
	if sc.ScopeName != "makeCounter" || !strings.HasSuffix(sc.ScriptName, "/detached") || sc.Fields != 2 || len(sc.Contexts) != 1 {
		t.Errorf("scope: %+v", sc)
	}
	dead := sc.Contexts[0].DeadFields
	if len(dead) != 1 || dead[0].Name != "unusedBuffer" || dead[0].Value.Name != "Array" || dead[0].Value.RetainedSize < 20000 {
		t.Errorf("dead fields: %+v, want unusedBuffer, an array of 5000 elements", dead)
	}

	nc := s.NativeContexts()
	if len(nc.Contexts) == 0 || !strings.HasPrefix(nc.Contexts[0].Node.Name, "system / NativeContext / http://") || nc.Contexts[0].AttributedSize == 0 {
		t.Errorf("native contexts: %+v", nc)
	}
	page, err := s.Classes(Filter{Name: FilterNativeContext, NativeContext: nc.Contexts[0].Node.Index})
	if err != nil || !slices.ContainsFunc(page, func(c Class) bool { return c.Name == "Detached <li>" }) {
		t.Errorf("objects of the page's native context lack the rows: %v", err)
	}
	if _, err := s.Classes(Filter{Name: FilterNativeContext, NativeContext: nodes[0]}); err == nil {
		t.Error("a <li> accepted as a native context")
	}
}

// TestRecordedArrayGrowth compares the page before and after its array of
// Item objects grew from 100 to 300.
func TestRecordedArrayGrowth(t *testing.T) {
	before, after := load(t, "array-1"), load(t, "array-2")
	for _, c := range []struct {
		s    *Snapshot
		want int
	}{{before, 100}, {after, 300}} {
		items, err := c.s.Query(Query{ClassName: "^Item$", NodeType: "object"})
		if err != nil || len(items) != c.want {
			t.Errorf("Item objects: %d, %v; want %d", len(items), err, c.want)
		}
	}
	diffs := Compare(before, after)
	k := slices.IndexFunc(diffs, func(d ClassDiff) bool { return d.Name == "Item" })
	if k < 0 {
		t.Fatalf("no Item in the comparison: %+v", diffs)
	}
	d := diffs[k]
	if d.AddedCount != 200 || d.RemovedCount != 0 || d.CountDelta != 200 || d.SizeDelta <= 0 || len(d.Added) != 200 {
		t.Errorf("Item diff: %+v", d)
	}
	// The new objects are the last 200 pushed: their index property.
	for _, i := range d.Added {
		if after.Node(i).Name != "Item" || !after.hasNamedEdge(uint32(i), "payload") {
			t.Fatalf("an added object is not an Item: %+v", after.Node(i))
		}
	}
	if same := Compare(after, after); len(same) != 0 {
		t.Errorf("a snapshot compared with itself: %+v", same)
	}
	// The array grew its element store: it retains all 300 items.
	arr := after.RetainingPaths(d.Added[0], PathLimits{})
	if len(arr.Paths) == 0 || arr.Paths[0].Node.Name != "Array" || arr.Paths[0].EdgeType != "element" {
		t.Fatalf("retainer of a new Item: %+v", arr)
	}
	// Every branch ends where DevTools stops: at the GC roots' categories.
	for p := arr.Paths; len(p) > 0; p = p[0].Retainers {
		if len(p[0].Retainers) == 0 && p[0].Node.Distance != pathRootDistance {
			t.Errorf("a path ends at %s, distance %d", p[0].Node.Name, p[0].Node.Distance)
		}
	}
	holder := after.Node(arr.Paths[0].Node.Index)
	if holder.RetainedSize < 300*uint64(after.Node(d.Added[0]).SelfSize) {
		t.Errorf("the array retains %d bytes, less than its 300 items", holder.RetainedSize)
	}
}
