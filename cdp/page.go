package cdp

// Page and Browser domain commands and events we use, as small typed structs.

// NavigateParams are the parameters of Page.navigate.
type NavigateParams struct {
	URL string `json:"url"`
}

// NavigateResult is the reply to Page.navigate. LoaderID is empty for a
// same-document navigation (a fragment change); ErrorText is set when the
// navigation failed outright (DNS error, connection refused, ...).
type NavigateResult struct {
	FrameID   string `json:"frameId"`
	LoaderID  string `json:"loaderId"`
	ErrorText string `json:"errorText"`
}

// SetLifecycleEventsEnabledParams turn Page.lifecycleEvent on or off.
type SetLifecycleEventsEnabledParams struct {
	Enabled bool `json:"enabled"`
}

// LifecycleEvent is Page.lifecycleEvent: a frame reached a load milestone
// (init, DOMContentLoaded, load, networkIdle, ...) for the document of LoaderID.
type LifecycleEvent struct {
	FrameID  string `json:"frameId"`
	LoaderID string `json:"loaderId"`
	Name     string `json:"name"`
}

// Viewport is a rectangle of the page in CSS pixels, scaled by Scale.
type Viewport struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
	Scale  float64 `json:"scale"`
}

// CaptureScreenshotParams are the parameters of Page.captureScreenshot.
type CaptureScreenshotParams struct {
	Format                string    `json:"format,omitempty"`
	Quality               int       `json:"quality,omitempty"`
	Clip                  *Viewport `json:"clip,omitempty"`
	CaptureBeyondViewport bool      `json:"captureBeyondViewport,omitempty"`
	OptimizeForSpeed      bool      `json:"optimizeForSpeed,omitempty"`
}

// CaptureScreenshotResult holds the encoded image (base64 on the wire).
type CaptureScreenshotResult struct {
	Data []byte `json:"data"`
}

// BrowserVersion is the reply to Browser.getVersion.
type BrowserVersion struct {
	Product         string `json:"product"`
	ProtocolVersion string `json:"protocolVersion"`
	UserAgent       string `json:"userAgent"`
}

// ReloadParams are the parameters of Page.reload.
type ReloadParams struct {
	IgnoreCache bool `json:"ignoreCache,omitempty"`
}

// NavigationEntry is one entry of a page's session history.
type NavigationEntry struct {
	ID    int    `json:"id"`
	URL   string `json:"url"`
	Title string `json:"title"`
}

// NavigationHistory is the reply to Page.getNavigationHistory.
type NavigationHistory struct {
	CurrentIndex int               `json:"currentIndex"`
	Entries      []NavigationEntry `json:"entries"`
}

// NavigateToHistoryEntryParams are the parameters of Page.navigateToHistoryEntry.
type NavigateToHistoryEntryParams struct {
	EntryID int `json:"entryId"`
}

// Frame is the part of Page.Frame we read.
type Frame struct {
	ID       string `json:"id"`
	ParentID string `json:"parentId,omitempty"`
	LoaderID string `json:"loaderId"`
	URL      string `json:"url"`
}

// FrameNavigatedEvent is Page.frameNavigated: a frame committed a new
// document. Type is "Navigation" or "BackForwardCacheRestore".
type FrameNavigatedEvent struct {
	Frame Frame  `json:"frame"`
	Type  string `json:"type"`
}

// NavigatedWithinDocumentEvent is Page.navigatedWithinDocument: a fragment
// or History API navigation that kept the document.
type NavigatedWithinDocumentEvent struct {
	FrameID string `json:"frameId"`
	URL     string `json:"url"`
}

// AddScriptParams are the parameters of Page.addScriptToEvaluateOnNewDocument.
type AddScriptParams struct {
	Source string `json:"source"`
}

// ScriptID names a script added with Page.addScriptToEvaluateOnNewDocument
// (its reply) for Page.removeScriptToEvaluateOnNewDocument (its parameters).
type ScriptID struct {
	Identifier string `json:"identifier"`
}

// DialogOpeningEvent is Page.javascriptDialogOpening. Type is alert,
// confirm, prompt or beforeunload.
type DialogOpeningEvent struct {
	URL           string `json:"url"`
	Message       string `json:"message"`
	Type          string `json:"type"`
	DefaultPrompt string `json:"defaultPrompt,omitempty"`
}

// HandleDialogParams are the parameters of Page.handleJavaScriptDialog.
type HandleDialogParams struct {
	Accept     bool   `json:"accept"`
	PromptText string `json:"promptText,omitempty"`
}

// CreateIsolatedWorldParams are the parameters of Page.createIsolatedWorld.
type CreateIsolatedWorldParams struct {
	FrameID   string `json:"frameId"`
	WorldName string `json:"worldName,omitempty"`
}

// CreateIsolatedWorldResult is the reply to Page.createIsolatedWorld.
type CreateIsolatedWorldResult struct {
	ExecutionContextID int `json:"executionContextId"`
}
