package heapsnapshot

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// tnode is a node of a hand-built snapshot.
type tnode struct {
	typ, name string
	self      uint32
	det       int // 0 unknown, 1 attached, 2 detached
	edges     []tedge
}

// tedge is an edge of a hand-built snapshot; element and hidden edges are
// named by a number.
type tedge struct {
	typ, name string
	to        int
}

// tgraph is a hand-built snapshot: node i has id 2i+1; node 0 is the root.
type tgraph []tnode

var (
	testNodeTypes = []string{"hidden", "array", "string", "object", "code", "closure", "regexp", "number", "native", "synthetic", "concatenated string", "sliced string", "symbol", "bigint", "object shape"}
	testEdgeTypes = []string{"context", "element", "property", "internal", "hidden", "shortcut", "weak"}
)

// json renders g in the V8 format.
func (g tgraph) json() string {
	var strs []string
	index := map[string]int{}
	str := func(s string) int {
		if i, ok := index[s]; ok {
			return i
		}
		index[s] = len(strs)
		strs = append(strs, s)
		return len(strs) - 1
	}
	var nodes, edges []int
	for i, n := range g {
		nodes = append(nodes, slices.Index(testNodeTypes, n.typ), str(n.name), 2*i+1, int(n.self), len(n.edges), n.det)
		for _, e := range n.edges {
			name := 0
			if e.typ == "element" || e.typ == "hidden" {
				name, _ = strconv.Atoi(e.name)
			} else {
				name = str(e.name)
			}
			edges = append(edges, slices.Index(testEdgeTypes, e.typ), name, e.to*6)
		}
	}
	meta := map[string]any{
		"node_fields": []string{"type", "name", "id", "self_size", "edge_count", "detachedness"},
		"node_types":  []any{testNodeTypes, "string", "number", "number", "number", "number"},
		"edge_fields": []string{"type", "name_or_index", "to_node"},
		"edge_types":  []any{testEdgeTypes, "string_or_number", "node"},
	}
	enc := func(v any) string {
		b, _ := json.Marshal(v)
		return string(b)
	}
	snap := enc(map[string]any{"meta": meta, "node_count": len(g), "edge_count": len(edges) / 3})
	// V8 writes the meta data first, which the parser relies on.
	return fmt.Sprintf(`{"snapshot":%s,"nodes":%s,"edges":%s,"strings":%s}`, snap, enc(append([]int{}, nodes...)), enc(append([]int{}, edges...)), enc(append([]string{}, strs...)))
}

func (g tgraph) load(t testing.TB) *Snapshot {
	t.Helper()
	s, err := Read(context.Background(), strings.NewReader(g.json()))
	if err != nil {
		t.Fatalf("load %s: %v", g.json(), err)
	}
	return s
}

// node returns the index of the node named name.
func node(t testing.TB, s *Snapshot, name string) Index {
	t.Helper()
	for i := range uint32(s.NodeCount()) {
		if s.rawName(i) == name {
			return Index(i)
		}
	}
	t.Fatalf("no node %q", name)
	return 0
}

func strong(to ...int) []tedge {
	var es []tedge
	for k, t := range to {
		es = append(es, tedge{"property", fmt.Sprint("p", k), t})
	}
	return es
}

// TestDominatorsOfPaperGraph checks the immediate dominators of the example
// graph of Lengauer and Tarjan's paper, with R the root.
func TestDominatorsOfPaperGraph(t *testing.T) {
	names := strings.Split("R A B C D E F G H I J K L", " ")
	at := func(n string) int { return slices.Index(names, n) }
	succ := map[string]string{
		"R": "A B C", "A": "D", "B": "A D E", "C": "F G", "D": "L", "E": "H", "F": "I",
		"G": "I J", "H": "E K", "I": "K", "J": "I", "K": "I R", "L": "H",
	}
	g := make(tgraph, len(names))
	for i, n := range names {
		g[i] = tnode{typ: "object", name: n, self: uint32(1 << i)}
		var to []int
		for _, m := range strings.Fields(succ[n]) {
			to = append(to, at(m))
		}
		g[i].edges = strong(to...)
	}
	g[0].typ = "synthetic"
	s := g.load(t)
	want := map[string]string{
		"A": "R", "B": "R", "C": "R", "D": "R", "E": "R", "F": "C", "G": "C",
		"H": "R", "I": "R", "J": "G", "K": "R", "L": "D",
	}
	for n, d := range want {
		if got := s.rawName(s.dominator[at(n)]); got != d {
			t.Errorf("idom(%s) = %s, want %s", n, got, d)
		}
	}
	// Retained sizes: a node's own bit plus those of what it dominates.
	retained := map[string]uint64{"C": 1<<at("C") | 1<<at("F") | 1<<at("G") | 1<<at("J"), "D": 1<<at("D") | 1<<at("L"), "K": 1 << at("K")}
	for n, r := range retained {
		if got := s.retained[at(n)]; got != r {
			t.Errorf("retained(%s) = %b, want %b", n, got, r)
		}
	}
	if got, want := s.Statistics().Total, uint64(1<<len(names)-1); got != want {
		t.Errorf("total = %d, want %d", got, want)
	}
	chain := s.Dominators(Index(at("J")))
	var got []string
	for _, n := range chain {
		got = append(got, n.Name)
	}
	if !slices.Equal(got, []string{"J", "G", "C", "R"}) {
		t.Errorf("dominator chain of J = %v, want J G C R (from the object itself, as DevTools)", got)
	}
}

// TestWeakAndShortcutEdges checks that weak edges, shortcuts and a WeakMap
// table's edge do not retain.
func TestWeakAndShortcutEdges(t *testing.T) {
	const pair = " / part of key (Key @9) -> value (Value @11) pair in WeakMap (table @7)"
	g := tgraph{
		0: {typ: "synthetic", name: "root", edges: []tedge{{"element", "1", 1}}},
		1: {typ: "synthetic", name: "(GC roots)", edges: []tedge{{"element", "1", 2}, {"element", "2", 3}}},
		2: {typ: "object", name: "Holder", self: 10, edges: []tedge{{"property", "strong", 6}, {"weak", "w", 7}, {"shortcut", "s", 8}, {"property", "key", 4}}},
		3: {typ: "object", name: "WeakMap", self: 10, edges: []tedge{{"internal", "1" + pair, 5}}},
		4: {typ: "object", name: "Key", self: 10, edges: []tedge{{"internal", "2" + pair, 5}}},
		5: {typ: "object", name: "Value", self: 100},
		6: {typ: "object", name: "Strong", self: 1, edges: []tedge{{"weak", "back", 7}}},
		7: {typ: "object", name: "OnlyWeak", self: 1000},
		8: {typ: "object", name: "Shortcut", self: 5},
	}
	// Node 3 has id 7: the WeakMap is the table of the pair.
	s := g.load(t)
	for _, c := range []struct{ node, dom string }{
		{"Value", "Key"},     // the key's edge retains, the table's does not
		{"OnlyWeak", "root"}, // no strong retainer: hung under the root
		{"Shortcut", "root"}, // shortcuts do not retain
		{"Strong", "Holder"}, // an ordinary property
		{"Key", "Holder"},
	} {
		if got := s.rawName(s.dominator[node(t, s, c.node)]); got != c.dom {
			t.Errorf("idom(%s) = %s, want %s", c.node, got, c.dom)
		}
	}
	if d := s.Node(node(t, s, "OnlyWeak")).Distance; d != Unreachable {
		t.Errorf("distance of an object held only weakly = %d, want unreachable", d)
	}
	// The value's distance comes through the later of its two edges: the
	// key's (at 3), not the table's (at 2).
	if d := s.Node(node(t, s, "Value")).Distance; d != 4 {
		t.Errorf("distance of the WeakMap value = %d, want 4", d)
	}
	if r := s.Node(node(t, s, "Key")).RetainedSize; r != 110 {
		t.Errorf("retained size of the key = %d, want 110 (key and value)", r)
	}
	if rs := s.Retainers(node(t, s, "OnlyWeak")); len(rs) != 0 {
		t.Errorf("retainers of an object held only weakly: %v, want none (weak edges are not shown)", rs)
	}
	paths := s.RetainingPaths(node(t, s, "Strong"), PathLimits{})
	// The path ends at the holder, at distance 2, where DevTools stops.
	if len(paths.Paths) != 1 || paths.Paths[0].Node.Name != "Holder" || paths.Paths[0].EdgeName != "strong" ||
		len(paths.Paths[0].Retainers) != 0 {
		t.Errorf("retaining paths of Strong: %+v", paths)
	}
}

// TestDOMStatePropagation checks that Blink's marks spread to native
// objects only, attached winning over detached, and detached nodes are
// renamed.
func TestDOMStatePropagation(t *testing.T) {
	g := tgraph{
		0: {typ: "synthetic", name: "root", edges: []tedge{{"element", "1", 1}, {"element", "2", 2}, {"element", "3", 5}}},
		1: {typ: "native", name: "HTMLDocument", self: 1, det: 1, edges: []tedge{{"element", "1", 3}}},
		2: {typ: "native", name: `<div id="gone">`, self: 1, det: 2, edges: []tedge{{"element", "1", 4}, {"element", "2", 3}, {"property", "js", 6}}},
		3: {typ: "native", name: "<p>", self: 1},
		4: {typ: "native", name: "<span>", self: 1},
		5: {typ: "native", name: "<div>", self: 1},
		6: {typ: "object", name: "Object", self: 1},
	}
	s := g.load(t)
	for _, c := range []struct {
		name  string
		state DOMState
	}{{"HTMLDocument", DOMAttached}, {"<p>", DOMAttached}, {`Detached <div id="gone">`, DOMDetached}, {"Detached <span>", DOMDetached}, {"<div>", DOMUnknown}, {"Object", DOMUnknown}} {
		if got := s.Node(node(t, s, c.name)).Detachedness; got != c.state {
			t.Errorf("%s is %v, want %v", c.name, got, c.state)
		}
	}
	classes, err := s.Classes(Filter{Name: FilterDetachedDOM})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range classes {
		names = append(names, c.Name)
	}
	// <p> is reachable from the document too, and the plain object only
	// through the detached div.
	slices.Sort(names)
	if want := []string{"Detached <div>", "Detached <span>", "Object"}; !slices.Equal(names, want) {
		t.Errorf("classes retained by detached DOM: %v, want %v", names, want)
	}
}

// TestClassNamesAndInterfaces checks class names by type, DOM tags, and
// plain objects named after their common properties.
func TestClassNamesAndInterfaces(t *testing.T) {
	g := tgraph{
		0: {typ: "synthetic", name: "root", edges: strong(1, 2, 3, 4, 5, 6, 7, 9)},
		1: {typ: "object", name: "Object", self: 10, edges: []tedge{{"property", "x", 8}, {"property", "y", 8}}},
		2: {typ: "object", name: "Object", self: 10, edges: []tedge{{"property", "y", 8}, {"property", "x", 8}, {"property", "z", 8}}},
		3: {typ: "object", name: "Object", self: 10, edges: []tedge{{"property", "alone", 8}}},
		4: {typ: "native", name: `<div class="a">`, self: 10},
		5: {typ: "closure", name: "handler", self: 10},
		6: {typ: "code", name: "system / Code", self: 10},
		7: {typ: "string", name: "hello", self: 10},
		8: {typ: "number", name: "heap number", self: 10},
		9: {typ: "object", name: "Object", self: 10, edges: []tedge{{"property", "x", 8}, {"property", "y", 8}}},
	}
	s := g.load(t)
	for _, c := range []struct{ name, class, display string }{
		{"Object", "{x, y}", "{x, y}"},
		{`<div class="a">`, "<div>", `<div class="a">`},
		{"handler", "Function", "handler"},
		{"system / Code", "(compiled code)", "system / Code"},
		{"hello", "(string)", "hello"},
		{"heap number", "(number)", "heap number"},
	} {
		i := node(t, s, c.name)
		if got := s.ClassName(i); got != c.class {
			t.Errorf("class of %s = %q, want %q", c.name, got, c.class)
		}
		if got := s.Node(i).Name; got != c.display {
			t.Errorf("name of %s = %q, want %q", c.name, got, c.display)
		}
	}
	// Two objects start with x, y: that makes the interface {x, y}, which
	// {y, x, z} has too. {alone} is alone.
	if got := s.ClassName(2); got != "{x, y}" {
		t.Errorf("class of {y, x, z} = %q, want {x, y}", got)
	}
	if got := s.ClassName(3); got != "Object" {
		t.Errorf("class of a lone shape = %q, want Object", got)
	}
	if got := s.Node(3).Name; got != "{alone}" {
		t.Errorf("name of a plain object = %q, want {alone}", got)
	}
	all, _ := s.Classes(Filter{})
	var shape Class
	for _, c := range all {
		if c.Name == "{x, y}" {
			shape = c
		}
	}
	// The number is shared, so dominated by the root.
	if shape.Count != 3 || shape.SelfSize != 30 || shape.RetainedSize != 30 {
		t.Errorf("class {x, y} = %+v, want 3 objects of 30 bytes", shape)
	}
	if byID, err := s.ClassByID(shape.ID); err != nil || byID.Name != "{x, y}" {
		t.Errorf("ClassByID(%d) = %v, %v", shape.ID, byID, err)
	}
}

// TestClassRetainedSizeNesting checks that a class's retained size does not
// count objects twice when one dominates another of the same class.
func TestClassRetainedSizeNesting(t *testing.T) {
	g := tgraph{
		0: {typ: "synthetic", name: "root", edges: strong(1, 3)},
		1: {typ: "object", name: "Item", self: 10, edges: strong(2)},
		2: {typ: "object", name: "Item", self: 20, edges: strong(4)},
		3: {typ: "object", name: "Item", self: 40},
		4: {typ: "object", name: "Leaf", self: 80},
	}
	s := g.load(t)
	all, _ := s.Classes(Filter{})
	for _, c := range all {
		want := map[string]uint64{"Item": 150, "Leaf": 80}[c.Name]
		if c.RetainedSize != want {
			t.Errorf("retained size of class %s = %d, want %d", c.Name, c.RetainedSize, want)
		}
	}
	if all[0].Name != "Item" || all[0].ID != 1 || all[0].Count != 3 {
		t.Errorf("first class = %+v, want Item, id 1, 3 objects", all[0])
	}
}

// TestDuplicateStrings groups equal strings, including concatenated ones.
func TestDuplicateStrings(t *testing.T) {
	g := tgraph{
		0: {typ: "synthetic", name: "root", edges: strong(1, 2, 3, 4, 7)},
		1: {typ: "string", name: "hello world", self: 30},
		2: {typ: "string", name: "hello world", self: 30},
		3: {typ: "concatenated string", name: "", self: 20, edges: []tedge{{"internal", "first", 5}, {"internal", "second", 6}}},
		4: {typ: "string", name: "unique", self: 30},
		5: {typ: "string", name: "hello ", self: 20},
		6: {typ: "string", name: "world", self: 20},
		7: {typ: "concatenated string", name: "", self: 20, edges: []tedge{{"internal", "first", 4}, {"internal", "second", 8}}},
		8: {typ: "string", name: "", self: 10},
	}
	s := g.load(t)
	groups := s.DuplicateStrings()
	if len(groups) != 1 {
		t.Fatalf("groups = %+v, want one", groups)
	}
	if g := groups[0]; g.Value != "hello world" || g.Count != 3 || g.SelfSize != 80 || len(g.Nodes) != 3 || g.Truncated {
		t.Errorf("group = %+v, want hello world ×3 (two strings and a concatenation), 80 bytes", g)
	}
}

// TestQuery checks the object query's filters.
func TestQuery(t *testing.T) {
	g := tgraph{
		0: {typ: "synthetic", name: "root", edges: strong(1, 2, 3)},
		1: {typ: "object", name: "Widget", self: 100, edges: []tedge{{"property", "listener", 4}}},
		2: {typ: "object", name: "WidgetFactory", self: 200},
		3: {typ: "native", name: "<li>", det: 2, self: 50},
		4: {typ: "closure", name: "onClick", self: 30},
	}
	s := g.load(t)
	yes := true
	for _, c := range []struct {
		q    Query
		want []string
	}{
		{Query{ClassName: "widget"}, []string{"WidgetFactory", "Widget"}},
		{Query{ClassName: "^Widget$"}, []string{"Widget"}},
		{Query{ClassName: "Widget("}, nil}, // not a regular expression: plain text
		{Query{PropertyName: "listener"}, []string{"Widget"}},
		{Query{NodeType: "closure"}, []string{"onClick"}},
		{Query{Detached: &yes}, []string{"Detached <li>"}},
		{Query{Self: SizeRange{Min: 60, Max: 150}}, []string{"Widget"}},
		{Query{ClassName: "Widget", SortBy: ByID}, []string{"Widget", "WidgetFactory"}},
	} {
		found, err := s.Query(c.q)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, i := range found {
			got = append(got, s.Node(i).Name)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("Query(%+v) = %v, want %v", c.q, got, c.want)
		}
	}
	if _, err := s.Query(Query{NodeType: "gadget"}); err == nil || !strings.Contains(err.Error(), "unknown node type") {
		t.Errorf("unknown node type: %v", err)
	}
	edges := s.Edges(1, EdgeOptions{})
	if len(edges) != 1 || edges[0].Name != "listener" || edges[0].Node.Name != "onClick" {
		t.Errorf("edges of Widget = %+v", edges)
	}
}

// TestEdgesOrderAndPrimitives checks the options of Edges.
func TestEdgesOrderAndPrimitives(t *testing.T) {
	g := tgraph{
		0: {typ: "synthetic", name: "root", edges: strong(1)},
		1: {typ: "object", name: "Holder", edges: []tedge{
			{"property", "b", 2}, {"element", "10", 3}, {"property", "__proto__", 4}, {"element", "9", 5}, {"property", "a", 6},
		}},
		2: {typ: "string", name: "text", self: 500},
		3: {typ: "object", name: "Ten", self: 10},
		4: {typ: "object", name: "Proto", self: 40},
		5: {typ: "object", name: "Nine", self: 90},
		6: {typ: "number", name: "1.5", self: 16},
	}
	s := g.load(t)
	names := func(es []Edge) (out []string) {
		for _, e := range es {
			out = append(out, e.Name)
		}
		return out
	}
	if got := names(s.Edges(1, EdgeOptions{SortBy: ByName})); !slices.Equal(got, []string{"a", "b", "10", "9", "__proto__"}) {
		t.Errorf("by name: %v", got)
	}
	// Trivial values go, strings stay (a big string is the typical cache).
	if got := names(s.Edges(1, EdgeOptions{ExcludePrimitives: true})); !slices.Equal(got, []string{"b", "9", "__proto__", "10"}) {
		t.Errorf("by retained size without trivial values: %v", got)
	}
	if got := names(s.Edges(1, EdgeOptions{MinRetainedSize: 50})); !slices.Equal(got, []string{"b", "9"}) {
		t.Errorf("retaining 50 bytes or more: %v", got)
	}
}

// TestNodeByID finds nodes by id.
func TestNodeByID(t *testing.T) {
	s := tgraph{{typ: "synthetic", name: "root", edges: strong(1)}, {typ: "object", name: "A"}}.load(t)
	if i, ok := s.NodeByID(3); !ok || s.rawName(uint32(i)) != "A" {
		t.Errorf("NodeByID(3) = %d, %v", i, ok)
	}
	if _, ok := s.NodeByID(2); ok {
		t.Error("NodeByID(2) found a node")
	}
}

// TestParseErrors checks that malformed snapshots are refused with an
// error rather than a panic or garbage.
func TestParseErrors(t *testing.T) {
	valid := tgraph{{typ: "synthetic", name: "root", edges: strong(1)}, {typ: "object", name: "A"}}.json()
	for _, c := range []struct{ name, text, want string }{
		{"empty", ``, "unexpected end"},
		{"not an object", `[1,2]`, `found '['`},
		{"nodes first", `{"nodes":[1]}`, `"nodes" before the "snapshot" meta data`},
		{"no meta fields", `{"snapshot":{"meta":{}},"nodes":[]}`, "meta lacks node or edge fields"},
		{"truncated", valid[:len(valid)/2], "malformed heap snapshot"},
		{"edge out of range", strings.Replace(valid, `"edges":[2,1,6]`, `"edges":[2,1,60]`, 1), "edge to node 10 of 2"},
		{"edge not at a node", strings.Replace(valid, `"edges":[2,1,6]`, `"edges":[2,1,7]`, 1), "edge to node index 7"},
		{"edge count", strings.Replace(valid, `"edges":[2,1,6]`, `"edges":[2,1,6,2,1,6]`, 1), "nodes have 1 edges, the edges array 2"},
		{"bad node type", strings.Replace(valid, `"nodes":[9,`, `"nodes":[99,`, 1), "node type 99"},
		{"bad string index", strings.Replace(valid, `"nodes":[9,0,`, `"nodes":[9,55,`, 1), "node name 55"},
		{"bad escape", strings.Replace(valid, `"root"`, `"ro\qot"`, 1), `invalid escape \q`},
		{"fraction", strings.Replace(valid, `"nodes":[9,`, `"nodes":[9.5,`, 1), "want ',' or ']'"},
	} {
		_, err := Read(context.Background(), strings.NewReader(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

// TestStringEscapes checks the JSON string decoding of the strings table.
func TestStringEscapes(t *testing.T) {
	valid := tgraph{{typ: "synthetic", name: "root", edges: strong(1)}, {typ: "string", name: "PLACEHOLDER"}}.json()
	for _, c := range []struct{ json, want string }{
		{`"tab\tnewline\nquote\"slash\/back\\"`, "tab\tnewline\nquote\"slash/back\\"},
		{`"\u00e9t\u00E9 \ud83d\ude00"`, "été 😀"},
		{`"lone \ud83d end"`, "lone \uFFFD end"},
		{`"lone \ude00 low"`, "lone \uFFFD low"},
		{`"pair broken \ud83d\u0041"`, "pair broken \uFFFDA"},
		{`"plain ünïcödé"`, "plain ünïcödé"},
	} {
		s, err := Read(context.Background(), strings.NewReader(strings.Replace(valid, `"PLACEHOLDER"`, c.json, 1)))
		if err != nil {
			t.Fatalf("%s: %v", c.json, err)
		}
		if got := s.Node(1).Name; got != c.want {
			t.Errorf("%s decoded to %q, want %q", c.json, got, c.want)
		}
	}
}
