package browser

import "github.com/devtools-mcp/devtools-mcp/cdp"

// Protocol types that the browser layer's methods take or return as plain
// data. They are aliases, so the browser layer's callers (the tools) name
// them here and never import cdp.
type (
	// CallFrame is one frame of a JavaScript stack trace.
	CallFrame = cdp.CallFrame
	// StackTrace is a JavaScript stack trace, with its async parents.
	StackTrace = cdp.StackTrace
	// DialogOpening describes a JavaScript dialog (alert, confirm, prompt,
	// beforeunload) that opened on a page.
	DialogOpening = cdp.DialogOpeningEvent
	// RemoteObject is a JavaScript value as the page returned it.
	RemoteObject = cdp.RemoteObject
	// ScreenshotParams say how Page.Screenshot captures the page.
	ScreenshotParams = cdp.CaptureScreenshotParams
)

// ErrBrowserGone is the error of calls to a browser that exited or whose
// connection closed.
var ErrBrowserGone = cdp.ErrBrowserGone
