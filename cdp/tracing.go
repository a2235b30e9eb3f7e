package cdp

// Tracing and IO domain commands and events we use, as small typed structs.

// TraceConfig is the recording configuration of Tracing.start.
type TraceConfig struct {
	// RecordMode is recordUntilFull, recordContinuously, recordAsMuchAsPossible
	// or echoToConsole.
	RecordMode         string   `json:"recordMode,omitempty"`
	TraceBufferSizeKB  int      `json:"traceBufferSizeInKb,omitempty"`
	IncludedCategories []string `json:"includedCategories,omitempty"`
	ExcludedCategories []string `json:"excludedCategories,omitempty"`
}

// TracingStartParams are the parameters of Tracing.start. TransferMode
// ReturnAsStream makes Chrome keep the trace and hand a stream handle over
// in Tracing.tracingComplete, to be read with IO.read.
type TracingStartParams struct {
	TransferMode      string       `json:"transferMode,omitempty"`
	StreamFormat      string       `json:"streamFormat,omitempty"`
	StreamCompression string       `json:"streamCompression,omitempty"`
	TraceConfig       *TraceConfig `json:"traceConfig,omitempty"`
}

// TracingCompleteEvent is Tracing.tracingComplete: the trace was flushed;
// with ReturnAsStream, Stream is the handle to read it from.
type TracingCompleteEvent struct {
	DataLossOccurred  bool   `json:"dataLossOccurred"`
	Stream            string `json:"stream,omitempty"`
	TraceFormat       string `json:"traceFormat,omitempty"`
	StreamCompression string `json:"streamCompression,omitempty"`
}

// IOReadParams are the parameters of IO.read. Size is a hint: Chrome may
// return less.
type IOReadParams struct {
	Handle string `json:"handle"`
	Size   int    `json:"size,omitempty"`
}

// IOReadResult is one chunk of a stream. Data is base64 when Base64Encoded
// is set (binary streams), plain text otherwise; EOF marks the last chunk.
type IOReadResult struct {
	Base64Encoded bool   `json:"base64Encoded,omitempty"`
	Data          string `json:"data"`
	EOF           bool   `json:"eof"`
}

// IOCloseParams are the parameters of IO.close.
type IOCloseParams struct {
	Handle string `json:"handle"`
}

// The Tracing domain's commands and events, and the IO commands that read
// the recorded trace.
var (
	TracingStart           = Command[TracingStartParams, Empty]{"Tracing.start"}
	TracingEnd             = Action{"Tracing.end"}
	TracingTracingComplete = Event[TracingCompleteEvent]{"Tracing.tracingComplete"}

	IORead  = Command[IOReadParams, IOReadResult]{"IO.read"}
	IOClose = Command[IOCloseParams, Empty]{"IO.close"}
)
