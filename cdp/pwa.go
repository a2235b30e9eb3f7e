package cdp

// PWA domain commands the server uses: installing, launching and
// uninstalling web apps and reading their OS integration state. The domain
// lives on the browser target, so these are called without a session.

// PWAManifestParams name a web app by its manifest id; they are the
// parameters of PWA.getOsAppState and PWA.uninstall.
type PWAManifestParams struct {
	ManifestID string `json:"manifestId"`
}

// PWAGetOsAppStateResult is the result of PWA.getOsAppState.
type PWAGetOsAppStateResult struct {
	BadgeCount   int              `json:"badgeCount"`
	FileHandlers []PWAFileHandler `json:"fileHandlers"`
}

// PWAFileHandler is a file handler the app registered with the OS.
type PWAFileHandler struct {
	Action      string                 `json:"action"`
	Accepts     []PWAFileHandlerAccept `json:"accepts"`
	DisplayName string                 `json:"displayName"`
}

// PWAFileHandlerAccept is a media type a file handler accepts and its
// file extensions.
type PWAFileHandlerAccept struct {
	MediaType      string   `json:"mediaType"`
	FileExtensions []string `json:"fileExtensions"`
}

// PWAInstallParams are the parameters of PWA.install.
type PWAInstallParams struct {
	ManifestID string `json:"manifestId"`
	// InstallURLOrBundleURL is the page (or signed web bundle) to install
	// from, overriding the one derived from ManifestID.
	InstallURLOrBundleURL string `json:"installUrlOrBundleUrl,omitempty"`
}

// PWALaunchParams are the parameters of PWA.launch; an empty URL opens the
// app's start URL.
type PWALaunchParams struct {
	ManifestID string `json:"manifestId"`
	URL        string `json:"url,omitempty"`
}

// PWALaunchResult is the result of PWA.launch: the page target opened.
type PWALaunchResult struct {
	TargetID string `json:"targetId"`
}

// PWAChangeAppUserSettingsParams are the parameters of
// PWA.changeAppUserSettings. DisplayMode is "standalone" or "browser".
type PWAChangeAppUserSettingsParams struct {
	ManifestID    string `json:"manifestId"`
	LinkCapturing *bool  `json:"linkCapturing,omitempty"`
	DisplayMode   string `json:"displayMode,omitempty"`
}

// The PWA domain's commands.
var (
	PWAGetOsAppState         = Command[PWAManifestParams, PWAGetOsAppStateResult]{"PWA.getOsAppState"}
	PWAInstall               = Command[PWAInstallParams, Empty]{"PWA.install"}
	PWAUninstall             = Command[PWAManifestParams, Empty]{"PWA.uninstall"}
	PWALaunch                = Command[PWALaunchParams, PWALaunchResult]{"PWA.launch"}
	PWAChangeAppUserSettings = Command[PWAChangeAppUserSettingsParams, Empty]{"PWA.changeAppUserSettings"}
)
