package cdp

// Page domain commands and events we use, as small typed structs.

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
	// RunImmediately also runs the script in the current document.
	RunImmediately bool `json:"runImmediately,omitempty"`
	// WorldName runs it in an isolated world of that name, made for it.
	WorldName string `json:"worldName,omitempty"`
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

// The Page domain's commands.
var (
	PageEnable                              = Action{"Page.enable"}
	PageSetLifecycleEventsEnabled           = Command[SetLifecycleEventsEnabledParams, Empty]{"Page.setLifecycleEventsEnabled"}
	PageNavigate                            = Command[NavigateParams, NavigateResult]{"Page.navigate"}
	PageReload                              = Command[ReloadParams, Empty]{"Page.reload"}
	PageGetNavigationHistory                = Query[NavigationHistory]{"Page.getNavigationHistory"}
	PageNavigateToHistoryEntry              = Command[NavigateToHistoryEntryParams, Empty]{"Page.navigateToHistoryEntry"}
	PageCaptureScreenshot                   = Command[CaptureScreenshotParams, CaptureScreenshotResult]{"Page.captureScreenshot"}
	PageAddScriptToEvaluateOnNewDocument    = Command[AddScriptParams, ScriptID]{"Page.addScriptToEvaluateOnNewDocument"}
	PageRemoveScriptToEvaluateOnNewDocument = Command[ScriptID, Empty]{"Page.removeScriptToEvaluateOnNewDocument"}
	PageHandleJavaScriptDialog              = Command[HandleDialogParams, Empty]{"Page.handleJavaScriptDialog"}
	PageCreateIsolatedWorld                 = Command[CreateIsolatedWorldParams, CreateIsolatedWorldResult]{"Page.createIsolatedWorld"}
	PageGetFrameTree                        = Query[GetFrameTreeResult]{"Page.getFrameTree"}
	PageSetInterceptFileChooserDialog       = Command[SetInterceptParams, Empty]{"Page.setInterceptFileChooserDialog"}
)

// The Page domain's events.
var (
	PageLifecycleEvent           = Event[LifecycleEvent]{"Page.lifecycleEvent"}
	PageFrameNavigated           = Event[FrameNavigatedEvent]{"Page.frameNavigated"}
	PageNavigatedWithinDocument  = Event[NavigatedWithinDocumentEvent]{"Page.navigatedWithinDocument"}
	PageFrameRequestedNavigation = Event[FrameRequestedNavigationEvent]{"Page.frameRequestedNavigation"}
	PageFrameStartedNavigating   = Event[FrameStartedNavigatingEvent]{"Page.frameStartedNavigating"}
	PageFrameStoppedLoading      = Event[FrameStoppedLoadingEvent]{"Page.frameStoppedLoading"}
	PageJavascriptDialogOpening  = Event[DialogOpeningEvent]{"Page.javascriptDialogOpening"}
	PageJavascriptDialogClosed   = Event[DialogClosedEvent]{"Page.javascriptDialogClosed"}
	PageFileChooserOpened        = Event[FileChooserOpenedEvent]{"Page.fileChooserOpened"}
)

// FrameRequestedNavigationEvent is Page.frameRequestedNavigation: a frame
// asked to navigate (a link, a form, location.href = ...).
type FrameRequestedNavigationEvent struct {
	FrameID string `json:"frameId"`
	URL     string `json:"url"`
}

// FrameStartedNavigatingEvent is Page.frameStartedNavigating: the browser
// began a navigation of a frame.
type FrameStartedNavigatingEvent struct {
	FrameID string `json:"frameId"`
	URL     string `json:"url"`
}

// FrameStoppedLoadingEvent is Page.frameStoppedLoading, which also ends
// navigations that commit no document (a 204, a download).
type FrameStoppedLoadingEvent struct {
	FrameID string `json:"frameId"`
}

// DialogClosedEvent is Page.javascriptDialogClosed.
type DialogClosedEvent struct {
	Result    bool   `json:"result"`
	UserInput string `json:"userInput"`
}
