package cdp

// Fetch domain commands and events we use, as small typed structs: the
// browser-wide request interception that enforces URL patterns.

// The Fetch domain's commands and events.
var (
	FetchEnable           = Command[FetchEnableParams, Empty]{"Fetch.enable"}
	FetchFailRequest      = Command[FailRequestParams, Empty]{"Fetch.failRequest"}
	FetchContinueRequest  = Command[ContinueRequestParams, Empty]{"Fetch.continueRequest"}
	FetchContinueResponse = Command[ContinueResponseParams, Empty]{"Fetch.continueResponse"}
	FetchRequestPaused    = Event[RequestPausedEvent]{"Fetch.requestPaused"}
)

// RequestPattern selects the requests Fetch pauses; "*" matches every URL.
// RequestStage "Response" pauses them again once the response headers are
// in (only those of ResourceType, when given).
type RequestPattern struct {
	URLPattern   string `json:"urlPattern,omitempty"`
	ResourceType string `json:"resourceType,omitempty"`
	RequestStage string `json:"requestStage,omitempty"`
}

// FetchEnableParams are the parameters of Fetch.enable.
type FetchEnableParams struct {
	Patterns []RequestPattern `json:"patterns,omitempty"`
}

// RequestPausedEvent is the part of Fetch.requestPaused we read: a request
// waits for Fetch.continueRequest or Fetch.failRequest. A request paused at
// the response stage has its response's status code (non-zero) and headers.
type RequestPausedEvent struct {
	RequestID string `json:"requestId"`
	Request   struct {
		URL string `json:"url"`
	} `json:"request"`
	ResourceType        string        `json:"resourceType,omitempty"`
	ResponseStatusCode  int           `json:"responseStatusCode,omitempty"`
	ResponseErrorReason string        `json:"responseErrorReason,omitempty"`
	ResponseHeaders     []HeaderEntry `json:"responseHeaders,omitempty"`
}

// HeaderEntry is one HTTP header, as Fetch lists them.
type HeaderEntry struct {
	Name  string `json:"name"`
	Value string `json:"value"`
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

// ContinueResponseParams are the parameters of Fetch.continueResponse: a
// request paused at the response stage goes on, with ResponseHeaders in
// place of the response's own when given (with ResponseCode: Chrome takes
// both or neither).
type ContinueResponseParams struct {
	RequestID       string        `json:"requestId"`
	ResponseCode    int           `json:"responseCode,omitempty"`
	ResponseHeaders []HeaderEntry `json:"responseHeaders,omitempty"`
}
