package cdp

// Fetch domain commands and events we use, as small typed structs: the
// browser-wide request interception that enforces URL patterns.

// The Fetch domain's commands and events.
var (
	FetchEnable          = Command[FetchEnableParams, Empty]{"Fetch.enable"}
	FetchFailRequest     = Command[FailRequestParams, Empty]{"Fetch.failRequest"}
	FetchContinueRequest = Command[ContinueRequestParams, Empty]{"Fetch.continueRequest"}
	FetchRequestPaused   = Event[RequestPausedEvent]{"Fetch.requestPaused"}
)

// RequestPattern selects the requests Fetch pauses; "*" matches every URL.
type RequestPattern struct {
	URLPattern string `json:"urlPattern,omitempty"`
}

// FetchEnableParams are the parameters of Fetch.enable.
type FetchEnableParams struct {
	Patterns []RequestPattern `json:"patterns,omitempty"`
}

// RequestPausedEvent is the part of Fetch.requestPaused we read: a request
// waits for Fetch.continueRequest or Fetch.failRequest.
type RequestPausedEvent struct {
	RequestID string `json:"requestId"`
	Request   struct {
		URL string `json:"url"`
	} `json:"request"`
}

// FailRequestParams are the parameters of Fetch.failRequest. ErrorReason is
// a Network.ErrorReason, such as "BlockedByClient".
type FailRequestParams struct {
	RequestID   string `json:"requestId"`
	ErrorReason string `json:"errorReason"`
}

// ContinueRequestParams are the parameters of Fetch.continueRequest.
type ContinueRequestParams struct {
	RequestID string `json:"requestId"`
}
