package config

// The flags of getting browsers from a W3C WebDriver endpoint (a Selenium
// Grid, a local chromedriver). The reference has none; the names say
// what they configure.

import (
	"encoding/json"
	"net/url"
	"strings"
)

// webdriverFlags are the flags of Config.WebDriverURL and
// Config.WebDriverCapabilities, listed with the ways to connect.
func webdriverFlags() []*flagSpec {
	return []*flagSpec{
		{name: "webdriverUrl", kind: kindString, group: groupConnect, arg: "URL", example: "http://127.0.0.1:4444",
			desc:    "Get the browser from a W3C WebDriver endpoint (Selenium Grid 4, Selenoid, a hosted grid, chromedriver): create a Chrome session there and drive it over the CDP address it returns. With --port, each MCP session gets a browser of its own.",
			convert: convertWebDriverURL, field: func(c *Config) any { return &c.WebDriverURL }},
		{name: "webdriverCapabilities", kind: kindString, group: groupConnect, arg: "JSON", example: `'{"platformName":"linux","browserVersion":"stable"}'`,
			desc:    `Extra capabilities for the WebDriver session, as a JSON object, for grids that route by them, e.g. '{"platformName":"linux"}'; "goog:chromeOptions" is merged into the server's. Needs --webdriverUrl.`,
			convert: convertWebDriverCapabilities},
	}
}

// convertWebDriverURL checks --webdriverUrl: empty (unset) or an absolute
// http(s) URL.
func convertWebDriverURL(_ *Config, name, value string) error {
	if value == "" {
		return nil
	}
	u, err := url.Parse(value)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return usageErrorf("%s expects the http(s) URL of a WebDriver endpoint such as http://127.0.0.1:4444, got %s", name, shown(value))
	}
	return nil
}

// convertWebDriverCapabilities parses --webdriverCapabilities, a JSON
// object whose "goog:chromeOptions", when given, is an object too.
func convertWebDriverCapabilities(c *Config, name, value string) error {
	if strings.TrimSpace(value) == "" {
		c.WebDriverCapabilities = nil
		return nil
	}
	var caps map[string]any
	if err := json.Unmarshal([]byte(value), &caps); err != nil {
		return usageErrorf(`%s expects a JSON object, e.g. %s '{"platformName":"linux"}': %v`, name, name, err)
	}
	if v, ok := caps["goog:chromeOptions"]; ok {
		opts, isObject := v.(map[string]any)
		if !isObject {
			return usageErrorf(`%s: "goog:chromeOptions" must be a JSON object`, name)
		}
		if args, ok := opts["args"]; ok {
			if _, isList := args.([]any); !isList {
				return usageErrorf(`%s: "goog:chromeOptions"."args" must be a JSON array of switches`, name)
			}
		}
	}
	if len(caps) == 0 {
		caps = nil
	}
	c.WebDriverCapabilities = caps
	return nil
}

// checkWebDriverConflicts reports --webdriverUrl combined with a browser to
// attach to, and capabilities without an endpoint.
func checkWebDriverConflicts(c *Config) error {
	if c.WebDriverURL == "" {
		if c.WebDriverCapabilities != nil {
			return usageErrorf("--webdriverCapabilities only applies to --webdriverUrl; add --webdriverUrl or drop it")
		}
		return nil
	}
	for _, f := range []struct {
		set  bool
		name string
	}{{c.BrowserURL != "", "--browserUrl"}, {c.WSEndpoint != "", "--wsEndpoint"}, {c.AutoConnect, "--autoConnect"}} {
		if f.set {
			return usageErrorf("--webdriverUrl gets a browser from a WebDriver endpoint, %s attaches to one; pick one", f.name)
		}
	}
	if c.UserDataDir != "" || c.Isolated {
		return usageErrorf("the WebDriver endpoint picks the browser's profile; drop --userDataDir and --isolated with --webdriverUrl")
	}
	return nil
}
