package trace

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

// scriptEvents is the source rundown of one script seen at ms: its
// metadata, then its text (split in two LargeScriptCatchup events when
// split is set).
func scriptEvents(id int, u string, ms float64, text string, split bool) []E {
	rundown := func(name, cat string, data E) E {
		data["isolate"], data["scriptId"] = "77", id
		e := complete(name, ms0(ms), 5, E{"data": data})
		e["cat"] = cat
		return e
	}
	const meta, sources = "disabled-by-default-devtools.v8-source-rundown", "disabled-by-default-devtools.v8-source-rundown-sources"
	evs := []E{rundown("ScriptCatchup", meta, E{"url": u, "executionContextId": 1, "isModule": false})}
	if !split {
		return append(evs, rundown("ScriptCatchup", sources, E{"length": len(text), "sourceText": text}))
	}
	half := len(text) / 2
	return append(evs,
		rundown("LargeScriptCatchup", sources, E{"splitIndex": 0, "splitCount": 2, "sourceText": text[:half]}),
		rundown("LargeScriptCatchup", sources, E{"splitIndex": 1, "splitCount": 2, "sourceText": text[half:]}))
}

// bundle is a script with an inline source map of sources ("name|content").
func bundle(t *testing.T, base64Map bool, sources ...string) string {
	t.Helper()
	var names, contents []string
	for _, s := range sources {
		name, content, _ := strings.Cut(s, "|")
		names, contents = append(names, name), append(contents, content)
	}
	raw, err := json.Marshal(E{"version": 3, "sources": names, "sourcesContent": contents, "mappings": "AAAA"})
	if err != nil {
		t.Fatal(err)
	}
	u := "data:application/json," + url.PathEscape(string(raw))
	if base64Map {
		u = "data:application/json;charset=utf-8;base64," + base64.StdEncoding.EncodeToString(raw)
	}
	return "(()=>{console.log('bundle')})();\n//# sourceMappingURL=" + u + "\n"
}

// fetched is the requests of the scripts at urls, issued at 20 ms.
func fetched(urls ...string) []E {
	var evs []E
	for i, u := range urls {
		evs = append(evs, request("s"+string(rune('a'+i)), u, "Script", "High", 20, 5, 10, E{"mimeType": "text/javascript"})...)
	}
	return evs
}

func TestScriptInsights(t *testing.T) {
	lib := "(function(){var tiny={};" + strings.Repeat("tiny.add=function(a,b){return a+b};", 20) + "window.tiny=tiny})();"
	module := strings.Repeat("export const x = 1;\n", 40)
	legacy := "if(!Object.assign){Object.assign=function(t){return t}}\nfunction _classCallCheck(a,b){}\nvar r=regeneratorRuntime.mark(function f(){});\n" +
		strings.Repeat("var filler=function(x){return x+1};\n", 150)
	tiny := "if(!Array.prototype.includes){Array.prototype.includes=function(v){return this.indexOf(v)!==-1;};}\n"
	modern := "if (Object.assign === undefined) {}\nconsole.log(Array.prototype.includes.call([1], 1), [1].includes(1));"
	tr := build(t, cat(
		scriptEvents(1, "https://site.test/old.js", -500, lib, false), // before the navigation
		navigation(100, nil),
		scriptEvents(2, "https://site.test/lib.js", 50, lib, false),
		scriptEvents(2, "https://site.test/lib.js", 60, lib, false), // Chrome repeats events
		scriptEvents(3, "https://cdn.test/copy.js", 70, lib, true),
		scriptEvents(4, "", 80, lib, false), // evaluated code
		scriptEvents(5, "https://site.test/bundle1.js", 90, bundle(t, true, "webpack:///./node_modules/tiny/index.js|"+module, "webpack:///./src/a.js|a()"), false),
		scriptEvents(6, "https://site.test/bundle2.js", 95, bundle(t, false, "../node_modules/tiny/index.js|"+module, "src/b.js|b()",
			"webpack:///./node_modules/core-js/modules/es.array.includes.js|polyfill"), false),
		scriptEvents(7, "https://site.test/legacy.js", 100, legacy, false),
		scriptEvents(8, "https://site.test/modern.js", 110, modern, false),
		scriptEvents(9, "https://site.test/tiny-polyfill.js", 115, tiny, false),
		// Left by an earlier page in the renderer: listed at trace start
		// but not requested by this one.
		scriptEvents(10, "https://site.test/earlier.js", 120, legacy, false),
		scriptEvents(11, "https://site.test/earlier-copy.js", 120, lib, false),
		fetched("https://site.test/old.js", "https://site.test/lib.js", "https://cdn.test/copy.js", "https://site.test/bundle1.js",
			"https://site.test/bundle2.js", "https://site.test/legacy.js", "https://site.test/modern.js", "https://site.test/tiny-polyfill.js"),
	)...)
	if !tr.ScriptSources {
		t.Fatal("the script sources were not read")
	}
	r := tr.Analyze()
	dup := insight(t, r, "DuplicatedJavaScript")
	if !dup.Failed || dup.Savings.WastedBytes < int64(len(module)) || dup.Savings.WastedBytes >= int64(len(lib)+len(module)) {
		t.Errorf("DuplicatedJavaScript failed %v, wasted %d; want the extra copy of the module, not of the identical scripts:\n%s", dup.Failed, dup.Savings.WastedBytes, dup.Details)
	}
	for _, want := range []string{
		"Also loaded more than once with the very same text", "identical script text", "2 copies: https://site.test/lib.js, https://cdn.test/copy.js;",
		"module node_modules/tiny/index.js (800 B each), 2 copies: https://site.test/bundle1.js, https://site.test/bundle2.js;",
	} {
		if !strings.Contains(dup.Details, want) {
			t.Errorf("DuplicatedJavaScript details lack %q:\n%s", want, dup.Details)
		}
	}
	for _, unwanted := range []string{"old.js", "src/a.js", "without URL", "earlier"} {
		if strings.Contains(dup.Details, unwanted) {
			t.Errorf("DuplicatedJavaScript details mention %q:\n%s", unwanted, dup.Details)
		}
	}
	leg := insight(t, r, "LegacyJavaScript")
	for _, want := range []string{
		"1 script(s) carry code for old browsers",
		"https://site.test/legacy.js (5.5 kB): Object.assign polyfill, Babel classes transform (_classCallCheck), regenerator-runtime", "; about 5.5 kB could be saved",
		// Too small to be worth it, but named.
		"https://site.test/bundle2.js (", "core-js/modules/es.array.includes (bundled polyfill)", "Under 5 kB of estimated savings",
	} {
		if !strings.Contains(leg.Details, want) {
			t.Errorf("LegacyJavaScript details lack %q:\n%s", want, leg.Details)
		}
	}
	if !leg.Failed || strings.Contains(leg.Details, "modern.js") || strings.Contains(leg.Details, "tiny-polyfill.js") || strings.Contains(leg.Details, "earlier.js") {
		t.Errorf("LegacyJavaScript: want legacy.js and bundle2.js only:\n%s", leg.Details)
	}
	if sum := r.Summary(); !strings.Contains(sum, "insight name: DuplicatedJavaScript") || !strings.Contains(sum, "insight name: LegacyJavaScript") {
		t.Errorf("the summary does not list the script insights:\n%s", sum)
	}
}

func TestScriptInsightsPassOrAbsent(t *testing.T) {
	// Without script sources in the trace there is nothing to say.
	r := build(t, navigation(100, nil)...).Analyze()
	for _, name := range []string{"DuplicatedJavaScript", "LegacyJavaScript"} {
		if r.Sets[0].Insight(name) != nil {
			t.Errorf("%s computed from a trace without script sources", name)
		}
	}
	// Distinct modern scripts pass both.
	r = build(t, cat(navigation(100, nil),
		scriptEvents(1, "https://site.test/a.js", 50, strings.Repeat("let a = 1;", 100), false),
		scriptEvents(2, "https://site.test/b.js", 60, strings.Repeat("let b = 2;", 100), false),
		scriptEvents(3, "https://site.test/c.js", 70, "x", false), // tiny duplicates are not worth it
		scriptEvents(4, "https://site.test/d.js", 80, "x", false),
		fetched("https://site.test/a.js", "https://site.test/b.js", "https://site.test/c.js", "https://site.test/d.js"),
	)...).Analyze()
	for _, name := range []string{"DuplicatedJavaScript", "LegacyJavaScript"} {
		if in := insight(t, r, name); in.Failed || !strings.Contains(in.Details, "None of the 3 script(s)") {
			t.Errorf("%s: want passed over 3 distinct scripts, got failed %v:\n%s", name, in.Failed, in.Details)
		}
	}
}

// FuzzLegacyScan feeds the one-pass scanner any text: it must not panic,
// and its estimate stays within the script.
func FuzzLegacyScan(f *testing.F) {
	for _, seed := range []string{
		"Array.prototype.includes=function(){}", `Object.defineProperty(String.prototype, "startsWith", {})`,
		`Object["assign"] = 1`, "window.Promise=P", "_classCallCheck(this, A); regeneratorRuntime.mark(f)",
		"Object.defineProperty(", `defineProperty(Array.prototype,"fl`, "Array.prototype.", "Object[\"", "x.Array.from=1",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		if got := legacyScan(text); got.bytes < 0 || got.bytes > len(text) {
			t.Fatalf("estimate %d for %d bytes", got.bytes, len(text))
		}
	})
}

func TestLegacyScanForms(t *testing.T) {
	for text, want := range map[string]string{
		"if(!Array.prototype.includes){Array.prototype.includes=function(v){}}": "Array.prototype.includes polyfill",
		`Object.defineProperty(String.prototype, "startsWith", {value: f})`:     "String.prototype.startsWith polyfill",
		`Object["assign"] = function(){}`:                                       "Object.assign polyfill",
		"self.Promise = P;":                                                     "Promise polyfill",
		"var a = _classCallCheck(this, A);":                                     "Babel classes transform (_classCallCheck)",
		"if (Array.prototype.includes === undefined) {}":                        "",
		"x.Array.from = 1; my_Object.assign = 2":                                "",
	} {
		got := legacyScan([]byte(text))
		if want == "" && len(got.names) > 0 || want != "" && (len(got.names) != 1 || got.names[0] != want) {
			t.Errorf("%s: found %q, want %q", text, got.names, want)
		}
	}
}
