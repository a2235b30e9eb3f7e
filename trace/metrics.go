package trace

import (
	"cmp"
	"slices"
	"strconv"
)

// Thresholds DevTools and Lighthouse use.
const (
	longTask        = 50 * Micro(1000) // a task longer than this blocks input
	clsGap          = 1000 * Micro(1000)
	clsWindowMax    = 5000 * Micro(1000)
	interactionsPer = 50 // INP skips the longest interaction per this many
	// Above these a metric is no longer good, and its breakdown insight
	// fails: LCP 2.5 s, INP 200 ms, CLS 0.1 (Web Vitals' thresholds).
	lcpGood = 2500 * Micro(1000)
	inpGood = 200 * Micro(1000)
	clsGood = 0.1
)

// Metrics are the lab metrics of one insight set. Times are relative to
// the navigation start; None marks a metric the trace does not have.
type Metrics struct {
	TTFB Micro
	FCP  Micro
	LCP  Micro
	// LCPEvent is the trace time of the LCP candidate.
	LCPEvent Micro
	// LCPNode is the DOM node id of the LCP element, LCPNodeName its
	// description (e.g. "IMG id='hero'"), LCPType image or text.
	LCPNode     int
	LCPNodeName string
	LCPType     string
	// LCPImage is the LCP image's URL, LCPRequest its request when it was
	// fetched during the trace.
	LCPImage    string
	LCPRequest  *Request
	LCPParts    []Phase // the LCP breakdown
	lcpLoading  string  // the loading attribute of the LCP image
	CLS         float64
	CLSWindow   []*LayoutShift // the shifts of the worst session window
	INP         Micro
	Interaction *Interaction // the one that gives INP
	TBT         Micro
	LongTasks   []Task // the main thread's tasks over 50 ms, longest first
}

// None marks a metric that could not be measured.
const None Micro = -1

// Phase is one part of a breakdown (of LCP, of an interaction).
type Phase struct {
	Name   string
	Bounds Bounds
}

// Dur is the phase's length.
func (p Phase) Dur() Micro { return p.Bounds.Max - p.Bounds.Min }

// Task is a long main-thread task and where its time went.
type Task struct {
	Start, Dur Micro
	Breakdown  []Part // by category, largest first
	Scripts    []Part // by script location, largest first (at most 3)
}

// Part is time spent on one thing.
type Part struct {
	Name string
	Dur  Micro
}

// set is the context the metrics and insights of one insight set are
// computed in.
type set struct {
	t      *Trace
	nav    *Navigation // nil for a trace without navigation
	bounds Bounds
	main   int32 // the main thread, -1 when unknown
	doc    *Request
	m      Metrics
	byID   map[string]*Request
}

// mainThread returns the renderer main thread the set's work ran on.
func (t *Trace) mainThread(nav *Navigation) int32 {
	best, bestTime := int32(-1), Micro(-1)
	for i, th := range t.Threads {
		if nav != nil {
			if th.PID == nav.PID && th.TID == nav.TID {
				return int32(i)
			}
			continue
		}
		if th.Name != "CrRendererMain" {
			continue
		}
		if t.mainPID != 0 && th.PID == t.mainPID {
			return int32(i)
		}
		lo, hi := t.threadSlices(int32(i))
		var busy Micro
		for _, s := range t.slices[lo:hi] {
			if s.kind == kindTask {
				busy += s.dur
			}
		}
		if busy > bestTime {
			best, bestTime = int32(i), busy
		}
	}
	return best
}

// metrics computes the lab metrics of the set.
func (s *set) metrics() {
	m := &s.m
	*m = Metrics{TTFB: None, FCP: None, LCP: None, INP: None, TBT: None}
	if s.nav != nil {
		start := s.nav.Start
		if s.doc != nil && s.doc.ResponseStart > 0 {
			m.TTFB = s.doc.ResponseStart - start
		}
		for _, p := range s.t.paints {
			if p.fcp && p.nav == s.nav.ID {
				m.FCP = p.ts - start
				break
			}
		}
		s.lcp()
	}
	s.cls()
	s.inp()
	s.tasks()
}

// lcp finds the navigation's final LCP candidate and its breakdown.
func (s *set) lcp() {
	m := &s.m
	var last *lcpCandidate
	for i := range s.t.lcps {
		if c := &s.t.lcps[i]; c.nav == s.nav.ID && (last == nil || c.ts >= last.ts) {
			last = c
		}
	}
	if last == nil {
		return
	}
	for _, g := range s.t.lcpGone {
		if g.frame == last.frame && g.ts > last.ts && s.bounds.Contains(g.ts) {
			return // the LCP element was removed: no LCP
		}
	}
	start := s.nav.Start
	m.LCP, m.LCPEvent = last.ts-start, last.ts
	m.LCPNode, m.LCPNodeName, m.LCPType, m.lcpLoading = last.nodeID, last.nodeName, last.kind, last.loadingAttr
	if last.kind == "image" {
		for _, im := range s.t.images {
			if im.frame == last.frame && im.nodeID == last.nodeID {
				m.LCPImage = im.url
			}
		}
	}
	if m.LCPImage != "" {
		for i := range s.t.Requests {
			r := &s.t.Requests[i]
			if r.URL == m.LCPImage && r.Queued >= start && r.Queued <= last.ts {
				m.LCPRequest = r
				break
			}
		}
	}
	if m.TTFB == None {
		return
	}
	ttfb := start + m.TTFB
	phase := func(name string, from, to Micro) Phase {
		to = max(from, to)
		return Phase{Name: name, Bounds: Bounds{from, to}}
	}
	if r := m.LCPRequest; r != nil {
		reqStart := max(ttfb, r.Queued)
		reqEnd := min(max(reqStart, r.Finish), last.ts)
		m.LCPParts = []Phase{
			phase("TTFB", start, ttfb),
			phase("Load delay", ttfb, reqStart),
			phase("Load duration", reqStart, reqEnd),
			phase("Render delay", reqEnd, last.ts),
		}
		return
	}
	m.LCPParts = []Phase{phase("TTFB", start, ttfb), phase("Render delay", ttfb, last.ts)}
}

// cls finds the worst session window of layout shifts: shifts less than
// 1 s apart, at most 5 s long, not caused by recent input.
func (s *set) cls() {
	var best, cur []*LayoutShift
	var bestScore, curScore float64
	for i := range s.t.Shifts {
		sh := &s.t.Shifts[i]
		if sh.HadRecentInput || !s.bounds.Contains(sh.TS) {
			continue
		}
		if len(cur) > 0 && (sh.TS-cur[len(cur)-1].TS > clsGap || sh.TS-cur[0].TS > clsWindowMax) {
			cur, curScore = nil, 0
		}
		cur = append(cur, sh)
		curScore += sh.Score
		if curScore > bestScore {
			best, bestScore = slices.Clone(cur), curScore
		}
	}
	s.m.CLS, s.m.CLSWindow = bestScore, best
}

// interactions returns the interactions of the set, each merged from its
// events (pointerdown, pointerup, click...): from the first input to the
// last paint, processing from the first handler to the last. Its type and
// node are those of the event whose handlers ran longest.
func (s *set) interactions() []*Interaction {
	var out []*Interaction
	var longest []Micro // processing time of the event that gave out[i] its type
	byID := map[int64]int{}
	for i := range s.t.Interactions {
		in := &s.t.Interactions[i]
		if !s.bounds.Contains(in.Start) {
			continue
		}
		proc := in.ProcessingEnd - in.ProcessingStart
		j, ok := byID[in.InteractionID]
		if !ok {
			byID[in.InteractionID] = len(out)
			c := *in
			out = append(out, &c)
			longest = append(longest, proc)
			continue
		}
		m := out[j]
		m.Start, m.End = min(m.Start, in.Start), max(m.End, in.End)
		m.ProcessingStart, m.ProcessingEnd = min(m.ProcessingStart, in.ProcessingStart), max(m.ProcessingEnd, in.ProcessingEnd)
		if proc > longest[j] {
			longest[j], m.Type = proc, in.Type
			if in.NodeID != 0 {
				m.NodeID = in.NodeID
			}
		}
		if m.NodeID == 0 {
			m.NodeID = in.NodeID
		}
	}
	return out
}

// inp is the longest interaction, skipping one per 50 interactions.
func (s *set) inp() {
	ins := s.interactions()
	if len(ins) == 0 {
		return
	}
	slices.SortStableFunc(ins, func(a, b *Interaction) int { return cmp.Compare(b.Dur(), a.Dur()) })
	i := min(len(ins)/interactionsPer, len(ins)-1)
	s.m.INP, s.m.Interaction = ins[i].Dur(), ins[i]
}

// tasks finds the long tasks of the main thread and the total blocking
// time after FCP.
func (s *set) tasks() {
	if s.main < 0 {
		return
	}
	from := s.bounds.Min
	if s.m.FCP != None {
		from = s.nav.Start + s.m.FCP
	}
	var tbt Micro
	long := map[*slice]*Task{}
	s.t.walk(s.main, s.bounds, func(sl *slice, self Micro, stack []*slice) {
		var root *slice
		if sl.kind == kindTask && len(stack) == 0 {
			root = sl
			if sl.start >= from && sl.dur > longTask {
				tbt += sl.dur - longTask
			}
		} else if len(stack) > 0 && stack[0].kind == kindTask {
			root = stack[0]
		}
		if root == nil || root.dur <= longTask || !s.bounds.Contains(root.start) {
			return
		}
		task := long[root]
		if task == nil {
			task = &Task{Start: root.start, Dur: root.dur}
			long[root] = task
		}
		// Attribute self time to the nearest classified event.
		k := sl.kind
		addPart(&task.Breakdown, categories[k], self)
		if script := s.scriptOf(sl, stack); script != "" {
			addPart(&task.Scripts, script, self)
		}
	})
	if s.m.FCP != None || s.nav == nil {
		s.m.TBT = tbt
	}
	for _, task := range long {
		slices.SortFunc(task.Breakdown, func(a, b Part) int { return cmp.Compare(b.Dur, a.Dur) })
		slices.SortFunc(task.Scripts, func(a, b Part) int { return cmp.Compare(b.Dur, a.Dur) })
		if len(task.Scripts) > 3 {
			task.Scripts = task.Scripts[:3]
		}
		s.m.LongTasks = append(s.m.LongTasks, *task)
	}
	slices.SortFunc(s.m.LongTasks, func(a, b Task) int { return cmp.Or(cmp.Compare(b.Dur, a.Dur), cmp.Compare(a.Start, b.Start)) })
}

// scriptOf names the script location a slice's time belongs to: its own
// or its nearest ancestor's with a URL.
func (s *set) scriptOf(sl *slice, stack []*slice) string {
	if d := s.t.detailOf(sl); d != nil && d.url != "" {
		return d.location()
	}
	for i := len(stack) - 1; i >= 0; i-- {
		if d := s.t.detailOf(stack[i]); d != nil && d.url != "" {
			return d.location()
		}
	}
	return ""
}

func (t *Trace) detailOf(sl *slice) *detail {
	if sl.detail < 0 {
		return nil
	}
	return &t.details[sl.detail]
}

// location is "function (url:line:col)" for a script event.
func (d *detail) location() string {
	fn := d.function
	if fn == "" {
		fn = "(anonymous)"
	}
	return fn + " (" + d.url + ":" + strconv.Itoa(d.line+1) + ":" + strconv.Itoa(d.col+1) + ")"
}

func addPart(parts *[]Part, name string, d Micro) {
	if d <= 0 {
		return
	}
	for i := range *parts {
		if (*parts)[i].Name == name {
			(*parts)[i].Dur += d
			return
		}
	}
	*parts = append(*parts, Part{Name: name, Dur: d})
}
