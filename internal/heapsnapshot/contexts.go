package heapsnapshot

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// This file finds dead context fields: variables a closure context keeps
// (so their values stay in memory) that no function still alive can read.
// V8 lists, per script, its scopes with their context variables and which
// scopes use which variables; the heap says which contexts exist and which
// closures, of which function scopes, reach them.

// ScopeContexts are the contexts of one scope that have dead fields.
type ScopeContexts struct {
	ScopeInfo Node // the scope's description in the heap
	Script    Node
	// ScriptName is the script's URL or name.
	ScriptName string
	// ScopeName is the enclosing function's name, if any.
	ScopeName string
	// Start and End are source positions of the scope in the script.
	Start, End int
	// Fields is the number of variables the scope's contexts hold.
	Fields   int
	Contexts []ContextFields
}

// ContextFields is one context and its dead fields, largest first.
type ContextFields struct {
	Context Node
	// DeadRetainedSize sums the retained sizes of the dead fields' values.
	DeadRetainedSize uint64
	DeadFields       []DeadField
}

// DeadField is a variable no live function reads, and its value.
type DeadField struct {
	Name  string
	Value Node
}

// ScriptContexts counts the contexts of a script for which V8 recorded no
// scope data (scripts compiled before the profiler asked for it), which
// could not be analysed.
type ScriptContexts struct {
	Script   Node
	Name     string
	Contexts int
}

// ContextAnalysis is the result of AnalyzeContexts.
type ContextAnalysis struct {
	// Scopes have at least one context with dead fields; the scope whose
	// context wastes the most comes first.
	Scopes      []ScopeContexts
	WithoutData []ScriptContexts
}

// scope is a scope of a script, from the snapshot's scope tables.
type scope struct {
	id     int64
	parent *scope
	vars   []*variable // by slot
}

type variable struct {
	name string
	uses []*scope // the scopes that read the variable
}

// variable returns the scope's variable called name, or nil.
func (sc *scope) variable(name string) *variable {
	for _, v := range sc.vars {
		if v.name == name {
			return v
		}
	}
	return nil
}

// AnalyzeContexts finds the closure contexts holding variables that no
// live closure can read: memory kept only because some function once
// needed it. Snapshots need numeric values captured (take_heapsnapshot does)
// and scope tables (recent V8).
func (s *Snapshot) AnalyzeContexts() ContextAnalysis {
	scopes := s.embeddedScopes()
	scripts := map[uint32]string{}
	scopeScript := map[uint32]int64{} // ScopeInfo → script ordinal, -1 = unknown
	type contextNode struct{ node, scopeInfo uint32 }
	var contexts []contextNode
	live := map[uint32]map[int64]map[uint32]bool{} // script → function scope id → contexts its closures reach
	for i := range uint32(len(s.nodeType)) {
		name := s.rawName(i)
		switch {
		case strings.HasPrefix(name, "system / Script"):
			scripts[i] = s.scriptName(i)
			s.attributeScopeInfos(i, scopeScript)
		case s.isContext(i):
			if info, ok := s.internal(i, "scope_info"); ok {
				contexts = append(contexts, contextNode{i, info})
			}
		case s.isType(i, s.nt.closure):
			shared, ok1 := s.internal(i, "shared")
			ctx, ok2 := s.internal(i, "context")
			if !ok1 || !ok2 {
				continue
			}
			script, ok1 := s.internal(shared, "script")
			id, ok2 := s.internalInt(shared, "scope_id")
			if !ok1 || !ok2 {
				continue
			}
			if live[script] == nil {
				live[script] = map[int64]map[uint32]bool{}
			}
			reach := live[script][id]
			if reach == nil {
				reach = map[uint32]bool{}
				live[script][id] = reach
			}
			for c, ok := ctx, true; ok && s.isContext(c) && !reach[c]; c, ok = s.internal(c, "previous") {
				reach[c] = true
			}
		}
	}

	byInfo := map[uint32]*ScopeContexts{}
	var order []*ScopeContexts
	without := map[uint32]*ScriptContexts{}
	var withoutOrder []uint32
	for _, c := range contexts {
		script, ok := s.scopeInfoScript(c.scopeInfo, scopeScript)
		if !ok {
			continue
		}
		if _, ok := scripts[script]; !ok {
			continue
		}
		if scopes[script] == nil {
			if without[script] == nil {
				without[script] = &ScriptContexts{Script: s.Node(Index(script)), Name: scripts[script]}
				withoutOrder = append(withoutOrder, script)
			}
			without[script].Contexts++
			continue
		}
		id, ok := s.internalInt(c.scopeInfo, "scope_id")
		if !ok {
			continue
		}
		sc := scopes[script][id]
		if sc == nil {
			continue
		}
		fields := 0
		var dead []DeadField
		var deadSize uint64
		for e := s.firstEdge[c.node]; e < s.firstEdge[c.node+1]; e++ {
			if !s.isEdge(e, s.et.context) {
				continue
			}
			fields++
			name := s.strings.get(s.edgeName[e])
			v := sc.variable(name)
			if v == nil || v.usedIn(live[script], c.node) {
				continue
			}
			value := s.Node(Index(s.edgeTo[e]))
			dead = append(dead, DeadField{Name: name, Value: value})
			deadSize += value.RetainedSize
		}
		if len(dead) == 0 {
			continue
		}
		sortBy(dead, func(f DeadField) uint64 { return f.Value.RetainedSize })
		sa := byInfo[c.scopeInfo]
		if sa == nil {
			start, _ := s.internalInt(c.scopeInfo, "start_position")
			end, _ := s.internalInt(c.scopeInfo, "end_position")
			sa = &ScopeContexts{ScopeInfo: s.Node(Index(c.scopeInfo)), Script: s.Node(Index(script)), ScriptName: scripts[script],
				Start: int(start), End: int(end), Fields: fields}
			sa.ScopeName = s.scopeName(c.scopeInfo)
			byInfo[c.scopeInfo] = sa
			order = append(order, sa)
		}
		sa.Contexts = append(sa.Contexts, ContextFields{Context: s.Node(Index(c.node)), DeadRetainedSize: deadSize, DeadFields: dead})
	}

	var out ContextAnalysis
	compare := func(a, b ContextFields) int {
		return cmp.Or(cmp.Compare(b.DeadRetainedSize, a.DeadRetainedSize), cmp.Compare(b.Context.RetainedSize, a.Context.RetainedSize), cmp.Compare(a.Context.Index, b.Context.Index))
	}
	for _, sa := range order {
		slices.SortFunc(sa.Contexts, compare)
		out.Scopes = append(out.Scopes, *sa)
	}
	slices.SortStableFunc(out.Scopes, func(a, b ScopeContexts) int { return compare(a.Contexts[0], b.Contexts[0]) })
	for _, script := range withoutOrder {
		out.WithoutData = append(out.WithoutData, *without[script])
	}
	return out
}

// usedIn reports whether a live closure that can reach context ctx reads
// the variable: a closure of a scope using it, or of a scope enclosing such
// a use (running it may create the function that reads the variable).
func (v *variable) usedIn(live map[int64]map[uint32]bool, ctx uint32) bool {
	for _, use := range v.uses {
		for sc := use; sc != nil; sc = sc.parent {
			if live[sc.id][ctx] {
				return true
			}
		}
	}
	return false
}

// embeddedScopes reads the scope tables: per script ordinal, its scopes by
// scope id. Scopes are listed depth first with their depth, a script's
// together.
func (s *Snapshot) embeddedScopes() map[uint32]map[int64]*scope {
	t := s.scopes
	out := map[uint32]map[int64]*scope{}
	field := func(fields []string, name string) int { return slices.Index(fields, name) }
	stride, vstride, ustride := len(t.scopeFields), len(t.varFields), len(t.useFields)
	script, id, depth := field(t.scopeFields, "script_node_index"), field(t.scopeFields, "scope_id"), field(t.scopeFields, "depth")
	nvars, nuses := field(t.scopeFields, "scope_context_vars_count"), field(t.scopeFields, "scope_uses_count")
	vname := field(t.varFields, "name")
	declaring, slot := field(t.useFields, "declaring_scope_id"), field(t.useFields, "slot_index")
	if stride == 0 || min(script, id, depth, nvars, nuses, vname, declaring, slot) < 0 || s.scopes.nodeStride == 0 {
		return out
	}
	type listed struct {
		sc     *scope
		script uint32
		uses   []int64 // pairs of declaring scope id and slot
	}
	var all []listed
	var stack []*scope
	var varOff, useOff int
	lastScript := int64(-1)
	for k := 0; k+stride <= len(t.scopes); k += stride {
		row := t.scopes[k : k+stride]
		sidx, d, nv, nu := row[script], row[depth], row[nvars], row[nuses]
		if sidx < 0 || sidx%int64(s.scopes.nodeStride) != 0 || sidx/int64(s.scopes.nodeStride) >= int64(len(s.nodeType)) ||
			d < 0 || nv < 0 || nu < 0 || nv > int64(len(t.vars)) || nu > int64(len(t.uses)) ||
			varOff+int(nv)*vstride > len(t.vars) || useOff+int(nu)*ustride > len(t.uses) {
			return map[uint32]map[int64]*scope{} // inconsistent tables: analyse nothing rather than guess
		}
		ord := uint32(sidx / int64(s.scopes.nodeStride))
		if sidx != lastScript {
			lastScript, stack = sidx, stack[:0]
		}
		sc := &scope{id: row[id]}
		for j := range int(nv) {
			v := &variable{}
			if n := t.vars[varOff+j*vstride+vname]; n >= 0 && n < int64(s.strings.len()) {
				v.name = s.strings.get(uint32(n))
			}
			sc.vars = append(sc.vars, v)
		}
		varOff += int(nv) * vstride
		if d > 0 && int(d) <= len(stack) {
			sc.parent = stack[d-1]
		}
		stack = append(stack[:min(int(d), len(stack))], sc)
		l := listed{sc: sc, script: ord}
		for j := range int(nu) {
			l.uses = append(l.uses, t.uses[useOff+j*ustride+declaring], t.uses[useOff+j*ustride+slot])
		}
		useOff += int(nu) * ustride
		all = append(all, l)
		if out[ord] == nil {
			out[ord] = map[int64]*scope{}
		}
		out[ord][sc.id] = sc
	}
	for _, l := range all {
		for k := 0; k+1 < len(l.uses); k += 2 {
			decl, slot := out[l.script][l.uses[k]], l.uses[k+1]
			if decl == nil || slot < 0 || slot >= int64(len(decl.vars)) {
				continue
			}
			if v := decl.vars[slot]; !slices.Contains(v.uses, l.sc) {
				v.uses = append(v.uses, l.sc)
			}
		}
	}
	return out
}

// internal returns the target of node i's internal edge called name.
func (s *Snapshot) internal(i uint32, name string) (uint32, bool) {
	for e := s.firstEdge[i]; e < s.firstEdge[i+1]; e++ {
		if s.isEdge(e, s.et.internal) && s.strings.get(s.edgeName[e]) == name {
			return s.edgeTo[e], true
		}
	}
	return 0, false
}

// internalInt returns the integer value of node i's internal field name:
// a number node whose value V8 captured as a string (its "value" edge).
func (s *Snapshot) internalInt(i uint32, name string) (int64, bool) {
	n, ok := s.internal(i, name)
	if !ok || !s.isType(n, s.nt.number) {
		return 0, false
	}
	v, ok := s.internal(n, "value")
	if !ok {
		return 0, false
	}
	x, err := strconv.ParseInt(s.rawName(v), 10, 64)
	return x, err == nil
}

// scriptName is a script's URL, from its node name or its source_url.
func (s *Snapshot) scriptName(i uint32) string {
	if name, ok := strings.CutPrefix(s.rawName(i), "system / Script / "); ok && name != "" {
		return name
	}
	if u, ok := s.internal(i, "source_url"); ok {
		return s.name(u)
	}
	return ""
}

// rootScopeID is the scope id V8 gives a script's outermost scope.
const rootScopeID = -2

// attributeScopeInfos assigns to script the ScopeInfos of its functions
// and those enclosing them, up to the script's root scope, or to the scope
// of the eval call that created the script, which belongs to the caller.
// Uncompiled functions have no ScopeInfo: their enclosing scope's is used.
func (s *Snapshot) attributeScopeInfos(script uint32, owner map[uint32]int64) {
	infos, ok := s.internal(script, "infos")
	if !ok {
		return
	}
	stop := int64(-1)
	if from, ok := s.internal(script, "eval_from_scope_info"); ok && s.rawName(from) == "system / ScopeInfo" {
		stop = int64(from)
	}
	chain := func(info uint32) {
		for {
			if int64(info) == stop {
				return
			}
			if _, done := owner[info]; done {
				return
			}
			owner[info] = int64(script)
			if id, ok := s.internalInt(info, "scope_id"); ok && id == rootScopeID {
				return
			}
			outer, ok := s.internal(info, "outer_scope_info")
			if !ok {
				return
			}
			info = outer
		}
	}
	for e := s.firstEdge[infos]; e < s.firstEdge[infos+1]; e++ {
		info := s.edgeTo[e]
		name := s.rawName(info)
		switch {
		case name == "system / ScopeInfo":
			chain(info)
		case strings.HasPrefix(name, "system / SharedFunctionInfo"):
			if own, ok := s.internal(info, "name_or_scope_info"); ok && s.rawName(own) == "system / ScopeInfo" {
				chain(own)
				continue
			}
			if id, ok := s.internalInt(info, "scope_id"); !ok || id == rootScopeID {
				continue
			}
			if outer, ok := s.internal(info, "raw_outer_scope_info_or_feedback_metadata"); ok && s.rawName(outer) == "system / ScopeInfo" {
				chain(outer)
			}
		}
	}
}

// scopeInfoScript returns the script a ScopeInfo belongs to, following
// outer_scope_info to one attributeScopeInfos assigned, and remembering the
// answer (-1 for none) along the way.
func (s *Snapshot) scopeInfoScript(info uint32, owner map[uint32]int64) (uint32, bool) {
	var visited []uint32
	script := int64(-1)
	seen := map[uint32]bool{}
	for cur := info; !seen[cur]; {
		if o, ok := owner[cur]; ok {
			script = o
			break
		}
		seen[cur] = true
		visited = append(visited, cur)
		if id, ok := s.internalInt(cur, "scope_id"); ok && id == rootScopeID {
			break
		}
		outer, ok := s.internal(cur, "outer_scope_info")
		if !ok {
			break
		}
		cur = outer
	}
	for _, v := range visited {
		owner[v] = script
	}
	return uint32(script), script >= 0
}

// scopeName is the name of the function whose scope a ScopeInfo describes:
// its function_name field, or the name of the function sharing it.
func (s *Snapshot) scopeName(info uint32) string {
	if fn, ok := s.internal(info, "function_name"); ok {
		return s.name(fn)
	}
	for r := s.firstRetainer[info]; r < s.firstRetainer[info+1]; r++ {
		e := s.retainerEdge[r]
		if s.isEdge(e, s.et.internal) && s.strings.get(s.edgeName[e]) == "name_or_scope_info" {
			if name, ok := strings.CutPrefix(s.rawName(s.retainerNode[r]), "system / SharedFunctionInfo / "); ok {
				return name
			}
		}
	}
	return ""
}

// HasScopeData reports whether the snapshot has the scope tables
// AnalyzeContexts needs.
func (s *Snapshot) HasScopeData() bool { return len(s.scopes.scopes) > 0 }
