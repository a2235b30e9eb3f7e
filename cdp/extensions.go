package cdp

// Extensions domain commands we use. Chrome serves them only over
// --remote-debugging-pipe and only when started with
// --enable-unsafe-extension-debugging; they manage unpacked extensions.

// ExtensionInfo describes an unpacked extension.
type ExtensionInfo struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Version string `json:"version"`
	// Path is the directory the extension was loaded from.
	Path    string `json:"path"`
	Enabled bool   `json:"enabled"`
}

// ExtensionsLoadUnpackedParams are the parameters of Extensions.loadUnpacked.
// Path must be absolute.
type ExtensionsLoadUnpackedParams struct {
	Path string `json:"path"`
}

// ExtensionsLoadUnpackedResult is the reply to Extensions.loadUnpacked.
type ExtensionsLoadUnpackedResult struct {
	ID string `json:"id"`
}

// ExtensionsGetExtensionsResult is the reply to Extensions.getExtensions.
type ExtensionsGetExtensionsResult struct {
	Extensions []ExtensionInfo `json:"extensions"`
}

// ExtensionIDParams name an extension: the parameters of Extensions.uninstall.
type ExtensionIDParams struct {
	ID string `json:"id"`
}

// ExtensionsTriggerActionParams are the parameters of
// Extensions.triggerAction: run extension ID's default action on the tab
// TargetID.
type ExtensionsTriggerActionParams struct {
	ID       string `json:"id"`
	TargetID string `json:"targetId"`
}

// DetachFromTargetParams are the parameters of Target.detachFromTarget,
// which ends a session. (Target domain; here because Extensions.triggerAction's
// tab lookup detached first; a browser.Scope's view detaches too.)
type DetachFromTargetParams struct {
	SessionID string `json:"sessionId"`
}

// The Extensions domain's commands, and Target.detachFromTarget whose
// params are here.
var (
	ExtensionsLoadUnpacked  = Command[ExtensionsLoadUnpackedParams, ExtensionsLoadUnpackedResult]{"Extensions.loadUnpacked"}
	ExtensionsGetExtensions = Query[ExtensionsGetExtensionsResult]{"Extensions.getExtensions"}
	ExtensionsUninstall     = Command[ExtensionIDParams, Empty]{"Extensions.uninstall"}
	ExtensionsTriggerAction = Command[ExtensionsTriggerActionParams, Empty]{"Extensions.triggerAction"}

	TargetDetachFromTarget = Command[DetachFromTargetParams, Empty]{"Target.detachFromTarget"}
)
