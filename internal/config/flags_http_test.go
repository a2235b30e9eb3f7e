package config

import (
	"strings"
	"testing"
)

// TestHTTPFlags checks what --port and its companions set, and that a
// host other machines reach needs explicit consent.
func TestHTTPFlags(t *testing.T) {
	c := parseOK(t, "--port", "8931", "--host", "::1", "--httpToken", "t", "--httpMaxSessions", "3", "--httpIdleTimeout", "60", "--httpAllowedOrigin", "https://app.example.com")
	want := HTTPConfig{Serve: true, Port: 8931, Host: "::1", Token: "t", MaxSessions: 3, IdleTimeoutS: 60, AllowedOrigins: []string{"https://app.example.com"}}
	if got := c.HTTP; got.Serve != want.Serve || got.Port != want.Port || got.Host != want.Host || got.Token != want.Token ||
		got.MaxSessions != want.MaxSessions || got.IdleTimeoutS != want.IdleTimeoutS || strings.Join(got.AllowedOrigins, ",") != "https://app.example.com" {
		t.Errorf("HTTP config = %+v, want %+v", got, want)
	}
	if c := parseOK(t, "--port=0"); !c.HTTP.Serve || c.HTTP.Port != 0 {
		t.Errorf("--port=0 gives %+v; want serving on a free port", c.HTTP)
	}
	if c := parseOK(t, "--port", "80", "--host", "0.0.0.0", "--httpAllowRemote"); c.HTTP.Host != "0.0.0.0" {
		t.Errorf("--host 0.0.0.0 --httpAllowRemote gives %+v", c.HTTP)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--port", "65536"}, "--port expects a TCP port from 0 to 65535"},
		{[]string{"--port", "-1"}, "--port"},
		{[]string{"--port", "http"}, "--port expects a TCP port"},
		{[]string{"--port", "80", "--host", "0.0.0.0"}, "--httpAllowRemote"},
		{[]string{"--port", "80", "--host", "192.168.1.2"}, "--httpAllowRemote"},
		{[]string{"--port", "80", "--host", "example.com"}, "--httpAllowRemote"},
		{[]string{"--port", "80", "--host", "localhost.example.com"}, "--httpAllowRemote"},
		{[]string{"--httpToken", "t"}, "--httpToken configures serving over HTTP; add --port"},
		{[]string{"--host", "127.0.0.1"}, "--host configures serving over HTTP"},
		{[]string{"--httpIdleTimeout", "5"}, "add --port"},
		{[]string{"--httpGoneTimeout", "5"}, "add --port"},
		{[]string{"--port", "80", "--httpGoneTimeout", "0"}, "--httpGoneTimeout"},
		{[]string{"--port", "80", "--httpIdleTimeout", "0"}, "--httpIdleTimeout"},
		{[]string{"--port", "80", "--httpAllowedOrigin", "app.example.com"}, "expects an origin"},
	} {
		_, err := ParseFlags(tc.args)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseFlags(%q) = %v, want an error containing %q", tc.args, err, tc.want)
		}
	}
}

// TestIsLoopbackHost covers the spellings of this machine and the ones
// that only look like it.
func TestIsLoopbackHost(t *testing.T) {
	for host, want := range map[string]bool{
		"": true, "localhost": true, "LOCALHOST": true, "127.0.0.1": true, "127.1.2.3": true, "::1": true, "[::1]": true,
		"0.0.0.0": false, "::": false, "10.0.0.1": false, "localhost.evil.com": false, "127.0.0.1.nip.io": false,
	} {
		if got := isLoopbackHost(host); got != want {
			t.Errorf("isLoopbackHost(%q) = %v, want %v", host, got, want)
		}
	}
}

// TestWebDriverFlags checks --webdriverUrl and --webdriverCapabilities and
// the combinations they refuse.
func TestWebDriverFlags(t *testing.T) {
	c := parseOK(t, "--webdriverUrl", "http://grid:4444/wd/hub", "--webdriverCapabilities", `{"platformName":"linux","goog:chromeOptions":{"args":["--lang=de"]}}`)
	if c.WebDriverURL != "http://grid:4444/wd/hub" || c.WebDriverCapabilities["platformName"] != "linux" {
		t.Errorf("got URL %q, capabilities %v", c.WebDriverURL, c.WebDriverCapabilities)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--webdriverUrl", "grid:4444"}, "expects the http(s) URL of a WebDriver endpoint"},
		{[]string{"--webdriverUrl", "ws://grid:4444"}, "expects the http(s) URL"},
		{[]string{"--webdriverCapabilities", `{"a":1}`}, "--webdriverCapabilities only applies to --webdriverUrl"},
		{[]string{"--webdriverUrl", "http://g", "--webdriverCapabilities", `[1]`}, "expects a JSON object"},
		{[]string{"--webdriverUrl", "http://g", "--webdriverCapabilities", `{"goog:chromeOptions":"x"}`}, `"goog:chromeOptions" must be a JSON object`},
		{[]string{"--webdriverUrl", "http://g", "--webdriverCapabilities", `{"goog:chromeOptions":{"args":"--x"}}`}, `"args" must be a JSON array`},
		{[]string{"--webdriverUrl", "http://g", "--browserUrl", "http://127.0.0.1:9222"}, "pick one"},
		{[]string{"--webdriverUrl", "http://g", "--autoConnect"}, "pick one"},
		{[]string{"--webdriverUrl", "http://g", "--isolated"}, "drop --userDataDir and --isolated"},
	} {
		_, err := ParseFlags(tc.args)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseFlags(%q) = %v, want an error containing %q", tc.args, err, tc.want)
		}
	}
}

// TestListenAddr checks where the flags make the server listen.
func TestListenAddr(t *testing.T) {
	for _, tc := range []struct {
		h    HTTPConfig
		want string
	}{
		{HTTPConfig{Port: 8931}, "127.0.0.1:8931"},
		{HTTPConfig{Host: "::1", Port: 0}, "[::1]:0"},
		{HTTPConfig{Host: "[::1]", Port: 80}, "[::1]:80"},
		{HTTPConfig{Host: "localhost", Port: 80}, "localhost:80"},
		{HTTPConfig{Host: "0.0.0.0", AllowRemote: true, Port: 80}, "0.0.0.0:80"},
	} {
		if got := tc.h.ListenAddr(); got != tc.want {
			t.Errorf("%+v.ListenAddr() = %q, want %q", tc.h, got, tc.want)
		}
	}
}

// TestBearerTokenFromTheEnvironment checks that $DEVTOOLS_MCP_HTTP_TOKEN
// protects the endpoint when --httpToken is not given, and that the flag
// wins over it.
func TestBearerTokenFromTheEnvironment(t *testing.T) {
	t.Setenv(tokenEnv, "from-env")
	c := parseOK(t, "--port", "0")
	if got := c.HTTP.BearerToken(); got != "from-env" {
		t.Errorf("without --httpToken the token is %q, want $%s's", got, tokenEnv)
	}
	c = parseOK(t, "--port", "0", "--httpToken", "from-flag")
	if got := c.HTTP.BearerToken(); got != "from-flag" {
		t.Errorf("with --httpToken the token is %q, want the flag's", got)
	}
	t.Setenv(tokenEnv, "")
	if got := parseOK(t, "--port", "0").HTTP.BearerToken(); got != "" {
		t.Errorf("with neither the token is %q, want none", got)
	}
}
