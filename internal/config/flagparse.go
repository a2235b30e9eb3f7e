package config

// Parsing the command line against flagTable: spellings, values, the
// converters for structured values and the checks for contradictions.

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

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
		if !slices.Contains(out, sp) {
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

// assignment is one flag given a value, from the command line or the
// config file, before it is stored.
type assignment struct {
	spec  *flagSpec
	name  string // the spelling used, for messages
	value string
}

// ParseFlags parses command-line arguments as in os.Args[1:], without a
// config file or environment variables (see LoadConfig). Any error it
// returns is a *UsageError; unknown flags are not errors but Warnings.
// Conflicting flags are reported too, except when --help or --version is
// given.
func ParseFlags(args []string) (*Config, error) {
	assigns, warnings, err := scanArgs(args)
	if err != nil {
		return nil, err
	}
	c, err := applyAssignments(assigns)
	if err != nil {
		return nil, err
	}
	c.Warnings = warnings
	if c.Help || c.Version {
		return c, nil
	}
	if err := checkConflicts(c); err != nil {
		return nil, err
	}
	return c, nil
}

// applyAssignments stores assigns, in order, into a new Config.
func applyAssignments(assigns []assignment) (*Config, error) {
	c := &Config{Categories: map[string]bool{}}
	for _, a := range assigns {
		if err := a.spec.set(c, a.name, a.value); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// scanArgs splits the command line into assignments, checking each value
// as it goes so that the first mistake is the one reported. An unknown
// flag is skipped with a warning, together with the value that follows it
// when that is not itself a flag, as the reference's parser does.
func scanArgs(args []string) (assigns []assignment, warnings []string, err error) {
	scratch := &Config{Categories: map[string]bool{}} // validates values early
	add := func(spec *flagSpec, name, value string) error {
		if err := spec.set(scratch, name, value); err != nil {
			return err
		}
		assigns = append(assigns, assignment{spec, name, value})
		return nil
	}
	bareSwitch := "" // the previous argument, when it was a switch without a value
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			if i+1 < len(args) {
				return nil, nil, usageErrorf("unexpected argument %s", shown(args[i+1]))
			}
			break
		}
		if len(arg) < 2 || arg[0] != '-' {
			if bareSwitch != "" {
				return nil, nil, usageErrorf("unexpected argument %s; to give %s a value write %s=%s", shown(arg), bareSwitch, bareSwitch, arg)
			}
			return nil, nil, usageErrorf("unexpected argument %s", shown(arg))
		}
		bareSwitch = ""
		name, value, hasValue := strings.Cut(arg, "=")
		spec, negated := lookupFlag(name)
		if spec == nil {
			if !hasValue && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++ // its value
			}
			warnings = append(warnings, unknownFlag(name))
			continue
		}
		if negated {
			if spec.kind != kindBool {
				return nil, nil, usageErrorf("%s is not accepted: --%s is not a switch, it takes a value (%s)", name, spec.name, spec.expected())
			}
			if hasValue {
				return nil, nil, usageErrorf("%s takes no value; write --%s=%s instead", name, spec.name, negate(value))
			}
			if err := add(spec, name, "false"); err != nil {
				return nil, nil, err
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
				return nil, nil, spec.missingValue(name, "")
			}
			if !spec.acceptsSeparate(args[i+1]) {
				return nil, nil, spec.missingValue(name, args[i+1])
			}
			i++
			value = args[i]
		}
		if err := add(spec, name, value); err != nil {
			return nil, nil, err
		}
	}
	return assigns, warnings, nil
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
	if b, ok := ParseBool(value); ok && b {
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

// ParseBool accepts the spellings of true and false a config file may hold.
func ParseBool(v string) (value, ok bool) {
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
		b, ok := ParseBool(value)
		if !ok {
			return usageErrorf("%s expects true or false, got %s", name, shown(value))
		}
		v = b != s.invert
	case kindInt:
		n, err := strconv.Atoi(value)
		if err != nil || n < s.min || (s.max > 0 && n > s.max) {
			return usageErrorf("%s expects %s, got %s", name, s.expected(), shown(value))
		}
		if s.convert != nil {
			return s.convert(c, name, strconv.Itoa(n))
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
	case c.AllowUnrestrictedPaths && c.FilesystemRoots != nil:
		return usageErrorf("--allowUnrestrictedPaths and --filesystemRoot both say where file tools may go; write --workspace=/ for every path, or drop --allowUnrestrictedPaths")
	case c.Categories["pwa"] && len(attach) > 0:
		return usageErrorf("--categoryPwa needs a Chrome this server launches, %s attaches to one; pick one", attach[0])
	}
	if err := checkWebDriverConflicts(c); err != nil {
		return err
	}
	return checkHTTPConflicts(c)
}

// convertQuality stores --screenshotQuality, already checked to be 0..100.
// The reference accepts 0; JPEG encoders raise it to 1, and 0 means "unset"
// in Config, so it is stored as 1.
func convertQuality(c *Config, _, value string) error {
	n, err := strconv.Atoi(value)
	if err != nil {
		return err
	}
	c.ScreenshotQuality = max(n, 1)
	return nil
}

// convertFilesystemRoot appends one --filesystemRoot directory, made
// absolute and cleaned so that the path checks compare like with like. An
// empty value is an error: it would silently mean the working directory.
func convertFilesystemRoot(c *Config, name, value string) error {
	if strings.TrimSpace(value) == "" {
		return usageErrorf("%s needs a directory, e.g. %s=/home/me/project (or / for every path)", name, name)
	}
	abs, err := filepath.Abs(value)
	if err != nil {
		return usageErrorf("%s: cannot make %s absolute: %v", name, shown(value), err)
	}
	c.FilesystemRoots = append(c.FilesystemRoots, abs)
	return nil
}

// convertConfigPath stores --config as an absolute path; empty unsets it.
func convertConfigPath(c *Config, name, value string) error {
	if value == "" {
		c.ConfigFile = ""
		return nil
	}
	abs, err := filepath.Abs(value)
	if err != nil {
		return usageErrorf("%s: cannot make %s absolute: %v", name, shown(value), err)
	}
	c.ConfigFile = abs
	return nil
}
