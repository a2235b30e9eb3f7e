package cdp

// Emulation domain commands, the Network commands that emulate connection
// conditions and extra headers, and the Browser window and permission
// commands, as small typed structs.

// ScreenOrientation is an emulated screen orientation: Type is
// portraitPrimary or landscapePrimary (or the Secondary forms), Angle 0 or 90.
type ScreenOrientation struct {
	Type  string `json:"type"`
	Angle int    `json:"angle"`
}

// SetDeviceMetricsOverrideParams are the parameters of
// Emulation.setDeviceMetricsOverride: the page's viewport in CSS pixels.
type SetDeviceMetricsOverrideParams struct {
	Width             int                `json:"width"`
	Height            int                `json:"height"`
	DeviceScaleFactor float64            `json:"deviceScaleFactor"`
	Mobile            bool               `json:"mobile"`
	ScreenOrientation *ScreenOrientation `json:"screenOrientation,omitempty"`
}

// SetTouchEmulationEnabledParams are the parameters of
// Emulation.setTouchEmulationEnabled.
type SetTouchEmulationEnabledParams struct {
	Enabled        bool `json:"enabled"`
	MaxTouchPoints int  `json:"maxTouchPoints,omitempty"`
}

// MediaFeature is one emulated CSS media feature, such as
// prefers-color-scheme: dark. An empty Value removes the override.
type MediaFeature struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// SetEmulatedMediaParams are the parameters of Emulation.setEmulatedMedia.
type SetEmulatedMediaParams struct {
	Features []MediaFeature `json:"features"`
}

// SetGeolocationOverrideParams are the parameters of
// Emulation.setGeolocationOverride (degrees, accuracy in meters).
type SetGeolocationOverrideParams struct {
	Latitude  float64 `json:"latitude"`
	Longitude float64 `json:"longitude"`
	Accuracy  float64 `json:"accuracy"`
}

// SetUserAgentOverrideParams are the parameters of
// Emulation.setUserAgentOverride; an empty UserAgent removes the override.
type SetUserAgentOverrideParams struct {
	UserAgent string `json:"userAgent"`
}

// SetCPUThrottlingRateParams are the parameters of
// Emulation.setCPUThrottlingRate: 1 is no slowdown, 4 four times slower.
type SetCPUThrottlingRateParams struct {
	Rate float64 `json:"rate"`
}

// EmulateNetworkConditionsParams are the parameters of
// Network.emulateNetworkConditions. Throughputs are in bytes per second,
// -1 for unthrottled; Latency is in milliseconds.
type EmulateNetworkConditionsParams struct {
	Offline            bool    `json:"offline"`
	Latency            float64 `json:"latency"`
	DownloadThroughput float64 `json:"downloadThroughput"`
	UploadThroughput   float64 `json:"uploadThroughput"`
}

// NetworkConditions are the conditions of the requests one URL pattern (in
// the URLPattern constructor's string syntax) matches.
type NetworkConditions struct {
	URLPattern         string  `json:"urlPattern"`
	Offline            bool    `json:"offline,omitempty"`
	Latency            float64 `json:"latency"`
	DownloadThroughput float64 `json:"downloadThroughput"`
	UploadThroughput   float64 `json:"uploadThroughput"`
}

// EmulateNetworkConditionsByRuleParams are the parameters of
// Network.emulateNetworkConditionsByRule: the first matching entry wins.
type EmulateNetworkConditionsByRuleParams struct {
	MatchedNetworkConditions []NetworkConditions `json:"matchedNetworkConditions"`
}

// EmulateNetworkConditionsByRuleResult names the rules it set.
type EmulateNetworkConditionsByRuleResult struct {
	RuleIDs []string `json:"ruleIds"`
}

// SetExtraHTTPHeadersParams are the parameters of Network.setExtraHTTPHeaders;
// an empty map removes the extra headers.
type SetExtraHTTPHeadersParams struct {
	Headers map[string]string `json:"headers"`
}

// PermissionDescriptor names a permission, e.g. {"name": "geolocation"}.
type PermissionDescriptor struct {
	Name string `json:"name"`
}

// SetPermissionParams are the parameters of Browser.setPermission. Setting
// is granted, denied or prompt; without Origin it applies to every origin.
type SetPermissionParams struct {
	Permission       PermissionDescriptor `json:"permission"`
	Setting          string               `json:"setting"`
	BrowserContextID string               `json:"browserContextId,omitempty"`
}

// WindowBounds is a browser window's position and size in screen pixels,
// and its state (normal, minimized, maximized, fullscreen). Zero fields are
// left unchanged by Browser.setWindowBounds.
type WindowBounds struct {
	Left        int    `json:"left,omitempty"`
	Top         int    `json:"top,omitempty"`
	Width       int    `json:"width,omitempty"`
	Height      int    `json:"height,omitempty"`
	WindowState string `json:"windowState,omitempty"`
}

// GetWindowForTargetParams are the parameters of Browser.getWindowForTarget.
type GetWindowForTargetParams struct {
	TargetID string `json:"targetId,omitempty"`
}

// GetWindowForTargetResult is the reply to Browser.getWindowForTarget.
type GetWindowForTargetResult struct {
	WindowID int          `json:"windowId"`
	Bounds   WindowBounds `json:"bounds"`
}

// SetWindowBoundsParams are the parameters of Browser.setWindowBounds.
type SetWindowBoundsParams struct {
	WindowID int          `json:"windowId"`
	Bounds   WindowBounds `json:"bounds"`
}

// SetFocusEmulationEnabledParams are the parameters of
// Emulation.setFocusEmulationEnabled.
type SetFocusEmulationEnabledParams struct {
	Enabled bool `json:"enabled"`
}

// The Emulation domain's commands, and the Network and Browser commands
// whose params are here.
var (
	EmulationSetDeviceMetricsOverride   = Command[SetDeviceMetricsOverrideParams, Empty]{"Emulation.setDeviceMetricsOverride"}
	EmulationClearDeviceMetricsOverride = Action{"Emulation.clearDeviceMetricsOverride"}
	EmulationSetTouchEmulationEnabled   = Command[SetTouchEmulationEnabledParams, Empty]{"Emulation.setTouchEmulationEnabled"}
	EmulationSetEmulatedMedia           = Command[SetEmulatedMediaParams, Empty]{"Emulation.setEmulatedMedia"}
	EmulationSetGeolocationOverride     = Command[SetGeolocationOverrideParams, Empty]{"Emulation.setGeolocationOverride"}
	EmulationClearGeolocationOverride   = Action{"Emulation.clearGeolocationOverride"}
	EmulationSetUserAgentOverride       = Command[SetUserAgentOverrideParams, Empty]{"Emulation.setUserAgentOverride"}
	EmulationSetCPUThrottlingRate       = Command[SetCPUThrottlingRateParams, Empty]{"Emulation.setCPUThrottlingRate"}
	// EmulationSetFocusEmulationEnabled has the page act as the focused,
	// visible one, drawn and handed input even in the background.
	EmulationSetFocusEmulationEnabled = Command[SetFocusEmulationEnabledParams, Empty]{"Emulation.setFocusEmulationEnabled"}

	NetworkEmulateNetworkConditions = Command[EmulateNetworkConditionsParams, Empty]{"Network.emulateNetworkConditions"}
	// NetworkEmulateNetworkConditionsByRule applies conditions per URL
	// pattern, WebSocket handshakes included (which Fetch interception
	// does not see); it needs Network.enable on the session.
	NetworkEmulateNetworkConditionsByRule = Command[EmulateNetworkConditionsByRuleParams, EmulateNetworkConditionsByRuleResult]{"Network.emulateNetworkConditionsByRule"}
	NetworkSetExtraHTTPHeaders            = Command[SetExtraHTTPHeadersParams, Empty]{"Network.setExtraHTTPHeaders"}

	BrowserSetPermission      = Command[SetPermissionParams, Empty]{"Browser.setPermission"}
	BrowserGetWindowForTarget = Command[GetWindowForTargetParams, GetWindowForTargetResult]{"Browser.getWindowForTarget"}
	BrowserSetWindowBounds    = Command[SetWindowBoundsParams, Empty]{"Browser.setWindowBounds"}
)
