package trace

import "bytes"

// kind classifies the complete ('X') events kept from the main threads.
type kind uint8

const (
	kindNone    kind = iota
	kindTask         // RunTask: a top-level task of a thread
	kindScript       // JavaScript: script evaluation, function calls, timers, events
	kindCompile      // script compilation
	kindStyle        // style recalculation
	kindLayout       // layout
	kindPaint        // paint, pre-paint, layerize, commit
	kindParse        // HTML and CSS parsing
	kindGC           // garbage collection
)

// categories names the groups of a task breakdown, by kind.
var categories = [...]string{
	kindNone: "Other", kindTask: "Other", kindScript: "Script evaluation", kindCompile: "Script parsing & compilation",
	kindStyle: "Style & Layout", kindLayout: "Style & Layout", kindPaint: "Rendering", kindParse: "Parse HTML & CSS",
	kindGC: "Garbage collection",
}

// kindOf classifies an event name; kindNone for events not kept.
func kindOf(name []byte) kind {
	switch string(name) {
	case "RunTask", "ThreadControllerImpl::RunTask":
		return kindTask
	case "EvaluateScript", "FunctionCall", "TimerFire", "EventDispatch", "FireAnimationFrame", "FireIdleCallback",
		"RunMicrotasks", "XHRReadyStateChange", "XHRLoad", "v8.evaluateModule", "v8.run", "v8.callFunction":
		return kindScript
	case "v8.compile", "v8.compileModule", "V8.CompileCode", "v8.parseOnBackground", "CacheScript":
		return kindCompile
	case "UpdateLayoutTree", "RecalculateStyles", "ScheduleStyleRecalculation":
		return kindStyle
	case "Layout":
		return kindLayout
	case "Paint", "PrePaint", "Layerize", "Commit", "UpdateLayer", "PaintImage", "Decode Image", "CompositeLayers":
		return kindPaint
	case "ParseHTML", "ParseAuthorStyleSheet":
		return kindParse
	case "MajorGC", "MinorGC", "BlinkGC.AtomicPhase":
		return kindGC
	}
	if bytes.HasPrefix(name, []byte("V8.GC_")) || bytes.HasPrefix(name, []byte("V8.GCScavenger")) {
		return kindGC
	}
	return kindNone
}

// slice is one kept complete event of a thread.
type slice struct {
	start, dur Micro
	thread     int32
	kind       kind
	detail     int32 // index into Trace.details, -1 when none
}

func (s *slice) end() Micro { return s.start + s.dur }

// detail is what some slices carry besides their time: the script of a
// function call, the size of a layout, the type of an event.
type detail struct {
	name     string // event name
	url      string
	function string
	line     int
	col      int
	count    int // Layout: dirty objects; UpdateLayoutTree: elements
	typ      string
}

// addSlice keeps a complete event of interest.
func (b *builder) addSlice(ev *event, k kind) {
	s := slice{start: Micro(ev.ts), dur: Micro(ev.dur), thread: b.thread(ev.pid, ev.tid), kind: k, detail: -1}
	if d, ok := b.detail(ev); ok {
		s.detail = int32(len(b.t.details))
		b.t.details = append(b.t.details, d)
	}
	b.t.slices = append(b.t.slices, s)
}

// detail reads the args a slice's analysis uses.
func (b *builder) detail(ev *event) (detail, bool) {
	switch n := string(ev.name); n {
	case "FunctionCall", "EvaluateScript", "v8.compile", "TimerFire", "EventDispatch", "FireAnimationFrame":
		var a struct {
			Data struct {
				URL          string
				FunctionName string
				LineNumber   int
				ColumnNumber int
				Type         string
			}
		}
		if !decode(ev, &a) {
			return detail{}, false
		}
		d := a.Data
		if d.URL == "" && d.Type == "" {
			return detail{}, false
		}
		return detail{name: n, url: b.intern(d.URL), function: b.intern(d.FunctionName), line: d.LineNumber, col: d.ColumnNumber, typ: d.Type}, true
	case "Layout":
		var a struct {
			BeginData struct{ DirtyObjects int }
		}
		if decode(ev, &a) {
			return detail{name: n, count: a.BeginData.DirtyObjects}, true
		}
	case "UpdateLayoutTree":
		var a struct{ ElementCount int }
		if decode(ev, &a) {
			return detail{name: n, count: a.ElementCount}, true
		}
	}
	return detail{}, false
}

// walk visits the slices of thread in order with their self time and
// their ancestors (outermost first). fn must not keep the stack.
func (t *Trace) walk(thread int32, within Bounds, fn func(s *slice, self Micro, stack []*slice)) {
	lo, hi := t.threadSlices(thread)
	var stack []*slice
	var selfs []Micro
	flush := func(keep int) {
		for len(stack) > keep {
			n := len(stack) - 1
			s := stack[n]
			self := selfs[n]
			stack, selfs = stack[:n], selfs[:n]
			fn(s, max(self, 0), stack)
		}
	}
	for i := lo; i < hi; i++ {
		s := &t.slices[i]
		if s.end() < within.Min || s.start > within.Max {
			continue
		}
		keep := len(stack)
		for keep > 0 && stack[keep-1].end() <= s.start {
			keep--
		}
		flush(keep)
		if len(stack) > 0 {
			selfs[len(selfs)-1] -= min(s.dur, stack[len(stack)-1].end()-s.start)
		}
		stack = append(stack, s)
		selfs = append(selfs, s.dur)
	}
	flush(0)
}

// threadSlices returns the index range of thread's slices.
func (t *Trace) threadSlices(thread int32) (lo, hi int) {
	lo = searchSlices(t.slices, func(s *slice) bool { return s.thread >= thread })
	hi = searchSlices(t.slices, func(s *slice) bool { return s.thread > thread })
	return lo, hi
}

func searchSlices(s []slice, ok func(*slice) bool) int {
	lo, hi := 0, len(s)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if !ok(&s[m]) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}
