package cdp

import (
	"context"
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
func (w *WaitClock) Wait() (end func()) {
	if w == nil {
		return func() {}
	}
	w.mu.Lock()
	if w.waiting == 0 {
		w.since = time.Now()
	}
	w.waiting++
	w.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			w.mu.Lock()
			w.waiting--
			if w.waiting == 0 {
				w.total += time.Since(w.since)
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

// command counts a command and starts its wait.
func (w *WaitClock) command() (end func()) {
	if w == nil {
		return func() {}
	}
	w.mu.Lock()
	w.commands++
	w.mu.Unlock()
	return w.Wait()
}
