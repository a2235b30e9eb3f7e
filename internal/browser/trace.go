package browser

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// TraceCategories are the trace categories DevTools' performance panel
// records by default, with JavaScript sampling: the main-thread timeline,
// loading and network, user timings, layout shifts, paint metrics, event
// timing (interactions) and V8 script rundown. Screenshots are left out:
// no metric needs them. Script sources come with TraceOptions.ScriptSources.
var TraceCategories = []string{
	"blink.console",
	"blink.user_timing",
	"devtools.timeline",
	"disabled-by-default-devtools.target-rundown",
	"disabled-by-default-devtools.timeline",
	"disabled-by-default-devtools.timeline.frame",
	"disabled-by-default-devtools.timeline.stack",
	"disabled-by-default-devtools.v8-source-rundown",
	"disabled-by-default-layout_shift.debug",
	"disabled-by-default-lighthouse",
	"disabled-by-default-v8.cpu_profiler",
	"disabled-by-default-v8.inspector",
	"latencyInfo",
	"loading",
	"navigation",
	"rail",
	"v8",
	"v8.execute",
	"cppgc",
}

// ScriptSourceCategories add the text of every script to the trace (V8's
// source rundown), which the insights on duplicated and legacy JavaScript
// read.
var ScriptSourceCategories = []string{"disabled-by-default-devtools.v8-source-rundown-sources"}

// TraceOptions are what a trace records besides TraceCategories.
type TraceOptions struct {
	// ScriptSources records the text of the page's scripts.
	ScriptSources bool
}

// traceChunk is how much IO.read is asked for at a time.
const traceChunk = 4 << 20

// Trace is a trace being recorded on a page's session. Stop it exactly once.
type Trace struct {
	page      *Page
	session   *cdp.Session
	complete  *cdp.Subscription // Tracing.tracingComplete
	emulation Emulation
}

// Emulation is what the page emulated when the trace started.
func (t *Trace) Emulation() Emulation { return t.emulation }

// StartTrace starts recording a trace with TraceCategories (and what opts
// adds), kept by Chrome until Stop reads it as a stream.
func (pr Profiler) StartTrace(ctx context.Context, opts TraceOptions) (*Trace, error) {
	s, err := pr.page.Session(ctx)
	if err != nil {
		return nil, err
	}
	t := &Trace{page: pr.page, session: s, complete: s.Subscribe(cdp.TracingTracingComplete), emulation: pr.page.Emulator().Current()}
	categories := TraceCategories
	if opts.ScriptSources {
		categories = append(slices.Clip(categories), ScriptSourceCategories...)
	}
	err = cdp.TracingStart.Do(ctx, s, cdp.TracingStartParams{
		TransferMode: "ReturnAsStream",
		StreamFormat: "json",
		TraceConfig: &cdp.TraceConfig{
			RecordMode:         "recordUntilFull",
			IncludedCategories: categories,
			ExcludedCategories: []string{"*"},
		},
	})
	if err != nil {
		t.complete.Close()
		if strings.Contains(err.Error(), "already") {
			return nil, fmt.Errorf("start tracing: %w; another client (or another tab's tool call) is tracing this browser", err)
		}
		return nil, fmt.Errorf("start tracing: %w", err)
	}
	return t, nil
}

// Stop ends the recording and copies the trace, Chrome's JSON trace format,
// to w chunk by chunk as it is read: the trace is never held whole. It
// reports whether Chrome lost data because its trace buffer filled up.
func (t *Trace) Stop(ctx context.Context, w io.Writer) (dataLoss bool, err error) {
	defer t.complete.Close()
	if err := cdp.TracingEnd.Do(ctx, t.session); err != nil {
		return false, fmt.Errorf("stop tracing: %w", err)
	}
	var done cdp.TracingCompleteEvent
	select {
	case ev, ok := <-t.complete.Events():
		if !ok {
			return false, fmt.Errorf("stop tracing: %w", t.session.Conn.Err())
		}
		if done, err = cdp.TracingTracingComplete.Decode(ev.Params); err != nil {
			return false, fmt.Errorf("stop tracing: %s: %w", ev.Method, err)
		}
	case <-ctx.Done():
		return false, fmt.Errorf("stop tracing: waiting for Chrome to flush the trace: %w", ctx.Err())
	}
	if done.Stream == "" {
		return done.DataLossOccurred, errors.New("stop tracing: Chrome returned no trace stream")
	}
	// Free Chrome's copy even when reading failed or ctx ran out.
	defer t.page.cleanUp(ctx, t.session, cdp.IOClose.With(cdp.IOCloseParams{Handle: done.Stream}), cdp.IOClose.Method)
	return done.DataLossOccurred, readStream(ctx, t.session, done.Stream, w, "trace")
}

// readStream copies an IO stream to w until its end; what names the data
// read ("trace") in errors.
func readStream(ctx context.Context, s *cdp.Session, handle string, w io.Writer, what string) error {
	var buf []byte
	for {
		chunk, err := cdp.IORead.Call(ctx, s, cdp.IOReadParams{Handle: handle, Size: traceChunk})
		if err != nil {
			return fmt.Errorf("read %s: %w", what, err)
		}
		data := []byte(chunk.Data)
		if chunk.Base64Encoded {
			n := base64.StdEncoding.DecodedLen(len(chunk.Data))
			if cap(buf) < n {
				buf = make([]byte, n)
			}
			n, err := base64.StdEncoding.Decode(buf[:n], data)
			if err != nil {
				return fmt.Errorf("read %s: bad base64 chunk: %w", what, err)
			}
			data = buf[:n]
		}
		if _, err := w.Write(data); err != nil {
			return fmt.Errorf("read %s: %w", what, err)
		}
		if chunk.EOF {
			return nil
		}
	}
}

// WaitSettled waits until at least atLeast has passed and the page has been
// quiet for quiet: no resource loaded, no long task, layout shift,
// largest-paint candidate or input event (as the page's PerformanceObserver
// sees them); at most limit.
func (pr Profiler) WaitSettled(ctx context.Context, atLeast, quiet, limit time.Duration) error {
	_, err := pr.page.Evaluate(ctx, fmt.Sprintf("(%s)(%d, %d, %d)", waitSettledJS, atLeast.Milliseconds(), quiet.Milliseconds(), limit.Milliseconds()))
	if err != nil && !isContextLost(err) {
		return fmt.Errorf("wait for the page to settle: %w", err)
	}
	return nil
}

// interactionFrames is how many animation frames TraceViewport lets the
// page begin. Chrome writes an interaction's Event Timing (what INP is
// made of) to the trace once the paint after its handlers was presented:
// the first frame is that paint, and the compositor learns it was
// presented with the BeginFrame of the second or the third, before their
// main-thread part. On a loaded machine (two busy cores) a stop after one
// frame missed a quick click's interaction 3 times in 24, after two or
// three frames none in 48.
const interactionFrames = 3

// traceFramesCap bounds that wait: a page that draws no frames (hidden, or
// one that replaced requestAnimationFrame) answers after it.
const traceFramesCap = 250 * time.Millisecond

// TraceViewport describes the page's layout viewport as the trace saw it:
// its size in CSS pixels and its device pixel ratio, e.g. "1280x633 CSS
// pixels at device pixel ratio 1". LCP and CLS depend on it. It answers
// once the page began interactionFrames frames, so that a trace stopped
// next holds the interactions the page handled before it was called.
func (pr Profiler) TraceViewport(ctx context.Context) (string, error) {
	v, err := pr.page.Evaluate(ctx, fmt.Sprintf("(%s)(%d, %d)", traceFramesJS, interactionFrames, traceFramesCap.Milliseconds()))
	if err != nil {
		return "", fmt.Errorf("read the viewport: %w", err)
	}
	var s string
	if err := json.Unmarshal(v.Value, &s); err != nil {
		return "", fmt.Errorf("read the viewport: %s: %w", v.Value, err)
	}
	return s, nil
}
