package e2e

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/devtools-mcp/devtools-mcp/trace"
)

// perfPage has what the performance tools must find: a stylesheet served
// late (render-blocking), a hero image served late (the LCP element), a
// banner inserted 100 ms after load that pushes text down (a layout shift)
// in a 250 ms task (a long task), and a button whose click handler blocks
// for 300 ms (a slow interaction).
const perfPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Perf</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/slow.css">
</head><body>
<h1>Performance page</h1>
<img id="hero" src="/hero.png" width="600" height="300" alt="Hero">
<div id="banner"></div>
<p id="text">Text below the banner moves when the banner appears.</p>
<button id="work">Work</button>
<script>
function busy(ms) { const end = performance.now() + ms; while (performance.now() < end) {} }
addEventListener('load', () => setTimeout(() => {
  const b = document.getElementById('banner');
  b.style.height = '120px';
  b.textContent = 'Late banner';
  busy(250);
}, 100));
document.getElementById('work').addEventListener('click', () => busy(300));
</script>
</body></html>`

// perfSite serves perfPage with its slow stylesheet and image.
func perfSite(t testing.TB) *httptest.Server {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 600, 300))
	for y := range 300 {
		for x := range 600 {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), 160, 255})
		}
	}
	var hero bytes.Buffer
	if err := png.Encode(&hero, img); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, perfPage)
	})
	mux.HandleFunc("/slow.css", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(300 * time.Millisecond)
		w.Header().Set("Content-Type", "text/css")
		fmt.Fprint(w, "body { font-family: sans-serif } #banner { background: #fd0 }")
	})
	mux.HandleFunc("/hero.png", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(400 * time.Millisecond)
		w.Header().Set("Content-Type", "image/png")
		w.Write(hero.Bytes())
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

var (
	lcpRe  = regexp.MustCompile(`- LCP: (\d+) ms`)
	clsRe  = regexp.MustCompile(`- CLS: ([0-9.]+)`)
	inpRe  = regexp.MustCompile(`- INP: (\d+) ms \((\w+)`)
	longRe = regexp.MustCompile(`- Long tasks: \d+; longest: (\d+) ms`)
)

// metric returns the number the first group of re captures in summary.
func metric(t *testing.T, summary string, re *regexp.Regexp) float64 {
	t.Helper()
	m := re.FindStringSubmatch(summary)
	if m == nil {
		t.Fatalf("summary lacks %s:\n%s", re, summary)
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestPerformanceTraceWithInteraction(t *testing.T) {
	site := perfSite(t)
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL + "/"})

	mustContain(t, s.ok("performance_start_trace", map[string]any{"reload": true, "autoStop": false}), "being recorded")
	mustContain(t, s.fails("performance_start_trace", map[string]any{"reload": false, "autoStop": false}), "already running")
	s.ok("wait_for", map[string]any{"text": []string{"Late banner"}})
	snap := s.ok("take_snapshot", nil)
	s.ok("click", map[string]any{"uid": uidOf(t, snap, `button "Work"`)})

	file := filepath.Join(t.TempDir(), "trace.json.gz")
	summary := s.ok("performance_stop_trace", map[string]any{"filePath": file})
	mustContain(t, summary, "The performance trace has been stopped.", "saved to "+file,
		"## Summary of Performance trace findings:", "URL: "+site.URL+"/", "CPU throttling: none", "Network throttling: none",
		"## insight set id: NAVIGATION_0", "IMG id='hero'", "LCP breakdown:", "TTFB:", "Load delay:", "Load duration:", "Render delay:",
		"P id='text'", "field data (CrUX) is not looked up: it needs the internet and is off by default",
		"insight name: LCPBreakdown", "insight name: RenderBlocking", "insight name: CLSCulprits", "insight name: INPBreakdown")
	if lcp := metric(t, summary, lcpRe); lcp < 400 {
		t.Errorf("LCP %v ms, want at least the 400 ms the image took; summary:\n%s", lcp, summary)
	}
	if cls := metric(t, summary, clsRe); cls <= 0 {
		t.Errorf("CLS %v, want above 0; summary:\n%s", cls, summary)
	}
	if long := metric(t, summary, longRe); long < 250 {
		t.Errorf("longest task %v ms, want the 250 ms or 300 ms task; summary:\n%s", long, summary)
	}
	if inp := metric(t, summary, inpRe); inp < 300 {
		t.Errorf("INP %v ms, want the 300 ms click handler; summary:\n%s", inp, summary)
	}
	mustContain(t, inpRe.FindStringSubmatch(summary)[2], "click")

	analyze := func(name string) string {
		return s.ok("performance_analyze_insight", map[string]any{"insightSetId": "NAVIGATION_0", "insightName": name})
	}
	mustContain(t, analyze("LCPBreakdown"), site.URL+"/hero.png", "Load duration", "Render delay", "IMG id='hero'")
	mustContain(t, analyze("RenderBlocking"), site.URL+"/slow.css", "Estimated savings: FCP")
	mustContain(t, analyze("CLSCulprits"), "P id='text'", "Layout shift at")
	mustContain(t, analyze("INPBreakdown"), "click", "Input delay", "Processing duration", "Presentation delay")
	mustContain(t, analyze("DocumentLatency"), "the server responded in")

	mustContain(t, s.fails("performance_analyze_insight", map[string]any{"insightSetId": "NAVIGATION_9", "insightName": "LCPBreakdown"}),
		`"NAVIGATION_9"`, "NAVIGATION_0")
	mustContain(t, s.fails("performance_analyze_insight", map[string]any{"insightSetId": "NAVIGATION_0", "insightName": "Nope"}),
		`"Nope"`, "LCPBreakdown", "RenderBlocking")

	// The saved trace is whole and reads back the same.
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := trace.Parse(f)
	if err != nil {
		t.Fatalf("re-read the saved trace: %v", err)
	}
	rep := tr.Analyze()
	if len(rep.Sets) != 1 || rep.Sets[0].ID != "NAVIGATION_0" || rep.Sets[0].Metrics.LCP == trace.None {
		t.Fatalf("saved trace: want one navigation with LCP; got %s", rep.Summary())
	}
}

// TestPerformanceTraceHoldsTheLastClick checks that a trace stopped right
// after a click holds the click's interaction: the click answers once its
// handler ran, before the paint after it that Chrome's Event Timing waits
// for. A quick click (a 10 ms paint) is the hard case: before the stop let
// the page paint, 11 of 12 such traces had no INP.
func TestPerformanceTraceHoldsTheLastClick(t *testing.T) {
	site := pages(t, map[string]string{"/": `<title>Counter</title><button onclick="this.textContent = 'Clicked ' + (++window.clicks || (window.clicks = 1))">Count</button>`})
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	for i := range 3 {
		button := uidOf(t, s.ok("take_snapshot", nil), `button "`)
		s.ok("performance_start_trace", map[string]any{"reload": false, "autoStop": false})
		s.ok("click", map[string]any{"uid": button})
		summary := s.ok("performance_stop_trace", nil)
		mustContain(t, summary, "## insight set id: NO_NAVIGATION", "insight name: INPBreakdown")
		// The interaction is named by its event that ran longest: for a
		// quick click, any of the three.
		if !regexp.MustCompile(`- INP: [0-9.]+ ms \((pointerdown|pointerup|click) at ts \d+\)`).MatchString(summary) {
			t.Fatalf("trace %d: no INP of the click:\n%s", i+1, summary)
		}
	}
}

func TestPerformanceTraceAutoStop(t *testing.T) {
	site := perfSite(t)
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL + "/"})
	file := filepath.Join(t.TempDir(), "trace.json")
	start := time.Now()
	summary := s.ok("performance_start_trace", map[string]any{"filePath": file})
	t.Logf("reload + autoStop took %v", time.Since(start))
	mustContain(t, summary, "The performance trace has been stopped.", "## insight set id: NAVIGATION_0", "IMG id='hero'")
	if long := metric(t, summary, longRe); long < 250 {
		t.Errorf("the 250 ms task after load is missing: autoStop stopped too early; summary:\n%s", summary)
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) || !bytes.Contains(raw, []byte(`"traceEvents"`)) {
		t.Fatalf("%s is not a plain JSON trace: %.100q", file, raw)
	}
	// The trace is over: stopping again is an error that says what to do.
	mustContain(t, s.fails("performance_stop_trace", nil), "no performance trace is running", "performance_start_trace")
}

func TestPerformanceErrors(t *testing.T) {
	s := startServer(t, headless...)
	mustContain(t, s.fails("performance_stop_trace", nil), "no performance trace is running", "performance_start_trace")
	mustContain(t, s.fails("performance_analyze_insight", map[string]any{"insightSetId": "NAVIGATION_0", "insightName": "LCPBreakdown"}),
		"no performance trace was recorded", "performance_start_trace")
	// A trace of a page that does not navigate has one set for the whole range.
	s.ok("performance_start_trace", map[string]any{"reload": false, "autoStop": false})
	summary := s.ok("performance_stop_trace", nil)
	mustContain(t, summary, "## insight set id: NO_NAVIGATION")
	if strings.Contains(summary, "NAVIGATION_0") {
		t.Fatalf("no navigation happened, yet:\n%s", summary)
	}
}

func TestPerformanceTraceConditions(t *testing.T) {
	site := pages(t, map[string]string{"/": "<!doctype html><title>Plain</title><p>Plain page</p>"})
	s := startServer(t, append(headless, "--performanceCrux")...)
	s.ok("navigate_page", map[string]any{"url": site.URL + "/"})
	s.ok("emulate", map[string]any{"cpuThrottlingRate": 4, "networkConditions": "Fast 4G"})
	s.ok("performance_start_trace", map[string]any{"reload": false, "autoStop": false})
	summary := s.ok("performance_stop_trace", nil)
	mustContain(t, summary, "CPU throttling: 4x slowdown", "Network throttling: Fast 4G",
		"field data (CrUX) was requested with --performanceCrux, but the lookup is not available in this air-gapped build")
}

// scriptSite serves a page loading the same library from two URLs and a
// script with an old-browser polyfill and a Babel class helper.
func scriptSite(t *testing.T) *httptest.Server {
	t.Helper()
	lib := "(function () {\n  var tiny = {};\n" + strings.Repeat("  tiny.add = function (a, b) { return a + b; };\n", 20) + "  window.tiny = tiny;\n})();\n"
	files := map[string]string{
		"/":               `<!doctype html><html><head><meta charset="utf-8"><title>Scripts</title></head><body><p>Scripts</p><script src="/lib.js"></script><script src="/vendor/tiny.js"></script><script src="/app.js"></script></body></html>`,
		"/lib.js":         lib,
		"/vendor/tiny.js": lib,
		// Over 5 kB: smaller scripts are not checked for legacy code.
		"/app.js": "if (!Array.prototype.includes) {\n  Array.prototype.includes = function (v) { return this.indexOf(v) >= 0; };\n}\n" +
			"function _classCallCheck(instance, C) { if (!(instance instanceof C)) throw new TypeError('Cannot call a class as a function'); }\n" +
			"var App = function App() { _classCallCheck(this, App); };\nnew App();\n" + strings.Repeat("var pad = function (x) { return x + 1; };\n", 150),
		"/plain": `<!doctype html><html><head><meta charset="utf-8"><title>Plain</title></head><body><p>No scripts here</p></body></html>`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if r.URL.Path == "/" || r.URL.Path == "/plain" {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
		} else {
			w.Header().Set("Content-Type", "text/javascript")
		}
		fmt.Fprint(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestPerformanceScriptInsights(t *testing.T) {
	site := scriptSite(t)
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL + "/"})
	file := filepath.Join(t.TempDir(), "trace.json")
	summary := s.ok("performance_start_trace", map[string]any{"filePath": file})
	if fi, err := os.Stat(file); err == nil {
		t.Logf("trace with script sources: %d bytes", fi.Size())
	}
	mustContain(t, summary, "insight name: LegacyJavaScript")
	analyze := func(name string) string {
		return s.ok("performance_analyze_insight", map[string]any{"insightSetId": "NAVIGATION_0", "insightName": name})
	}
	// The copies are named, but as in DevTools, which compares the modules
	// source maps name, identical text alone does not fail the insight.
	dup := analyze("DuplicatedJavaScript")
	mustContain(t, dup, "Status: passed", "identical script text", "2 copies: "+site.URL+"/lib.js, "+site.URL+"/vendor/tiny.js")
	if strings.Contains(dup, "/app.js") {
		t.Errorf("app.js is not a duplicate:\n%s", dup)
	}
	legacy := analyze("LegacyJavaScript")
	mustContain(t, legacy, site.URL+"/app.js", "Array.prototype.includes polyfill", "_classCallCheck")
	if strings.Contains(legacy, "/lib.js") {
		t.Errorf("lib.js has no legacy code:\n%s", legacy)
	}

	// The same tab, now on a page without scripts: what the renderer still
	// holds from the page before is not this page's.
	s.ok("navigate_page", map[string]any{"url": site.URL + "/plain"})
	summary = s.ok("performance_start_trace", nil)
	for _, name := range []string{"DuplicatedJavaScript", "LegacyJavaScript"} {
		if strings.Contains(summary, "insight name: "+name) {
			t.Errorf("a page without scripts is blamed for the previous page's (%s):\n%s", name, summary)
		}
	}
	for _, name := range []string{"DuplicatedJavaScript", "LegacyJavaScript"} {
		if res := s.call("performance_analyze_insight", map[string]any{"insightSetId": "NAVIGATION_0", "insightName": name}); strings.Contains(text(res), "/lib.js") {
			t.Errorf("%s of the plain page names the previous page's scripts:\n%s", name, text(res))
		}
	}
}

// TestPerformanceTraceCatchesLateShift traces a page whose unsized image
// arrives 2.5 s after load and pushes the text down: autoStop must record
// long enough to see it, and say what it recorded.
func TestPerformanceTraceCatchesLateShift(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 300, 300))
	var pic bytes.Buffer
	if err := png.Encode(&pic, img); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><html><head><meta charset="utf-8"><title>Late</title></head><body><h1>Late shift</h1>`+
			`<img src="/late.png" alt="late"><p>`+strings.Repeat("Text that moves down when the image arrives. ", 40)+`</p></body></html>`)
	})
	mux.HandleFunc("/late.png", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(2500 * time.Millisecond):
		case <-r.Context().Done():
		}
		w.Header().Set("Content-Type", "image/png")
		w.Write(pic.Bytes())
	})
	site := httptest.NewServer(mux)
	t.Cleanup(site.Close)
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL + "/"})
	summary := s.ok("performance_start_trace", nil)
	mustContain(t, summary, "Recorded window: ", ", viewport ", " CSS pixels at device pixel ratio ", "insight name: CLSCulprits")
	if cls := metric(t, summary, clsRe); cls < 0.1 {
		t.Errorf("the shift 2.5 s after load is missing (CLS %.2f): autoStop stopped too early; summary:\n%s", cls, summary)
	}
	culprits := s.ok("performance_analyze_insight", map[string]any{"insightSetId": "NAVIGATION_0", "insightName": "CLSCulprits"})
	mustContain(t, culprits, "image without explicit size", "/late.png")
}
