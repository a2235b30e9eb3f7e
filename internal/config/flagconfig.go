package config

// The JSON config file and the environment variables of chrome-devtools-mcp:
// the same file names, search order and variables, so that a setup written
// for the reference configures this server too.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
)

// Environment variables read while loading the configuration.
const (
	// envNoConfigDiscovery turns off looking for a config file in the
	// standard places; --config still works.
	envNoConfigDiscovery = "CHROME_DEVTOOLS_MCP_NO_CONFIG_DISCOVERY"
	// envPluginData is the data directory an agent plugin host gives the
	// server; its cd4a.config.json comes first.
	envPluginData = "PLUGIN_DATA"
	// envThirdParty turns on the page's own developer tools unless
	// --categoryExperimentalThirdParty says otherwise.
	envThirdParty = "CHROME_DEVTOOLS_MCP_CATEGORY_EXPERIMENTAL_THIRD_PARTY"
	// envNoUsageStatistics and envCI turn usage statistics off; this server
	// sends none anyway.
	envNoUsageStatistics = "CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS"
	envCI                = "CI"
)

// configFileName is the config file's name under $PLUGIN_DATA; in the
// user's config directory it is cd4a/config.json.
const configFileName = "cd4a.config.json"

// maxConfigFileSize bounds the config file read: settings fit in a few
// kilobytes, and a mistaken path (a log, a device) must not be slurped.
const maxConfigFileSize = 1 << 20

// Environ is what loading the configuration reads from the process: its
// variables, home directory and operating system. Tests supply their own.
type Environ struct {
	getenv func(string) string
	home   string // "" when unknown
	goos   string
}

// ProcessEnviron is the Environ of this process.
func ProcessEnviron() Environ {
	home, _ := os.UserHomeDir()
	return Environ{getenv: os.Getenv, home: home, goos: runtime.GOOS}
}

// LoadConfig is ParseFlags plus what the command line does not say: the
// config file (--config, else the first one found by discovery) fills in
// every setting the command line leaves out, and the reference's
// environment variables apply on top. With --help or --version no file is
// read. Errors are *UsageError: a broken config file stops the server like
// a broken flag.
func LoadConfig(args []string, env Environ) (*Config, error) {
	cliAssigns, warnings, err := scanArgs(args)
	if err != nil {
		return nil, err
	}
	cli, err := applyAssignments(cliAssigns)
	if err != nil {
		return nil, err
	}
	if cli.Help || cli.Version {
		cli.Warnings = warnings
		return cli, nil
	}
	path := cli.ConfigFile
	if path == "" {
		path = locateConfigFile(env)
	}
	var assigns []assignment
	if path != "" {
		fileAssigns, fileWarnings, err := readConfigFile(path)
		if err != nil {
			return nil, err
		}
		warnings = append(warnings, fileWarnings...)
		onCLI := map[*flagSpec]bool{}
		for _, a := range cliAssigns {
			onCLI[a.spec] = true
		}
		for _, a := range fileAssigns {
			if !onCLI[a.spec] {
				assigns = append(assigns, a)
			}
		}
	}
	assigns = append(assigns, cliAssigns...)
	c, err := applyAssignments(assigns)
	if err != nil {
		return nil, err
	}
	c.ConfigFile = path
	c.Warnings = warnings
	applyEnviron(c, env)
	if err := checkConflicts(c); err != nil {
		return nil, err
	}
	return c, nil
}

// applyEnviron applies the reference's environment variables.
func applyEnviron(c *Config, env Environ) {
	if _, set := c.Categories["experimentalThirdParty"]; !set && env.getenv(envThirdParty) != "" {
		c.Categories["experimentalThirdParty"] = true
	}
	if env.getenv(envCI) != "" || env.getenv(envNoUsageStatistics) != "" {
		c.UsageStatistics = false
	}
}

// configSearchPaths are the places discovery looks, best first:
// $PLUGIN_DATA/cd4a.config.json, then cd4a/config.json in the user's
// config directory ($XDG_CONFIG_HOME when absolute, else ~/.config; on
// Windows %LOCALAPPDATA%\Google).
func configSearchPaths(env Environ) []string {
	var paths []string
	if dir := env.getenv(envPluginData); dir != "" {
		paths = append(paths, filepath.Join(dir, configFileName))
	}
	if env.goos == "windows" {
		if dir := env.getenv("LOCALAPPDATA"); dir != "" {
			return append(paths, filepath.Join(dir, "Google", "cd4a", "config.json"))
		}
	} else if dir := env.getenv("XDG_CONFIG_HOME"); dir != "" && filepath.IsAbs(dir) {
		return append(paths, filepath.Join(dir, "cd4a", "config.json"))
	}
	if env.home != "" {
		paths = append(paths, filepath.Join(env.home, ".config", "cd4a", "config.json"))
	}
	return paths
}

// locateConfigFile returns the first existing regular file among the
// search paths, or "" when there is none or discovery is turned off.
// Files are not merged: the first one wins.
func locateConfigFile(env Environ) string {
	if env.getenv(envNoConfigDiscovery) != "" {
		return ""
	}
	for _, p := range configSearchPaths(env) {
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			if abs, err := filepath.Abs(p); err == nil {
				return abs
			}
			return p
		}
	}
	return ""
}

// readConfigFile reads a JSON object of settings keyed by flag name (any
// spelling the command line accepts, without dashes) and turns it into
// assignments, in key order. A value is a JSON boolean, number or string as
// the flag takes, an array of strings for a repeatable flag, or null for
// "not set". An unknown key is a warning, as an unknown flag is.
func readConfigFile(path string) ([]assignment, []string, error) {
	data, err := readLimited(path, maxConfigFileSize)
	if err != nil {
		return nil, nil, usageErrorf("config file %s: %v", path, err)
	}
	var raw map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&raw); err != nil || raw == nil {
		if err == nil {
			err = errors.New("null")
		}
		return nil, nil, usageErrorf("config file %s is not a JSON object of settings: %v", path, err)
	}
	if dec.More() {
		return nil, nil, usageErrorf("config file %s: unexpected data after the JSON object", path)
	}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var assigns []assignment
	var warnings []string
	scratch := &Config{Categories: map[string]bool{}}
	for _, key := range keys {
		spec, negated := lookupFlag("--" + key)
		switch {
		case spec == nil || negated:
			warnings = append(warnings, fmt.Sprintf("config file %s: ignoring unknown setting %q", path, key))
			continue
		case spec.name == "config" || spec.name == "help" || spec.name == "version":
			warnings = append(warnings, fmt.Sprintf("config file %s: ignoring %q, which only works on the command line", path, key))
			continue
		}
		values, err := configValues(spec, raw[key])
		if err != nil {
			return nil, nil, usageErrorf("config file %s: %q %v", path, key, err)
		}
		for _, v := range values {
			if err := spec.set(scratch, key, v); err != nil {
				return nil, nil, usageErrorf("config file %s: %v", path, err)
			}
			assigns = append(assigns, assignment{spec, key, v})
		}
	}
	return assigns, warnings, nil
}

// readLimited reads the regular file at path, refusing one over limit bytes.
func readLimited(path string, limit int64) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, errors.New("no such file")
		}
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("%d bytes is too big for a config file (at most %d)", fi.Size(), limit)
	}
	return os.ReadFile(path)
}

// configValues turns one JSON value into the flag's string values: none
// for null, one per element for an array given to a repeatable flag.
func configValues(spec *flagSpec, raw json.RawMessage) ([]string, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	if v == nil {
		return nil, nil
	}
	if arr, ok := v.([]any); ok {
		if spec.kind != kindList {
			return nil, fmt.Errorf("takes one value (%s), not a list", spec.expected())
		}
		out := make([]string, 0, len(arr))
		for _, el := range arr {
			s, ok := el.(string)
			if !ok {
				return nil, fmt.Errorf("must be a list of strings (%s)", spec.arg)
			}
			out = append(out, s)
		}
		return out, nil
	}
	switch x := v.(type) {
	case bool:
		if spec.kind != kindBool {
			return nil, fmt.Errorf("takes a value (%s), not true or false", spec.expected())
		}
		return []string{strconv.FormatBool(x)}, nil
	case float64:
		if spec.kind == kindString || spec.kind == kindList {
			return []string{strconv.FormatFloat(x, 'f', -1, 64)}, nil
		}
		if spec.kind != kindInt {
			return nil, fmt.Errorf("expects %s, not a number", spec.expected())
		}
		if x != math.Trunc(x) || math.Abs(x) > 1e9 {
			return nil, fmt.Errorf("expects %s, got %v", spec.expected(), x)
		}
		return []string{strconv.Itoa(int(x))}, nil
	case string:
		return []string{x}, nil
	}
	return nil, fmt.Errorf("expects %s, not a JSON object", spec.expected())
}
