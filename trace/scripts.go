package trace

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// script is one script V8 compiled, as its source rundown
// (ScriptCatchup and LargeScriptCatchup events) describes it.
type script struct {
	ts     Micro  // when it was first seen
	url    string // "" for scripts without one (evaluated code)
	mapURL string // the sourceMappingURL V8 reported, if any
	length int    // bytes of source text
	hash   [sha256.Size]byte
	// legacy lists the polyfills and transforms for old browsers found in
	// the script, legacyBytes estimates the bytes they take.
	legacy      []string
	legacyBytes int
	// modules are the sources of its inline source map.
	modules []mapSource

	text  []byte // the source while parsing; nil after finish
	parts int    // LargeScriptCatchup pieces read
}

// mapSource is one original source of a bundle's source map.
type mapSource struct {
	name string // normalized: from node_modules/ on, without bundler prefixes
	size int    // bytes of its sourcesContent, -1 when the map has none
}

// scriptEvent reads the source rundown: metadata (url, source map) comes
// in the v8-source-rundown category, the text in v8-source-rundown-sources,
// split over LargeScriptCatchup events for big scripts. Chrome repeats a
// script's events; the first ones win.
func (b *builder) scriptEvent(ev *event, ts Micro) {
	var a struct {
		Data struct {
			Isolate      json.RawMessage
			ScriptID     json.Number
			URL          string
			SourceMapURL string `json:"sourceMapUrl"`
			SourceText   *string
			SplitIndex   int
			SplitCount   int
		}
	}
	if !decode(ev, &a) || a.Data.ScriptID == "" {
		return
	}
	d := a.Data
	key := strings.Trim(string(d.Isolate), `"`) + "." + d.ScriptID.String()
	i, ok := b.scripts[key]
	if !ok {
		i = int32(len(b.t.scripts))
		b.scripts[key] = i
		b.t.scripts = append(b.t.scripts, script{ts: ts})
	}
	s := &b.t.scripts[i]
	if d.SourceText == nil {
		if s.url == "" {
			s.url = b.intern(d.URL)
		}
		if s.mapURL == "" {
			s.mapURL = d.SourceMapURL
		}
		return
	}
	if string(ev.name) == "LargeScriptCatchup" {
		if d.SplitIndex == s.parts && s.parts < d.SplitCount {
			s.text = append(s.text, *d.SourceText...)
			s.parts++
		}
		return
	}
	if s.text == nil && s.parts == 0 {
		s.text = []byte(*d.SourceText)
		s.parts = 1
	}
}

// finishScripts reduces each script's text to what the insights need.
func (t *Trace) finishScripts() {
	for i := range t.scripts {
		s := &t.scripts[i]
		if s.parts == 0 {
			continue
		}
		t.ScriptSources = true
		s.length = len(s.text)
		s.hash = sha256.Sum256(s.text)
		if s.length >= legacyMinBytes { // smaller scripts cannot save enough
			lf := legacyScan(s.text)
			s.legacy, s.legacyBytes = lf.names, lf.bytes
		}
		s.modules = inlineMapSources(s.text, s.mapURL)
		for _, m := range s.modules {
			if name := legacyModule(m.name); name != "" && !slices.Contains(s.legacy, name) {
				s.legacy = append(s.legacy, name)
				s.legacyBytes = min(s.length, max(s.legacyBytes, polyfillRuntimeBytes)+max(0, m.size))
			}
		}
		s.text = nil
	}
}

// mapURLRE finds a sourceMappingURL comment.
var mapURLRE = regexp.MustCompile(`//[#@]\s*sourceMappingURL=(\S+)\s*$`)

// inlineMapSources returns the sources of a source map inlined as a data
// URL, given either by V8 or by the script's last sourceMappingURL comment.
func inlineMapSources(text []byte, mapURL string) []mapSource {
	if !strings.HasPrefix(mapURL, "data:") {
		mapURL = ""
		tail := text[max(0, bytes.LastIndex(text, []byte("sourceMappingURL="))-4):]
		if m := mapURLRE.FindSubmatch(bytes.TrimRight(tail, " \t\r\n;")); m != nil {
			mapURL = string(m[1])
		}
	}
	raw, ok := dataURL(mapURL)
	if !ok {
		return nil
	}
	var sm struct {
		Sources        []string
		SourcesContent []*string
	}
	if json.Unmarshal(raw, &sm) != nil {
		return nil
	}
	out := make([]mapSource, 0, len(sm.Sources))
	for i, src := range sm.Sources {
		m := mapSource{name: normalizeSource(src), size: -1}
		if i < len(sm.SourcesContent) && sm.SourcesContent[i] != nil {
			m.size = len(*sm.SourcesContent[i])
		}
		if m.name != "" {
			out = append(out, m)
		}
	}
	return out
}

// dataURL decodes the body of a data: URL.
func dataURL(u string) ([]byte, bool) {
	meta, body, ok := strings.Cut(strings.TrimPrefix(u, "data:"), ",")
	if !ok || !strings.HasPrefix(u, "data:") {
		return nil, false
	}
	if strings.HasSuffix(meta, ";base64") {
		b, err := base64.StdEncoding.DecodeString(body)
		if err != nil {
			b, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(body, "="))
		}
		return b, err == nil
	}
	s, err := url.PathUnescape(body)
	return []byte(s), err == nil
}

// normalizeSource names a source map source so the same module bundled by
// different builds compares equal: from its last node_modules/ on, else
// without the bundler's scheme and leading ./ and ../.
func normalizeSource(src string) string {
	if i := strings.LastIndex(src, "node_modules/"); i >= 0 {
		return src[i:]
	}
	if i := strings.Index(src, "://"); i >= 0 {
		src = src[i+3:]
	}
	for {
		switch {
		case strings.HasPrefix(src, "/"):
			src = src[1:]
		case strings.HasPrefix(src, "./"):
			src = src[2:]
		case strings.HasPrefix(src, "../"):
			src = src[3:]
		default:
			return src
		}
	}
}

// legacyFinding is what legacyScan found in a script: the polyfills and
// transforms for old browsers, and an estimate of the bytes they take.
type legacyFinding struct {
	names []string
	bytes int
}

// legacyPolyfills are the features every current browser has that
// polyfills still define, by object path; the value is the polyfill's name.
var legacyPolyfills = func() map[string]string {
	m := map[string]string{}
	for _, f := range []string{
		"Array.prototype.fill", "Array.prototype.find", "Array.prototype.findIndex", "Array.prototype.flat",
		"Array.prototype.flatMap", "Array.prototype.includes", "Array.prototype.at", "Array.from", "Array.of",
		"Object.assign", "Object.entries", "Object.values", "Object.fromEntries", "Object.hasOwn",
		"String.prototype.includes", "String.prototype.startsWith", "String.prototype.endsWith",
		"String.prototype.padStart", "String.prototype.padEnd", "String.prototype.repeat",
		"String.prototype.trimStart", "String.prototype.trimEnd", "String.prototype.replaceAll",
		"Promise.prototype.finally", "Promise.allSettled", "Promise.any", "Number.isNaN", "Number.isInteger", "Math.trunc",
	} {
		m[f] = f + " polyfill"
	}
	for _, g := range []string{"window", "self", "global", "globalThis"} {
		m[g+".Promise"] = "Promise polyfill"
	}
	return m
}()

// legacyTransforms are the Babel helpers that downlevel modern syntax, by
// identifier: their name, the helper's size and the bytes each use adds
// (rough figures for minified Babel output).
var legacyTransforms = map[string]struct {
	name           string
	helper, perUse int
}{
	"regeneratorRuntime": {"regenerator-runtime (async functions and generators compiled to ES5)", 0, 80},
	"_classCallCheck":    {"Babel classes transform (_classCallCheck)", 1000, 20},
	"_asyncToGenerator":  {"Babel async-to-generator transform (_asyncToGenerator)", 600, 20},
	"_toConsumableArray": {"Babel spread transform (_toConsumableArray)", 1200, 20},
	"_slicedToArray":     {"Babel destructuring transform (_slicedToArray)", 900, 20},
}

// A polyfill library brings shared internals besides each polyfill (core-js
// 3's are about 25 kB minified); each polyfill adds about a kilobyte.
const (
	polyfillRuntimeBytes = 25000
	perPolyfillBytes     = 1000
)

// legacyScan finds polyfills and Babel helpers in a script in one pass over
// its text, reading each identifier once: polyfills assigned
// (Array.prototype.includes = ..., Object["assign"] = ...) or defined
// (Object.defineProperty(String.prototype, "startsWith", ...)), and uses of
// the helpers. The byte estimate is at most the script's length.
func legacyScan(text []byte) legacyFinding {
	var f legacyFinding
	polyfills := 0
	uses := map[string]int{}
	for i := 0; i < len(text); {
		c := text[i]
		if !identStart(c) || i > 0 && (identPart(text[i-1]) || text[i-1] == '.') {
			i++
			continue
		}
		end := identEnd(text, i)
		word := text[i:end]
		found := func(name string) {
			if p, ok := legacyPolyfills[name]; ok && !slices.Contains(f.names, p) {
				f.names = append(f.names, p)
				polyfills++
			}
		}
		switch {
		case string(word) == "defineProperty":
			if name, ok := definedProperty(text[end:]); ok {
				found(name)
			}
		case legacyRoot(word):
			path, next := dottedPath(text, i)
			switch {
			case strings.HasSuffix(path, ".defineProperty"): // Object.defineProperty(...)
				if name, ok := definedProperty(text[next:]); ok {
					found(name)
				}
			case assigned(text[next:]):
				found(path)
			}
			end = max(end, next)
		default:
			if _, ok := legacyTransforms[string(word)]; ok {
				uses[string(word)]++
			}
		}
		i = end
	}
	if polyfills > 0 {
		f.bytes = polyfillRuntimeBytes + perPolyfillBytes*polyfills
	}
	for _, id := range slices.Sorted(maps.Keys(uses)) {
		tr := legacyTransforms[id]
		f.names = append(f.names, tr.name)
		f.bytes += tr.helper + tr.perUse*uses[id]
	}
	f.bytes = min(f.bytes, len(text))
	return f
}

func identStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$'
}

func identPart(c byte) bool { return identStart(c) || c >= '0' && c <= '9' }

func identEnd(text []byte, i int) int {
	for i < len(text) && identPart(text[i]) {
		i++
	}
	return i
}

// legacyRoot reports whether an identifier can start a polyfilled path.
func legacyRoot(w []byte) bool {
	switch string(w) {
	case "Array", "Object", "String", "Promise", "Number", "Math", "window", "self", "global", "globalThis":
		return true
	}
	return false
}

// dottedPath reads a.b.c (and a["b"]) from i, at most four parts, giving
// the path with dots and where it ends.
func dottedPath(text []byte, i int) (string, int) {
	var b []byte
	for part := 0; part < 4; part++ {
		end := identEnd(text, i)
		if end == i {
			break
		}
		b = append(b, text[i:end]...)
		i = end
		switch {
		case i+1 < len(text) && text[i] == '.' && identStart(text[i+1]):
			b = append(b, '.')
			i++
		case i+2 < len(text) && text[i] == '[' && (text[i+1] == '"' || text[i+1] == '\''):
			q := text[i+1]
			end := identEnd(text, i+2)
			if end+1 < len(text) && text[end] == q && text[end+1] == ']' && end > i+2 {
				b = append(append(b, '.'), text[i+2:end]...)
				return string(b), end + 2
			}
			return string(b), i
		default:
			return string(b), i
		}
	}
	return string(b), i
}

// assigned reports whether text starts with an assignment (= but not ==).
func assigned(text []byte) bool {
	i := 0
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	return i+1 < len(text) && text[i] == '=' && text[i+1] != '=' && text[i+1] != '>'
}

// definedProperty reads `(obj, "prop"` after defineProperty, giving
// obj.prop.
func definedProperty(text []byte) (string, bool) {
	i := skipSpace(text, 0)
	if i >= len(text) || text[i] != '(' {
		return "", false
	}
	i = skipSpace(text, i+1)
	obj, i := dottedPath(text, i)
	if obj == "" {
		return "", false
	}
	i = skipSpace(text, i)
	if i >= len(text) || text[i] != ',' {
		return "", false
	}
	i = skipSpace(text, i+1)
	if i >= len(text) || text[i] != '"' && text[i] != '\'' {
		return "", false
	}
	q := text[i]
	end := identEnd(text, i+1)
	if end >= len(text) || text[end] != q || end == i+1 {
		return "", false
	}
	return obj + "." + string(text[i+1:end]), true
}

func skipSpace(text []byte, i int) int {
	for i < len(text) && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r') {
		i++
	}
	return i
}

// legacyModule names a polyfill module bundled from core-js or
// regenerator-runtime, "" for other sources.
func legacyModule(name string) string {
	rest, ok := strings.CutPrefix(name, "node_modules/")
	if !ok || !strings.HasPrefix(rest, "core-js/modules/") && !strings.HasPrefix(rest, "regenerator-runtime/") {
		return ""
	}
	return strings.TrimSuffix(rest, ".js") + " (bundled polyfill)"
}
