package cdp

import (
	"encoding/json"
	"fmt"
)

// This file holds the parts of the Target domain the server uses: finding,
// creating, attaching to and closing targets (pages, workers, ...). Field names
// and JSON tags follow the protocol of Chromium 156.

// TargetInfo describes a target: a page, iframe, worker, the browser, ...
type TargetInfo struct {
	TargetID string `json:"targetId"`
	// Type is "page", "iframe", "worker", "service_worker", "browser", "tab", ...
	Type  string `json:"type"`
	Title string `json:"title"`
	URL   string `json:"url"`
	// Attached tells whether some client is attached to the target.
	Attached bool `json:"attached"`
	// ParentID is the target that holds this one, e.g. the page of an iframe.
	ParentID string `json:"parentId,omitempty"`
	// OpenerID is the target that opened this one (window.open, target=_blank).
	OpenerID        string `json:"openerId,omitempty"`
	CanAccessOpener bool   `json:"canAccessOpener"`
	OpenerFrameID   string `json:"openerFrameId,omitempty"`
	// ParentFrameID is the frame that holds an iframe or worker target.
	ParentFrameID    string `json:"parentFrameId,omitempty"`
	BrowserContextID string `json:"browserContextId,omitempty"`
	// Subtype refines Type, e.g. "prerender" for a page.
	Subtype string `json:"subtype,omitempty"`
}

// FilterEntry is one rule of a target filter: the first entry that matches a
// target decides whether it is included or excluded. An empty Type matches
// every target. A nil filter means "everything but browser and tab".
type FilterEntry struct {
	Exclude bool   `json:"exclude,omitempty"`
	Type    string `json:"type,omitempty"`
}

// SetDiscoverTargetsParams are the parameters of Target.setDiscoverTargets,
// which turns the targetCreated/targetInfoChanged/targetDestroyed events on or
// off.
type SetDiscoverTargetsParams struct {
	Discover bool          `json:"discover"`
	Filter   []FilterEntry `json:"filter,omitempty"` // must be empty when Discover is false
}

// GetTargetsParams are the parameters of Target.getTargets, which lists the
// targets.
type GetTargetsParams struct {
	Filter []FilterEntry `json:"filter,omitempty"`
}

// GetTargetsResult is the result of Target.getTargets.
type GetTargetsResult struct {
	TargetInfos []TargetInfo `json:"targetInfos"`
}

// AttachToTargetParams are the parameters of Target.attachToTarget, which
// opens a session to a target. Set Flatten: this package speaks to sessions
// only in flattened mode (sessionId on each message).
type AttachToTargetParams struct {
	TargetID string `json:"targetId"`
	Flatten  bool   `json:"flatten,omitempty"`
}

// AttachToTargetResult is the result of Target.attachToTarget.
type AttachToTargetResult struct {
	SessionID string `json:"sessionId"`
}

// CreateTargetParams are the parameters of Target.createTarget, which opens a
// new page.
type CreateTargetParams struct {
	// URL is loaded in the new page; "" means about:blank.
	URL string `json:"url"`
	// Width and Height size the window in DIP (with NewWindow or in headless).
	Width  int `json:"width,omitempty"`
	Height int `json:"height,omitempty"`
	// BrowserContextID puts the page in that browser context (profile).
	BrowserContextID string `json:"browserContextId,omitempty"`
	// NewWindow opens a window rather than a tab.
	NewWindow bool `json:"newWindow,omitempty"`
	// Background opens the page without bringing it to the front.
	Background bool `json:"background,omitempty"`
}

// CreateTargetResult is the result of Target.createTarget.
type CreateTargetResult struct {
	TargetID string `json:"targetId"`
}

// CloseTargetParams are the parameters of Target.closeTarget, which closes a
// target (and its page).
type CloseTargetParams struct {
	TargetID string `json:"targetId"`
}

// CloseTargetResult is the result of Target.closeTarget. Success is
// deprecated and always true: failures come back as an *Error.
type CloseTargetResult struct {
	Success bool `json:"success"`
}

// ActivateTargetParams are the parameters of Target.activateTarget, which
// brings a target to the front.
type ActivateTargetParams struct {
	TargetID string `json:"targetId"`
}

// CreateBrowserContextParams are the parameters of
// Target.createBrowserContext, which creates an empty, incognito-like browser
// context to isolate pages from each other.
type CreateBrowserContextParams struct {
	// DisposeOnDetach disposes the context when the debugging connection closes.
	DisposeOnDetach bool `json:"disposeOnDetach,omitempty"`
	// ProxyServer and ProxyBypassList are as Chrome's --proxy-server and
	// --proxy-bypass-list.
	ProxyServer     string `json:"proxyServer,omitempty"`
	ProxyBypassList string `json:"proxyBypassList,omitempty"`
	// OriginsWithUniversalNetworkAccess are origins allowed unrestricted
	// cross-origin access.
	OriginsWithUniversalNetworkAccess []string `json:"originsWithUniversalNetworkAccess,omitempty"`
}

// CreateBrowserContextResult is the result of Target.createBrowserContext.
type CreateBrowserContextResult struct {
	BrowserContextID string `json:"browserContextId"`
}

// GetBrowserContextsResult is the result of Target.getBrowserContexts: the
// contexts created with Target.createBrowserContext, and the id of the
// default one (the profile the browser started with).
type GetBrowserContextsResult struct {
	BrowserContextIDs       []string `json:"browserContextIds"`
	DefaultBrowserContextID string   `json:"defaultBrowserContextId,omitempty"`
}

// DisposeBrowserContextParams are the parameters of
// Target.disposeBrowserContext, which closes every page of a browser context
// (without beforeunload) and deletes it.
type DisposeBrowserContextParams struct {
	BrowserContextID string `json:"browserContextId"`
}

// TargetCreatedEvent is the Target.targetCreated event, sent while discovery
// is on.
type TargetCreatedEvent struct {
	TargetInfo TargetInfo `json:"targetInfo"`
}

// TargetInfoChangedEvent is the Target.targetInfoChanged event, sent while
// discovery is on when a target's title, URL, ... changes.
type TargetInfoChangedEvent struct {
	TargetInfo TargetInfo `json:"targetInfo"`
}

// TargetDestroyedEvent is the Target.targetDestroyed event, sent while
// discovery is on.
type TargetDestroyedEvent struct {
	TargetID string `json:"targetId"`
}

// TargetCrashedEvent is the Target.targetCrashed event: a target's renderer
// died.
type TargetCrashedEvent struct {
	TargetID string `json:"targetId"`
	// Status is the termination status, such as "crashed" or "killed".
	Status    string `json:"status"`
	ErrorCode int    `json:"errorCode"`
}

// AttachedToTargetEvent is the Target.attachedToTarget event, sent when a
// session opens through attachToTarget or auto-attach.
type AttachedToTargetEvent struct {
	SessionID  string     `json:"sessionId"`
	TargetInfo TargetInfo `json:"targetInfo"`
	// WaitingForDebugger is set when the target is paused until
	// Runtime.runIfWaitingForDebugger.
	WaitingForDebugger bool `json:"waitingForDebugger"`
}

// DetachedFromTargetEvent is the Target.detachedFromTarget event, sent when a
// session ends, for example because its target closed or crashed.
type DetachedFromTargetEvent struct {
	SessionID string `json:"sessionId"`
	TargetID  string `json:"targetId,omitempty"` // deprecated by the protocol
}

// Decode decodes event params (a RawEvent's Params) into a T, such
// as a TargetCreatedEvent. Empty params decode to the zero T.
func Decode[T any](params json.RawMessage) (T, error) {
	var v T
	if len(params) == 0 {
		return v, nil
	}
	if err := json.Unmarshal(params, &v); err != nil {
		return v, fmt.Errorf("decode %T: %w", v, err)
	}
	return v, nil
}

// The Target domain's commands and events. Target.setAutoAttach is in
// dom.go, Target.detachFromTarget in extensions.go, beside their params.
var (
	TargetSetDiscoverTargets    = Command[SetDiscoverTargetsParams, Empty]{"Target.setDiscoverTargets"}
	TargetGetTargets            = Command[GetTargetsParams, GetTargetsResult]{"Target.getTargets"}
	TargetAttachToTarget        = Command[AttachToTargetParams, AttachToTargetResult]{"Target.attachToTarget"}
	TargetAttachToBrowserTarget = Query[AttachToTargetResult]{"Target.attachToBrowserTarget"}
	TargetCreateTarget          = Command[CreateTargetParams, CreateTargetResult]{"Target.createTarget"}
	TargetCloseTarget           = Command[CloseTargetParams, CloseTargetResult]{"Target.closeTarget"}
	TargetActivateTarget        = Command[ActivateTargetParams, Empty]{"Target.activateTarget"}
	TargetCreateBrowserContext  = Command[CreateBrowserContextParams, CreateBrowserContextResult]{"Target.createBrowserContext"}
	TargetDisposeBrowserContext = Command[DisposeBrowserContextParams, Empty]{"Target.disposeBrowserContext"}
	TargetGetBrowserContexts    = Query[GetBrowserContextsResult]{"Target.getBrowserContexts"}

	TargetTargetCreated      = Event[TargetCreatedEvent]{"Target.targetCreated"}
	TargetTargetInfoChanged  = Event[TargetInfoChangedEvent]{"Target.targetInfoChanged"}
	TargetTargetDestroyed    = Event[TargetDestroyedEvent]{"Target.targetDestroyed"}
	TargetTargetCrashed      = Event[TargetCrashedEvent]{"Target.targetCrashed"}
	TargetAttachedToTarget   = Event[AttachedToTargetEvent]{"Target.attachedToTarget"}
	TargetDetachedFromTarget = Event[DetachedFromTargetEvent]{"Target.detachedFromTarget"}
)
