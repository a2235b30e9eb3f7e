package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// testEnviron is an Environ with the given variables and home directory.
func testEnviron(home string, vars map[string]string) Environ {
	return Environ{getenv: func(k string) string { return vars[k] }, home: home, goos: "linux"}
}

// writeFile writes content to dir/rel, creating directories, and returns
// the path.
func writeFile(t *testing.T, dir, rel, content string) string {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func loadOK(t *testing.T, env Environ, args ...string) *Config {
	t.Helper()
	c, err := LoadConfig(args, env)
	if err != nil {
		t.Fatalf("LoadConfig(%q): %v", args, err)
	}
	return c
}

func TestConfigFileSettings(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "c.json", `{
		"headless": true,
		"javascriptEvaluation": false,
		"file-navigations": false,
		"screenshotQuality": 40,
		"chromeArg": ["--lang=de", "--mute-audio"],
		"blockedUrlPattern": "https://ads.example/*",
		"categoryNetwork": false,
		"workspace": ["/srv/a"],
		"screencastFps": 8,
		"clearcutForceFlushIntervalMs": 100,
		"logFile": null,
		"someNewerSetting": {"x": 1},
		"help": true
	}`)
	c := loadOK(t, testEnviron(dir, nil), "--config", path)
	want := &Config{
		Headless: true, NoJavaScriptEvaluation: true, NoFileNavigations: true, ScreenshotQuality: 40,
		ChromeArgs: []string{"--lang=de", "--mute-audio"}, BlockedURLPatterns: []string{"https://ads.example/*"},
		Categories: map[string]bool{"network": false}, FilesystemRoots: []string{"/srv/a"}, ScreencastFPS: 8,
		ConfigFile: path,
		Warnings: []string{
			"config file " + path + `: ignoring "help", which only works on the command line`,
			"config file " + path + `: ignoring unknown setting "someNewerSetting"`,
		},
	}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("LoadConfig\n got %+v\nwant %+v", c, want)
	}
}

// TestConfigFileFlagsWin checks that each setting on the command line
// replaces the file's, a repeatable one as a whole, and that settings the
// command line leaves out come from the file.
func TestConfigFileFlagsWin(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "c.json", `{"headless": true, "chromeArg": ["--a", "--b"], "sourceMaps": false, "viewport": "800x600"}`)
	c := loadOK(t, testEnviron(dir, nil), "--config="+path, "--headless=false", "--chromeArg=--c", "--viewport", "1024x768")
	if c.Headless || !reflect.DeepEqual(c.ChromeArgs, []string{"--c"}) || !c.NoSourceMaps || c.ViewportWidth != 1024 || c.ViewportHeight != 768 {
		t.Errorf("got Headless=%v ChromeArgs=%q NoSourceMaps=%v viewport %dx%d; want false, [--c], true, 1024x768",
			c.Headless, c.ChromeArgs, c.NoSourceMaps, c.ViewportWidth, c.ViewportHeight)
	}
}

func TestConfigFileErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, content, want string
	}{
		{"not json", `{"headless": tru}`, "is not a JSON object of settings"},
		{"array", `["--headless"]`, "is not a JSON object of settings"},
		{"null", `null`, "is not a JSON object of settings"},
		{"trailing", `{} {}`, "unexpected data after the JSON object"},
		{"bool as string flag", `{"logFile": true}`, `"logFile" takes a value (PATH), not true or false`},
		{"list for one value", `{"channel": ["beta"]}`, `"channel" takes one value`},
		{"list of numbers", `{"chromeArg": [1]}`, `"chromeArg" must be a list of strings`},
		{"fraction", `{"screencastFps": 2.5}`, `"screencastFps" expects a positive integer, got 2.5`},
		{"bad choice", `{"channel": "nightly"}`, "channel must be one of stable, beta, dev, canary, got nightly"},
		{"bad bool string", `{"headless": "maybe"}`, "headless expects true or false, got maybe"},
		{"object", `{"headless": {}}`, `"headless" expects true or false, not a JSON object`},
		{"conflict inside the file", `{"isolated": true, "userDataDir": "/p"}`, "--isolated uses a temporary profile"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, dir, tt.name+".json", tt.content)
			_, err := LoadConfig([]string{"--config", path}, testEnviron(dir, nil))
			var ue *UsageError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("LoadConfig with %s: error %v, want a *UsageError containing %q", tt.content, err, tt.want)
			}
		})
	}
	if _, err := LoadConfig([]string{"--config", filepath.Join(dir, "missing.json")}, testEnviron(dir, nil)); err == nil ||
		!strings.Contains(err.Error(), "missing.json: no such file") {
		t.Errorf("missing --config file: error %v, want it named", err)
	}
	if _, err := LoadConfig([]string{"--config", dir}, testEnviron(dir, nil)); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("--config of a directory: error %v", err)
	}
	// A conflict between the file and the command line is reported too.
	path := writeFile(t, dir, "unrestricted.json", `{"allowUnrestrictedPaths": true}`)
	if _, err := LoadConfig([]string{"--config", path, "--workspace=/x"}, testEnviron(dir, nil)); err == nil ||
		!strings.Contains(err.Error(), "--allowUnrestrictedPaths and --filesystemRoot") {
		t.Errorf("file and flag in conflict: error %v", err)
	}
	// --help is answered whatever the file holds.
	path = writeFile(t, dir, "broken.json", `{`)
	if c := loadOK(t, testEnviron(dir, nil), "--config", path, "--help"); !c.Help {
		t.Errorf("--help with a broken config file: %+v", c)
	}
}

func TestConfigDiscovery(t *testing.T) {
	home := t.TempDir()
	plugin := t.TempDir()
	xdg := t.TempDir()
	homeFile := writeFile(t, home, ".config/cd4a/config.json", `{"headless": true}`)

	// The user config directory under the home directory.
	if c := loadOK(t, testEnviron(home, nil)); c.ConfigFile != homeFile || !c.Headless {
		t.Errorf("home config: ConfigFile=%q Headless=%v", c.ConfigFile, c.Headless)
	}
	// $XDG_CONFIG_HOME replaces ~/.config when absolute, and is ignored when
	// relative, as the XDG spec says.
	xdgFile := writeFile(t, xdg, "cd4a/config.json", `{"slim": true}`)
	if c := loadOK(t, testEnviron(home, map[string]string{"XDG_CONFIG_HOME": xdg})); c.ConfigFile != xdgFile || !c.Slim || c.Headless {
		t.Errorf("XDG config: ConfigFile=%q Slim=%v Headless=%v", c.ConfigFile, c.Slim, c.Headless)
	}
	if c := loadOK(t, testEnviron(home, map[string]string{"XDG_CONFIG_HOME": "relative/dir"})); c.ConfigFile != homeFile {
		t.Errorf("relative XDG_CONFIG_HOME: ConfigFile=%q, want %q", c.ConfigFile, homeFile)
	}
	// $PLUGIN_DATA comes first; the files are not merged.
	pluginFile := writeFile(t, plugin, "cd4a.config.json", `{"isolated": true}`)
	c := loadOK(t, testEnviron(home, map[string]string{"PLUGIN_DATA": plugin, "XDG_CONFIG_HOME": xdg}))
	if c.ConfigFile != pluginFile || !c.Isolated || c.Slim {
		t.Errorf("plugin config: ConfigFile=%q Isolated=%v Slim=%v", c.ConfigFile, c.Isolated, c.Slim)
	}
	// An empty PLUGIN_DATA directory falls through to the next place.
	if c := loadOK(t, testEnviron(home, map[string]string{"PLUGIN_DATA": t.TempDir()})); c.ConfigFile != homeFile {
		t.Errorf("empty plugin dir: ConfigFile=%q, want %q", c.ConfigFile, homeFile)
	}
	// Discovery can be turned off; --config still works.
	off := map[string]string{"PLUGIN_DATA": plugin, envNoConfigDiscovery: "1"}
	if c := loadOK(t, testEnviron(home, off)); c.ConfigFile != "" || c.Isolated || c.Headless {
		t.Errorf("discovery off: %+v", c)
	}
	if c := loadOK(t, testEnviron(home, off), "--config", xdgFile); c.ConfigFile != xdgFile || !c.Slim {
		t.Errorf("discovery off with --config: %+v", c)
	}
	// --config wins over discovery.
	if c := loadOK(t, testEnviron(home, map[string]string{"PLUGIN_DATA": plugin}), "--config", xdgFile); c.ConfigFile != xdgFile || c.Isolated {
		t.Errorf("--config and PLUGIN_DATA: %+v", c)
	}
	// On Windows the user config directory is %LOCALAPPDATA%\Google\cd4a.
	win := testEnviron(home, map[string]string{"LOCALAPPDATA": "C:/Users/me/AppData/Local"})
	win.goos = "windows"
	if got := configSearchPaths(win); len(got) != 1 || got[0] != filepath.Join("C:/Users/me/AppData/Local", "Google", "cd4a", "config.json") {
		t.Errorf("windows search paths = %q", got)
	}
}

func TestEnvironmentVariables(t *testing.T) {
	home := t.TempDir() // no config file
	on := map[string]string{envThirdParty: "1"}
	if c := loadOK(t, testEnviron(home, on)); !c.Categories["experimentalThirdParty"] {
		t.Errorf("%s=1: third-party category is off", envThirdParty)
	}
	if c := loadOK(t, testEnviron(home, on), "--no-category-experimental-third-party"); c.Categories["experimentalThirdParty"] {
		t.Errorf("%s=1 with the flag off: the flag should win", envThirdParty)
	}
	for _, v := range []string{envCI, envNoUsageStatistics} {
		if c := loadOK(t, testEnviron(home, map[string]string{v: "true"}), "--usageStatistics"); c.UsageStatistics {
			t.Errorf("%s set: usage statistics still on", v)
		}
	}
	if c := loadOK(t, testEnviron(home, nil)); !reflect.DeepEqual(c, &Config{Categories: map[string]bool{}}) {
		t.Errorf("no flags, no file, no variables: %+v, want the zero Config", c)
	}
}
