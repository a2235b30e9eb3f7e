package browser

import (
	"context"
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
func (pr Profiler) TakeHeapSnapshot(ctx context.Context, w io.Writer, progress HeapSnapshotProgress) (int64, error) {
	s, err := pr.page.Session(ctx)
	if err != nil {
		return 0, err
	}
	if err := cdp.HeapProfilerEnable.Do(ctx, s); err != nil {
		return 0, fmt.Errorf("heap snapshot: %w", err)
	}
	if err := cdp.HeapProfilerCollectGarbage.Do(ctx, s); err != nil {
		return 0, fmt.Errorf("heap snapshot: %w", err)
	}

	// The chunks are written on the subscription's goroutine as they come;
	// Chrome sends every one before its reply, so once the reply is in and
	// the subscription synced, the snapshot is whole.
	hw := &heapWriter{w: w, progress: progress}
	sub := s.SubscribeFunc(hw.onEvent, cdp.HeapProfilerAddHeapSnapshotChunk, cdp.HeapProfilerReportHeapSnapshotProgress)
	defer func() {
		sub.Close()
		<-sub.Done() // nothing is written to w after the return
	}()
	callErr := cdp.HeapProfilerTakeHeapSnapshot.Do(ctx, s, cdp.TakeHeapSnapshotParams{ReportProgress: true, CaptureNumericValue: true})
	syncErr := sub.Sync(ctx)
	hw.mu.Lock()
	defer hw.mu.Unlock()
	switch {
	case callErr != nil:
		return hw.written, fmt.Errorf("heap snapshot: %w", callErr)
	case syncErr != nil:
		return hw.written, fmt.Errorf("heap snapshot: %w", syncErr)
	}
	return hw.written, hw.err
}

// heapWriter writes the chunks of a heap snapshot as they arrive.
type heapWriter struct {
	w        io.Writer
	progress HeapSnapshotProgress

	mu      sync.Mutex
	written int64
	err     error // the first failure; later chunks are skipped
}

func (hw *heapWriter) onEvent(ev Event) {
	switch ev.Method {
	case cdp.HeapProfilerAddHeapSnapshotChunk.Method:
		hw.mu.Lock()
		defer hw.mu.Unlock()
		if hw.err != nil {
			return
		}
		chunk, err := cdp.HeapProfilerAddHeapSnapshotChunk.Decode(ev.Params)
		if err != nil {
			hw.err = fmt.Errorf("heap snapshot chunk: %w", err)
			return
		}
		n, err := io.WriteString(hw.w, chunk.Chunk)
		hw.written += int64(n)
		if err != nil {
			hw.err = fmt.Errorf("heap snapshot: %w", err)
		}
	case cdp.HeapProfilerReportHeapSnapshotProgress.Method:
		if r, err := cdp.HeapProfilerReportHeapSnapshotProgress.Decode(ev.Params); err == nil && hw.progress != nil {
			hw.progress(r.Done, r.Total)
		}
	}
}
