package cdp

// SkipAllPausesParams are the parameters of Debugger.setSkipAllPauses.
type SkipAllPausesParams struct {
	Skip bool `json:"skip"`
}

// ScriptSourceParams name a parsed script for Debugger.getScriptSource.
type ScriptSourceParams struct {
	ScriptID string `json:"scriptId"`
}

// ScriptSourceResult is a script's source text as V8 parsed it.
type ScriptSourceResult struct {
	ScriptSource string `json:"scriptSource"`
}

// The Debugger commands that read the scripts a page parsed. The domain
// must be enabled for them; while it is, a debugger statement would pause
// the page unless pauses are skipped.
var (
	DebuggerEnable           = Action{"Debugger.enable"}
	DebuggerDisable          = Action{"Debugger.disable"}
	DebuggerSetSkipAllPauses = Command[SkipAllPausesParams, Empty]{"Debugger.setSkipAllPauses"}
	DebuggerGetScriptSource  = Command[ScriptSourceParams, ScriptSourceResult]{"Debugger.getScriptSource"}
)

// LoadNetworkResourceOptions say how Network.loadNetworkResource loads.
type LoadNetworkResourceOptions struct {
	DisableCache       bool `json:"disableCache"`
	IncludeCredentials bool `json:"includeCredentials"`
}

// LoadNetworkResourceParams ask the browser to load URL for a frame (the
// way DevTools loads source maps), outside the page's own requests.
type LoadNetworkResourceParams struct {
	FrameID string                     `json:"frameId,omitempty"`
	URL     string                     `json:"url"`
	Options LoadNetworkResourceOptions `json:"options"`
}

// LoadNetworkResourceResult is the outcome; on success Stream is an IO
// handle to read the body from.
type LoadNetworkResourceResult struct {
	Resource struct {
		Success        bool    `json:"success"`
		NetErrorName   string  `json:"netErrorName,omitempty"`
		HTTPStatusCode float64 `json:"httpStatusCode,omitempty"`
		Stream         string  `json:"stream,omitempty"`
	} `json:"resource"`
}

// NetworkLoadNetworkResource loads a resource through the browser.
var NetworkLoadNetworkResource = Command[LoadNetworkResourceParams, LoadNetworkResourceResult]{"Network.loadNetworkResource"}
