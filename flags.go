package main

// Command-line flags.
//
// The flag names are the interface existing users already have: they come
// from the TypeScript chrome-devtools-mcp, so an MCP configuration written for
// it keeps working when only the command is swapped. Every flag is described
// once, in flagTable; the parser, the conflict checks' wording and the --help
// text are all driven from that table.

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"

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
	// ExperimentalPageIDRouting routes page-scoped calls by pageId
	// (--experimentalPageIdRouting).
	ExperimentalPageIDRouting bool
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
	// ExperimentalScreencast adds the screencast tools
	// (--experimentalScreencast).
	ExperimentalScreencast bool
	// ExperimentalFfmpegPath is the ffmpeg binary for screencasts
	// (--experimentalFfmpegPath).
	ExperimentalFfmpegPath string
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
	// ScreenshotQuality is 0 when unset, else 1..100 (--screenshotQuality).
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
	groupCount
)

var groupTitles = [groupCount]string{
	groupConnect: "Connect to a running Chrome",
	groupLaunch:  "Launch Chrome",
	groupTools:   "Tools and categories",
	groupOutput:  "Output and limits",
	groupLogging: "Logging",
	groupMisc:    "Misc",
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
			desc:  "Add the screencast recording tools (they need ffmpeg).",
			field: func(c *Config) any { return &c.ExperimentalScreencast }},
		{name: "experimentalFfmpegPath", kind: kindString, group: groupTools, arg: "PATH", example: "/usr/bin/ffmpeg",
			def:   "ffmpeg found on PATH",
			desc:  "ffmpeg binary used for screencasts. Needs --experimentalScreencast.",
			field: func(c *Config) any { return &c.ExperimentalFfmpegPath }},
		{name: "experimentalDevtools", kind: kindBool, group: groupTools,
			desc:  "Also automate DevTools windows (DevTools targets).",
			field: func(c *Config) any { return &c.ExperimentalDevtools }},
		{name: "experimentalIncludeAllPages", kind: kindBool, group: groupTools,
			desc:  "Treat every kind of target, such as webviews and background pages, as a page.",
			field: func(c *Config) any { return &c.ExperimentalIncludeAllPages }},
		{name: "experimentalPageIdRouting", kind: kindBool, group: groupTools,
			desc:  "Route page-scoped calls by their pageId, for several agents sharing one browser.",
			field: func(c *Config) any { return &c.ExperimentalPageIDRouting }},
		{name: "performanceCrux", kind: kindBool, group: groupTools,
			desc:  "Look up real-user field data (CrUX) for traced pages; this sends their URLs to Google, so it is off unless asked for.",
			field: func(c *Config) any { return &c.PerformanceCrux }},

		// Output and limits.
		{name: "screenshotFormat", kind: kindString, group: groupOutput, choices: []string{"png", "jpeg", "webp"},
			def:   "png",
			desc:  "Image format take_screenshot uses when the call names none.",
			field: func(c *Config) any { return &c.ScreenshotFormat }},
		{name: "screenshotQuality", kind: kindInt, group: groupOutput, arg: "N", min: 1, max: 100,
			def:   "the encoder's own",
			desc:  "JPEG and WebP quality, 1 to 100, that take_screenshot uses when the call names none.",
			field: func(c *Config) any { return &c.ScreenshotQuality }},
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
			desc:  "Hide sensitive headers (cookies, authorization and the like) in network output.",
			field: func(c *Config) any { return &c.RedactNetworkHeaders }},

		// Logging.
		{name: "logFile", kind: kindString, group: groupLogging, arg: "PATH", example: "/tmp/devtools-mcp.log",
			def:   "no log file",
			desc:  "Write debug logs to this file; set DEBUG=* for verbose logs.",
			field: func(c *Config) any { return &c.LogFile }},

		// Misc.
		{name: "blockedUrlPattern", kind: kindList, group: groupMisc, arg: "PATTERN", example: "https://*.example.com/*",
			desc:  "URL pattern (URLPattern syntax) the browser may not load; repeat for more. Not combinable with --allowedUrlPattern.",
			field: func(c *Config) any { return &c.BlockedURLPatterns }},
		{name: "allowedUrlPattern", kind: kindList, group: groupMisc, arg: "PATTERN", example: "https://example.com/*",
			desc:  "Only URLs matching one of these patterns may load; repeat for more.",
			field: func(c *Config) any { return &c.AllowedURLPatterns }},
		{name: "allowUnrestrictedPaths", kind: kindBool, group: groupMisc,
			desc:  "Let file-writing tools write outside the temp directory when the client declares no MCP roots. Only for trusted clients.",
			field: func(c *Config) any { return &c.AllowUnrestrictedPaths }},
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
		{name: "experimentalDataFormat", kind: kindString, group: groupMisc, compat: true, arg: "FORMAT"},
		{name: "experimentalInteropTools", kind: kindBool, group: groupMisc, compat: true},
		{name: "clearcutEndpoint", kind: kindString, group: groupMisc, compat: true, arg: "URL"},
		{name: "clearcutForceFlushIntervalMs", kind: kindString, group: groupMisc, compat: true, arg: "MS"},
		{name: "clearcutIncludePidHeader", kind: kindBool, group: groupMisc, compat: true},
		{name: "viaCli", kind: kindBool, group: groupMisc, compat: true},
	}...)
	return t
}

// Lookup tables built from flagTable.
var (
	longFlags  = map[string]*flagSpec{} // camelCase, kebab-case and lowercase spellings
	shortFlags = map[string]*flagSpec{} // single letters
)

func init() {
	for _, s := range flagTable {
		for _, n := range s.names() {
			for _, sp := range spellings(n) {
				if longFlags[sp] != nil {
					panic("flags: duplicate spelling --" + sp)
				}
				longFlags[sp] = s
			}
		}
		if s.short != "" {
			if shortFlags[s.short] != nil {
				panic("flags: duplicate short flag -" + s.short)
			}
			shortFlags[s.short] = s
		}
	}
}

// names returns the canonical name followed by the aliases.
func (s *flagSpec) names() []string {
	return append([]string{s.name}, s.aliases...)
}

// spellings returns the accepted spellings of a camelCase name: itself, its
// kebab-case form and its all-lowercase form, without duplicates.
func spellings(camel string) []string {
	out := []string{camel}
	for _, sp := range []string{kebab(camel), strings.ToLower(camel)} {
		if !containsString(out, sp) {
			out = append(out, sp)
		}
	}
	return out
}

// kebab turns "browserUrl" into "browser-url".
func kebab(camel string) string {
	var b strings.Builder
	for i, r := range camel {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('-')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// lookupFlag resolves an argument's name part ("--browser-url", "-u",
// "--no-headless") to its flag. negated reports the --no- form.
func lookupFlag(name string) (spec *flagSpec, negated bool) {
	if long, ok := strings.CutPrefix(name, "--"); ok {
		if s := longFlags[long]; s != nil {
			return s, false
		}
		if rest, ok := strings.CutPrefix(long, "no-"); ok {
			if s := longFlags[rest]; s != nil {
				return s, true
			}
		}
		return nil, false
	}
	if short, ok := strings.CutPrefix(name, "-"); ok {
		return shortFlags[short], false
	}
	return nil, false
}

// ParseFlags parses command-line arguments as in os.Args[1:]. Any error it
// returns is a *UsageError. Conflicting flags are reported too, except when
// --help or --version is given.
func ParseFlags(args []string) (*Config, error) {
	c := &Config{Categories: map[string]bool{}}
	bareSwitch := "" // the previous argument, when it was a switch without a value
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			if i+1 < len(args) {
				return nil, usageErrorf("unexpected argument %s", shown(args[i+1]))
			}
			break
		}
		if len(arg) < 2 || arg[0] != '-' {
			if bareSwitch != "" {
				return nil, usageErrorf("unexpected argument %s; to give %s a value write %s=%s", shown(arg), bareSwitch, bareSwitch, arg)
			}
			return nil, usageErrorf("unexpected argument %s", shown(arg))
		}
		bareSwitch = ""
		name, value, hasValue := strings.Cut(arg, "=")
		spec, negated := lookupFlag(name)
		if spec == nil {
			return nil, unknownFlag(name)
		}
		if negated {
			if spec.kind != kindBool {
				return nil, usageErrorf("%s is not accepted: --%s is not a switch, it takes a value (%s)", name, spec.name, spec.expected())
			}
			if hasValue {
				return nil, usageErrorf("%s takes no value; write --%s=%s instead", name, spec.name, negate(value))
			}
			if err := spec.set(c, name, "false"); err != nil {
				return nil, err
			}
			continue
		}
		if spec.kind == kindBool {
			if !hasValue {
				value = "true"
				if i+1 < len(args) && (args[i+1] == "true" || args[i+1] == "false") {
					i++
					value = args[i]
				} else {
					bareSwitch = name
				}
			}
		} else if !hasValue {
			if i+1 >= len(args) {
				return nil, spec.missingValue(name, "")
			}
			if !spec.acceptsSeparate(args[i+1]) {
				return nil, spec.missingValue(name, args[i+1])
			}
			i++
			value = args[i]
		}
		if err := spec.set(c, name, value); err != nil {
			return nil, err
		}
	}
	if c.Help || c.Version {
		return c, nil
	}
	if err := checkConflicts(c); err != nil {
		return nil, err
	}
	return c, nil
}

// shown formats an argument for a message: bare when that is unambiguous,
// quoted when it is empty or holds spaces, quotes or unprintable characters.
func shown(s string) string {
	q := strconv.Quote(s)
	if s == "" || q[1:len(q)-1] != s || strings.ContainsAny(s, " '") {
		return q
	}
	return s
}

// negate gives the opposite boolean spelling, for the --no-x=value hint.
func negate(value string) string {
	if b, ok := parseBool(value); ok && b {
		return "false"
	}
	return "true"
}

// acceptsSeparate reports whether next may be taken as this flag's value in
// the "--flag value" form. Something that looks like a flag is not, except a
// negative number for an int flag (reported as out of range) and a Chrome
// switch that is not one of ours for the Chrome argument lists.
func (s *flagSpec) acceptsSeparate(next string) bool {
	if next == "" || next == "-" || next[0] != '-' {
		return true
	}
	if s.kind == kindInt {
		if _, err := strconv.Atoi(next); err == nil {
			return true
		}
	}
	if s.dashValue {
		name, _, _ := strings.Cut(next, "=")
		if spec, _ := lookupFlag(name); spec == nil {
			return true
		}
	}
	return false
}

// missingValue builds the error for a value-taking flag given without one;
// next is the argument that followed it, if any.
func (s *flagSpec) missingValue(name, next string) *UsageError {
	msg := fmt.Sprintf("%s needs a value (%s)", name, s.expected())
	if next != "" {
		msg += fmt.Sprintf("; if %s is meant as the value, write %s=%s", next, name, next)
	} else if s.example != "" {
		msg += fmt.Sprintf(", e.g. %s=%s", name, s.example)
	}
	return &UsageError{Msg: msg}
}

// expected describes the values a flag takes, for error messages.
func (s *flagSpec) expected() string {
	switch {
	case s.kind == kindBool:
		return "true or false"
	case len(s.choices) > 0:
		return "one of " + strings.Join(s.choices, ", ")
	case s.kind == kindInt && s.max > 0:
		return fmt.Sprintf("an integer from %d to %d", s.min, s.max)
	case s.kind == kindInt && s.min == 1:
		return "a positive integer"
	case s.kind == kindInt:
		return fmt.Sprintf("an integer of at least %d", s.min)
	default:
		return s.arg
	}
}

// parseBool accepts the spellings of true and false a config file may hold.
func parseBool(v string) (value, ok bool) {
	switch strings.ToLower(v) {
	case "true", "1", "yes":
		return true, true
	case "false", "0", "no":
		return false, true
	}
	return false, false
}

// set converts value as the flag's kind says and stores it. name is the
// spelling the user typed, for messages.
func (s *flagSpec) set(c *Config, name, value string) error {
	var v any
	switch s.kind {
	case kindBool:
		b, ok := parseBool(value)
		if !ok {
			return usageErrorf("%s expects true or false, got %s", name, shown(value))
		}
		v = b
	case kindInt:
		n, err := strconv.Atoi(value)
		if err != nil || n < s.min || (s.max > 0 && n > s.max) {
			return usageErrorf("%s expects %s, got %s", name, s.expected(), shown(value))
		}
		v = n
	default:
		if len(s.choices) > 0 {
			canon := ""
			for _, ch := range s.choices {
				if strings.EqualFold(ch, value) {
					canon = ch
				}
			}
			if canon == "" {
				return usageErrorf("%s must be %s, got %s", name, s.expected(), shown(value))
			}
			value = canon
		}
		if s.convert != nil {
			if err := s.convert(c, name, value); err != nil {
				return err
			}
			if s.field == nil {
				return nil
			}
		}
		v = value
	}
	if s.category != "" {
		c.Categories[s.category] = v.(bool)
		return nil
	}
	if s.field == nil {
		return nil // accepted for compatibility
	}
	switch p := s.field(c).(type) {
	case *bool:
		*p = v.(bool)
	case *int:
		*p = v.(int)
	case *string:
		*p = v.(string)
	case *[]string:
		*p = append(*p, v.(string))
	default:
		panic(fmt.Sprintf("flags: --%s has an unsupported destination %T", s.name, p))
	}
	return nil
}

// convertHTTPURL checks --browserUrl: empty (unset) or an absolute http(s) URL.
func convertHTTPURL(_ *Config, name, value string) error {
	if value == "" {
		return nil
	}
	u, err := url.Parse(value)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return usageErrorf("%s expects an http(s) URL such as http://127.0.0.1:9222, got %s", name, shown(value))
	}
	return nil
}

// convertWSURL checks --wsEndpoint: empty (unset) or an absolute ws(s) URL.
func convertWSURL(_ *Config, name, value string) error {
	if value == "" {
		return nil
	}
	u, err := url.Parse(value)
	if err != nil || (u.Scheme != "ws" && u.Scheme != "wss") || u.Host == "" {
		return usageErrorf("%s expects a ws:// or wss:// URL such as ws://127.0.0.1:9222/devtools/browser/<id>, got %s", name, shown(value))
	}
	return nil
}

// convertWSHeaders parses --wsHeaders, a JSON object of string values. An
// empty value or JSON null leaves the headers unset.
func convertWSHeaders(c *Config, name, value string) error {
	if strings.TrimSpace(value) == "" {
		c.WSHeaders = nil
		return nil
	}
	var h map[string]string
	if err := json.Unmarshal([]byte(value), &h); err != nil {
		return usageErrorf(`%s expects a JSON object of string values, e.g. %s '{"Authorization":"Bearer token"}': %v`, name, name, err)
	}
	for k, v := range h {
		if k == "" || strings.ContainsAny(k, "\r\n: ") || strings.ContainsAny(v, "\r\n") {
			return usageErrorf(`%s has a bad header %s; names must be non-empty without spaces or colons, and no line breaks are allowed, e.g. %s '{"Authorization":"Bearer token"}'`, name, shown(k), name)
		}
	}
	if len(h) == 0 {
		h = nil
	}
	c.WSHeaders = h
	return nil
}

// convertViewport parses --viewport WIDTHxHEIGHT. An empty value unsets it.
func convertViewport(c *Config, name, value string) error {
	if value == "" {
		c.ViewportWidth, c.ViewportHeight = 0, 0
		return nil
	}
	ws, hs, ok := strings.Cut(strings.ToLower(value), "x")
	w, werr := digits(ws)
	h, herr := digits(hs)
	if !ok || werr != nil || herr != nil {
		return usageErrorf("%s: expected WIDTHxHEIGHT, e.g. 1280x720, got %s", name, shown(value))
	}
	if w < 1 || w > 10000 || h < 1 || h > 10000 {
		return usageErrorf("%s: width and height must each be from 1 to 10000, got %s", name, shown(value))
	}
	c.ViewportWidth, c.ViewportHeight = w, h
	return nil
}

// digits parses a non-empty run of ASCII digits (no sign, no spaces).
func digits(s string) (int, error) {
	if s == "" || len(s) > 9 {
		return 0, strconv.ErrSyntax
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return 0, strconv.ErrSyntax
		}
	}
	return strconv.Atoi(s)
}

// checkConflicts reports flag combinations that cannot both be honoured.
func checkConflicts(c *Config) error {
	var attach []string
	if c.BrowserURL != "" {
		attach = append(attach, "--browserUrl")
	}
	if c.WSEndpoint != "" {
		attach = append(attach, "--wsEndpoint")
	}
	if c.AutoConnect {
		attach = append(attach, "--autoConnect")
	}
	switch {
	case len(attach) > 1:
		return usageErrorf("%s each name a browser to attach to; pick one", strings.Join(attach, " and "))
	case c.ExecutablePath != "" && len(attach) == 1:
		return usageErrorf("--executablePath launches Chrome, %s attaches to one; pick one", attach[0])
	case c.Isolated && c.UserDataDir != "":
		return usageErrorf("--isolated uses a temporary profile; drop one of them: --isolated or --userDataDir")
	case c.Isolated && c.AutoConnect:
		return usageErrorf("--isolated uses a temporary profile, --autoConnect attaches to the Chrome of an existing one; pick one")
	case c.UserDataDir != "" && (c.BrowserURL != "" || c.WSEndpoint != ""):
		return usageErrorf("--userDataDir is for a Chrome this server launches, %s attaches to one; pick one", attach[0])
	case c.Channel != "" && (c.BrowserURL != "" || c.WSEndpoint != ""):
		return usageErrorf("--channel picks a Chrome to launch or auto-connect to, %s attaches to a given one; pick one", attach[0])
	case c.Channel != "" && c.ExecutablePath != "":
		return usageErrorf("--channel and --executablePath both choose the Chrome binary; pick one")
	case c.WSHeaders != nil && c.WSEndpoint == "":
		return usageErrorf("--wsHeaders only applies to --wsEndpoint; add --wsEndpoint or drop --wsHeaders")
	case c.ExperimentalFfmpegPath != "" && !c.ExperimentalScreencast:
		return usageErrorf("--experimentalFfmpegPath is used by the screencast tools; add --experimentalScreencast or drop it")
	case len(c.BlockedURLPatterns) > 0 && len(c.AllowedURLPatterns) > 0:
		return usageErrorf("--blockedUrlPattern and --allowedUrlPattern cannot be combined; use one of them")
	}
	return nil
}

// unknownFlag builds the error for an unrecognised flag, suggesting the
// closest known spelling when one is reasonably close.
func unknownFlag(name string) *UsageError {
	if hint := suggestFlag(name); hint != "" {
		return usageErrorf("unknown flag %s; did you mean %s?", name, hint)
	}
	return usageErrorf("unknown flag %s", name)
}

// normalizeName folds case and drops separators, so that "browserURL",
// "browser_url" and "Browser-Url" compare equal.
func normalizeName(s string) string {
	s = strings.ToLower(s)
	return strings.NewReplacer("-", "", "_", "").Replace(s)
}

// suggestFlag returns the known flag closest to name by edit distance on
// normalized names, written in the style the user used (kebab-case when
// the typed name has an inner dash), or "" when nothing is close.
func suggestFlag(name string) string {
	body := strings.TrimLeft(name, "-")
	typed := normalizeName(body)
	if typed == "" {
		return ""
	}
	useKebab := strings.Contains(body, "-")
	best, bestDist := "", -1
	consider := func(norm, camel string) {
		limit := max(1, len(norm)/4)
		if len(typed) > len(norm)+limit || len(norm) > len(typed)+limit {
			return // too far apart in length to be within the limit
		}
		d := editDistance(typed, norm)
		if d > limit || d >= len(typed) {
			return
		}
		if bestDist < 0 || d < bestDist {
			best, bestDist = camel, d
		}
	}
	for _, s := range flagTable {
		for _, n := range s.names() {
			consider(normalizeName(n), n)
			if s.kind == kindBool {
				consider("no"+normalizeName(n), "no-"+n)
			}
		}
	}
	if best == "" {
		return ""
	}
	if useKebab {
		return "--" + kebab(best)
	}
	if rest, ok := strings.CutPrefix(best, "no-"); ok {
		return "--no-" + rest
	}
	return "--" + best
}

// editDistance is the Levenshtein distance between a and b (bytes).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

const usageIntro = `devtools-mcp is a Model Context Protocol (MCP) server that lets an AI agent
drive and inspect Chrome through the DevTools protocol: open and navigate
pages, click and type, read console and network activity, record performance
traces, take screenshots and heap snapshots. It speaks MCP over stdin and
stdout, and either launches its own Chrome or attaches to one that is already
running. Its flags are those of chrome-devtools-mcp, so an existing MCP
configuration keeps working once the command is swapped.

Usage: devtools-mcp [flags]                       MCP server on stdin/stdout
       devtools-mcp <tool> [args] [--option value]  one tool call from the shell,
                                                    through a background daemon
       devtools-mcp start [flags] | stop | status   manage that daemon
       devtools-mcp <tool> --help                   a tool's arguments

Every flag is accepted in camelCase (--browserUrl), kebab-case (--browser-url)
and all-lowercase (--browserurl). Values go as --flag value or --flag=value.
A switch is turned on by --flag or --flag=true and off by --no-flag or
--flag=false.
`

// Usage returns the --help text: what the program is, then every flag by
// group with its spellings, value type or choices, default and meaning.
func Usage() string {
	var b strings.Builder
	b.WriteString(usageIntro)
	for g := flagGroup(0); g < groupCount; g++ {
		fmt.Fprintf(&b, "\n%s:\n", groupTitles[g])
		var compat []string
		for _, s := range flagTable {
			if s.group != g {
				continue
			}
			if s.compat {
				compat = append(compat, s.helpHead())
				continue
			}
			b.WriteString("  " + s.helpHead() + "\n")
			writeWrapped(&b, s.desc+" "+s.helpDefault(), "      ", 80)
		}
		if len(compat) > 0 {
			b.WriteString("\n  Accepted for compatibility with chrome-devtools-mcp, with no effect here:\n")
			for _, line := range compat {
				b.WriteString("    " + line + "\n")
			}
		}
	}
	return b.String()
}

// spellingList returns the spellings shown in --help: camelCase and
// kebab-case of each name, then the short form.
func (s *flagSpec) spellingList() []string {
	var out []string
	for _, n := range s.names() {
		for _, sp := range []string{n, kebab(n)} {
			if !containsString(out, "--"+sp) {
				out = append(out, "--"+sp)
			}
		}
	}
	if s.short != "" {
		out = append(out, "-"+s.short)
	}
	return out
}

// helpHead is a flag's first help line: its spellings and value.
func (s *flagSpec) helpHead() string {
	head := strings.Join(s.spellingList(), ", ")
	switch {
	case len(s.choices) > 0:
		head += " " + strings.Join(s.choices, "|")
	case s.kind != kindBool:
		head += " " + s.arg
	}
	return head
}

// helpDefault states a flag's kind and default, closing its description.
func (s *flagSpec) helpDefault() string {
	def := s.def
	if def == "" {
		switch s.kind {
		case kindBool:
			def = "false"
		case kindList:
			def = "none"
		default:
			def = "none"
		}
	}
	switch s.kind {
	case kindBool:
		return "(switch; default: " + def + ")"
	case kindList:
		return "(repeatable; default: " + def + ")"
	}
	return "(default: " + def + ")"
}

// writeWrapped writes text word-wrapped to width, each line indented.
func writeWrapped(b *strings.Builder, text, indent string, width int) {
	line := indent
	for _, w := range strings.Fields(text) {
		if line != indent && len(line)+1+len(w) > width {
			b.WriteString(line + "\n")
			line = indent
		}
		if line != indent {
			line += " "
		}
		line += w
	}
	if line != indent {
		b.WriteString(line + "\n")
	}
}
