// Package trace reads Chrome performance traces (the JSON trace event
// format that DevTools records) and computes the page-load and
// responsiveness metrics and the insights DevTools' performance panel shows:
// LCP and its breakdown, CLS and its culprits, INP, render-blocking
// requests, and so on.
//
// Parse streams the trace once and keeps only what the metrics need, in
// flat slices; Analyze computes the metrics and insights per navigation.
package trace

import (
	"cmp"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Micro is a time or duration on the trace clock, in microseconds.
type Micro int64

// Ms returns m in milliseconds.
func (m Micro) Ms() float64 { return float64(m) / 1000 }

// Bounds is a time range of the trace.
type Bounds struct {
	Min, Max Micro
}

// Contains reports whether t is within b.
func (b Bounds) Contains(t Micro) bool { return t >= b.Min && t <= b.Max }

// Thread is one thread of a traced process.
type Thread struct {
	PID, TID int64
	Name     string
}

// Navigation is a main-frame document load.
type Navigation struct {
	ID    string // navigationId; also the request id of the document request
	Frame string
	URL   string
	PID   int64 // the renderer process and its main thread
	TID   int64
	Start Micro
	Load  Micro // the load event, 0 when it did not happen in the trace
}

// LayoutShift is one layout shift.
type LayoutShift struct {
	TS             Micro
	Frame          string
	Score          float64 // weighted score, as counted in CLS
	HadRecentInput bool
	Nodes          []ShiftedNode
}

// ShiftedNode is an element a layout shift moved.
type ShiftedNode struct {
	NodeID int       `json:"node_id"`
	Name   string    `json:"debug_name"`
	Old    []float64 `json:"old_rect"`
	New    []float64 `json:"new_rect"`
}

// Interaction is one event of a user interaction (event timing).
type Interaction struct {
	Type            string // pointerdown, click, keydown, ...
	InteractionID   int64
	Start           Micro // the input's timestamp
	ProcessingStart Micro
	ProcessingEnd   Micro
	End             Micro // the next paint after it
	NodeID          int
	Frame           string
}

// Dur is the interaction's latency.
func (i *Interaction) Dur() Micro { return i.End - i.Start }

// lcpCandidate is one largestContentfulPaint::Candidate.
type lcpCandidate struct {
	ts          Micro
	nav         string
	frame       string
	nodeID      int
	nodeName    string
	kind        string // image or text
	loadingAttr string
}

// imageCandidate is LargestImagePaint::Candidate: which image an LCP
// candidate is.
type imageCandidate struct {
	frame  string
	nodeID int
	url    string
}

// paintMark is a firstPaint or firstContentfulPaint.
type paintMark struct {
	ts    Micro
	nav   string
	frame string
	fcp   bool
}

// imagePaint is a PaintImage: an image drawn at a size.
type imagePaint struct {
	ts                       Micro
	nodeID                   int
	url                      string
	srcW, srcH, dispW, dispH float64
}

// viewportMeta is a parsed <meta name=viewport>.
type viewportMeta struct {
	ts      Micro
	frame   string
	content string
}

// commitFrame is BeginCommitCompositorFrame: whether the frame was
// mobile-optimized when committed.
type commitFrame struct {
	ts     Micro
	frame  string
	mobile bool
}

// domStats is a DOMStats event: the size of a frame's DOM.
type domStats struct {
	ts                    Micro
	frame                 string
	pid                   int64
	total                 int
	depth, children       int
	depthNode, childrenOf string
}

// metaCharset is one MetaCharsetCheck: found-in-first-1024-bytes,
// found-after-first-1024-bytes or not-found.
type metaCharset struct {
	ts          Micro
	frame       string
	disposition string
}

// fontLoad is a BeginRemoteFontLoad: a web font and its font-display.
type fontLoad struct {
	ts      Micro
	request string // request id
	display string
	url     string
}

// Trace is the model of a parsed trace.
type Trace struct {
	Bounds       Bounds
	MainFrame    string
	Threads      []Thread
	Navigations  []Navigation
	Requests     []Request // in the order they were issued
	Shifts       []LayoutShift
	Interactions []Interaction
	// Events is the number of trace events read.
	Events int
	// ScriptSources is set when the trace has the text of scripts (the
	// disabled-by-default-devtools.v8-source-rundown-sources category).
	ScriptSources bool

	slices    []slice // main-thread work, sorted by thread, start, longest first
	details   []detail
	lcps      []lcpCandidate
	lcpGone   []paintMark // largestContentfulPaint::Invalidate
	images    []imageCandidate
	paints    []paintMark
	imgPaints []imagePaint
	viewports []viewportMeta
	commits   []commitFrame
	doms      []domStats
	fonts     []fontLoad
	scripts   []script
	unsized   []int    // node ids of images laid out without a size
	prePaints []Bounds // PrePaint events, where layout shifts are recorded
	// metaCharsets are MetaCharsetCheck events: where the HTML parser
	// found a <meta charset>.
	metaCharsets []metaCharset
	selTimes     []selectorTiming
	selectors    []string // CSS selectors of selTimes, by index
	urlStart     string   // the main frame URL when tracing started
	// tracingStart is when recording began (TracingStartedInBrowser), 0
	// when the trace does not say.
	tracingStart Micro
	mainPID      int64 // the main frame's renderer when tracing started
}

// selectorTiming is the cost of one CSS selector in one style
// recalculation (SelectorStats, recorded with blink.debug).
type selectorTiming struct {
	ts                Micro
	selector          int32 // index into Trace.selectors
	elapsed           Micro
	attempts, matches int64
}

// builder accumulates the model while events stream in.
type builder struct {
	t       *Trace
	threads map[[2]int64]int32
	reqs    map[string]int32
	strs    map[string]string // interned URLs and names
	sels    map[string]int32  // selector indexes
	scripts map[string]int32  // script indexes by isolate and script id
	// willSend holds, by request id, the first ResourceWillSendRequest
	// (logged when each hop really starts) and how many there were.
	willSend map[string]willSend
}

func newBuilder() *builder {
	return &builder{t: &Trace{Bounds: Bounds{Min: math.MaxInt64, Max: math.MinInt64}}, threads: map[[2]int64]int32{}, reqs: map[string]int32{}, strs: map[string]string{}, sels: map[string]int32{}, scripts: map[string]int32{}, willSend: map[string]willSend{}}
}

// intern returns a shared copy of s, so repeated URLs are stored once.
func (b *builder) intern(s string) string {
	if v, ok := b.strs[s]; ok {
		return v
	}
	b.strs[s] = s
	return s
}

func (b *builder) thread(pid, tid int64) int32 {
	k := [2]int64{pid, tid}
	if i, ok := b.threads[k]; ok {
		return i
	}
	i := int32(len(b.t.Threads))
	b.t.Threads = append(b.t.Threads, Thread{PID: pid, TID: tid})
	b.threads[k] = i
	return i
}

// decode unmarshals the event's args into v, reporting success.
func decode(ev *event, v any) bool {
	return ev.args != nil && json.Unmarshal(ev.args, v) == nil
}

// add takes one event into the model.
func (b *builder) add(ev *event) {
	t := b.t
	t.Events++
	ts := Micro(ev.ts)
	if ev.ph != 'M' && ev.ts > 0 {
		t.Bounds.Min = min(t.Bounds.Min, ts)
		t.Bounds.Max = max(t.Bounds.Max, ts+Micro(ev.dur))
	}
	if ev.ph == 'X' {
		switch string(ev.name) {
		case "PaintImage":
			b.paintImage(ev, ts)
		case "PrePaint":
			t.prePaints = append(t.prePaints, Bounds{ts, ts + Micro(ev.dur)})
		}
		if k := kindOf(ev.name); k != kindNone {
			b.addSlice(ev, k)
			return
		}
	}
	switch string(ev.name) {
	case "thread_name":
		var a struct{ Name string }
		if ev.ph == 'M' && decode(ev, &a) {
			t.Threads[b.thread(ev.pid, ev.tid)].Name = a.Name
		}
	case "TracingStartedInBrowser", "FrameCommittedInBrowser":
		if ev.name[0] == 'T' && (t.tracingStart == 0 || ts < t.tracingStart) {
			t.tracingStart = ts
		}
		b.frames(ev)
	case "navigationStart":
		b.navigationStart(ev, ts)
	case "MarkLoad":
		var a struct {
			Data struct {
				Frame       string
				IsMainFrame bool
			}
		}
		if decode(ev, &a) && a.Data.IsMainFrame {
			for i := len(t.Navigations) - 1; i >= 0; i-- {
				if n := &t.Navigations[i]; n.Frame == a.Data.Frame && n.Start <= ts {
					n.Load = ts
					break
				}
			}
		}
	case "ResourceSendRequest", "ResourceWillSendRequest", "ResourceChangePriority", "ResourceReceiveResponse", "ResourceFinish":
		b.network(ev, ts)
	case "firstContentfulPaint", "firstPaint":
		var a struct {
			Frame string
			Data  struct{ NavigationID string }
		}
		if decode(ev, &a) {
			t.paints = append(t.paints, paintMark{ts: ts, nav: a.Data.NavigationID, frame: a.Frame, fcp: ev.name[0] == 'f' && ev.name[5] == 'C'})
		}
	case "largestContentfulPaint::Candidate":
		var a struct {
			Frame string
			Data  struct {
				NavigationID string
				NodeID       int
				NodeName     string
				Type         string
				LoadingAttr  string
				IsMainFrame  *bool
			}
		}
		if decode(ev, &a) && (a.Data.IsMainFrame == nil || *a.Data.IsMainFrame) {
			t.lcps = append(t.lcps, lcpCandidate{ts: ts, nav: a.Data.NavigationID, frame: a.Frame, nodeID: a.Data.NodeID,
				nodeName: b.intern(a.Data.NodeName), kind: a.Data.Type, loadingAttr: a.Data.LoadingAttr})
		}
	case "largestContentfulPaint::Invalidate":
		var a struct{ Frame string }
		if decode(ev, &a) {
			t.lcpGone = append(t.lcpGone, paintMark{ts: ts, frame: a.Frame})
		}
	case "LargestImagePaint::Candidate":
		var a struct {
			Frame string
			Data  struct {
				DOMNodeID int    `json:"DOMNodeId"`
				ImageURL  string `json:"imageUrl"`
			}
		}
		if decode(ev, &a) {
			t.images = append(t.images, imageCandidate{frame: a.Frame, nodeID: a.Data.DOMNodeID, url: b.intern(a.Data.ImageURL)})
		}
	case "LayoutShift":
		b.layoutShift(ev, ts)
	case "SelectorStats":
		b.selectorStats(ev, ts)
	case "LayoutImageUnsized":
		var a struct{ Data struct{ NodeID int } }
		if decode(ev, &a) {
			t.unsized = append(t.unsized, a.Data.NodeID)
		}
	case "MetaCharsetCheck":
		var a struct {
			Data struct{ Frame, Disposition string }
		}
		if decode(ev, &a) && a.Data.Disposition != "" {
			t.metaCharsets = append(t.metaCharsets, metaCharset{ts: ts, frame: a.Data.Frame, disposition: a.Data.Disposition})
		}
	case "EventTiming":
		b.eventTiming(ev, ts)
	case "ParseMetaViewport":
		var a struct {
			Data struct{ Frame, Content string }
		}
		if decode(ev, &a) {
			t.viewports = append(t.viewports, viewportMeta{ts: ts, frame: a.Data.Frame, content: a.Data.Content})
		}
	case "BeginCommitCompositorFrame":
		var a struct {
			Frame             string
			IsMobileOptimized bool `json:"is_mobile_optimized"`
		}
		if decode(ev, &a) {
			t.commits = append(t.commits, commitFrame{ts: ts, frame: a.Frame, mobile: a.IsMobileOptimized})
		}
	case "DOMStats":
		var a struct {
			Data struct {
				Frame         string
				TotalElements int
				MaxDepth      struct {
					Depth    int
					NodeName string
				}
				MaxChildren struct {
					NumChildren int
					NodeName    string
				}
			}
		}
		if decode(ev, &a) {
			t.doms = append(t.doms, domStats{ts: ts, frame: a.Data.Frame, pid: ev.pid, total: a.Data.TotalElements,
				depth: a.Data.MaxDepth.Depth, depthNode: a.Data.MaxDepth.NodeName,
				children: a.Data.MaxChildren.NumChildren, childrenOf: a.Data.MaxChildren.NodeName})
		}
	case "ScriptCatchup", "LargeScriptCatchup":
		b.scriptEvent(ev, ts)
	case "BeginRemoteFontLoad":
		var a struct {
			Display string
			ID      json.Number
			URL     string
		}
		if decode(ev, &a) {
			t.fonts = append(t.fonts, fontLoad{ts: ts, request: b.intern(strconv.FormatInt(ev.pid, 10) + "." + a.ID.String()), display: a.Display, url: a.URL})
		}
	}
}

// frames learns the main frame from TracingStartedInBrowser and
// FrameCommittedInBrowser.
func (b *builder) frames(ev *event) {
	type frame struct {
		Frame                string
		URL                  string
		ProcessID            int64
		Parent               string
		IsOutermostMainFrame *bool
	}
	var a struct {
		Data struct {
			frame
			Frames []frame
		}
	}
	if !decode(ev, &a) {
		return
	}
	all := append(a.Data.Frames, a.Data.frame)
	for _, f := range all {
		if f.Frame == "" || f.Parent != "" || f.IsOutermostMainFrame != nil && !*f.IsOutermostMainFrame {
			continue
		}
		if b.t.MainFrame == "" {
			b.t.MainFrame = f.Frame
			b.t.urlStart = f.URL
			b.t.mainPID = f.ProcessID
		}
	}
}

func (b *builder) navigationStart(ev *event, ts Micro) {
	var a struct {
		Frame string
		Data  struct {
			DocumentLoaderURL    string
			IsLoadingMainFrame   bool
			IsOutermostMainFrame *bool
			NavigationID         string
		}
	}
	if !decode(ev, &a) || !a.Data.IsLoadingMainFrame || a.Data.DocumentLoaderURL == "" || a.Data.NavigationID == "" {
		return
	}
	if a.Data.IsOutermostMainFrame != nil && !*a.Data.IsOutermostMainFrame {
		return
	}
	if u := a.Data.DocumentLoaderURL; u == "about:blank" || strings.HasPrefix(u, "chrome://") {
		return
	}
	b.t.Navigations = append(b.t.Navigations, Navigation{ID: a.Data.NavigationID, Frame: a.Frame, URL: b.intern(a.Data.DocumentLoaderURL), PID: ev.pid, TID: ev.tid, Start: ts})
}

func (b *builder) selectorStats(ev *event, ts Micro) {
	var a struct {
		SelectorStats struct {
			SelectorTimings []struct {
				Selector      string
				Elapsed       float64 `json:"elapsed (us)"`
				MatchAttempts int64   `json:"match_attempts"`
				MatchCount    int64   `json:"match_count"`
			} `json:"selector_timings"`
		} `json:"selector_stats"`
	}
	if !decode(ev, &a) {
		return
	}
	for _, st := range a.SelectorStats.SelectorTimings {
		i, ok := b.sels[st.Selector]
		if !ok {
			i = int32(len(b.t.selectors))
			b.sels[st.Selector] = i
			b.t.selectors = append(b.t.selectors, st.Selector)
		}
		b.t.selTimes = append(b.t.selTimes, selectorTiming{ts: ts, selector: i, elapsed: Micro(st.Elapsed), attempts: st.MatchAttempts, matches: st.MatchCount})
	}
}

func (b *builder) paintImage(ev *event, ts Micro) {
	var a struct {
		Data struct {
			URL                                string
			NodeID                             int
			SrcWidth, SrcHeight, Width, Height float64
		}
	}
	if decode(ev, &a) && a.Data.URL != "" {
		d := a.Data
		b.t.imgPaints = append(b.t.imgPaints, imagePaint{ts: ts, nodeID: d.NodeID, url: b.intern(d.URL),
			srcW: d.SrcWidth, srcH: d.SrcHeight, dispW: d.Width, dispH: d.Height})
	}
}

func (b *builder) layoutShift(ev *event, ts Micro) {
	var a struct {
		Frame string
		Data  struct {
			WeightedScoreDelta *float64 `json:"weighted_score_delta"`
			Score              float64
			HadRecentInput     bool          `json:"had_recent_input"`
			ImpactedNodes      []ShiftedNode `json:"impacted_nodes"`
		}
	}
	if !decode(ev, &a) {
		return
	}
	score := a.Data.Score
	if a.Data.WeightedScoreDelta != nil {
		score = *a.Data.WeightedScoreDelta
	}
	for i := range a.Data.ImpactedNodes {
		a.Data.ImpactedNodes[i].Name = b.intern(a.Data.ImpactedNodes[i].Name)
	}
	b.t.Shifts = append(b.t.Shifts, LayoutShift{TS: ts, Frame: a.Frame, Score: score, HadRecentInput: a.Data.HadRecentInput, Nodes: a.Data.ImpactedNodes})
}

func (b *builder) eventTiming(ev *event, ts Micro) {
	if ev.ph != 'b' {
		return
	}
	var a struct {
		Data struct {
			Type            string
			InteractionID   int64
			Duration        float64
			TimeStamp       float64
			ProcessingStart float64
			ProcessingEnd   float64
			NodeID          int
			Frame           string
		}
	}
	if !decode(ev, &a) || a.Data.InteractionID == 0 {
		return
	}
	d := a.Data
	at := func(ms float64) Micro { return ts + Micro((ms-d.TimeStamp)*1000) }
	b.t.Interactions = append(b.t.Interactions, Interaction{
		Type: d.Type, InteractionID: d.InteractionID, Start: ts, End: ts + Micro(d.Duration*1000),
		ProcessingStart: at(d.ProcessingStart), ProcessingEnd: at(d.ProcessingEnd), NodeID: d.NodeID, Frame: d.Frame,
	})
}

// finish sorts what needs sorting and returns the model.
func (b *builder) finish() *Trace {
	t := b.t
	if t.Bounds.Min > t.Bounds.Max {
		t.Bounds = Bounds{}
	}
	b.finishRedirects()
	slices.SortStableFunc(t.Requests, func(x, y Request) int { return cmp.Compare(x.Queued, y.Queued) })
	slices.SortFunc(t.slices, func(x, y slice) int {
		return cmp.Or(cmp.Compare(x.thread, y.thread), cmp.Compare(x.start, y.start), cmp.Compare(y.dur, x.dur))
	})
	slices.SortStableFunc(t.Navigations, func(x, y Navigation) int { return cmp.Compare(x.Start, y.Start) })
	// A navigation that started before recording did (Chrome can log an
	// earlier document's navigationStart late) is not part of this trace.
	t.Navigations = slices.DeleteFunc(t.Navigations, func(n Navigation) bool { return t.tracingStart > 0 && n.Start < t.tracingStart })
	slices.SortStableFunc(t.Shifts, func(x, y LayoutShift) int { return cmp.Compare(x.TS, y.TS) })
	slices.SortStableFunc(t.Interactions, func(x, y Interaction) int { return cmp.Compare(x.Start, y.Start) })
	t.finishScripts()
	return t
}
