package tools

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/devtools-mcp/devtools-mcp/internal/english"
	"github.com/devtools-mcp/devtools-mcp/internal/heapsnapshot"
)

// getHeapsnapshotSummaryArgs are get_heapsnapshot_summary's arguments.
type getHeapsnapshotSummaryArgs struct {
	FilePath      string `json:"filePath" path:"" jsonschema:"Path of a .heapsnapshot file (see take_heapsnapshot)."`
	MaxNameLength int    `json:"maxNameLength,omitempty" bound:"count" jsonschema:"Cut names after this many characters (default 100)."`
}

// getHeapsnapshotSummary runs get_heapsnapshot_summary.
func getHeapsnapshotSummary(ctx context.Context, c *Call, args *getHeapsnapshotSummaryArgs) error {
	s, err := c.heapSnapshot(ctx, args.FilePath)
	if err != nil {
		return err
	}
	o := newHeapOutput(c, args.MaxNameLength)
	st := s.Statistics()
	c.Resp.Linef("## Heap Snapshot Data")
	stats := heapStats{Total: st.Total,
		Native: heapNativeStats{Total: st.Native, TypedArrays: st.TypedArrays},
		V8Heap: heapV8Stats{Total: st.V8Heap, Code: st.Code, JSArrays: st.JSArrays, Strings: st.Strings, System: st.System}}
	static := map[string]any{
		"nodeCount": st.NodeCount, "edgeCount": st.EdgeCount, "totalSize": st.Total, "maxJSObjectId": st.MaxJSObjectID,
	}
	c.Resp.Linef("Statistics: %s", indentJSON(stats))
	c.Resp.Linef("Static Data: %s", indentJSON(static))
	c.Resp.Set("heapSnapshot", map[string]any{"stats": stats, "staticData": static})
	nc := s.NativeContexts()
	c.Resp.Linef("### Native Contexts")
	rows := [][]string{{"nodeId", "nodeName", "selfSize", "retainedSize", "attributedSize"}}
	for _, nctx := range nc.Contexts {
		rows = append(rows, []string{uitoa(nctx.Node.ID), o.name(nctx.Node.Name), kb(nctx.Node.SelfSize), kb(nctx.Node.RetainedSize), kb(nctx.AttributedSize)})
	}
	o.csv(rows)
	c.Resp.Linef("Shared Size: %s", kb(nc.SharedSize))
	c.Resp.Linef("Unattributed Size: %s", kb(nc.UnattributedSize))
	cs := s.RetainedByContexts()
	c.Resp.Linef("### Retained by Context Summary")
	c.Resp.Linef("Context count: %d", cs.Contexts)
	c.Resp.Linef("Retained by context size: %s (%d objects)", kb(cs.RetainedSize), cs.RetainedCount)
	c.Resp.Linef("Not retained by context size: %s (%d objects)", kb(cs.NotRetainedSize), cs.NotRetainedCount)
	c.Resp.Linef("Total size: %s", kb(cs.RetainedSize+cs.NotRetainedSize))
	c.Resp.Linef("Next: get_heapsnapshot_details lists the classes holding the memory.")
	return nil
}

// getHeapsnapshotDetailsArgs are get_heapsnapshot_details's arguments.
type getHeapsnapshotDetailsArgs struct {
	FilePath string `json:"filePath" path:"" jsonschema:"Path of a .heapsnapshot file (see take_heapsnapshot)."`
	heapFilter
	MaxNameLength int `json:"maxNameLength,omitempty" bound:"count" jsonschema:"Cut class names after this many characters (default 100)."`
	heapList
}

// getHeapsnapshotDetails runs get_heapsnapshot_details.
func getHeapsnapshotDetails(ctx context.Context, c *Call, args *getHeapsnapshotDetailsArgs) error {
	s, err := c.heapSnapshot(ctx, args.FilePath)
	if err != nil {
		return err
	}
	filter, err := args.heapFilter.resolve(s)
	if err != nil {
		return err
	}
	classes, err := s.Classes(filter)
	if err != nil {
		return err
	}
	o := newHeapOutput(c, args.MaxNameLength)
	var objects int
	var self uint64
	for _, cl := range classes {
		objects += cl.Count
		self += cl.SelfSize
	}
	c.Resp.Linef("## Heap Snapshot Data")
	c.Resp.Linef("Objects: %d", objects)
	c.Resp.Linef("Total shallow size: %s", kb(self))
	shown, err := heapPage(c, classes, args.page())
	if err != nil {
		return err
	}
	rows := [][]string{{"id", "className", "count", "selfSize", "retainedSize"}}
	for _, cl := range shown {
		rows = append(rows, []string{strconv.Itoa(cl.ID), o.name(cl.Name), strconv.Itoa(cl.Count), kb(cl.SelfSize), kb(cl.RetainedSize)})
	}
	o.csv(rows)
	return nil
}

// getHeapsnapshotClassNodesArgs are get_heapsnapshot_class_nodes's arguments.
type getHeapsnapshotClassNodesArgs struct {
	FilePath string  `json:"filePath" path:"" jsonschema:"Path of a .heapsnapshot file (see take_heapsnapshot)."`
	ID       float64 `json:"id" bound:"id" jsonschema:"The class id, from get_heapsnapshot_details."`
	heapFilter
	MaxNameLength int `json:"maxNameLength,omitempty" bound:"count" jsonschema:"Cut object names (and string values) after this many characters (default 100)."`
	heapList
}

// getHeapsnapshotClassNodes runs get_heapsnapshot_class_nodes.
func getHeapsnapshotClassNodes(ctx context.Context, c *Call, args *getHeapsnapshotClassNodesArgs) error {
	s, err := c.heapSnapshot(ctx, args.FilePath)
	if err != nil {
		return err
	}
	if args.ID != math.Trunc(args.ID) {
		return fmt.Errorf("class id %v is not a whole number; ids come from get_heapsnapshot_details", args.ID)
	}
	class, err := s.ClassByID(int(args.ID))
	if err != nil {
		return err
	}
	filter, err := args.heapFilter.resolve(s)
	if err != nil {
		return err
	}
	nodes, err := s.ClassNodes(class, filter)
	if err != nil {
		return err
	}
	o := newHeapOutput(c, args.MaxNameLength)
	c.Resp.Linef("## Objects of class %s", o.name(class.Name))
	shown, err := heapPage(c, nodes, args.page())
	if err != nil {
		return err
	}
	o.nodes(s, shown)
	return nil
}

// getHeapsnapshotObjectDetailsArgs are get_heapsnapshot_object_details's arguments.
type getHeapsnapshotObjectDetailsArgs struct {
	heapObject
	MaxNameLength int `json:"maxNameLength,omitempty" bound:"count" jsonschema:"Cut the name after this many characters (default 100)."`
}

// getHeapsnapshotObjectDetails runs get_heapsnapshot_object_details.
func getHeapsnapshotObjectDetails(ctx context.Context, c *Call, args *getHeapsnapshotObjectDetailsArgs) error {
	s, i, err := args.load(ctx, c)
	if err != nil {
		return err
	}
	o := newHeapOutput(c, args.MaxNameLength)
	n := s.Node(i)
	c.Resp.Linef("### Object Details")
	c.Resp.Linef("id: @%d", n.ID)
	c.Resp.Linef("name: %s", o.label(n.Name))
	c.Resp.Linef("type: %s", n.Type)
	c.Resp.Linef("class: %s", o.name(s.ClassName(i)))
	c.Resp.Linef("detachedness: %s", n.Detachedness)
	c.Resp.Linef("selfSize: %s", kb(n.SelfSize))
	c.Resp.Linef("retainedSize: %s", kb(n.RetainedSize))
	c.Resp.Linef("distance: %s", distance(n.Distance))
	c.Resp.Linef("edgeCount: %d", n.EdgeCount)
	c.Resp.Linef("retainerCount: %d", n.RetainerCount)
	return nil
}

// getHeapsnapshotEdgesArgs are get_heapsnapshot_edges's arguments.
type getHeapsnapshotEdgesArgs struct {
	heapObject
	SortBy            string  `json:"sortBy,omitempty" enum:"retainedSize,selfSize,name" jsonschema:"Order of the edges (default retainedSize)."`
	RetainedSize      string  `json:"retainedSize,omitempty" jsonschema:"Keep targets retaining at least this much, e.g. 1MB or 10KB (a range like 1MB-2MB uses its lower bound)."`
	ExcludePrimitives optBool `json:"excludePrimitives,omitempty" jsonschema:"Leave out numbers and undefined, null, true and false (default true); strings stay."`
	MaxNameLength     int     `json:"maxNameLength,omitempty" bound:"count" jsonschema:"Cut names after this many characters (default 100)."`
	heapList
}

// getHeapsnapshotEdges runs get_heapsnapshot_edges.
func getHeapsnapshotEdges(ctx context.Context, c *Call, args *getHeapsnapshotEdgesArgs) error {
	size, err := parseSizeRange("retainedSize", args.RetainedSize)
	if err != nil {
		return err
	}
	s, i, err := args.load(ctx, c)
	if err != nil {
		return err
	}
	edges := s.Edges(i, heapsnapshot.EdgeOptions{SortBy: args.SortBy, MinRetainedSize: size.Min, ExcludePrimitives: args.ExcludePrimitives.or(true)})
	o := newHeapOutput(c, args.MaxNameLength)
	c.Resp.Linef("## References of @%d %s", s.Node(i).ID, o.label(s.Node(i).Name))
	shown, err := heapPage(c, edges, args.page())
	if err != nil {
		return err
	}
	o.edges(shown)
	return nil
}

// getHeapsnapshotRetainersArgs are get_heapsnapshot_retainers's arguments.
type getHeapsnapshotRetainersArgs struct {
	heapObject
	MaxNameLength int `json:"maxNameLength,omitempty" bound:"count" jsonschema:"Cut names after this many characters (default 100)."`
	heapList
}

// getHeapsnapshotRetainers runs get_heapsnapshot_retainers.
func getHeapsnapshotRetainers(ctx context.Context, c *Call, args *getHeapsnapshotRetainersArgs) error {
	s, i, err := args.load(ctx, c)
	if err != nil {
		return err
	}
	o := newHeapOutput(c, args.MaxNameLength)
	c.Resp.Linef("## Retainers of @%d %s", s.Node(i).ID, o.label(s.Node(i).Name))
	shown, err := heapPage(c, s.Retainers(i), args.page())
	if err != nil {
		return err
	}
	o.edges(shown)
	return nil
}

// getHeapsnapshotRetainingPathsArgs are get_heapsnapshot_retaining_paths's arguments.
type getHeapsnapshotRetainingPathsArgs struct {
	heapObject
	MaxDepth      float64 `json:"maxDepth,omitempty" bound:"count" jsonschema:"Longest retainer chain followed up from the object (default 30)."`
	MaxNodes      float64 `json:"maxNodes,omitempty" bound:"count" jsonschema:"Most objects explored in all (default 5000)."`
	MaxSiblings   float64 `json:"maxSiblings,omitempty" bound:"count" jsonschema:"Most retainers followed from one object, nearest the roots first (default 100)."`
	MaxNameLength int     `json:"maxNameLength,omitempty" bound:"count" jsonschema:"Cut names after this many characters (default 100)."`
}

// getHeapsnapshotRetainingPaths runs get_heapsnapshot_retaining_paths.
func getHeapsnapshotRetainingPaths(ctx context.Context, c *Call, args *getHeapsnapshotRetainingPathsArgs) error {
	s, i, err := args.load(ctx, c)
	if err != nil {
		return err
	}
	for _, v := range []float64{args.MaxDepth, args.MaxNodes, args.MaxSiblings} {
		if v < 0 || v != math.Trunc(v) {
			return fmt.Errorf("maxDepth, maxNodes and maxSiblings must be whole numbers above 0, got %v", v)
		}
	}
	paths := s.RetainingPaths(i, heapsnapshot.PathLimits{MaxDepth: int(args.MaxDepth), MaxNodes: int(args.MaxNodes), MaxSiblings: int(args.MaxSiblings)})
	o := newHeapOutput(c, args.MaxNameLength)
	n := s.Node(i)
	c.Resp.Linef("### Retaining Paths")
	c.Resp.Linef("@%d %s (distance: %s)", n.ID, o.label(n.Name), distance(n.Distance))
	if len(paths.Paths) == 0 {
		switch {
		case n.Distance == heapsnapshot.Unreachable:
			c.Resp.Linef("No retaining paths found: the GC roots do not reach this object (nothing, or only weak references, hold it).")
		case n.Distance <= 2:
			c.Resp.Linef("No retaining paths found: the object is at distance %d, held by the GC roots themselves.", n.Distance)
		default:
			c.Resp.Linef("No retaining paths found within the budget.")
		}
	}
	var write func(ps []heapsnapshot.PathNode, depth int)
	write = func(ps []heapsnapshot.PathNode, depth int) {
		for _, p := range ps {
			c.Resp.Linef("%s<- @%d %s via %s %s (distance: %s)", strings.Repeat("  ", depth), p.Node.ID, o.label(p.Node.Name), p.EdgeType, o.name(p.EdgeName), distance(p.Node.Distance))
			write(p.Retainers, depth+1)
		}
	}
	write(paths.Paths, 0)
	var limits []string
	for _, l := range []struct {
		hit  bool
		name string
	}{{paths.DepthLimited, "maxDepth"}, {paths.NodesLimited, "maxNodes"}, {paths.SiblingsLimited, "maxSiblings"}} {
		if l.hit {
			limits = append(limits, l.name)
		}
	}
	if len(limits) > 0 {
		c.Resp.Linef("Note: results are truncated, the following limits were reached: %s.", strings.Join(limits, ", "))
	}
	l := paths.Limits
	c.Resp.Linef("Budget: maxDepth=%d, maxNodes=%d, maxSiblings=%d: every distinct chain of strong retainers, nearest the roots first, up to the GC roots' categories (distance 2).", l.MaxDepth, l.MaxNodes, l.MaxSiblings)
	return nil
}

// getHeapsnapshotDominatorsArgs are get_heapsnapshot_dominators's arguments.
type getHeapsnapshotDominatorsArgs struct {
	heapObject
	MaxNameLength int `json:"maxNameLength,omitempty" bound:"count" jsonschema:"Cut names after this many characters (default 100)."`
}

// getHeapsnapshotDominators runs get_heapsnapshot_dominators.
func getHeapsnapshotDominators(ctx context.Context, c *Call, args *getHeapsnapshotDominatorsArgs) error {
	s, i, err := args.load(ctx, c)
	if err != nil {
		return err
	}
	o := newHeapOutput(c, args.MaxNameLength)
	c.Resp.Linef("### Dominator Chain")
	chain := s.Dominators(i)
	if len(chain) == 0 {
		c.Resp.Linef("No dominators: this is the root.")
		return nil
	}
	rows := [][]string{{"nodeId", "nodeName", "selfSize", "retainedSize"}}
	for _, n := range chain {
		rows = append(rows, []string{uitoa(n.ID), o.name(n.Name), kb(n.SelfSize), kb(n.RetainedSize)})
	}
	o.csv(rows)
	return nil
}

// getHeapsnapshotDuplicateStringsArgs are get_heapsnapshot_duplicate_strings's arguments.
type getHeapsnapshotDuplicateStringsArgs struct {
	FilePath string `json:"filePath" path:"" jsonschema:"Path of a .heapsnapshot file (see take_heapsnapshot)."`
	heapList
	MaxNameLength int `json:"maxNameLength,omitempty" bound:"count" jsonschema:"Cut string values after this many characters (default 100)."`
}

// getHeapsnapshotDuplicateStrings runs get_heapsnapshot_duplicate_strings.
func getHeapsnapshotDuplicateStrings(ctx context.Context, c *Call, args *getHeapsnapshotDuplicateStringsArgs) error {
	s, err := c.heapSnapshot(ctx, args.FilePath)
	if err != nil {
		return err
	}
	o := newHeapOutput(c, args.MaxNameLength)
	c.Resp.Linef("### Duplicate Strings")
	shown, err := heapPage(c, s.DuplicateStrings(), args.page())
	if err != nil {
		return err
	}
	rows := [][]string{{"value", "count", "totalSelfSize", "totalRetainedSize", "truncated", "nodeIds"}}
	for _, g := range shown {
		ids := make([]string, len(g.Nodes))
		for k, i := range g.Nodes {
			ids[k] = "@" + uitoa(s.Node(i).ID)
		}
		value, _ := json.Marshal(o.name(g.Value))
		rows = append(rows, []string{string(value), strconv.Itoa(g.Count), kb(g.SelfSize), kb(g.RetainedSize), strconv.FormatBool(g.Truncated), strings.Join(ids, " ")})
	}
	o.csv(rows)
	return nil
}

// queryHeapsnapshotObjectsArgs are query_heapsnapshot_objects's arguments.
type queryHeapsnapshotObjectsArgs struct {
	FilePath     string  `json:"filePath" path:"" jsonschema:"Path of a .heapsnapshot file (see take_heapsnapshot)."`
	ClassName    string  `json:"className,omitempty" jsonschema:"Regular expression or text matched against object names (a constructor, {a, b}, a string's text, <div>), case-insensitive."`
	PropertyName string  `json:"propertyName,omitempty" jsonschema:"Keep objects with an outgoing reference (property, closure variable, internal field, element index) whose name matches this regular expression or text, case-insensitive."`
	NodeType     string  `json:"nodeType,omitempty" jsonschema:"Keep objects of this V8 type: object, closure, string, array, native, code, ..."`
	RetainedSize string  `json:"retainedSize,omitempty" jsonschema:"Retained size range, inclusive: 1MB-2MB, -1MB (at most), 1MB- or 1MB (at least)."`
	SelfSize     string  `json:"selfSize,omitempty" jsonschema:"Self size range, inclusive: 1KB-2KB, -1KB, 1KB- or 1KB."`
	IsDetached   optBool `json:"isDetached,omitempty" jsonschema:"Keep only detached DOM nodes (true) or only objects that are not (false)."`
	SortBy       string  `json:"sortBy,omitempty" enum:"retainedSize,selfSize,id" jsonschema:"Order of the results (default retainedSize)."`
	heapList
	MaxNameLength int `json:"maxNameLength,omitempty" bound:"count" jsonschema:"Cut names after this many characters (default 100)."`
}

// queryHeapsnapshotObjects runs query_heapsnapshot_objects.
func queryHeapsnapshotObjects(ctx context.Context, c *Call, args *queryHeapsnapshotObjectsArgs) error {
	q := heapsnapshot.Query{ClassName: args.ClassName, PropertyName: args.PropertyName, NodeType: args.NodeType, SortBy: args.SortBy}
	var err error
	if q.Retained, err = parseSizeRange("retainedSize", args.RetainedSize); err != nil {
		return err
	}
	if q.Self, err = parseSizeRange("selfSize", args.SelfSize); err != nil {
		return err
	}
	if args.IsDetached.set {
		q.Detached = &args.IsDetached.value
	}
	s, err := c.heapSnapshot(ctx, args.FilePath)
	if err != nil {
		return err
	}
	found, err := s.Query(q)
	if err != nil {
		return err
	}
	o := newHeapOutput(c, args.MaxNameLength)
	if len(found) == 0 {
		c.Resp.Linef("No objects match.")
		return nil
	}
	shown, err := heapPage(c, found, args.page())
	if err != nil {
		return err
	}
	o.nodes(s, shown)
	return nil
}

// compareHeapsnapshotsArgs are compare_heapsnapshots's arguments.
type compareHeapsnapshotsArgs struct {
	BaseFilePath    string   `json:"baseFilePath" path:"" jsonschema:"The earlier .heapsnapshot file."`
	CurrentFilePath string   `json:"currentFilePath" path:"" jsonschema:"The later .heapsnapshot file."`
	ClassIndex      optIndex `json:"classIndex,omitempty" jsonschema:"0-based index of a class in the comparison (the index column): list its new and deleted objects."`
	MaxNameLength   int      `json:"maxNameLength,omitempty" bound:"count" jsonschema:"Cut class names after this many characters (default 100)."`
	heapList
}

// compareHeapsnapshots runs compare_heapsnapshots.
func compareHeapsnapshots(ctx context.Context, c *Call, args *compareHeapsnapshotsArgs) error {
	base, err := c.heapSnapshot(ctx, args.BaseFilePath)
	if err != nil {
		return err
	}
	current, err := c.heapSnapshot(ctx, args.CurrentFilePath)
	if err != nil {
		return err
	}
	o := newHeapOutput(c, args.MaxNameLength)
	diffs := heapsnapshot.Compare(base, current)
	k, ok := args.ClassIndex.get()
	if !ok {
		c.Resp.Linef("### Heap Snapshot Diff")
		var total heapsnapshot.ClassDiff
		for _, d := range diffs {
			total.AddedCount += d.AddedCount
			total.RemovedCount += d.RemovedCount
			total.CountDelta += d.CountDelta
			total.AddedSize += d.AddedSize
			total.RemovedSize += d.RemovedSize
			total.SizeDelta += d.SizeDelta
		}
		c.Resp.Linef("Total: # new: %d, # deleted: %d, # delta: %s, alloc size: %s, freed size: %s, size delta: %s",
			total.AddedCount, total.RemovedCount, signed(strconv.Itoa(total.CountDelta), total.CountDelta > 0),
			signed(kb(total.AddedSize), total.AddedSize > 0), signed(kb(total.RemovedSize), total.RemovedSize > 0), signed(skb(total.SizeDelta), total.SizeDelta > 0))
		type row struct {
			index int
			d     heapsnapshot.ClassDiff
		}
		all := make([]row, len(diffs))
		for k, d := range diffs {
			all[k] = row{k, d}
		}
		shown, err := heapPage(c, all, args.page())
		if err != nil {
			return err
		}
		rows := [][]string{{"index", "className", "addedCount", "removedCount", "countDelta", "addedSize", "removedSize", "sizeDelta"}}
		for _, r := range shown {
			d := r.d
			rows = append(rows, []string{strconv.Itoa(r.index), o.name(d.Name), strconv.Itoa(d.AddedCount), strconv.Itoa(d.RemovedCount),
				strconv.Itoa(d.CountDelta), kb(d.AddedSize), kb(d.RemovedSize), skb(d.SizeDelta)})
		}
		o.csv(rows)
		return nil
	}
	if k >= len(diffs) {
		return fmt.Errorf("invalid classIndex %d: the comparison has %d classes with changes (index 0 to %d)", k, len(diffs), len(diffs)-1)
	}
	d := diffs[k]
	c.Resp.Linef("### Heap Snapshot Detailed Diff")
	c.Resp.Linef("%s: # new: %d, # deleted: %d, # delta: %s, alloc size: %s, freed size: %s, size delta: %s",
		o.name(d.Name), d.AddedCount, d.RemovedCount, signed(strconv.Itoa(d.CountDelta), d.CountDelta > 0),
		signed(kb(d.AddedSize), d.AddedSize > 0), kb(d.RemovedSize), signed(skb(d.SizeDelta), d.SizeDelta > 0))
	type object struct {
		added bool
		id    uint32
		size  uint64
	}
	objects := make([]object, 0, len(d.Added)+len(d.Removed))
	for _, i := range d.Added {
		n := current.Node(i)
		objects = append(objects, object{true, n.ID, n.SelfSize})
	}
	for _, r := range d.Removed {
		objects = append(objects, object{false, r.ID, r.SelfSize})
	}
	shown, err := heapPage(c, objects, args.page())
	if err != nil {
		return err
	}
	c.Resp.Linef("Objects (+ new, in the current snapshot; - deleted, from the base):")
	for _, obj := range shown {
		sign := "-"
		if obj.added {
			sign = "+"
		}
		c.Resp.Linef("  %s @%d (self_size: %s)", sign, obj.id, kb(obj.size))
	}
	return nil
}

// analyzeHeapsnapshotContextsArgs are analyze_heapsnapshot_contexts's arguments.
type analyzeHeapsnapshotContextsArgs struct {
	FilePath        string `json:"filePath" path:"" jsonschema:"Path of a .heapsnapshot file (see take_heapsnapshot)."`
	RetainedSize    string `json:"retainedSize,omitempty" jsonschema:"Keep contexts whose dead variables retain this much: 1MB-2MB, -1MB (at most), 1MB- or 1MB (at least)."`
	ScopeInfoNodeID int    `json:"scopeInfoNodeId,omitempty" bound:"id" jsonschema:"List all contexts of one scope (its scopeInfoNodeId from a previous answer)."`
	MaxNameLength   int    `json:"maxNameLength,omitempty" bound:"count" jsonschema:"Cut names after this many characters (default 100)."`
	heapList
}

// analyzeHeapsnapshotContexts runs analyze_heapsnapshot_contexts.
func analyzeHeapsnapshotContexts(ctx context.Context, c *Call, args *analyzeHeapsnapshotContextsArgs) error {
	size, err := parseSizeRange("retainedSize", args.RetainedSize)
	if err != nil {
		return err
	}
	s, err := c.heapSnapshot(ctx, args.FilePath)
	if err != nil {
		return err
	}
	o := newHeapOutput(c, args.MaxNameLength)
	if !s.HasScopeData() {
		c.Resp.Linef("### Context Analysis")
		c.Resp.Linef("No live contexts with dead fields were found: this snapshot has no scope data (take it with take_heapsnapshot from a recent Chrome, which records scopes and numeric values; Chrome 156 does, Chrome 150 and older do not).")
		return nil
	}
	analysis := s.AnalyzeContexts()
	// One ranked list of contexts, as the reference has it: the most
	// memory held by dead variables first, whatever their scope.
	type ranked struct {
		scope   *heapsnapshot.ScopeContexts
		context heapsnapshot.ContextFields
	}
	var contexts []ranked
	for k := range analysis.Scopes {
		sc := &analysis.Scopes[k]
		if args.ScopeInfoNodeID != 0 && sc.ScopeInfo.ID != uint32(args.ScopeInfoNodeID) {
			continue
		}
		for _, cf := range sc.Contexts {
			if size.Contains(cf.DeadRetainedSize) {
				contexts = append(contexts, ranked{sc, cf})
			}
		}
	}
	slices.SortStableFunc(contexts, func(a, b ranked) int { return cmp.Compare(b.context.DeadRetainedSize, a.context.DeadRetainedSize) })
	c.Resp.Linef("### Context Analysis")
	shown, err := heapPage(c, contexts, args.page())
	if err != nil {
		return err
	}
	if len(contexts) == 0 {
		c.Resp.Linef("No live contexts with dead fields were found: every variable kept in a closure context can still be read by a live function.")
	}
	for k, r := range shown {
		if k > 0 {
			c.Resp.Linef("")
		}
		sc := r.scope
		where := o.name(cmp.Or(sc.ScriptName, "script @"+uitoa(sc.Script.ID)))
		if sc.ScopeName != "" {
			where = o.name(sc.ScopeName) + " (" + where + ")"
		}
		c.Resp.Linef("#### Context @%d in `%s` — %s", r.context.Context.ID, where, kb(r.context.DeadRetainedSize))
		c.Resp.Linef("Script @%d, ScopeInfo @%d, offsets %d-%d, %s", sc.Script.ID, sc.ScopeInfo.ID, sc.Start, sc.End, english.Count(sc.Fields, "context field", "context fields"))
		for _, f := range r.context.DeadFields {
			c.Resp.Linef("- `%s` (%s @%d) — %s", o.name(f.Name), o.name(f.Value.Name), f.Value.ID, kb(f.Value.RetainedSize))
		}
	}
	if len(analysis.WithoutData) > 0 {
		c.Resp.Linef("")
		c.Resp.Linef("Scripts without scope metadata could not be analyzed:")
		for _, w := range analysis.WithoutData {
			c.Resp.Linef("- `%s` (@%d) — %s", o.name(cmp.Or(w.Name, "script @"+uitoa(w.Script.ID))), w.Script.ID, english.Count(w.Contexts, "context", "contexts"))
		}
	}
	return nil
}

// optIndex is a 0-based index argument, where 0 must be told apart from
// "not given": it holds the index plus one, 0 when not given. Its schema
// is a plain number.
type optIndex float64

// UnmarshalJSON accepts whole numbers from 0.
func (x *optIndex) UnmarshalJSON(data []byte) error {
	var v float64
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	if v < 0 || v != math.Trunc(v) || v > math.MaxInt32 {
		return fmt.Errorf("%v is not an index: use a whole number from 0", v)
	}
	*x = optIndex(v + 1)
	return nil
}

// get returns the index and whether it was given.
func (x optIndex) get() (int, bool) { return int(x) - 1, x != 0 }
