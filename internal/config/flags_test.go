package config

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/devtools-mcp/devtools-mcp/tools"
)

// parseOK parses args and fails the test on error.
func parseOK(t *testing.T, args ...string) *Config {
	t.Helper()
	c, err := ParseFlags(args)
	if err != nil {
		t.Fatalf("ParseFlags(%q): %v", args, err)
	}
	return c
}

func TestParseFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want func(c *Config) // edits the zero Config into the expected one
	}{
		{"empty", nil, func(c *Config) {}},
		{"camel separate value", []string{"--browserUrl", "http://127.0.0.1:9222"},
			func(c *Config) { c.BrowserURL = "http://127.0.0.1:9222" }},
		{"camel equals value", []string{"--browserUrl=http://127.0.0.1:9222"},
			func(c *Config) { c.BrowserURL = "http://127.0.0.1:9222" }},
		{"kebab", []string{"--browser-url", "http://localhost:9222"},
			func(c *Config) { c.BrowserURL = "http://localhost:9222" }},
		{"kebab equals", []string{"--browser-url=https://h:1/"},
			func(c *Config) { c.BrowserURL = "https://h:1/" }},
		{"lowercase", []string{"--browserurl=http://h:1"},
			func(c *Config) { c.BrowserURL = "http://h:1" }},
		{"short u", []string{"-u", "http://h:1"}, func(c *Config) { c.BrowserURL = "http://h:1" }},
		{"short u equals", []string{"-u=http://h:1"}, func(c *Config) { c.BrowserURL = "http://h:1" }},
		{"empty browserUrl is unset", []string{"--browserUrl="}, func(c *Config) {}},
		{"ws endpoint short", []string{"-w", "ws://h:1/devtools/browser/x"},
			func(c *Config) { c.WSEndpoint = "ws://h:1/devtools/browser/x" }},
		{"ws headers", []string{"--ws-endpoint=wss://h/devtools/browser/x", `--wsHeaders={"Authorization":"Bearer t","X-A":"b"}`},
			func(c *Config) {
				c.WSEndpoint = "wss://h/devtools/browser/x"
				c.WSHeaders = map[string]string{"Authorization": "Bearer t", "X-A": "b"}
			}},
		{"ws headers empty object is unset", []string{"--wsHeaders", "{}"}, func(c *Config) {}},
		{"executable short", []string{"-e", "/opt/chrome"}, func(c *Config) { c.ExecutablePath = "/opt/chrome" }},
		{"bool bare", []string{"--headless"}, func(c *Config) { c.Headless = true }},
		{"bool kebab", []string{"--accept-insecure-certs"}, func(c *Config) { c.AcceptInsecureCerts = true }},
		{"bool lowercase", []string{"--acceptinsecurecerts"}, func(c *Config) { c.AcceptInsecureCerts = true }},
		{"bool =true", []string{"--headless=true"}, func(c *Config) { c.Headless = true }},
		{"bool =false", []string{"--headless=false"}, func(c *Config) {}},
		{"bool =1", []string{"--slim=1"}, func(c *Config) { c.Slim = true }},
		{"bool =yes", []string{"--slim=yes"}, func(c *Config) { c.Slim = true }},
		{"bool =No", []string{"--slim=No"}, func(c *Config) {}},
		{"bool =0", []string{"--slim", "--slim=0"}, func(c *Config) {}},
		{"bool separate true", []string{"--headless", "true"}, func(c *Config) { c.Headless = true }},
		{"bool separate false", []string{"--headless", "false"}, func(c *Config) {}},
		{"bool separate false then flag", []string{"--headless", "false", "--slim"}, func(c *Config) { c.Slim = true }},
		{"no- camel", []string{"--headless", "--no-headless"}, func(c *Config) {}},
		{"no- kebab", []string{"--no-performance-crux"}, func(c *Config) {}},
		{"no- overrides earlier", []string{"--usageStatistics", "--no-usage-statistics"}, func(c *Config) {}},
		{"later wins", []string{"--no-headless", "--headless"}, func(c *Config) { c.Headless = true }},
		{"performanceCrux opt in", []string{"--performance-crux"}, func(c *Config) { c.PerformanceCrux = true }},
		{"alias experimentalMemory", []string{"--experimentalMemory"}, func(c *Config) { c.MemoryDebugging = true }},
		{"alias kebab", []string{"--experimental-memory=true"}, func(c *Config) { c.MemoryDebugging = true }},
		{"memoryDebugging", []string{"--memory-debugging"}, func(c *Config) { c.MemoryDebugging = true }},
		{"page id routing is the default", []string{"--pageIdRouting", "--experimental-page-id-routing"}, func(c *Config) {}},
		{"no page id routing", []string{"--no-page-id-routing"}, func(c *Config) { c.NoPageIDRouting = true }},
		{"page id routing false", []string{"--pageIdRouting=false"}, func(c *Config) { c.NoPageIDRouting = true }},
		{"no page id routing, old name", []string{"--no-experimentalPageIdRouting"}, func(c *Config) { c.NoPageIDRouting = true }},
		{"hardening", []string{"--no-javascript-evaluation", "--fileNavigations=false", "--no-sourceMaps"},
			func(c *Config) { c.NoJavaScriptEvaluation, c.NoFileNavigations, c.NoSourceMaps = true, true, true }},
		{"hardening turned back on", []string{"--no-javascript-evaluation", "--javascriptEvaluation", "--no-file-navigations", "--file-navigations=true"},
			func(c *Config) {}},
		{"workspaces", []string{"--workspace=/srv/a", "--filesystemRoot", "/srv/b/../c/", "--filesystem-root=/"},
			func(c *Config) { c.FilesystemRoots = []string{"/srv/a", "/srv/c", "/"} }},
		{"config absolute", []string{"--config=/etc/x.json"}, func(c *Config) { c.ConfigFile = "/etc/x.json" }},
		{"screencast fps", []string{"--screencastFps", "12"}, func(c *Config) { c.ScreencastFPS = 12 }},
		{"screencast fps old name", []string{"--experimental-screencast-fps=5"}, func(c *Config) { c.ScreencastFPS = 5 }},
		{"devtools comments", []string{"--devtoolsComments"}, func(c *Config) { c.DevtoolsComments = true }},
		{"screenshot quality zero", []string{"--screenshotQuality=0"}, func(c *Config) { c.ScreenshotQuality = 1 }},
		{"help", []string{"--help"}, func(c *Config) { c.Help = true }},
		{"help short", []string{"-h"}, func(c *Config) { c.Help = true }},
		{"version short", []string{"-v"}, func(c *Config) { c.Version = true }},
		{"help skips conflicts", []string{"--isolated", "--userDataDir=/x", "-h"},
			func(c *Config) { c.Isolated, c.UserDataDir, c.Help = true, "/x", true }},
		{"channel", []string{"--channel", "beta"}, func(c *Config) { c.Channel = "beta" }},
		{"channel case folded", []string{"--channel=Canary"}, func(c *Config) { c.Channel = "canary" }},
		{"channel with autoConnect", []string{"--auto-connect", "--channel=dev"},
			func(c *Config) { c.AutoConnect, c.Channel = true, "dev" }},
		{"viewport", []string{"--viewport", "1280x720"}, func(c *Config) { c.ViewportWidth, c.ViewportHeight = 1280, 720 }},
		{"viewport bounds", []string{"--viewport=10000x1"}, func(c *Config) { c.ViewportWidth, c.ViewportHeight = 10000, 1 }},
		{"screenshot options", []string{"--screenshotFormat=jpeg", "--screenshot-quality", "80", "--screenshotMaxWidth=1024", "--screenshot-max-height=768"},
			func(c *Config) {
				c.ScreenshotFormat, c.ScreenshotQuality = "jpeg", 80
				c.ScreenshotMaxWidth, c.ScreenshotMaxHeight = 1024, 768
			}},
		{"screenshot quality bounds", []string{"--screenshotQuality=1", "--screenshotQuality=100"},
			func(c *Config) { c.ScreenshotQuality = 100 }},
		{"repeatable chromeArg", []string{"--chromeArg=--no-sandbox", "--chrome-arg", "--disable-gpu", "--chromearg", "--lang=de"},
			func(c *Config) { c.ChromeArgs = []string{"--no-sandbox", "--disable-gpu", "--lang=de"} }},
		{"chromeArg value that is not a dash", []string{"--chromeArg", "about:blank"},
			func(c *Config) { c.ChromeArgs = []string{"about:blank"} }},
		{"repeatable ignoreDefaultChromeArg", []string{"--ignore-default-chrome-arg=--disable-extensions", "--ignoreDefaultChromeArg", "--mute-audio"},
			func(c *Config) { c.IgnoreDefaultChromeArgs = []string{"--disable-extensions", "--mute-audio"} }},
		{"repeatable blocked", []string{"--blockedUrlPattern", "https://a/*", "--blocked-url-pattern=https://b/*"},
			func(c *Config) { c.BlockedURLPatterns = []string{"https://a/*", "https://b/*"} }},
		{"repeatable allowed", []string{"--allowedUrlPattern=https://a/*", "--allowed-url-pattern", "https://b/*"},
			func(c *Config) { c.AllowedURLPatterns = []string{"https://a/*", "https://b/*"} }},
		{"strings", []string{"--logFile", "/tmp/l", "--proxy-server=http://p:1", "--user-data-dir", "/tmp/p"},
			func(c *Config) { c.LogFile, c.ProxyServer, c.UserDataDir = "/tmp/l", "http://p:1", "/tmp/p" }},
		{"value with equals", []string{"--logFile=/tmp/a=b"}, func(c *Config) { c.LogFile = "/tmp/a=b" }},
		{"empty separate value", []string{"--logFile", ""}, func(c *Config) {}},
		{"screencast with ffmpeg", []string{"--experimentalScreencast", "--experimental-ffmpeg-path", "/usr/bin/ffmpeg"},
			func(c *Config) { c.ExperimentalScreencast, c.ExperimentalFfmpegPath = true, "/usr/bin/ffmpeg" }},
		{"screencast fps", []string{"--screencastFps", "12"}, func(c *Config) { c.ScreencastFPS = 12 }},
		{"screencast fps, reference's old name", []string{"--experimental-screencast-fps=5"}, func(c *Config) { c.ScreencastFPS = 5 }},
		{"headless with browserUrl is fine", []string{"--headless", "--browserUrl=http://h:1"},
			func(c *Config) { c.Headless, c.BrowserURL = true, "http://h:1" }},
		{"isolated with browserUrl is fine", []string{"--isolated", "-u", "http://h:1"},
			func(c *Config) { c.Isolated, c.BrowserURL = true, "http://h:1" }},
		{"attach false does not conflict", []string{"--autoConnect=false", "--browserUrl=http://h:1"},
			func(c *Config) { c.BrowserURL = "http://h:1" }},
		{"many bools", []string{"--experimentalDevtools", "--experimental-vision", "--experimentalStructuredContent",
			"--experimental-include-all-pages", "--redact-network-headers", "--allowUnrestrictedPaths", "--usage-statistics"},
			func(c *Config) {
				c.ExperimentalDevtools, c.ExperimentalVision, c.ExperimentalStructuredContent = true, true, true
				c.ExperimentalIncludeAllPages, c.RedactNetworkHeaders, c.AllowUnrestrictedPaths = true, true, true
				c.UsageStatistics = true
			}},
		{"categories on and off", []string{"--categoryInput", "--category-extensions", "--no-category-network",
			"--categoryEmulation=false", "--categoryExperimentalThirdParty", "--category-experimental-webmcp=true",
			"--categorypwa", "--category-memory", "false"},
			func(c *Config) {
				c.Categories = map[string]bool{"input": true, "extensions": true, "network": false, "emulation": false,
					"experimentalThirdParty": true, "experimentalWebmcp": true, "pwa": true, "memory": false}
			}},
		{"compat flags accepted", []string{"--experimentalToonFormat", "--experimental-data-format", "toon",
			"--clearcutEndpoint=http://x", "--clearcut-force-flush-interval-ms", "100",
			"--clearcutIncludePidHeader", "--via-cli", "--no-viaCli"},
			func(c *Config) {}},
		{"double dash at end", []string{"--slim", "--"}, func(c *Config) { c.Slim = true }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseOK(t, tt.args...)
			want := &Config{Categories: map[string]bool{}}
			tt.want(want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("ParseFlags(%q)\n got %+v\nwant %+v", tt.args, got, want)
			}
		})
	}
}

func TestParseFlagsCategoriesAll(t *testing.T) {
	for _, info := range tools.Categories() {
		name := string(info.Category)
		camel := "category" + strings.ToUpper(name[:1]) + name[1:]
		if info.Flag != camel {
			t.Errorf("category %s has flag --%s, want --%s", name, info.Flag, camel)
		}
		for _, sp := range spellings(camel) {
			c := parseOK(t, "--"+sp)
			if v, ok := c.Categories[name]; !ok || !v {
				t.Errorf("--%s: Categories[%q] = %v, %v; want true", sp, name, v, ok)
			}
			c = parseOK(t, "--no-"+sp)
			if v, ok := c.Categories[name]; !ok || v {
				t.Errorf("--no-%s: Categories[%q] = %v, %v; want false", sp, name, v, ok)
			}
			c = parseOK(t, "--"+sp+"=false")
			if v, ok := c.Categories[name]; !ok || v {
				t.Errorf("--%s=false: Categories[%q] = %v, %v; want false", sp, name, v, ok)
			}
			if len(c.Categories) != 1 {
				t.Errorf("--%s=false: Categories = %v, want one entry", sp, c.Categories)
			}
		}
	}
	if got := parseOK(t).Categories; got == nil || len(got) != 0 {
		t.Errorf("no category flags: Categories = %#v, want empty non-nil map", got)
	}
	if got := len(tools.Categories()); got != 12 {
		t.Errorf("tools.Categories() has %d entries, want 12", got)
	}
}

// sampleValue returns a valid value for spec, for the table-wide tests.
func sampleValue(s *flagSpec) string {
	switch {
	case s.kind == kindBool && s.invert:
		return "false" // the non-default
	case s.kind == kindBool:
		return "true"
	case len(s.choices) > 0:
		return s.choices[len(s.choices)-1]
	case s.kind == kindInt:
		return "7"
	case s.name == "browserUrl":
		return "http://127.0.0.1:9222"
	case s.name == "wsEndpoint":
		return "ws://127.0.0.1:9222/devtools/browser/x"
	case s.name == "wsHeaders":
		return `{"A":"b"}`
	case s.name == "viewport":
		return "800x600"
	case s.name == "webdriverUrl":
		return "http://127.0.0.1:4444"
	case s.name == "webdriverCapabilities":
		return `{"platformName":"linux"}`
	case s.name == "port":
		return "8931"
	case s.name == "host":
		return "localhost"
	case s.name == "httpAllowedOrigin":
		return "https://app.example.com"
	}
	return "/some/value"
}

// TestEverySpellingEveryFlag parses every flag of the table in each of its
// spellings and checks that all spellings give the same Config and that a
// non-compat flag changes something.
func TestEverySpellingEveryFlag(t *testing.T) {
	zero := parseOK(t)
	for _, s := range flagTable {
		// Flags that need a companion to pass the conflict checks.
		var extra []string
		switch s.name {
		case "wsHeaders":
			extra = []string{"--wsEndpoint=ws://h/devtools/browser/x"}
		case "experimentalFfmpegPath":
			extra = []string{"--experimentalScreencast"}
		}
		if s.name == "webdriverCapabilities" {
			extra = []string{"--webdriverUrl=http://127.0.0.1:4444"}
		}
		if s.group == groupServe && s.name != "port" {
			extra = []string{"--port=0"}
		}
		val := sampleValue(s)
		var first *Config
		for _, n := range s.names() {
			for _, sp := range spellings(n) {
				for _, args := range [][]string{{"--" + sp + "=" + val}, {"--" + sp, val}} {
					c := parseOK(t, append(args, extra...)...)
					if first == nil {
						first = c
						if !s.compat && reflect.DeepEqual(c, zero) {
							t.Errorf("%q changed nothing", args)
						}
						if s.compat && !reflect.DeepEqual(c, zero) {
							t.Errorf("compat flag %q changed the config", args)
						}
					} else if !reflect.DeepEqual(c, first) {
						t.Errorf("%q gives %+v, want %+v", args, c, first)
					}
				}
			}
		}
		if s.short != "" {
			if c := parseOK(t, append([]string{"-" + s.short, val}, extra...)...); !reflect.DeepEqual(c, first) {
				t.Errorf("-%s gives %+v, want %+v", s.short, c, first)
			}
		}
	}
}

func TestParseFlagsErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string // substring of the message
	}{
		{"missing value at end", []string{"--browserUrl"}, "--browserUrl needs a value (URL), e.g. --browserUrl=http://127.0.0.1:9222"},
		{"missing value kebab", []string{"--log-file"}, "--log-file needs a value (PATH)"},
		{"missing value short", []string{"-u"}, "-u needs a value (URL)"},
		{"missing value before flag", []string{"--logFile", "--headless"}, "--logFile needs a value (PATH); if --headless is meant as the value, write --logFile=--headless"},
		{"chromeArg before our flag", []string{"--chromeArg", "--headless"}, "--chromeArg needs a value"},
		{"missing int", []string{"--screenshotQuality"}, "needs a value (an integer from 0 to 100)"},
		{"missing choice", []string{"--channel"}, "needs a value (one of stable, beta, dev, canary)"},
		{"bad bool", []string{"--headless=maybe"}, `--headless expects true or false, got maybe`},
		{"bad bool empty", []string{"--slim="}, `--slim expects true or false, got ""`},
		{"bad category bool", []string{"--category-network=off"}, "--category-network expects true or false"},
		{"bool separate non literal", []string{"--headless", "1"}, "unexpected argument 1; to give --headless a value write --headless=1"},
		{"bool separate capitalised", []string{"--slim", "TRUE"}, "unexpected argument TRUE"},
		{"no- with value", []string{"--no-headless=true"}, "--no-headless takes no value; write --headless=false instead"},
		{"no- on string", []string{"--no-browserUrl"}, "--no-browserUrl is not accepted: --browserUrl is not a switch"},
		{"bad int", []string{"--screenshotQuality=abc"}, `--screenshotQuality expects an integer from 0 to 100, got abc`},
		{"int too big", []string{"--screenshotQuality", "101"}, "an integer from 0 to 100, got 101"},
		{"int negative", []string{"--screenshot-quality=-1"}, "an integer from 0 to 100, got -1"},
		{"fps zero", []string{"--screencastFps=0"}, "--screencastFps expects a positive integer, got 0"},
		{"fps fraction", []string{"--screencastFps=2.5"}, "--screencastFps expects a positive integer, got 2.5"},
		{"empty workspace", []string{"--workspace="}, "--workspace needs a directory"},
		{"workspace with unrestricted", []string{"--workspace=/x", "--allowUnrestrictedPaths"}, "--allowUnrestrictedPaths and --filesystemRoot"},
		{"pwa attached", []string{"--categoryPwa", "--browserUrl=http://h:1"}, "--categoryPwa needs a Chrome this server launches, --browserUrl attaches"},
		{"pwa autoConnect", []string{"--categoryPwa", "--autoConnect"}, "--categoryPwa needs a Chrome this server launches, --autoConnect"},
		{"bad hardening value", []string{"--javascriptEvaluation=off"}, "--javascriptEvaluation expects true or false, got off"},
		{"no- hardening with value", []string{"--no-file-navigations=true"}, "--no-file-navigations takes no value; write --fileNavigations=false instead"},
		{"int negative separate", []string{"--screenshotMaxWidth", "-5"}, "--screenshotMaxWidth expects a positive integer, got -5"},
		{"int zero width", []string{"--screenshotMaxHeight=0"}, "a positive integer"},
		{"choice", []string{"--channel=nightly"}, "--channel must be one of stable, beta, dev, canary, got nightly"},
		{"compat choice", []string{"--experimentalDataFormat=xml"}, "--experimentalDataFormat must be one of default, toon, gcf, got xml"},
		{"screenshot format choice", []string{"--screenshotFormat", "gif"}, "one of png, jpeg, webp"},
		{"viewport form", []string{"--viewport=1280"}, "expected WIDTHxHEIGHT, e.g. 1280x720"},
		{"viewport form letters", []string{"--viewport", "axb"}, "expected WIDTHxHEIGHT, e.g. 1280x720"},
		{"viewport sign", []string{"--viewport=+1x2"}, "expected WIDTHxHEIGHT"},
		{"viewport range", []string{"--viewport=0x720"}, "from 1 to 10000"},
		{"viewport range high", []string{"--viewport=1280x10001"}, "from 1 to 10000"},
		{"wsHeaders bad json", []string{"--wsEndpoint=ws://h/x", "--wsHeaders={bad"}, `e.g. --wsHeaders '{"Authorization":"Bearer token"}'`},
		{"wsHeaders non string", []string{"--wsEndpoint=ws://h/x", `--wsHeaders={"a":1}`}, "JSON object of string values"},
		{"wsHeaders array", []string{"--wsEndpoint=ws://h/x", `--wsHeaders=["a"]`}, "JSON object of string values"},
		{"wsHeaders newline", []string{"--wsEndpoint=ws://h/x", `--wsHeaders={"a":"b\r\nX: y"}`}, "bad header"},
		{"wsHeaders without wsEndpoint", []string{`--wsHeaders={"a":"b"}`}, "--wsHeaders only applies to --wsEndpoint"},
		{"bad browserUrl", []string{"--browserUrl=127.0.0.1:9222"}, "expects an http(s) URL"},
		{"bad wsEndpoint", []string{"--wsEndpoint=http://h:1"}, "expects a ws:// or wss:// URL"},
		{"positional", []string{"serve"}, "unexpected argument serve"},
		{"positional after flags", []string{"--headless", "foo"}, "unexpected argument foo"},
		{"positional dash", []string{"-"}, "unexpected argument -"},
		{"positional empty", []string{""}, `unexpected argument ""`},
		{"after double dash", []string{"--", "--headless"}, "unexpected argument --headless"},
		{"isolated userDataDir", []string{"--isolated", "--userDataDir", "/p"}, "--isolated uses a temporary profile; drop one of them"},
		{"browserUrl wsEndpoint", []string{"-u", "http://h:1", "-w", "ws://h:1/x"}, "--browserUrl and --wsEndpoint each name a browser to attach to; pick one"},
		{"browserUrl autoConnect", []string{"--autoConnect", "-u", "http://h:1"}, "--browserUrl and --autoConnect"},
		{"all three attach", []string{"--autoConnect", "-u", "http://h:1", "-w", "ws://h:1/x"}, "--browserUrl and --wsEndpoint and --autoConnect"},
		{"executablePath browserUrl", []string{"-e", "/c", "-u", "http://h:1"}, "--executablePath launches Chrome, --browserUrl attaches to one; pick one"},
		{"executablePath wsEndpoint", []string{"-e", "/c", "-w", "ws://h:1/x"}, "--executablePath launches Chrome, --wsEndpoint attaches to one; pick one"},
		{"executablePath autoConnect", []string{"-e", "/c", "--autoConnect"}, "--executablePath launches Chrome, --autoConnect attaches"},
		{"isolated autoConnect", []string{"--isolated", "--auto-connect"}, "--isolated uses a temporary profile"},
		{"userDataDir browserUrl", []string{"--userDataDir=/p", "-u", "http://h:1"}, "--userDataDir is for a Chrome this server launches"},
		{"channel browserUrl", []string{"--channel=beta", "-u", "http://h:1"}, "--channel picks a Chrome"},
		{"channel executablePath", []string{"--channel=beta", "-e", "/c"}, "--channel and --executablePath"},
		{"ffmpeg without screencast", []string{"--experimentalFfmpegPath=/f"}, "add --experimentalScreencast"},
		{"screencast fps zero", []string{"--screencastFps=0"}, "a positive integer"},
		{"screencast fps fraction", []string{"--screencastFps=2.5"}, "expects a positive integer, got 2.5"},
		{"blocked and allowed", []string{"--blockedUrlPattern=a", "--allowedUrlPattern=b"}, "cannot be combined"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseFlags(tt.args)
			if err == nil {
				t.Fatalf("ParseFlags(%q) = %+v, want error containing %q", tt.args, c, tt.want)
			}
			var ue *UsageError
			if !errors.As(err, &ue) {
				t.Fatalf("ParseFlags(%q) error %T %v, want *UsageError", tt.args, err, err)
			}
			if c != nil {
				t.Errorf("ParseFlags(%q) returned a config with its error", tt.args)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ParseFlags(%q) error\n %q\nwant it to contain\n %q", tt.args, err.Error(), tt.want)
			}
		})
	}
}

func TestSuggestFlagNoneWhenFar(t *testing.T) {
	for _, name := range []string{"--x", "--verbose", "--debug", "--foo", "--completely-unrelated-thing"} {
		if got := suggestFlag(name); got != "" {
			t.Errorf("suggestFlag(%q) = %q, want none", name, got)
		}
	}
}

func TestUsageMentionsEveryFlag(t *testing.T) {
	u := Usage()
	for _, s := range flagTable {
		for _, n := range s.names() {
			for _, sp := range []string{"--" + n, "--" + kebab(n)} {
				if !strings.Contains(u, sp) {
					t.Errorf("Usage() does not mention %s", sp)
				}
			}
		}
		if s.short != "" && !strings.Contains(u, "-"+s.short+" ") && !strings.Contains(u, "-"+s.short+"\n") {
			t.Errorf("Usage() does not mention -%s", s.short)
		}
		if !s.compat && s.desc == "" {
			t.Errorf("--%s has no description", s.name)
		}
	}
	for _, title := range groupTitles {
		if !strings.Contains(u, "\n"+title+":\n") {
			t.Errorf("Usage() has no group %q", title)
		}
	}
	for _, want := range []string{"stable|beta|dev|canary", "png|jpeg|webp", "compatibility", "(repeatable", "default: stable", "--experimental-data-format default|toon|gcf"} {
		if !strings.Contains(u, want) {
			t.Errorf("Usage() does not mention %q", want)
		}
	}
	for i, line := range strings.Split(u, "\n") {
		if len(line) > 100 {
			t.Errorf("Usage() line %d is %d characters long: %q", i+1, len(line), line)
		}
	}
}

// TestFlagTableSpellingsUnique guards the lookup map: no two flags may share
// a spelling, and every non-compat, non-category flag has a destination.
func TestFlagTableSpellingsUnique(t *testing.T) {
	seen := map[string]string{}
	for _, s := range flagTable {
		for _, n := range s.names() {
			for _, sp := range spellings(n) {
				if other, ok := seen[sp]; ok {
					t.Errorf("spelling --%s used by --%s and --%s", sp, other, s.name)
				}
				seen[sp] = s.name
			}
		}
		if !s.compat && s.category == "" && s.field == nil && s.convert == nil {
			t.Errorf("--%s stores its value nowhere", s.name)
		}
	}
}

func TestKebab(t *testing.T) {
	for in, want := range map[string]string{
		"browserUrl":                     "browser-url",
		"slim":                           "slim",
		"experimentalPageIdRouting":      "experimental-page-id-routing",
		"categoryExperimentalThirdParty": "category-experimental-third-party",
	} {
		if got := kebab(in); got != want {
			t.Errorf("kebab(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzParseFlags(f *testing.F) {
	for _, seed := range []string{
		"",
		"--browserUrl http://127.0.0.1:9222",
		"--headless false --no-category-network --categoryPwa=true",
		"--chromeArg --no-sandbox --chrome-arg=--x=y",
		"--viewport 1280x720 --screenshotQuality=80",
		`--wsEndpoint=ws://h/x --wsHeaders={"a":"b"}`,
		"--browserURL -- x",
		"-u -w -e -h -v --no-",
		"--=x --no-=y ---z",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		args := strings.Split(s, " ")
		c, err := ParseFlags(args)
		if err != nil {
			var ue *UsageError
			if !errors.As(err, &ue) || ue.Msg == "" {
				t.Fatalf("ParseFlags(%q): error %T %q, want a non-empty *UsageError", args, err, err)
			}
			if c != nil {
				t.Fatalf("ParseFlags(%q): config returned with error", args)
			}
			return
		}
		if c == nil || c.Categories == nil {
			t.Fatalf("ParseFlags(%q): nil config or categories without error", args)
		}
	})
}

// TestUnknownFlagsWarn checks that a flag this server does not know starts
// the server anyway, as the reference does, with a warning naming it (and
// the likely intended flag), and that its value is not taken for a stray
// argument.
func TestUnknownFlagsWarn(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want []string // the warnings
		edit func(c *Config)
	}{
		{"did you mean case", []string{"--browserURL", "x"}, []string{"ignoring unknown flag --browserURL; did you mean --browserUrl?"}, nil},
		{"did you mean typo", []string{"--headles"}, []string{"ignoring unknown flag --headles; did you mean --headless?"}, nil},
		{"did you mean kebab", []string{"--browser-ulr=x"}, []string{"ignoring unknown flag --browser-ulr; did you mean --browser-url?"}, nil},
		{"did you mean underscore", []string{"--user_data_dir=/x"}, []string{"ignoring unknown flag --user_data_dir; did you mean --userDataDir?"}, nil},
		{"did you mean single dash", []string{"-browserUrl", "x"}, []string{"ignoring unknown flag -browserUrl; did you mean --browserUrl?"}, nil},
		{"did you mean negation", []string{"--noHeadless"}, []string{"ignoring unknown flag --noHeadless; did you mean --no-headless?"}, nil},
		{"did you mean negated typo", []string{"--no-headles"}, []string{"ignoring unknown flag --no-headles; did you mean --no-headless?"}, nil},
		{"did you mean category", []string{"--category-netwrok"}, []string{"ignoring unknown flag --category-netwrok; did you mean --category-network?"}, nil},
		{"no suggestion when far", []string{"--frobnicate=9222"}, []string{"ignoring unknown flag --frobnicate"}, nil},
		{"unknown short", []string{"-x"}, []string{"ignoring unknown flag -x"}, nil},
		{"newer flag with value, then known flags", []string{"--experimentalSomethingNew", "42", "--headless", "--futureSwitch", "--slim"},
			[]string{"ignoring unknown flag --experimentalSomethingNew", "ignoring unknown flag --futureSwitch"},
			func(c *Config) { c.Headless, c.Slim = true, true }},
		{"unknown does not swallow a flag", []string{"--futureSwitch", "--no-javascript-evaluation"},
			[]string{"ignoring unknown flag --futureSwitch"}, func(c *Config) { c.NoJavaScriptEvaluation = true }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseOK(t, tt.args...)
			want := &Config{Categories: map[string]bool{}, Warnings: tt.want}
			if tt.edit != nil {
				tt.edit(want)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("ParseFlags(%q)\n got %+v\nwant %+v", tt.args, got, want)
			}
		})
	}
	// A stray argument is still an error, and so is a bad value of a known
	// flag after an unknown one.
	for _, args := range [][]string{{"--futureFlag=1", "stray"}, {"--futureFlag", "--headless=maybe"}} {
		if _, err := ParseFlags(args); err == nil {
			t.Errorf("ParseFlags(%q) succeeded, want an error", args)
		}
	}
}
