package cdp

// The Browser domain's commands that concern the browser itself; the window
// and permission commands are in emulation.go beside their params.
var (
	BrowserGetVersion = Query[BrowserVersion]{"Browser.getVersion"}
	BrowserClose      = Action{"Browser.close"}

	BrowserSetDownloadBehavior = Command[SetDownloadBehaviorParams, Empty]{"Browser.setDownloadBehavior"}
)

// SetDownloadBehaviorParams are Browser.setDownloadBehavior's: deny, allow
// (into DownloadPath) or default, for one browser context or, without
// BrowserContextID, the default one.
type SetDownloadBehaviorParams struct {
	Behavior         string `json:"behavior"`
	BrowserContextID string `json:"browserContextId,omitempty"`
	DownloadPath     string `json:"downloadPath,omitempty"`
}

// BrowserVersion is the reply to Browser.getVersion.
type BrowserVersion struct {
	Product         string `json:"product"`
	ProtocolVersion string `json:"protocolVersion"`
	UserAgent       string `json:"userAgent"`
}
