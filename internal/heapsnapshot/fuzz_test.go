package heapsnapshot

import (
	"bytes"
	"context"
	"testing"
)

// FuzzRead feeds the parser arbitrary input: it must refuse it with an
// error or load it, and then every query must run without panicking and
// the retained sizes must add up.
//
//	go test -fuzz FuzzRead -fuzztime 1m ./internal/heapsnapshot/
func FuzzRead(f *testing.F) {
	const pair = " / part of key (k @5) -> value (v @7) pair in WeakMap (table @3)"
	seeds := []tgraph{
		{{typ: "synthetic", name: "root", edges: strong(1)}, {typ: "object", name: "A", self: 3}},
		{
			{typ: "synthetic", name: "root", edges: []tedge{{"element", "1", 1}, {"shortcut", "s", 2}}},
			{typ: "object", name: "WeakMap", self: 8, edges: []tedge{{"internal", "1" + pair, 3}, {"weak", "w", 4}}},
			{typ: "native", name: "<div>", det: 2, self: 5, edges: []tedge{{"internal", "2" + pair, 3}, {"element", "0", 5}}},
			{typ: "concatenated string", name: "", self: 4, edges: []tedge{{"internal", "first", 6}, {"internal", "second", 6}}},
			{typ: "object", name: "Object", self: 2, edges: []tedge{{"property", "x", 5}, {"property", "__proto__", 0}}},
			{typ: "native", name: "system / NativeContext", self: 9, edges: []tedge{{"property", "g", 4}}},
			{typ: "string", name: "ab", self: 1},
		},
	}
	for _, g := range seeds {
		f.Add([]byte(g.json()))
	}
	f.Add([]byte(`{"snapshot":{"meta":{"node_fields":["type","name","id","self_size","edge_count"],"node_types":[["object"]],` +
		`"edge_fields":["type","name_or_index","to_node"],"edge_types":[["property"]],"scope_fields":["script_node_index","scope_id","depth","scope_context_vars_count","scope_uses_count"],` +
		`"scope_context_var_fields":["name"],"scope_use_fields":["declaring_scope_id","slot_index"],"location_fields":["object_index","script_id","line","column"]},"root_index":0},` +
		`"nodes":[0,0,1,10,1,0,1,3,5,0],"edges":[0,1,5],"scopes":[5,-2,0,1,1],"scope_context_vars":[0],"scope_uses":[-2,0],"locations":[5,1,2,3],"strings":["system / Context","x"]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Read(context.Background(), bytes.NewReader(data))
		if err != nil {
			return
		}
		var total uint64
		for _, size := range s.selfSize {
			total += uint64(size)
		}
		if s.Statistics().Total != total {
			t.Fatalf("total %d, self sizes add up to %d", s.Statistics().Total, total)
		}
		for _, name := range FilterNames {
			if _, err := s.Classes(Filter{Name: name}); err != nil && name != FilterNativeContext {
				t.Fatalf("filter %s: %v", name, err)
			}
		}
		all, _ := s.Classes(Filter{})
		for _, c := range all {
			if _, err := s.ClassNodes(c, Filter{Name: FilterDetachedDOM}); err != nil {
				t.Fatal(err)
			}
		}
		for i := range Index(min(s.NodeCount(), 20)) {
			s.RetainingPaths(i, PathLimits{MaxDepth: 5, MaxNodes: 20, MaxSiblings: 2})
			s.Dominators(i)
			s.Edges(i, EdgeOptions{SortBy: ByName, ExcludePrimitives: true})
			s.Retainers(i)
			if _, ok := s.NodeByID(s.Node(i).ID); !ok {
				t.Fatalf("node %d not found by its id", i)
			}
		}
		s.DuplicateStrings()
		s.NativeContexts()
		s.RetainedByContexts()
		s.AnalyzeContexts()
		if _, err := s.Query(Query{ClassName: "a", PropertyName: "x", Self: SizeRange{Min: 1}}); err != nil {
			t.Fatal(err)
		}
		if d := Compare(s, s); len(d) != 0 {
			t.Fatalf("a snapshot differs from itself: %+v", d)
		}
	})
}
