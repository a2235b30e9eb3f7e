package cdp

// The Browser domain's commands that concern the browser itself; the window
// and permission commands are in emulation.go beside their params.
var (
	BrowserGetVersion = Query[BrowserVersion]{"Browser.getVersion"}
	BrowserClose      = Action{"Browser.close"}

	BrowserSetDownloadBehavior = Command[SetDownloadBehaviorParams, Empty]{"Browser.setDownloadBehavior"}
	BrowserCancelDownload      = Command[CancelDownloadParams, Empty]{"Browser.cancelDownload"}
)

// The Browser domain's download events, sent to the session that set a
// download behavior with EventsEnabled.
var (
	BrowserDownloadWillBegin = Event[DownloadWillBeginEvent]{"Browser.downloadWillBegin"}
	BrowserDownloadProgress  = Event[DownloadProgressEvent]{"Browser.downloadProgress"}
)

// DownloadWillBeginEvent is Browser.downloadWillBegin: the frame FrameID
// starts downloading URL, which Chrome would name SuggestedFilename; GUID
// names the download in the progress events (and, with allowAndName, the
// file).
type DownloadWillBeginEvent struct {
	FrameID           string `json:"frameId"`
	GUID              string `json:"guid"`
	URL               string `json:"url"`
	SuggestedFilename string `json:"suggestedFilename"`
}

// DownloadProgressEvent is Browser.downloadProgress; State is inProgress,
// completed or canceled.
type DownloadProgressEvent struct {
	GUID          string  `json:"guid"`
	TotalBytes    float64 `json:"totalBytes"`
	ReceivedBytes float64 `json:"receivedBytes"`
	State         string  `json:"state"`
}

// CancelDownloadParams are Browser.cancelDownload's.
type CancelDownloadParams struct {
	GUID             string `json:"guid"`
	BrowserContextID string `json:"browserContextId,omitempty"`
}

// SetDownloadBehaviorParams are Browser.setDownloadBehavior's: deny, allow
// (into DownloadPath), allowAndName (into DownloadPath, each file named by
// its download's GUID) or default, for one browser context or, without
// BrowserContextID, the default one. EventsEnabled sends the download
// events to the session.
type SetDownloadBehaviorParams struct {
	Behavior         string `json:"behavior"`
	BrowserContextID string `json:"browserContextId,omitempty"`
	DownloadPath     string `json:"downloadPath,omitempty"`
	EventsEnabled    bool   `json:"eventsEnabled,omitempty"`
}

// BrowserVersion is the reply to Browser.getVersion.
type BrowserVersion struct {
	Product         string `json:"product"`
	ProtocolVersion string `json:"protocolVersion"`
	UserAgent       string `json:"userAgent"`
}
