package tools

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/devtools-mcp/devtools-mcp/internal/browser"
	"github.com/devtools-mcp/devtools-mcp/internal/confine"
	"github.com/devtools-mcp/devtools-mcp/trace"
)

// How long autoStop records after the load event: at least settleMin (the
// reference's window, which catches layout shifts and paints seconds after
// load), then until the page has been quiet for settleQuiet, at most
// settleLimit; traceStopTimeout bounds reading the trace.
const (
	settleMin        = 5 * time.Second
	settleQuiet      = time.Second
	settleLimit      = 8 * time.Second
	traceLoadTimeout = 30 * time.Second
	traceStopTimeout = 2 * time.Minute
)

// traceStore is what the performance tools remember per page: the trace
// being recorded and the report of the last one. Only the last report is
// kept, and pages that were closed are forgotten.
type traceStore struct {
	mu    sync.Mutex
	pages map[*browser.Page]*pageTrace
}

type pageTrace struct {
	running *browser.Trace
	last    *trace.Report
}

// newTraceStore returns an empty store.
func newTraceStore() *traceStore {
	return &traceStore{pages: map[*browser.Page]*pageTrace{}}
}

// get returns p's entry (creating it) and the page another trace runs on,
// if any. It drops the entries of closed pages.
func (s *traceStore) get(p *browser.Page) (entry *pageTrace, busy *browser.Page) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for q, e := range s.pages {
		if st := q.State(); st.Closed && st.Crashed == "" { // closed, not crashed
			delete(s.pages, q)
			continue
		}
		if q != p && e.running != nil {
			busy = q
		}
	}
	entry = s.pages[p]
	if entry == nil {
		entry = &pageTrace{}
		s.pages[p] = entry
	}
	return entry, busy
}

// update changes p's entry under the lock.
func (s *traceStore) update(p *browser.Page, fn func(e *pageTrace)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e := s.pages[p]; e != nil {
		fn(e)
	}
}

func performanceTools() []*Tool {
	return []*Tool{
		define(Tool{
			Name:        "performance_start_trace",
			Description: "Records a performance trace of the page (Core Web Vitals: LCP, CLS, INP, and what slows them). By default it reloads the page, stops once the load settled and answers with the summary.",
			Category:    CategoryPerformance, Scope: ScopePage, Busy: browser.BusyWaits,
			Task: tracesALoad,
		}, performanceStartTrace),
		define(Tool{
			Name:        "performance_stop_trace",
			Description: "Stops the performance trace running on the page and answers with its summary: metrics and insights per navigation.",
			Category:    CategoryPerformance, Scope: ScopePage, Busy: browser.BusyWaits,
		}, performanceStopTrace),
		define(Tool{
			Name:        "performance_analyze_insight",
			Description: "Explains one insight of the page's last performance trace in detail: which requests, elements, scripts and times are involved and what to change. Use the insight set ids and insight names the trace summary lists.",
			Category:    CategoryPerformance, ReadOnly: true, Scope: ScopePage, IgnoresDialog: true,
		}, performanceAnalyzeInsight),
	}
}

// performanceStartTraceArgs are performance_start_trace's arguments.
type performanceStartTraceArgs struct {
	Reload      optBool `json:"reload,omitempty" jsonschema:"Reload the page once tracing has started (default true), to record its load."`
	AutoStop    optBool `json:"autoStop,omitempty" jsonschema:"Stop once the load settled and return the summary (default true); false: stop with performance_stop_trace."`
	IgnoreCache bool    `json:"ignoreCache,omitempty" jsonschema:"Reload bypassing the HTTP cache, as a first visit."`
	FilePath    string  `json:"filePath,omitempty" path:"" jsonschema:"With autoStop: save the raw trace here (.json.gz compressed, .json plain)."`
}

// tracesALoad is performance_start_trace's Task: a trace that stops by
// itself (the default) records a whole load.
func tracesALoad(args json.RawMessage) bool {
	var a struct {
		AutoStop *bool `json:"autoStop"`
	}
	_ = json.Unmarshal(args, &a)
	return a.AutoStop == nil || *a.AutoStop
}

// performanceStartTrace runs performance_start_trace.
func performanceStartTrace(ctx context.Context, c *Call, args *performanceStartTraceArgs) error {
	entry, busy := c.sess.traces.get(c.Page)
	if entry.running != nil {
		return fmt.Errorf("a performance trace is already running on page %d; stop it with performance_stop_trace first (one trace at a time)", c.Page.ID)
	}
	if busy != nil {
		return fmt.Errorf("a performance trace is already running on page %d; stop it with performance_stop_trace (pageId %d) first: Chrome records one trace at a time", busy.ID, busy.ID)
	}
	// The file is checked, and its directory held, now: the trace is
	// written once the load settled, and the path must not lead elsewhere
	// by then.
	var file *confine.Place
	if args.FilePath != "" && args.AutoStop.or(true) {
		p, err := c.place(ctx, "filePath", args.FilePath)
		if err != nil {
			return err
		}
		defer p.Close()
		file = p
	}
	tr, err := c.Page.Profiler().StartTrace(ctx, browser.TraceOptions{ScriptSources: true})
	if err != nil {
		return err
	}
	c.sess.traces.update(c.Page, func(e *pageTrace) { e.running = tr })
	if args.Reload.or(true) {
		lctx, cancel := context.WithTimeout(ctx, traceLoadTimeout)
		_, err := c.Page.Navigate(lctx, browser.Navigation{Type: "reload", IgnoreCache: args.IgnoreCache})
		cancel()
		if err != nil && !errors.Is(err, browser.ErrNavigationTimeout) {
			abandon(ctx, c, tr)
			return fmt.Errorf("reload for the trace: %w", err)
		}
	}
	if !args.AutoStop.or(true) {
		c.Resp.Linef("The performance trace is being recorded. Interact with the page if needed, then call performance_stop_trace to stop it and get the summary.")
		return nil
	}
	if err := c.Page.Profiler().WaitSettled(ctx, settleMin, settleQuiet, settleLimit); err != nil {
		abandon(ctx, c, tr)
		return err
	}
	return stopTrace(ctx, c, tr, file, args.FilePath)
}

// performanceStopTraceArgs are performance_stop_trace's arguments.
type performanceStopTraceArgs struct {
	FilePath string `json:"filePath,omitempty" path:"" jsonschema:"Save the raw trace to this file: gzip-compressed when it ends in .gz (e.g. trace.json.gz), plain JSON otherwise (trace.json)."`
}

// performanceStopTrace runs performance_stop_trace.
func performanceStopTrace(ctx context.Context, c *Call, args *performanceStopTraceArgs) error {
	entry, _ := c.sess.traces.get(c.Page)
	if entry.running == nil {
		return fmt.Errorf("no performance trace is running on page %d; start one with performance_start_trace", c.Page.ID)
	}
	var file *confine.Place
	if args.FilePath != "" {
		p, err := c.place(ctx, "filePath", args.FilePath)
		if err != nil {
			return err
		}
		defer p.Close()
		file = p
	}
	return stopTrace(ctx, c, entry.running, file, args.FilePath)
}

// performanceAnalyzeInsightArgs are performance_analyze_insight's arguments.
type performanceAnalyzeInsightArgs struct {
	InsightSetID string `json:"insightSetId" jsonschema:"The insight set, as listed under 'Available insight sets' (e.g. NAVIGATION_0)."`
	InsightName  string `json:"insightName" jsonschema:"The insight, as listed in its set (e.g. LCPBreakdown, RenderBlocking, DocumentLatency)."`
}

// performanceAnalyzeInsight runs performance_analyze_insight.
func performanceAnalyzeInsight(ctx context.Context, c *Call, args *performanceAnalyzeInsightArgs) error {
	entry, _ := c.sess.traces.get(c.Page)
	if entry.last == nil {
		return fmt.Errorf("no performance trace was recorded on page %d yet; record one with performance_start_trace", c.Page.ID)
	}
	text, err := entry.last.InsightDetails(args.InsightSetID, args.InsightName)
	if err != nil {
		return err
	}
	c.Resp.Linef("%s", strings.TrimRight(text, "\n"))
	return nil
}

// abandon stops a trace whose start failed half-way, discarding it. It
// runs even when ctx is done, since the trace must not keep recording.
func abandon(ctx context.Context, c *Call, tr *browser.Trace) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), traceStopTimeout)
	defer cancel()
	_, _ = tr.Stop(ctx, io.Discard)
	c.sess.traces.update(c.Page, func(e *pageTrace) { e.running = nil })
}

// stopTrace stops tr, streams the trace to the parser (and to dest, shown
// as filePath), remembers the report and writes its summary.
func stopTrace(ctx context.Context, c *Call, tr *browser.Trace, dest *confine.Place, filePath string) error {
	defer c.sess.traces.update(c.Page, func(e *pageTrace) { e.running = nil })
	ctx, cancel := context.WithTimeout(ctx, traceStopTimeout)
	defer cancel()

	pr, pw := io.Pipe()
	type parsed struct {
		t   *trace.Trace
		err error
	}
	done := make(chan parsed, 1)
	go func() {
		t, err := trace.Parse(pr)
		pr.CloseWithError(err) // a parse error also ends the stream's copy
		done <- parsed{t, err}
	}()

	var w io.Writer = pw
	var file *traceFile
	if dest != nil {
		f, err := createTraceFile(dest, filePath)
		if err != nil {
			pw.Close()
			<-done
			_, _ = tr.Stop(ctx, io.Discard)
			return err
		}
		file = f
		w = io.MultiWriter(pw, f)
	}
	// The viewport is read before stopping, briefly: a busy page must not
	// hold the trace back. Reading it lets the page report the interactions
	// it handled last (an action answers once its input was handled, before
	// the next paint that Chrome's Event Timing, INP, waits for).
	vctx, vcancel := context.WithTimeout(ctx, 2*time.Second)
	viewport, verr := c.Page.Profiler().TraceViewport(vctx)
	vcancel()
	dataLoss, err := tr.Stop(ctx, w)
	pw.CloseWithError(err)
	res := <-done
	if file != nil {
		if cerr := file.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}
	if res.err != nil {
		return fmt.Errorf("the trace could not be read: %w", res.err)
	}
	if err != nil {
		return err
	}
	c.Resp.Linef("The performance trace has been stopped.")
	if file != nil {
		c.Resp.Linef("The raw trace data was saved to %s.", filePath)
	}
	rep := res.t.Analyze()
	rep.DataLoss = dataLoss
	emu := tr.Emulation()
	rep.CPUThrottling, rep.Network = emu.CPUThrottling, emu.Network
	rep.CruxRequested = c.Server.opts.PerformanceCrux
	if verr == nil {
		rep.Viewport = viewport
	}
	c.sess.traces.update(c.Page, func(e *pageTrace) { e.last = rep })
	summary := strings.TrimRight(rep.Summary(), "\n")
	c.Resp.Linef("%s", summary)
	c.Resp.Set("traceSummary", summary)
	c.Resp.Set("traceInsights", traceInsights(rep))
	return nil
}

// traceFile writes a trace to disk, gzipped for .gz names.
type traceFile struct {
	f  *os.File
	zw *gzip.Writer
}

func createTraceFile(dest *confine.Place, path string) (*traceFile, error) {
	f, err := dest.Create()
	if err != nil {
		return nil, fmt.Errorf("save the trace: %w", err)
	}
	t := &traceFile{f: f}
	if strings.HasSuffix(path, ".gz") {
		t.zw = gzip.NewWriter(f)
	}
	return t, nil
}

func (t *traceFile) Write(p []byte) (int, error) {
	if t.zw != nil {
		return t.zw.Write(p)
	}
	return t.f.Write(p)
}

func (t *traceFile) Close() error {
	var err error
	if t.zw != nil {
		err = t.zw.Close()
	}
	if cerr := t.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("save the trace to %s: %w", t.f.Name(), err)
	}
	return nil
}
