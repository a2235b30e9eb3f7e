package cdp

// HeapProfiler domain commands and events we use, as small typed structs.

// TakeHeapSnapshotParams are the parameters of HeapProfiler.takeHeapSnapshot.
// The snapshot itself arrives as HeapProfiler.addHeapSnapshotChunk events
// before the reply. CaptureNumericValue names number objects by their
// value instead of "heap number".
type TakeHeapSnapshotParams struct {
	ReportProgress      bool `json:"reportProgress,omitempty"`
	CaptureNumericValue bool `json:"captureNumericValue,omitempty"`
}

// AddHeapSnapshotChunkEvent is HeapProfiler.addHeapSnapshotChunk: the next
// piece of the snapshot's JSON text.
type AddHeapSnapshotChunkEvent struct {
	Chunk string `json:"chunk"`
}

// ReportHeapSnapshotProgressEvent is HeapProfiler.reportHeapSnapshotProgress:
// Done of Total objects were serialized; Finished marks the last report.
type ReportHeapSnapshotProgressEvent struct {
	Done     int  `json:"done"`
	Total    int  `json:"total"`
	Finished bool `json:"finished,omitempty"`
}

// The HeapProfiler domain's commands and events.
var (
	HeapProfilerEnable                     = Action{"HeapProfiler.enable"}
	HeapProfilerCollectGarbage             = Action{"HeapProfiler.collectGarbage"}
	HeapProfilerTakeHeapSnapshot           = Command[TakeHeapSnapshotParams, Empty]{"HeapProfiler.takeHeapSnapshot"}
	HeapProfilerAddHeapSnapshotChunk       = Event[AddHeapSnapshotChunkEvent]{"HeapProfiler.addHeapSnapshotChunk"}
	HeapProfilerReportHeapSnapshotProgress = Event[ReportHeapSnapshotProgressEvent]{"HeapProfiler.reportHeapSnapshotProgress"}
)
