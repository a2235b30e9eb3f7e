package cdp

import "encoding/json"

// WebMCP domain commands and events we use, as small typed structs. The
// domain reports the tools a page registered with document.modelContext
// (and declarative form tools); Chrome has it when started with
// --enable-features=WebMCP.

// WebMCPTool is a tool a frame registered.
type WebMCPTool struct {
	Name        string            `json:"name"`
	Description string            `json:"description"`
	InputSchema json.RawMessage   `json:"inputSchema,omitempty"`
	Annotations *WebMCPAnnotation `json:"annotations,omitempty"`
	FrameID     string            `json:"frameId"`
	// BackendNodeID is the <form> of a declarative tool, 0 for a tool
	// registered from script.
	BackendNodeID int `json:"backendNodeId,omitempty"`
}

// WebMCPAnnotation holds a tool's hints.
type WebMCPAnnotation struct {
	ReadOnly         bool `json:"readOnly,omitempty"`
	UntrustedContent bool `json:"untrustedContent,omitempty"`
	Consequential    bool `json:"consequential,omitempty"`
	Debugging        bool `json:"debugging,omitempty"`
	Autosubmit       bool `json:"autosubmit,omitempty"`
}

// WebMCPToolsAddedEvent is WebMCP.toolsAdded. WebMCP.enable sends one for
// every tool already registered, before its reply.
type WebMCPToolsAddedEvent struct {
	Tools []WebMCPTool `json:"tools"`
}

// WebMCPInvokeToolParams are the parameters of WebMCP.invokeTool. Input
// must be a JSON object.
type WebMCPInvokeToolParams struct {
	FrameID  string          `json:"frameId"`
	ToolName string          `json:"toolName"`
	Input    json.RawMessage `json:"input"`
}

// WebMCPInvokeToolResult is the reply to WebMCP.invokeTool; the outcome
// comes later as a WebMCP.toolResponded event with the same InvocationID.
type WebMCPInvokeToolResult struct {
	InvocationID string `json:"invocationId"`
}

// WebMCPCancelInvocationParams are the parameters of WebMCP.cancelInvocation.
type WebMCPCancelInvocationParams struct {
	InvocationID string `json:"invocationId"`
}

// WebMCPToolRespondedEvent is WebMCP.toolResponded: how an invocation ended.
// Status is Completed, Canceled or Error; Output is set when Completed;
// Exception is what a script tool threw.
type WebMCPToolRespondedEvent struct {
	InvocationID string          `json:"invocationId"`
	Status       string          `json:"status"`
	Output       json.RawMessage `json:"output,omitempty"`
	ErrorText    string          `json:"errorText,omitempty"`
	Exception    *RemoteObject   `json:"exception,omitempty"`
}

// The WebMCP domain's commands and events.
var (
	WebMCPEnable           = Action{"WebMCP.enable"}
	WebMCPDisable          = Action{"WebMCP.disable"}
	WebMCPInvokeTool       = Command[WebMCPInvokeToolParams, WebMCPInvokeToolResult]{"WebMCP.invokeTool"}
	WebMCPCancelInvocation = Command[WebMCPCancelInvocationParams, Empty]{"WebMCP.cancelInvocation"}
	WebMCPToolsAdded       = Event[WebMCPToolsAddedEvent]{"WebMCP.toolsAdded"}
	WebMCPToolResponded    = Event[WebMCPToolRespondedEvent]{"WebMCP.toolResponded"}
)
