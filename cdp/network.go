package cdp

import "encoding/json"

// Network, Log and Audits domain types we use, and console-related Runtime types.

// NetworkRequest is the part of Network.Request we read.
type NetworkRequest struct {
	URL         string            `json:"url"`
	Method      string            `json:"method"`
	Headers     map[string]string `json:"headers"`
	HasPostData bool              `json:"hasPostData,omitempty"`
}

// NetworkResponse is the part of Network.Response we read.
type NetworkResponse struct {
	URL        string            `json:"url"`
	Status     int               `json:"status"`
	StatusText string            `json:"statusText"`
	Headers    map[string]string `json:"headers"`
	MimeType   string            `json:"mimeType"`
	Protocol   string            `json:"protocol,omitempty"`
}

// RequestWillBeSentEvent is Network.requestWillBeSent. A redirect repeats
// the request id with RedirectResponse set to the previous hop's response.
type RequestWillBeSentEvent struct {
	RequestID        string           `json:"requestId"`
	LoaderID         string           `json:"loaderId"`
	Request          NetworkRequest   `json:"request"`
	Timestamp        float64          `json:"timestamp"`
	Type             string           `json:"type"`
	FrameID          string           `json:"frameId"`
	RedirectResponse *NetworkResponse `json:"redirectResponse,omitempty"`
}

// ResponseReceivedEvent is Network.responseReceived.
type ResponseReceivedEvent struct {
	RequestID string          `json:"requestId"`
	Type      string          `json:"type"`
	Response  NetworkResponse `json:"response"`
}

// LoadingFinishedEvent is Network.loadingFinished.
type LoadingFinishedEvent struct {
	RequestID         string  `json:"requestId"`
	Timestamp         float64 `json:"timestamp"`
	EncodedDataLength float64 `json:"encodedDataLength"`
}

// LoadingFailedEvent is Network.loadingFailed.
type LoadingFailedEvent struct {
	RequestID     string  `json:"requestId"`
	Timestamp     float64 `json:"timestamp"`
	ErrorText     string  `json:"errorText"`
	Canceled      bool    `json:"canceled,omitempty"`
	BlockedReason string  `json:"blockedReason,omitempty"`
}

// RequestIDParams name a request for Network.getResponseBody and
// Network.getRequestPostData.
type RequestIDParams struct {
	RequestID string `json:"requestId"`
}

// ResponseBody is the reply to Network.getResponseBody.
type ResponseBody struct {
	Body          string `json:"body"`
	Base64Encoded bool   `json:"base64Encoded"`
}

// PostData is the reply to Network.getRequestPostData.
type PostData struct {
	PostData string `json:"postData"`
}

// CallFrame is one frame of a JavaScript stack trace (0-based line and column).
type CallFrame struct {
	FunctionName string `json:"functionName"`
	// ScriptID names the script in its session (Debugger.getScriptSource).
	ScriptID     string `json:"scriptId,omitempty"`
	URL          string `json:"url"`
	LineNumber   int    `json:"lineNumber"`
	ColumnNumber int    `json:"columnNumber"`
}

// StackTrace is a JavaScript stack, with the async stacks that led to it.
type StackTrace struct {
	Description string      `json:"description,omitempty"`
	CallFrames  []CallFrame `json:"callFrames"`
	Parent      *StackTrace `json:"parent,omitempty"`
}

// ConsoleAPICalledEvent is Runtime.consoleAPICalled.
type ConsoleAPICalledEvent struct {
	Type       string         `json:"type"`
	Args       []RemoteObject `json:"args"`
	StackTrace *StackTrace    `json:"stackTrace,omitempty"`
}

// ExceptionThrownEvent is Runtime.exceptionThrown.
type ExceptionThrownEvent struct {
	ExceptionDetails ExceptionDetails `json:"exceptionDetails"`
}

// LogEntryAddedEvent is Log.entryAdded: messages of the browser itself
// (failed loads, interventions, violations).
type LogEntryAddedEvent struct {
	Entry struct {
		Source     string      `json:"source"`
		Level      string      `json:"level"`
		Text       string      `json:"text"`
		URL        string      `json:"url,omitempty"`
		LineNumber int         `json:"lineNumber,omitempty"`
		StackTrace *StackTrace `json:"stackTrace,omitempty"`
	} `json:"entry"`
}

// ViolationsReportParams are Log.startViolationsReport's: which kinds
// of violation Chrome logs (as Log.entryAdded with source "violation"),
// each past its threshold.
type ViolationsReportParams struct {
	Config []ViolationSetting `json:"config"`
}

// ViolationSetting is one kind of violation to report: longTask,
// longLayout, blockedEvent, blockedParser, discouragedAPIUse, handler or
// recurringHandler, with a threshold in ms (-1: every one).
type ViolationSetting struct {
	Name      string  `json:"name"`
	Threshold float64 `json:"threshold"`
}

// IssueAddedEvent is Audits.issueAdded: a DevTools issue about the page.
type IssueAddedEvent struct {
	Issue struct {
		Code    string                     `json:"code"`
		Details map[string]json.RawMessage `json:"details"`
	} `json:"issue"`
}

// BypassServiceWorkerParams are the parameters of
// Network.setBypassServiceWorker: with Bypass, no service worker answers
// the target's requests; they all go to the network.
type BypassServiceWorkerParams struct {
	Bypass bool `json:"bypass"`
}

// The Network, Log and Audits domains' commands and events, and the Runtime
// events about the console.
var (
	NetworkEnable                     = Action{"Network.enable"}
	NetworkSetBypassServiceWorker     = Command[BypassServiceWorkerParams, Empty]{"Network.setBypassServiceWorker"}
	NetworkGetResponseBody            = Command[RequestIDParams, ResponseBody]{"Network.getResponseBody"}
	NetworkGetRequestPostData         = Command[RequestIDParams, PostData]{"Network.getRequestPostData"}
	NetworkRequestWillBeSent          = Event[RequestWillBeSentEvent]{"Network.requestWillBeSent"}
	NetworkRequestWillBeSentExtraInfo = Event[ExtraInfoEvent]{"Network.requestWillBeSentExtraInfo"}
	NetworkResponseReceived           = Event[ResponseReceivedEvent]{"Network.responseReceived"}
	NetworkResponseReceivedExtraInfo  = Event[ExtraInfoEvent]{"Network.responseReceivedExtraInfo"}
	NetworkLoadingFinished            = Event[LoadingFinishedEvent]{"Network.loadingFinished"}
	NetworkLoadingFailed              = Event[LoadingFailedEvent]{"Network.loadingFailed"}

	LogEnable                = Action{"Log.enable"}
	LogEntryAdded            = Event[LogEntryAddedEvent]{"Log.entryAdded"}
	LogStartViolationsReport = Command[ViolationsReportParams, Empty]{"Log.startViolationsReport"}
	LogStopViolationsReport  = Action{"Log.stopViolationsReport"}

	AuditsEnable     = Action{"Audits.enable"}
	AuditsIssueAdded = Event[IssueAddedEvent]{"Audits.issueAdded"}

	RuntimeConsoleAPICalled = Event[ConsoleAPICalledEvent]{"Runtime.consoleAPICalled"}
	RuntimeExceptionThrown  = Event[ExceptionThrownEvent]{"Runtime.exceptionThrown"}
)

// ExtraInfoEvent is the part of Network.requestWillBeSentExtraInfo and
// Network.responseReceivedExtraInfo we read: the headers as sent on the
// wire, with the cookies the other events lack.
type ExtraInfoEvent struct {
	RequestID string            `json:"requestId"`
	Headers   map[string]string `json:"headers"`
}
