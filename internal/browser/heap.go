package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// HeapSnapshotProgress is called while a heap snapshot is taken: done of
// total objects were serialized so far.
type HeapSnapshotProgress func(done, total int)

// TakeHeapSnapshot collects garbage in the page's JavaScript heap, then takes
// a heap snapshot and streams its JSON text to w chunk by chunk as Chrome
// sends it, without holding the whole snapshot in memory. progress, if not
// nil, is called as Chrome reports how far it got. It returns the number of
// bytes written. Numbers are captured with their values, which also tells
// the scope ids and positions of closure contexts.
//
// The heap profiler stays enabled afterwards: disabling it would forget the
// object ids that let two snapshots of the page be compared.
func (p *Page) TakeHeapSnapshot(ctx context.Context, w io.Writer, progress HeapSnapshotProgress) (int64, error) {
	s, err := p.Session(ctx)
	if err != nil {
		return 0, err
	}
	if err := cdp.HeapProfilerEnable.Do(ctx, s); err != nil {
		return 0, fmt.Errorf("heap snapshot: %w", err)
	}
	if err := cdp.HeapProfilerCollectGarbage.Do(ctx, s); err != nil {
		return 0, fmt.Errorf("heap snapshot: %w", err)
	}

	q := &eventQueue{ready: make(chan struct{}, 1)}
	stop := s.Listen(func(method string, params json.RawMessage) {
		if method == cdp.HeapProfilerAddHeapSnapshotChunk.Method || method == cdp.HeapProfilerReportHeapSnapshotProgress.Method {
			q.push(Event{SessionID: s.ID, Method: method, Params: params})
		}
	})
	defer stop()

	reply := make(chan error, 1)
	go func() {
		reply <- cdp.HeapProfilerTakeHeapSnapshot.Do(ctx, s, cdp.TakeHeapSnapshotParams{ReportProgress: true, CaptureNumericValue: true})
	}()

	// Chrome sends every chunk before the reply, and the events reach q in
	// order before the reply is delivered: once it came, q holds the rest.
	var written int64
	var writeErr error
	write := func() {
		for _, ev := range q.take() {
			switch ev.Method {
			case cdp.HeapProfilerAddHeapSnapshotChunk.Method:
				if writeErr != nil {
					continue
				}
				chunk, err := cdp.HeapProfilerAddHeapSnapshotChunk.Decode(ev.Params)
				if err != nil {
					writeErr = fmt.Errorf("heap snapshot chunk: %w", err)
					continue
				}
				n, err := io.WriteString(w, chunk.Chunk)
				written += int64(n)
				if err != nil {
					writeErr = fmt.Errorf("heap snapshot: %w", err)
				}
			case cdp.HeapProfilerReportHeapSnapshotProgress.Method:
				if r, err := cdp.HeapProfilerReportHeapSnapshotProgress.Decode(ev.Params); err == nil && progress != nil {
					progress(r.Done, r.Total)
				}
			}
		}
	}
	for {
		select {
		case <-q.ready:
			write()
		case err := <-reply:
			write()
			if err != nil {
				return written, fmt.Errorf("heap snapshot: %w", err)
			}
			return written, writeErr
		}
	}
}

// eventQueue hands events from a CDP listener, which must not block, to the
// goroutine that processes them. It holds only the events not taken yet.
type eventQueue struct {
	mu     sync.Mutex
	events []Event
	ready  chan struct{} // has a value when events is not empty
}

func (q *eventQueue) push(ev Event) {
	q.mu.Lock()
	q.events = append(q.events, ev)
	q.mu.Unlock()
	select {
	case q.ready <- struct{}{}:
	default:
	}
}

// take removes and returns the queued events.
func (q *eventQueue) take() []Event {
	q.mu.Lock()
	defer q.mu.Unlock()
	evs := q.events
	q.events = nil
	return evs
}
