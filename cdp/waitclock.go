package cdp

import (
	"context"
	"slices"
	"sync"
	"time"
)

// WaitClock adds up how long a piece of work (a tool call) waits on
// Chrome: the time during which at least one of its commands is unanswered
// or it awaits an event (Wait), counted once however many overlap. Wall
// time minus this is the time spent in the server's own code. It is safe
// for concurrent use; a nil *WaitClock counts nothing.
type WaitClock struct {
	mu       sync.Mutex
	waiting  int       // waits under way
	since    time.Time // when the first of them began
	total    time.Duration
	commands int
	spans    []Span // with Trace: every wait, in the order begun
	trace    bool
}

// Span is one wait on Chrome: a command's round trip (Name is its method)
// or the wait for an event ("wait"), from Start to End.
type Span struct {
	Name       string
	Start, End time.Time
}

// maxSpans bounds the spans one clock keeps: a call that sends more (a
// heap snapshot's chunks, a long trace) keeps its first ones.
const maxSpans = 200

// Trace makes w also keep each wait's span (see Spans), for the log of a
// call's CDP timeline. It must be called before w is used.
func (w *WaitClock) Trace() { w.trace = true }

// Spans returns the spans kept so far with Trace, a wait under way ending
// now.
func (w *WaitClock) Spans() []Span {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	spans := slices.Clone(w.spans)
	for i := range spans {
		if spans[i].End.IsZero() {
			spans[i].End = time.Now()
		}
	}
	return spans
}

type waitClockKey struct{}

// WithWaitClock returns ctx carrying w: the commands sent with the context
// and the waits begun with it count on w.
func WithWaitClock(ctx context.Context, w *WaitClock) context.Context {
	return context.WithValue(ctx, waitClockKey{}, w)
}

// WaitClockFrom returns the WaitClock ctx carries, or nil.
func WaitClockFrom(ctx context.Context) *WaitClock {
	w, _ := ctx.Value(waitClockKey{}).(*WaitClock)
	return w
}

// Wait marks the start of a wait on Chrome (an event, a reply); the
// function it returns marks its end and must be called once.
func (w *WaitClock) Wait() (end func()) { return w.wait("wait") }

// wait is Wait, its span (with Trace) named name.
func (w *WaitClock) wait(name string) (end func()) {
	if w == nil {
		return func() {}
	}
	now := time.Now()
	w.mu.Lock()
	if w.waiting == 0 {
		w.since = now
	}
	w.waiting++
	span := -1
	if w.trace && len(w.spans) < maxSpans {
		span = len(w.spans)
		w.spans = append(w.spans, Span{Name: name, Start: now})
	}
	w.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			now := time.Now()
			w.mu.Lock()
			w.waiting--
			if w.waiting == 0 {
				w.total += now.Sub(w.since)
			}
			if span >= 0 {
				w.spans[span].End = now
			}
			w.mu.Unlock()
		})
	}
}

// Total returns the time waited so far (including a wait under way) and
// the number of commands sent.
func (w *WaitClock) Total() (time.Duration, int) {
	if w == nil {
		return 0, 0
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	t := w.total
	if w.waiting > 0 {
		t += time.Since(w.since)
	}
	return t, w.commands
}

// command counts a command of method and starts its wait.
func (w *WaitClock) command(method string) (end func()) {
	if w == nil {
		return func() {}
	}
	w.mu.Lock()
	w.commands++
	w.mu.Unlock()
	return w.wait(method)
}
