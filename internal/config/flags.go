package config

// Command-line flags.
//
// The flag names are the interface existing users already have: they come
// from the TypeScript chrome-devtools-mcp, so an MCP configuration written for
// it keeps working when only the command is swapped. Every flag is described
// once, in flagTable (this file); the parser (flagparse.go), the conflict
// checks' wording and the --help text (flaghelp.go) are all driven from that
// table.

import (
	"fmt"
	"strconv"

	"github.com/devtools-mcp/devtools-mcp/tools"
)

// Config is the parsed command line. Zero values mean "not given"; the rest
// of the server applies its own defaults on top (for example, the stable
// channel when neither a channel nor a browser to attach to is named).
type Config struct {
	// AutoConnect attaches to the user's running Chrome, found through the
	// DevToolsActivePort file in its profile for Channel (--autoConnect).
	AutoConnect bool
	// BrowserURL is the http(s) address of a debuggable Chrome to attach to
	// (--browserUrl, -u).
	BrowserURL string
	// WSEndpoint is a browser WebSocket endpoint to attach to directly
	// (--wsEndpoint, -w).
	WSEndpoint string
	// WSHeaders are extra headers for the WebSocket handshake (--wsHeaders,
	// a JSON object of string values). Nil when not given.
	WSHeaders map[string]string
	// Headless launches Chrome without a window (--headless).
	Headless bool
	// ExecutablePath is the Chrome binary to launch (--executablePath, -e).
	ExecutablePath string
	// Isolated launches Chrome with a temporary profile removed on exit
	// (--isolated).
	Isolated bool
	// UserDataDir is the profile directory (--userDataDir).
	UserDataDir string
	// Channel is "" or one of stable, beta, dev, canary (--channel).
	Channel string
	// LogFile is where debug logs go (--logFile).
	LogFile string
	// ViewportWidth and ViewportHeight are the initial viewport of a launched
	// Chrome (--viewport WxH); both 0 when not given, else 1..10000.
	ViewportWidth, ViewportHeight int
	// ProxyServer is passed to a launched Chrome as --proxy-server
	// (--proxyServer).
	ProxyServer string
	// AcceptInsecureCerts ignores certificate errors (--acceptInsecureCerts).
	AcceptInsecureCerts bool
	// LazyLaunch launches Chrome at the first tool call instead of in the
	// background right after the client initialized (--lazyLaunch).
	LazyLaunch bool
	// ChromeArgs are extra switches for a launched Chrome (--chromeArg,
	// repeatable, in command-line order).
	ChromeArgs []string
	// IgnoreDefaultChromeArgs are default launch switches to leave out
	// (--ignoreDefaultChromeArg, repeatable).
	IgnoreDefaultChromeArgs []string
	// BlockedURLPatterns are URL patterns the browser may not load
	// (--blockedUrlPattern, repeatable).
	BlockedURLPatterns []string
	// AllowedURLPatterns are the only URL patterns the browser may load
	// (--allowedUrlPattern, repeatable).
	AllowedURLPatterns []string
	// ExperimentalDevtools also automates DevTools targets
	// (--experimentalDevtools).
	ExperimentalDevtools bool
	// ExperimentalVision adds coordinate-based tools such as click_at
	// (--experimentalVision).
	ExperimentalVision bool
	// MemoryDebugging adds the heap snapshot analysis tools
	// (--memoryDebugging, alias --experimentalMemory).
	MemoryDebugging bool
	// ExperimentalStructuredContent returns MCP structured content
	// (--experimentalStructuredContent).
	ExperimentalStructuredContent bool
	// ExperimentalIncludeAllPages treats every target kind as a page
	// (--experimentalIncludeAllPages).
	ExperimentalIncludeAllPages bool
	// ExperimentalInteropTools adds get_tab_id (--experimentalInteropTools).
	ExperimentalInteropTools bool
	// ExperimentalScreencast records screencasts with ffmpeg instead of
	// Chrome's built-in recorder (--experimentalScreencast).
	ExperimentalScreencast bool
	// ExperimentalFfmpegPath is the ffmpeg binary for screencasts
	// (--experimentalFfmpegPath).
	ExperimentalFfmpegPath string
	// ScreencastFPS is the screencast frame rate, 0 for the recorder's
	// default (--screencastFps, alias --experimentalScreencastFps).
	ScreencastFPS int
	// Categories maps a category name in lower camel case ("input",
	// "navigation", "emulation", "performance", "network", "debugging",
	// "memory", "extensions", "experimentalThirdParty",
	// "experimentalWebmcp", "pwa") to its value, only for the categories
	// named on the command line, so the caller can tell "left at its default"
	// from "set". Never nil after a successful parse.
	Categories map[string]bool
	// PerformanceCrux allows field-data (CrUX) lookups, which send URLs to
	// Google; false unless asked for, since users may be air-gapped
	// (--performanceCrux).
	PerformanceCrux bool
	// UsageStatistics is accepted and ignored: this server sends no usage
	// data (--usageStatistics).
	UsageStatistics bool
	// ScreenshotFormat is "" or one of png, jpeg, webp (--screenshotFormat).
	ScreenshotFormat string
	// ScreenshotQuality is 0 when unset, else 1..100 (--screenshotQuality;
	// the reference's 0 is stored as 1, which JPEG encoders treat alike).
	ScreenshotQuality int
	// ScreenshotMaxWidth and ScreenshotMaxHeight are 0 when unset, else
	// positive: larger screenshots are downscaled (--screenshotMaxWidth,
	// --screenshotMaxHeight).
	ScreenshotMaxWidth, ScreenshotMaxHeight int
	// Slim exposes only the three slim tools (--slim).
	Slim bool
	// RedactNetworkHeaders hides sensitive headers in network output
	// (--redactNetworkHeaders).
	RedactNetworkHeaders bool
	// AllowUnrestrictedPaths lifts the write-path restriction for clients
	// without MCP roots (--allowUnrestrictedPaths).
	AllowUnrestrictedPaths bool
	// AllowCloseUserTabs lets close_page close tabs of an attached browser
	// that the agent did not open (--allowCloseUserTabs).
	AllowCloseUserTabs bool
	// ScriptTimeoutMS bounds each evaluate_script call; 0 means the
	// default of 60 s (--scriptTimeout).
	ScriptTimeoutMS int
	// SensitiveURLPatterns extend the built-in sensitive page list
	// (--sensitiveUrlPattern, repeatable).
	SensitiveURLPatterns []string
	// SensitivePages is "" (on when attached to the user's browser), "on"
	// (also for launched browsers) or "off" (--sensitivePages).
	SensitivePages string
	// HTTP is how to serve over Streamable HTTP (flags_http.go).
	HTTP HTTPConfig
	// WebDriverURL is a WebDriver endpoint to get browsers from
	// (--webdriverUrl); WebDriverCapabilities are extra capabilities for
	// its sessions (--webdriverCapabilities, a JSON object; nil when not
	// given). See flags_webdriver.go.
	WebDriverURL          string
	WebDriverCapabilities map[string]any
	// NoPageIDRouting drops the pageId parameter from the tool schemas, so
	// every call acts on the selected page (--no-page-id-routing). By
	// default pageId is accepted and optional.
	NoPageIDRouting bool
	// NoJavaScriptEvaluation closes the entry points that run JavaScript the
	// caller wrote: the evaluation tools, navigate_page's initScript and
	// navigations to javascript:, data: and vbscript: URLs
	// (--no-javascript-evaluation).
	NoJavaScriptEvaluation bool
	// NoFileNavigations refuses navigations to file: URLs, also inside
	// view-source: (--no-file-navigations).
	NoFileNavigations bool
	// NoSourceMaps keeps console stack traces unmapped and fetches no source
	// map (--no-source-maps).
	NoSourceMaps bool
	// FilesystemRoots are the directories file-reading and file-writing
	// tools may use, on top of the client's MCP roots; "/" means anywhere
	// (--filesystemRoot, alias --workspace, repeatable). Nil when not given.
	FilesystemRoots []string
	// ConfigFile is the absolute path of the JSON configuration file that
	// was read (--config, or found by discovery); "" when none.
	ConfigFile string
	// DevtoolsComments is the reference's internal DevTools comments switch;
	// it adds no tools here (--devtoolsComments).
	DevtoolsComments bool
	// Warnings are messages for stderr about the command line and the config
	// file that did not stop the server, such as unknown flags, which are
	// ignored so that a configuration written for a newer chrome-devtools-mcp
	// still starts.
	Warnings []string
	// Help asks for the --help text (--help, -h); Version for the version
	// (--version, -v). When either is set, conflict checks are skipped so
	// the request is honoured whatever else is on the line.
	Help, Version bool
}

// UsageError is a command-line mistake (unknown flag, bad value, conflicting
// flags). It is a distinct type so main can tell it from runtime failures:
// main prints it with a hint to run --help and exits with status 2.
type UsageError struct{ Msg string }

// Error returns the message, which names the flag involved and what was
// expected.
func (e *UsageError) Error() string { return e.Msg }

func usageErrorf(format string, args ...any) *UsageError {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

// flagKind is how a flag takes its value.
type flagKind int

const (
	kindBool   flagKind = iota // switch: --x, --x=false, --no-x
	kindString                 // one value
	kindInt                    // one integer value
	kindList                   // one value per occurrence, appended
)

// flagGroup is the --help section a flag is listed under.
type flagGroup int

const (
	groupConnect flagGroup = iota
	groupLaunch
	groupTools
	groupOutput
	groupLogging
	groupMisc
	groupServe
	groupCount
)

var groupTitles = [groupCount]string{
	groupConnect: "Connect to a running Chrome",
	groupLaunch:  "Launch Chrome",
	groupTools:   "Tools and categories",
	groupOutput:  "Output and limits",
	groupLogging: "Logging",
	groupMisc:    "Misc",
	groupServe:   "Serve over HTTP (instead of stdio)",
}

// flagSpec describes one flag. The table of these is the only place a flag
// is defined.
type flagSpec struct {
	name     string   // canonical camelCase name
	aliases  []string // further camelCase names with the same meaning
	short    string   // single-letter alias, without the dash
	kind     flagKind // how the value is taken
	choices  []string // allowed values of a string flag (matched case-insensitively)
	min, max int      // inclusive range of an int flag; max 0 means no upper bound
	arg      string   // value placeholder in --help and error messages
	example  string   // example value, used in error messages
	def      string   // default shown in --help; derived from kind when empty
	group    flagGroup
	desc     string
	// dashValue lets a separate value start with "-" (Chrome switches), as
	// long as it is not one of our own flags.
	dashValue bool
	// compat marks flags accepted for compatibility that do nothing here.
	compat bool
	// invert stores the opposite of the switch's value: the flag is on by
	// default and its Config field, named No..., is true when it is turned
	// off, so that the zero Config still means "nothing given".
	invert bool
	// field points at the destination: *bool, *string, *int or *[]string.
	// Nil for compat flags and for category flags.
	field func(c *Config) any
	// category, when set, stores the flag's value in Config.Categories.
	category string
	// convert, when set, turns a string value into Config fields itself.
	convert func(c *Config, name, value string) error
}

// flagTable is every flag the server accepts, in --help order within each
// group.
var flagTable = buildFlagTable()

func buildFlagTable() []*flagSpec {
	t := []*flagSpec{
		// Connect to a running Chrome.
		{name: "autoConnect", kind: kindBool, group: groupConnect,
			desc:  "Attach to the Chrome you already have open (Chrome 144+), found through the DevToolsActivePort file in its profile for --channel. Turn on remote debugging first at chrome://inspect/#remote-debugging.",
			field: func(c *Config) any { return &c.AutoConnect }},
		{name: "browserUrl", short: "u", kind: kindString, group: groupConnect, arg: "URL", example: "http://127.0.0.1:9222",
			desc:    "Attach to a Chrome started with a remote debugging port, e.g. http://127.0.0.1:9222; its WebSocket address is read from /json/version.",
			convert: convertHTTPURL, field: func(c *Config) any { return &c.BrowserURL }},
		{name: "wsEndpoint", short: "w", kind: kindString, group: groupConnect, arg: "URL", example: "ws://127.0.0.1:9222/devtools/browser/<id>",
			desc:    "Attach straight to a browser WebSocket endpoint, e.g. ws://127.0.0.1:9222/devtools/browser/<id>.",
			convert: convertWSURL, field: func(c *Config) any { return &c.WSEndpoint }},
		{name: "wsHeaders", kind: kindString, group: groupConnect, arg: "JSON", example: `'{"Authorization":"Bearer token"}'`,
			desc:    `Extra headers for the WebSocket handshake, as a JSON object of strings, e.g. '{"Authorization":"Bearer token"}'. Needs --wsEndpoint.`,
			convert: convertWSHeaders},

		// Launch Chrome.
		{name: "headless", kind: kindBool, group: groupLaunch,
			desc:  "Launch Chrome without a window.",
			field: func(c *Config) any { return &c.Headless }},
		{name: "executablePath", short: "e", kind: kindString, group: groupLaunch, arg: "PATH", example: "/usr/bin/google-chrome",
			def:   "the installed Chrome of --channel",
			desc:  "Chrome binary to launch.",
			field: func(c *Config) any { return &c.ExecutablePath }},
		{name: "isolated", kind: kindBool, group: groupLaunch,
			desc:  "Launch with a throwaway profile that is deleted when the browser exits.",
			field: func(c *Config) any { return &c.Isolated }},
		{name: "userDataDir", kind: kindString, group: groupLaunch, arg: "DIR", example: "/tmp/chrome-profile",
			def:   "a per-channel directory under the user cache directory",
			desc:  "Profile directory of the launched Chrome.",
			field: func(c *Config) any { return &c.UserDataDir }},
		{name: "channel", kind: kindString, group: groupLaunch, choices: []string{"stable", "beta", "dev", "canary"},
			def:   "stable",
			desc:  "Which installed Chrome to launch, or whose profile --autoConnect looks in.",
			field: func(c *Config) any { return &c.Channel }},
		{name: "viewport", kind: kindString, group: groupLaunch, arg: "WxH", example: "1280x720",
			desc:    "Initial viewport of the launched Chrome, e.g. 1280x720; each side 1 to 10000.",
			convert: convertViewport},
		{name: "proxyServer", kind: kindString, group: groupLaunch, arg: "PROXY", example: "http://127.0.0.1:3128",
			desc:  "Proxy for the launched Chrome, passed on as its --proxy-server switch.",
			field: func(c *Config) any { return &c.ProxyServer }},
		{name: "acceptInsecureCerts", kind: kindBool, group: groupLaunch,
			desc:  "Ignore certificate errors such as self-signed or expired certificates. Use with care.",
			field: func(c *Config) any { return &c.AcceptInsecureCerts }},
		{name: "lazyLaunch", kind: kindBool, group: groupLaunch,
			desc:  "Launch Chrome at the first tool call, not in the background as soon as the client has connected.",
			field: func(c *Config) any { return &c.LazyLaunch }},
		{name: "chromeArg", kind: kindList, group: groupLaunch, arg: "SWITCH", example: "--no-sandbox", dashValue: true,
			desc:  "Extra switch for the launched Chrome, e.g. --chromeArg=--no-sandbox; repeat for more.",
			field: func(c *Config) any { return &c.ChromeArgs }},
		{name: "ignoreDefaultChromeArg", kind: kindList, group: groupLaunch, arg: "SWITCH", example: "--disable-extensions", dashValue: true,
			desc:  "Leave out one of the switches this server passes to Chrome by default; repeat for more.",
			field: func(c *Config) any { return &c.IgnoreDefaultChromeArgs }},
	}

	// Tools and categories: one flag per category, then the flags that add
	// or reshape tools.
	// The table lives in tools, which also reads its defaults.
	for _, cat := range tools.Categories() {
		t = append(t, &flagSpec{
			name: cat.Flag, kind: kindBool,
			group: groupTools, def: strconv.FormatBool(cat.On), desc: cat.Description, category: string(cat.Category),
		})
	}
	t = append(t, []*flagSpec{
		{name: "slim", kind: kindBool, group: groupTools,
			desc:  "Expose only three tools: navigate, evaluate and screenshot.",
			field: func(c *Config) any { return &c.Slim }},
		{name: "experimentalVision", kind: kindBool, group: groupTools,
			desc:  "Add coordinate-based tools such as click_at, for models that read positions off screenshots.",
			field: func(c *Config) any { return &c.ExperimentalVision }},
		{name: "memoryDebugging", aliases: []string{"experimentalMemory"}, kind: kindBool, group: groupTools,
			desc:  "Add the heap snapshot analysis tools.",
			field: func(c *Config) any { return &c.MemoryDebugging }},
		{name: "experimentalScreencast", kind: kindBool, group: groupTools,
			desc:  "Record screencasts with ffmpeg (WebM or MP4) instead of Chrome's built-in recorder.",
			field: func(c *Config) any { return &c.ExperimentalScreencast }},
		{name: "experimentalFfmpegPath", kind: kindString, group: groupTools, arg: "PATH", example: "/usr/bin/ffmpeg",
			def:   "ffmpeg found on PATH",
			desc:  "ffmpeg binary used for screencasts. Needs --experimentalScreencast.",
			field: func(c *Config) any { return &c.ExperimentalFfmpegPath }},
		{name: "screencastFps", aliases: []string{"experimentalScreencastFps"}, kind: kindInt, group: groupTools, arg: "N", min: 1,
			def:   "30 with ffmpeg, 10 for animated PNG, Chrome's own for its recorder",
			desc:  "Frames per second of screencast recordings; fewer make smaller files and less work.",
			field: func(c *Config) any { return &c.ScreencastFPS }},
		{name: "experimentalDevtools", kind: kindBool, group: groupTools,
			desc:  "Also automate DevTools windows (DevTools targets).",
			field: func(c *Config) any { return &c.ExperimentalDevtools }},
		{name: "experimentalIncludeAllPages", kind: kindBool, group: groupTools,
			desc:  "Treat every kind of target, such as webviews and background pages, as a page.",
			field: func(c *Config) any { return &c.ExperimentalIncludeAllPages }},
		{name: "pageIdRouting", aliases: []string{"experimentalPageIdRouting"}, kind: kindBool, group: groupTools, invert: true,
			def:   "true",
			desc:  "Page-scoped tools take an optional pageId, so that several agents can share one browser; without it a call acts on the selected page. --no-page-id-routing drops pageId from the tool schemas.",
			field: func(c *Config) any { return &c.NoPageIDRouting }},
		{name: "devtoolsComments", kind: kindBool, group: groupTools,
			desc:  "Accepted for compatibility: the reference's internal DevTools comments feature; adds no tools here.",
			field: func(c *Config) any { return &c.DevtoolsComments }},
		{name: "performanceCrux", kind: kindBool, group: groupTools,
			desc:  "Look up real-user field data (CrUX) for traced pages; this sends their URLs to Google, so it is off unless asked for.",
			field: func(c *Config) any { return &c.PerformanceCrux }},

		// Output and limits.
		{name: "screenshotFormat", kind: kindString, group: groupOutput, choices: []string{"png", "jpeg", "webp"},
			def:   "png",
			desc:  "Image format take_screenshot uses when the call names none.",
			field: func(c *Config) any { return &c.ScreenshotFormat }},
		{name: "screenshotQuality", kind: kindInt, group: groupOutput, arg: "N", min: 0, max: 100,
			def:     "the encoder's own",
			desc:    "JPEG and WebP quality, 0 to 100, that take_screenshot uses when the call names none.",
			convert: convertQuality},
		{name: "screenshotMaxWidth", kind: kindInt, group: groupOutput, arg: "PX", min: 1,
			def:   "no limit",
			desc:  "Downscale screenshots wider than this, keeping the aspect ratio.",
			field: func(c *Config) any { return &c.ScreenshotMaxWidth }},
		{name: "screenshotMaxHeight", kind: kindInt, group: groupOutput, arg: "PX", min: 1,
			def:   "no limit",
			desc:  "Downscale screenshots taller than this, keeping the aspect ratio; with both limits the smaller scale wins.",
			field: func(c *Config) any { return &c.ScreenshotMaxHeight }},
		{name: "experimentalStructuredContent", kind: kindBool, group: groupOutput,
			desc:  "Return MCP structured content alongside the text.",
			field: func(c *Config) any { return &c.ExperimentalStructuredContent }},
		{name: "redactNetworkHeaders", kind: kindBool, group: groupOutput,
			desc:  "Hide secrets (cookies, authorization headers, tokens, passwords and the like) in network output and in the text pages write: console messages, dialogs, errors.",
			field: func(c *Config) any { return &c.RedactNetworkHeaders }},

		// Logging.
		{name: "logFile", kind: kindString, group: groupLogging, arg: "PATH", example: "/tmp/devtools-mcp.log",
			def:   "no log file",
			desc:  "Write logs to this file, with one line per tool call (typed text and secrets elided); set DEBUG=* for verbose logs.",
			field: func(c *Config) any { return &c.LogFile }},

		// Misc.
		{name: "blockedUrlPattern", kind: kindList, group: groupMisc, arg: "PATTERN", example: "https://*.example.com/*",
			desc:  "URL pattern (URLPattern syntax) the browser may not load; repeat for more. Not combinable with --allowedUrlPattern.",
			field: func(c *Config) any { return &c.BlockedURLPatterns }},
		{name: "allowedUrlPattern", kind: kindList, group: groupMisc, arg: "PATTERN", example: "https://example.com/*",
			desc:  "Only URLs matching one of these patterns may load; repeat for more.",
			field: func(c *Config) any { return &c.AllowedURLPatterns }},
		{name: "allowUnrestrictedPaths", kind: kindBool, group: groupMisc,
			desc:  "Let file tools read and write anywhere when the client declares no MCP roots. Only for trusted clients; same as --workspace=/.",
			field: func(c *Config) any { return &c.AllowUnrestrictedPaths }},
		{name: "filesystemRoot", aliases: []string{"workspace"}, kind: kindList, group: groupMisc, arg: "DIR", example: "/home/me/project",
			def:     "the temp directory, plus the client's MCP roots",
			desc:    "A directory file-reading and file-writing tools may use, besides the client's MCP roots; repeat for more. / allows every path.",
			convert: convertFilesystemRoot},
		{name: "javascriptEvaluation", kind: kindBool, group: groupMisc, invert: true,
			def:   "true",
			desc:  "--no-javascript-evaluation turns off the ways to run JavaScript the caller wrote: evaluate_script and the slim evaluate are not listed, navigate_page refuses initScript, and javascript:, data: and vbscript: URLs are not opened. Page scripts and clicks still run code.",
			field: func(c *Config) any { return &c.NoJavaScriptEvaluation }},
		{name: "fileNavigations", kind: kindBool, group: groupMisc, invert: true,
			def:   "true",
			desc:  "--no-file-navigations makes new_page, navigate_page and the slim navigate refuse file: URLs, also inside view-source:. Not a filesystem sandbox.",
			field: func(c *Config) any { return &c.NoFileNavigations }},
		{name: "sourceMaps", kind: kindBool, group: groupMisc, invert: true,
			def:   "true",
			desc:  "--no-source-maps leaves console stack traces as the browser reports them and fetches no source map.",
			field: func(c *Config) any { return &c.NoSourceMaps }},
		{name: "config", kind: kindString, group: groupMisc, arg: "FILE", example: "/home/me/devtools-mcp.json",
			def:     "cd4a.config.json under $PLUGIN_DATA, else cd4a/config.json under the user config directory",
			desc:    "JSON file of settings, keyed by flag name; flags on the command line win over it.",
			convert: convertConfigPath},
		{name: "scriptTimeout", kind: kindInt, group: groupMisc, arg: "MS", min: 1,
			def:   "60000",
			desc:  "Stop a script of evaluate_script that runs longer than this many milliseconds (a loop that never ends), so the page answers again.",
			field: func(c *Config) any { return &c.ScriptTimeoutMS }},
		{name: "allowCloseUserTabs", kind: kindBool, group: groupMisc,
			desc:  "When attached to your browser, let close_page close tabs the agent did not open.",
			field: func(c *Config) any { return &c.AllowCloseUserTabs }},
		{name: "sensitiveUrlPattern", kind: kindList, group: groupMisc, arg: "PATTERN", example: "https://intranet.example.com/*",
			desc:  "Add a sensitive page pattern: changing tools there need your confirmation; repeat for more.",
			field: func(c *Config) any { return &c.SensitiveURLPatterns }},
		{name: "sensitivePages", kind: kindString, group: groupMisc, choices: []string{"on", "off"},
			def:   "on when attached to your browser",
			desc:  "Confirm state-changing tools on sensitive pages (banks, payments, account settings, cloud consoles): on also for launched browsers, off never.",
			field: func(c *Config) any { return &c.SensitivePages }},
		{name: "usageStatistics", kind: kindBool, group: groupMisc,
			desc:  "Accepted and ignored: this server sends no usage data anywhere.",
			field: func(c *Config) any { return &c.UsageStatistics }},
		{name: "help", short: "h", kind: kindBool, group: groupMisc,
			desc:  "Print this help and exit.",
			field: func(c *Config) any { return &c.Help }},
		{name: "version", short: "v", kind: kindBool, group: groupMisc,
			desc:  "Print the version and exit.",
			field: func(c *Config) any { return &c.Version }},

		// Accepted for compatibility with chrome-devtools-mcp; no effect.
		{name: "experimentalToonFormat", kind: kindBool, group: groupMisc, compat: true},
		{name: "experimentalDataFormat", kind: kindString, group: groupMisc, compat: true, choices: []string{"default", "toon", "gcf"}},
		{name: "experimentalInteropTools", kind: kindBool, group: groupTools,
			desc:  "Add get_tab_id, which tells the Chrome tab id of a page for other tools that drive the same browser.",
			field: func(c *Config) any { return &c.ExperimentalInteropTools }},
		{name: "clearcutEndpoint", kind: kindString, group: groupMisc, compat: true, arg: "URL"},
		{name: "clearcutForceFlushIntervalMs", kind: kindString, group: groupMisc, compat: true, arg: "MS"},
		{name: "clearcutIncludePidHeader", kind: kindBool, group: groupMisc, compat: true},
		{name: "viaCli", kind: kindBool, group: groupMisc, compat: true},
	}...)
	t = append(t, webdriverFlags()...)
	return append(t, httpFlags()...)
}
