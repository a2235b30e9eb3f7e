package cdp

import "encoding/json"

// Runtime domain commands we use, as small typed structs.

// EvaluateParams are the parameters of Runtime.evaluate.
type EvaluateParams struct {
	Expression    string `json:"expression"`
	ReturnByValue bool   `json:"returnByValue,omitempty"`
	AwaitPromise  bool   `json:"awaitPromise,omitempty"`
	UserGesture   bool   `json:"userGesture,omitempty"`
}

// EvaluateResult is the reply to Runtime.evaluate and Runtime.callFunctionOn.
type EvaluateResult struct {
	Result           RemoteObject      `json:"result"`
	ExceptionDetails *ExceptionDetails `json:"exceptionDetails,omitempty"`
}

// RemoteObject is a JavaScript value in the page: inline when it was returned
// by value, otherwise a handle (ObjectID) with a description.
type RemoteObject struct {
	Type                string          `json:"type"`
	Subtype             string          `json:"subtype,omitempty"`
	ClassName           string          `json:"className,omitempty"`
	Value               json.RawMessage `json:"value,omitempty"`
	UnserializableValue string          `json:"unserializableValue,omitempty"`
	Description         string          `json:"description,omitempty"`
	ObjectID            string          `json:"objectId,omitempty"`
	Preview             *ObjectPreview  `json:"preview,omitempty"`
}

// ObjectPreview is a short view of an object's properties, sent with
// console arguments so they can be shown without more round trips.
type ObjectPreview struct {
	Type        string            `json:"type"`
	Subtype     string            `json:"subtype,omitempty"`
	Description string            `json:"description,omitempty"`
	Overflow    bool              `json:"overflow"`
	Properties  []PropertyPreview `json:"properties"`
	Entries     []struct {
		Key   *ObjectPreview `json:"key,omitempty"`
		Value ObjectPreview  `json:"value"`
	} `json:"entries,omitempty"`
}

// PropertyPreview is one property in an ObjectPreview.
type PropertyPreview struct {
	Name         string         `json:"name"`
	Type         string         `json:"type"`
	Value        string         `json:"value,omitempty"`
	ValuePreview *ObjectPreview `json:"valuePreview,omitempty"`
	Subtype      string         `json:"subtype,omitempty"`
}

// ExceptionDetails describes an exception thrown while evaluating.
type ExceptionDetails struct {
	Text         string        `json:"text"`
	LineNumber   int           `json:"lineNumber"`
	ColumnNumber int           `json:"columnNumber"`
	URL          string        `json:"url,omitempty"`
	Exception    *RemoteObject `json:"exception,omitempty"`
	StackTrace   *StackTrace   `json:"stackTrace,omitempty"`
}

// Message returns the most useful one-line description of the exception:
// the thrown error's description (message and stack) when there is one.
func (e *ExceptionDetails) Message() string {
	if e.Exception != nil && e.Exception.Description != "" {
		return e.Exception.Description
	}
	if e.Exception != nil && len(e.Exception.Value) > 0 {
		return e.Text + " " + string(e.Exception.Value)
	}
	return e.Text
}

// The Runtime domain's commands; its console events are in network.go.
var (
	RuntimeEnable                  = Action{"Runtime.enable"}
	RuntimeEvaluate                = Command[EvaluateParams, EvaluateResult]{"Runtime.evaluate"}
	RuntimeCallFunctionOn          = Command[CallFunctionOnParams, EvaluateResult]{"Runtime.callFunctionOn"}
	RuntimeGetProperties           = Command[GetPropertiesParams, GetPropertiesResult]{"Runtime.getProperties"}
	RuntimeTerminateExecution      = Action{"Runtime.terminateExecution"}
	RuntimeRunIfWaitingForDebugger = Action{"Runtime.runIfWaitingForDebugger"}
	// RuntimeGetIsolateId is answered on the page's main thread and runs
	// no script: a probe of whether that thread is free.
	RuntimeGetIsolateId = Action{"Runtime.getIsolateId"}
)

// The Runtime domain's events about execution contexts: a page's
// documents and the worlds in them, which come and go with navigations.
var (
	RuntimeExecutionContextCreated   = Event[ExecutionContextCreatedEvent]{"Runtime.executionContextCreated"}
	RuntimeExecutionContextDestroyed = Event[ExecutionContextDestroyedEvent]{"Runtime.executionContextDestroyed"}
	RuntimeExecutionContextsCleared  = Event[Empty]{"Runtime.executionContextsCleared"}
)

// ExecutionContextCreatedEvent is the part of Runtime.executionContextCreated we read.
type ExecutionContextCreatedEvent struct {
	Context struct {
		ID      int    `json:"id"`
		Name    string `json:"name"` // the world's name, for an isolated world
		AuxData struct {
			FrameID   string `json:"frameId"`
			IsDefault bool   `json:"isDefault"`
		} `json:"auxData"`
	} `json:"context"`
}

// ExecutionContextDestroyedEvent is Runtime.executionContextDestroyed.
type ExecutionContextDestroyedEvent struct {
	ExecutionContextID int `json:"executionContextId"`
}

// GetPropertiesParams are the parameters of Runtime.getProperties.
type GetPropertiesParams struct {
	ObjectID      string `json:"objectId"`
	OwnProperties bool   `json:"ownProperties,omitempty"`
}

// PropertyDescriptor is the part of a Runtime.PropertyDescriptor we read.
type PropertyDescriptor struct {
	Name  string       `json:"name"`
	Value RemoteObject `json:"value"`
}

// GetPropertiesResult is the part of Runtime.getProperties' reply we read.
type GetPropertiesResult struct {
	Result []PropertyDescriptor `json:"result"`
}
