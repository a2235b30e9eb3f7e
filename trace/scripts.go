package trace

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
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
	// the script.
	legacy []string
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
		s.legacy = legacySignatures(s.text)
		s.modules = inlineMapSources(s.text, s.mapURL)
		for _, m := range s.modules {
			if name := legacyModule(m.name); name != "" && !slices.Contains(s.legacy, name) {
				s.legacy = append(s.legacy, name)
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

// legacySig is a well-known polyfill or transform for old browsers: hint
// is a cheap substring test before re.
type legacySig struct {
	name string
	hint string
	re   *regexp.Regexp
}

// legacySigs are the polyfills (of features every current browser has) and
// the Babel helpers that downlevel modern syntax.
var legacySigs = func() []legacySig {
	var sigs []legacySig
	for _, f := range []string{
		"Array.prototype.fill", "Array.prototype.find", "Array.prototype.findIndex", "Array.prototype.flat",
		"Array.prototype.flatMap", "Array.prototype.includes", "Array.from", "Array.of",
		"Object.assign", "Object.entries", "Object.values", "Object.fromEntries",
		"String.prototype.includes", "String.prototype.startsWith", "String.prototype.endsWith",
		"String.prototype.padStart", "String.prototype.padEnd", "String.prototype.repeat",
		"String.prototype.trimStart", "String.prototype.trimEnd",
		"Promise.prototype.finally", "Promise.allSettled", "Number.isNaN", "Number.isInteger", "Math.trunc",
	} {
		i := strings.LastIndexByte(f, '.')
		obj, prop := regexp.QuoteMeta(f[:i]), f[i+1:]
		// obj.prop = ..., or Object.defineProperty(obj, "prop", ...).
		re := regexp.MustCompile(`\b` + obj + `\.` + prop + `\s*=[^=]|defineProperty\(\s*` + obj + `\s*,\s*['"]` + prop + `['"]`)
		sigs = append(sigs, legacySig{name: f + " polyfill", hint: prop, re: re})
	}
	return append(sigs,
		legacySig{"Promise polyfill", "Promise", regexp.MustCompile(`\b(?:window|self|global|globalThis)\.Promise\s*=[^=]`)},
		legacySig{"regenerator-runtime (async functions and generators compiled to ES5)", "regeneratorRuntime", regexp.MustCompile(`\bregeneratorRuntime\b`)},
		legacySig{"Babel classes transform (_classCallCheck)", "_classCallCheck", regexp.MustCompile(`\b_classCallCheck\b`)},
		legacySig{"Babel async-to-generator transform (_asyncToGenerator)", "_asyncToGenerator", regexp.MustCompile(`\b_asyncToGenerator\b`)},
		legacySig{"Babel spread transform (_toConsumableArray)", "_toConsumableArray", regexp.MustCompile(`\b_toConsumableArray\b`)},
		legacySig{"Babel destructuring transform (_slicedToArray)", "_slicedToArray", regexp.MustCompile(`\b_slicedToArray\b`)},
	)
}()

// legacySignatures lists the legacySigs found in text.
func legacySignatures(text []byte) []string {
	var out []string
	for _, sig := range legacySigs {
		if bytes.Contains(text, []byte(sig.hint)) && sig.re.Match(text) {
			out = append(out, sig.name)
		}
	}
	return out
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
