package cdp

// The Browser domain's commands that concern the browser itself; the window
// and permission commands are in emulation.go beside their params.
var (
	BrowserGetVersion = Query[BrowserVersion]{"Browser.getVersion"}
	BrowserClose      = Action{"Browser.close"}
)

// BrowserVersion is the reply to Browser.getVersion.
type BrowserVersion struct {
	Product         string `json:"product"`
	ProtocolVersion string `json:"protocolVersion"`
	UserAgent       string `json:"userAgent"`
}
