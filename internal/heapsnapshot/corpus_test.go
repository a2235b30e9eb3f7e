package heapsnapshot

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// devtoolsAnswers are DevTools' own answers about a recorded snapshot, as
// testdata/devtools.mjs writes them (rows are arrays, see there).
type devtoolsAnswers struct {
	Statistics struct {
		Total  uint64
		Native struct{ Total, TypedArrays uint64 }
		V8heap struct{ Total, Code, JSArrays, Strings, System uint64 }
	}
	NativeContextSizes struct {
		NativeContexts []struct {
			NodeID         uint32
			AttributedSize uint64
		}
		SharedSize, NoAttributionSize uint64
	}
	RetainedByContextSummary struct {
		ContextCount                                      int
		RetainedByContextSize, NotRetainedByContextSize   uint64
		RetainedByContextCount, NotRetainedByContextCount int
	}
	Aggregates              map[string][][]any
	NativeContextAggregates map[string][][]any
	DuplicateStrings        []struct {
		Value                            string
		ValueLength, Length              int
		Count                            int
		TotalSelfSize, TotalRetainedSize uint64
		Nodes                            []uint32
		Truncated                        bool
	}
	Nodes map[string]struct {
		Info struct {
			Name                     string
			Type                     string
			SelfSize, RetainedSize   uint64
			Distance                 int
			EdgeCount, RetainerCount int
		}
		Edges, AllEdges, Retainers [][]any
		Paths                      struct {
			Paths         []any
			LimitsReached struct{ Depth, Nodes, Siblings bool }
		}
		Dominators [][]uint64
	}
	Queries         map[string][]uint32
	PropertyQueries map[string][]uint32
	Contexts        *struct {
		Scopes []struct {
			ScopeInfoNodeID, ScriptNodeID uint32
			ScriptName                    string
			ScopeStart, ScopeEnd          int
			ContextFieldCount             int
			Contexts                      []struct {
				ContextNodeID             uint32
				DeadFieldsRetainedSizeSum uint64
				DeadFields                []struct {
					Name         string
					ValueNodeID  uint32
					RetainedSize uint64
				}
			}
		}
		ScriptsWithoutScopes []struct {
			ScriptNodeID uint32
			ContextCount int
		}
	}
	ContextsError string
	Diff          *struct {
		ClassDiffs []struct {
			ClassName                string
			AddedCount, RemovedCount int
			AddedSize, RemovedSize   uint64
			SizeDelta                int64
		}
	}
}

func loadAnswers(t *testing.T, name string) *devtoolsAnswers {
	t.Helper()
	f, err := os.Open("testdata/" + name + ".devtools.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var a devtoolsAnswers
	if err := json.NewDecoder(zr).Decode(&a); err != nil {
		t.Fatal(err)
	}
	return &a
}

// classRows renders classes as DevTools' rows: id, name, count, self, retained.
func classRows(classes []Class) []string {
	rows := make([]string, len(classes))
	for i, c := range classes {
		rows[i] = fmt.Sprintf("%d %s n=%d self=%d ret=%d", c.ID, c.Name, c.Count, c.SelfSize, c.RetainedSize)
	}
	slices.Sort(rows)
	return rows
}

func devtoolsClassRows(rows [][]any) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = fmt.Sprintf("%v %v n=%v self=%v ret=%v", r[0], r[1], r[2], r[3], r[4])
	}
	slices.Sort(out)
	return out
}

// diffRows reports the rows only one side has, a few of each.
func diffRows(t *testing.T, what string, got, want []string) {
	t.Helper()
	var onlyGot, onlyWant []string
	for _, g := range got {
		if _, ok := slices.BinarySearch(want, g); !ok {
			onlyGot = append(onlyGot, g)
		}
	}
	for _, w := range want {
		if _, ok := slices.BinarySearch(got, w); !ok {
			onlyWant = append(onlyWant, w)
		}
	}
	if len(onlyGot)+len(onlyWant) == 0 {
		return
	}
	cut := func(xs []string) string {
		if len(xs) > 5 {
			xs = append(xs[:5:5], "...")
		}
		return strings.Join(xs, "\n\t\t")
	}
	t.Errorf("%s: %d of %d rows differ from DevTools'\n\tours only:\n\t\t%s\n\tDevTools' only:\n\t\t%s",
		what, len(onlyWant), len(want), cut(onlyGot), cut(onlyWant))
}

var corpusNames = []string{"detached", "array-1", "array-2", "corpus", "plain"}

// TestCorpusAgreesWithDevTools compares our figures with DevTools' on each
// recorded snapshot (see testdata/devtools.mjs).
func TestCorpusAgreesWithDevTools(t *testing.T) {
	for _, name := range corpusNames {
		t.Run(name, func(t *testing.T) {
			s := load(t, name)
			want := loadAnswers(t, name)
			compareSummary(t, s, want)
			compareClasses(t, s, want)
			compareStrings(t, s, want)
			compareNodes(t, s, want)
			compareContexts(t, s, want)
			compareQueries(t, s, want)
			if want.Diff != nil {
				compareDiff(t, load(t, "array-1"), s, want)
			}
		})
	}
}

func compareSummary(t *testing.T, s *Snapshot, want *devtoolsAnswers) {
	st := s.Statistics()
	w := want.Statistics
	got := fmt.Sprint(st.Total, st.Native, st.V8Heap, st.Code, st.JSArrays, st.Strings, st.System, st.TypedArrays)
	exp := fmt.Sprint(w.Total, w.Native.Total, w.V8heap.Total, w.V8heap.Code, w.V8heap.JSArrays, w.V8heap.Strings, w.V8heap.System, w.Native.TypedArrays)
	if got != exp {
		t.Errorf("statistics (total native v8heap code jsArrays strings system typedArrays): %s, DevTools %s", got, exp)
	}
	nc := s.NativeContexts()
	var gotNC, wantNC []string
	for _, c := range nc.Contexts {
		gotNC = append(gotNC, fmt.Sprintf("@%d %d", c.Node.ID, c.AttributedSize))
	}
	for _, c := range want.NativeContextSizes.NativeContexts {
		wantNC = append(wantNC, fmt.Sprintf("@%d %d", c.NodeID, c.AttributedSize))
	}
	slices.Sort(gotNC)
	slices.Sort(wantNC)
	gotNC = append(gotNC, fmt.Sprintf("shared %d none %d", nc.SharedSize, nc.UnattributedSize))
	wantNC = append(wantNC, fmt.Sprintf("shared %d none %d", want.NativeContextSizes.SharedSize, want.NativeContextSizes.NoAttributionSize))
	if !slices.Equal(gotNC, wantNC) {
		t.Errorf("native context sizes: %v, DevTools %v", gotNC, wantNC)
	}
	rc := s.RetainedByContexts()
	wr := want.RetainedByContextSummary
	got = fmt.Sprint(rc.Contexts, rc.RetainedCount, rc.RetainedSize, rc.NotRetainedCount, rc.NotRetainedSize)
	exp = fmt.Sprint(wr.ContextCount, wr.RetainedByContextCount, wr.RetainedByContextSize, wr.NotRetainedByContextCount, wr.NotRetainedByContextSize)
	if got != exp {
		t.Errorf("retained by contexts (contexts, count, size, not count, not size): %s, DevTools %s", got, exp)
	}
}

func compareClasses(t *testing.T, s *Snapshot, want *devtoolsAnswers) {
	for filter, rows := range want.Aggregates {
		classes, err := s.Classes(Filter{Name: filter})
		if err != nil {
			t.Errorf("filter %q: %v", filter, err)
			continue
		}
		diffRows(t, "classes with filter "+cmpOr(filter, "none"), classRows(classes), devtoolsClassRows(rows))
	}
	for id, rows := range want.NativeContextAggregates {
		var n uint32
		fmt.Sscan(id, &n)
		i, ok := s.NodeByID(n)
		if !ok {
			t.Errorf("no native context @%d", n)
			continue
		}
		classes, err := s.Classes(Filter{Name: FilterNativeContext, NativeContext: i})
		if err != nil {
			t.Errorf("native context @%d: %v", n, err)
			continue
		}
		diffRows(t, "classes of native context @"+id, classRows(classes), devtoolsClassRows(rows))
	}
}

func cmpOr(s, or string) string {
	if s == "" {
		return or
	}
	return s
}

func compareStrings(t *testing.T, s *Snapshot, want *devtoolsAnswers) {
	var got, exp []string
	for _, g := range s.DuplicateStrings() {
		got = append(got, fmt.Sprintf("%.40q len=%d n=%d self=%d ret=%d", g.Value, g.Length, g.Count, g.SelfSize, g.RetainedSize))
	}
	for _, g := range want.DuplicateStrings {
		if g.Truncated {
			g.ValueLength = g.Length
		}
		exp = append(exp, fmt.Sprintf("%.40q len=%d n=%d self=%d ret=%d", g.Value, g.ValueLength, g.Count, g.TotalSelfSize, g.TotalRetainedSize))
	}
	slices.Sort(got)
	slices.Sort(exp)
	diffRows(t, "duplicate strings", got, exp)
}

func compareNodes(t *testing.T, s *Snapshot, want *devtoolsAnswers) {
	for id, w := range want.Nodes {
		var n uint32
		fmt.Sscan(id, &n)
		i, ok := s.NodeByID(n)
		if !ok {
			t.Errorf("no node @%d", n)
			continue
		}
		node := s.Node(i)
		got := fmt.Sprint(node.Name, node.Type, node.SelfSize, node.RetainedSize, node.Distance, node.EdgeCount, node.RetainerCount)
		exp := fmt.Sprint(w.Info.Name, w.Info.Type, w.Info.SelfSize, w.Info.RetainedSize, w.Info.Distance, w.Info.EdgeCount, w.Info.RetainerCount)
		if got != exp {
			t.Errorf("@%d: %s, DevTools %s", n, got, exp)
		}
		edges := func(opts EdgeOptions) []string { return edgeRows(s.Edges(i, opts)) }
		compareList(t, fmt.Sprintf("edges of @%d", n), edges(EdgeOptions{ExcludePrimitives: true}), devtoolsEdgeRows(w.Edges))
		compareList(t, fmt.Sprintf("all edges of @%d", n), edges(EdgeOptions{}), devtoolsEdgeRows(w.AllEdges))
		compareList(t, fmt.Sprintf("retainers of @%d", n), edgeRows(s.Retainers(i)), devtoolsEdgeRows(w.Retainers))
		var dom, wantDom []string
		for _, d := range s.Dominators(i) {
			dom = append(dom, fmt.Sprint(d.ID, d.SelfSize, d.RetainedSize))
		}
		for _, d := range w.Dominators {
			wantDom = append(wantDom, fmt.Sprint(d[0], d[1], d[2]))
		}
		compareList(t, fmt.Sprintf("dominators of @%d", n), dom, wantDom)
		p := s.RetainingPaths(i, PathLimits{})
		compareList(t, fmt.Sprintf("retaining paths of @%d", n), pathRows(p.Paths, ""), devtoolsPathRows(w.Paths.Paths, ""))
		l := w.Paths.LimitsReached
		if p.DepthLimited != l.Depth || p.NodesLimited != l.Nodes || p.SiblingsLimited != l.Siblings {
			t.Errorf("retaining paths of @%d: limits reached depth=%v nodes=%v siblings=%v, DevTools %+v", n, p.DepthLimited, p.NodesLimited, p.SiblingsLimited, l)
		}
	}
}

// compareList compares lists in order, reporting the first difference.
func compareList(t *testing.T, what string, got, want []string) {
	t.Helper()
	for k := range max(len(got), len(want)) {
		var g, w string
		if k < len(got) {
			g = got[k]
		}
		if k < len(want) {
			w = want[k]
		}
		if g != w {
			t.Errorf("%s: %d rows, DevTools %d; row %d is %q, DevTools' %q", what, len(got), len(want), k, g, w)
			return
		}
	}
}

func edgeRows(edges []Edge) []string {
	out := make([]string, len(edges))
	for k, e := range edges {
		out[k] = fmt.Sprint(e.Name, " ", e.Type, " @", e.Node.ID, " ", e.Node.Type, " ", e.Node.SelfSize, " ", e.Node.RetainedSize, " ", e.Node.Distance)
	}
	return out
}

func devtoolsEdgeRows(rows [][]any) []string {
	out := make([]string, len(rows))
	for k, r := range rows {
		out[k] = fmt.Sprint(r[0], " ", r[1], " @", r[2], " ", r[3], " ", r[4], " ", r[5], " ", r[6])
	}
	return out
}

// pathRows flattens a tree of retainers into one line per retainer,
// prefixed by the chain of ids below it.
func pathRows(paths []PathNode, below string) []string {
	var out []string
	for _, p := range paths {
		line := fmt.Sprintf("%s <- %s %s @%d d%d", below, p.EdgeType, p.EdgeName, p.Node.ID, p.Node.Distance)
		out = append(out, line)
		out = append(out, pathRows(p.Retainers, line)...)
	}
	return out
}

func devtoolsPathRows(paths []any, below string) []string {
	var out []string
	for _, p := range paths {
		r := p.([]any)
		line := fmt.Sprintf("%s <- %v %v @%v d%v", below, r[1], r[0], r[2], r[3])
		out = append(out, line)
		out = append(out, devtoolsPathRows(r[4].([]any), line)...)
	}
	return out
}

func compareContexts(t *testing.T, s *Snapshot, want *devtoolsAnswers) {
	if want.Contexts == nil {
		t.Fatalf("DevTools' context analysis failed: %s", want.ContextsError)
	}
	var got, exp []string
	a := s.AnalyzeContexts()
	for _, sc := range a.Scopes {
		for _, c := range sc.Contexts {
			row := fmt.Sprintf("scope @%d script @%d %s %d-%d fields=%d context @%d dead=%d:", sc.ScopeInfo.ID, sc.Script.ID, sc.ScriptName, sc.Start, sc.End, sc.Fields, c.Context.ID, c.DeadRetainedSize)
			for _, f := range c.DeadFields {
				row += fmt.Sprintf(" %s=@%d(%d)", f.Name, f.Value.ID, f.Value.RetainedSize)
			}
			got = append(got, row)
		}
	}
	for _, sc := range want.Contexts.Scopes {
		for _, c := range sc.Contexts {
			row := fmt.Sprintf("scope @%d script @%d %s %d-%d fields=%d context @%d dead=%d:", sc.ScopeInfoNodeID, sc.ScriptNodeID, sc.ScriptName, sc.ScopeStart, sc.ScopeEnd, sc.ContextFieldCount, c.ContextNodeID, c.DeadFieldsRetainedSizeSum)
			for _, f := range c.DeadFields {
				row += fmt.Sprintf(" %s=@%d(%d)", f.Name, f.ValueNodeID, f.RetainedSize)
			}
			exp = append(exp, row)
		}
	}
	slices.Sort(got)
	slices.Sort(exp)
	diffRows(t, "contexts with dead fields", got, exp)
	got, exp = nil, nil
	for _, w := range a.WithoutData {
		got = append(got, fmt.Sprintf("@%d %d", w.Script.ID, w.Contexts))
	}
	for _, w := range want.Contexts.ScriptsWithoutScopes {
		exp = append(exp, fmt.Sprintf("@%d %d", w.ScriptNodeID, w.ContextCount))
	}
	slices.Sort(got)
	slices.Sort(exp)
	diffRows(t, "scripts without scope data", got, exp)
}

func compareQueries(t *testing.T, s *Snapshot, want *devtoolsAnswers) {
	compareQuery(t, s, "objects named like ", want.Queries, func(q string) Query { return Query{ClassName: q} })
	compareQuery(t, s, "objects with an edge named like ", want.PropertyQueries, func(q string) Query { return Query{PropertyName: q} })
}

func compareQuery(t *testing.T, s *Snapshot, what string, queries map[string][]uint32, query func(string) Query) {
	for q, ids := range queries {
		found, err := s.Query(query(q))
		if err != nil {
			t.Fatal(err)
		}
		var got, exp []string
		for _, i := range found {
			got = append(got, fmt.Sprint(s.Node(i).ID))
		}
		for _, id := range ids {
			exp = append(exp, fmt.Sprint(id))
		}
		slices.Sort(got)
		slices.Sort(exp)
		diffRows(t, what+q, got, exp)
	}
}

func compareDiff(t *testing.T, base, s *Snapshot, want *devtoolsAnswers) {
	var got, exp []string
	for _, d := range Compare(base, s) {
		got = append(got, fmt.Sprint(d.Name, d.AddedCount, d.RemovedCount, d.AddedSize, d.RemovedSize, d.SizeDelta))
	}
	for _, d := range want.Diff.ClassDiffs {
		exp = append(exp, fmt.Sprint(d.ClassName, d.AddedCount, d.RemovedCount, d.AddedSize, d.RemovedSize, d.SizeDelta))
	}
	compareList(t, "comparison with array-1", got, exp)
}

// TestCorpusShowsEachCase checks that the recorded corpus has what the
// comparison is for, so that it cannot agree on empty answers: two
// realms with memory of their own, long strings V8 truncated, objects
// only the console, listeners or contexts keep, top-level variables, and
// a page with none of that.
func TestCorpusShowsEachCase(t *testing.T) {
	corpus, plain := loadAnswers(t, "corpus"), loadAnswers(t, "plain")
	realms := 0
	for _, c := range corpus.NativeContextSizes.NativeContexts {
		if c.AttributedSize > 100_000 {
			realms++
		}
	}
	if realms < 2 {
		t.Errorf("corpus: %d realms with over 100 kB of their own, want the page's and the iframe's", realms)
	}
	truncated := 0
	for _, g := range corpus.DuplicateStrings {
		if g.Truncated && g.Count == 30 {
			truncated++
		}
	}
	if truncated != 1 {
		t.Errorf("corpus: %d truncated groups of 30 copies, want 1 (the 200 strings sharing a prefix are no group)", truncated)
	}
	for _, f := range []string{FilterConsole, FilterEventHandlers, FilterContexts} {
		if len(corpus.Aggregates[f]) == 0 {
			t.Errorf("corpus: nothing retained by %s", f)
		}
	}
	topLevel := false
	for _, sc := range corpus.Contexts.Scopes {
		for _, c := range sc.Contexts {
			for _, f := range c.DeadFields {
				topLevel = topLevel || f.Name == "topLevelCache"
			}
		}
	}
	if !topLevel {
		t.Error("corpus: the top-level variable topLevelCache is not among the dead fields")
	}
	if len(plain.Aggregates[FilterEventHandlers]) != 0 || len(plain.Contexts.Scopes) != 0 {
		t.Errorf("plain: %d classes retained by listeners, %d scopes with dead fields; want none", len(plain.Aggregates[FilterEventHandlers]), len(plain.Contexts.Scopes))
	}
}
