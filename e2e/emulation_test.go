package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// shot runs take_screenshot with args and returns its text and its image
// (nil when the answer carries none).
func (s *server) shot(args map[string]any) (string, *mcp.ImageContent) {
	s.t.Helper()
	res := s.call("take_screenshot", args)
	if res.IsError {
		s.t.Fatalf("take_screenshot %v failed: %s", args, text(res))
	}
	for _, c := range res.Content {
		if img, ok := c.(*mcp.ImageContent); ok {
			return text(res), img
		}
	}
	return text(res), nil
}

// decode decodes a PNG or JPEG screenshot; the MIME type must match the data.
func decode(t *testing.T, mime string, data []byte) image.Image {
	t.Helper()
	var img image.Image
	var err error
	switch mime {
	case "image/png":
		img, err = png.Decode(bytes.NewReader(data))
	case "image/jpeg":
		img, err = jpeg.Decode(bytes.NewReader(data))
	default:
		t.Fatalf("cannot decode %s", mime)
	}
	if err != nil {
		t.Fatalf("screenshot is not a valid %s: %v", mime, err)
	}
	return img
}

// size evaluates a JavaScript expression giving two numbers.
func (s *server) size(expr string) (w, h int) {
	s.t.Helper()
	var v [2]float64
	if err := json.Unmarshal([]byte(s.eval("() => "+expr)), &v); err != nil {
		s.t.Fatalf("%s: %v", expr, err)
	}
	return int(v[0]), int(v[1])
}

func isRed(c interface{ RGBA() (r, g, b, a uint32) }) bool {
	r, g, b, _ := c.RGBA()
	return r>>8 > 200 && g>>8 < 60 && b>>8 < 60
}

func TestScreenshotFormats(t *testing.T) {
	site := pages(t, map[string]string{"/": `<title>Shots</title><body style="background: #fc0"><h1>Hello</h1>`})
	s := startServer(t, append(headless, "--viewport", "800x600")...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	w, h := s.size("[innerWidth * devicePixelRatio, innerHeight * devicePixelRatio]")

	for _, format := range []string{"png", "jpeg"} {
		out, img := s.shot(map[string]any{"format": format, "quality": 50})
		mustContain(t, out, "Took a screenshot of the current page's viewport.")
		if img == nil || img.MIMEType != "image/"+format {
			t.Fatalf("%s screenshot: no image/%s content in %q", format, format, out)
		}
		if b := decode(t, img.MIMEType, img.Data).Bounds(); b.Dx() != w || b.Dy() != h {
			t.Fatalf("%s screenshot is %dx%d, the viewport %dx%d", format, b.Dx(), b.Dy(), w, h)
		}
	}
	_, img := s.shot(map[string]any{"format": "webp", "quality": 80})
	if img == nil || img.MIMEType != "image/webp" || len(img.Data) < 30 || string(img.Data[:4]) != "RIFF" || string(img.Data[8:12]) != "WEBP" {
		t.Fatalf("webp screenshot is not a RIFF/WEBP file: %#v", img)
	}
	// A lossy WebP (VP8) frame header holds the size in 14-bit fields.
	if string(img.Data[12:16]) == "VP8 " {
		gw, gh := int(img.Data[26])|int(img.Data[27]&0x3f)<<8, int(img.Data[28])|int(img.Data[29]&0x3f)<<8
		if gw != w || gh != h {
			t.Fatalf("webp screenshot is %dx%d, the viewport %dx%d", gw, gh, w, h)
		}
	}
	mustContain(t, s.fails("take_screenshot", map[string]any{"quality": 101}), "quality must be between 0 and 100")
}

func TestScreenshotOfAnElementAndOfTheFullPage(t *testing.T) {
	site := pages(t, map[string]string{"/": `<title>Tall</title><body style="margin: 0">
<div style="height: 1500px; background: #eee"></div>
<div role="img" aria-label="Red box" style="margin-left: 30px; width: 120px; height: 80px; background: rgb(255, 0, 0)"></div>
<div style="height: 1500px"></div>`})
	s := startServer(t, append(headless, "--viewport", "800x600")...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	box := uidOf(t, s.ok("take_snapshot", nil), `image "Red box"`)

	out, img := s.shot(map[string]any{"uid": box})
	mustContain(t, out, fmt.Sprintf("Took a screenshot of node with uid %q.", box))
	pic := decode(t, img.MIMEType, img.Data)
	if b := pic.Bounds(); b.Dx() != 120 || b.Dy() != 80 {
		t.Fatalf("element screenshot is %dx%d, want the box's 120x80", b.Dx(), b.Dy())
	}
	for _, p := range []image.Point{{1, 1}, {60, 40}, {118, 78}} {
		if !isRed(pic.At(p.X, p.Y)) {
			t.Fatalf("element screenshot pixel %v is %v, want the box's red", p, pic.At(p.X, p.Y))
		}
	}

	w, h := s.size("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
	out, img = s.shot(map[string]any{"fullPage": true})
	mustContain(t, out, "Took a screenshot of the full current page.")
	pic = decode(t, img.MIMEType, img.Data)
	if b := pic.Bounds(); b.Dx() != w || b.Dy() != h || h < 3080 {
		t.Fatalf("full page screenshot is %dx%d, the document %dx%d", b.Dx(), b.Dy(), w, h)
	}
	if !isRed(pic.At(90, 1540)) {
		t.Fatalf("full page screenshot lacks the red box at 90,1540: %v", pic.At(90, 1540))
	}

	mustContain(t, s.fails("take_screenshot", map[string]any{"uid": box, "fullPage": true}), "either uid", "or fullPage")
}

func TestScreenshotToFile(t *testing.T) {
	site := pages(t, map[string]string{
		"/": `<title>Shots</title><h1>Hello</h1>`,
		// Random pixels compress badly: a PNG of several megabytes.
		"/noise": `<title>Noise</title><body style="margin: 0"><canvas id=c width=1400 height=1400></canvas><script>
const c = document.getElementById('c').getContext('2d'), d = c.createImageData(1400, 1400);
for (let i = 0; i < d.data.length; i++) d.data[i] = (i % 4 === 3) ? 255 : Math.random() * 256;
c.putImageData(d, 0, 0);
</script>`,
	})
	s := startServer(t, append(headless, "--viewport", "800x600")...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	dir := t.TempDir()

	for _, c := range []struct{ format, path, saved string }{
		{"png", "shot.png", "shot.png"},
		{"jpeg", "shot.jpg", "shot.jpg"},
		{"jpeg", "shot.png", "shot.jpeg"},
	} {
		out, img := s.shot(map[string]any{"format": c.format, "filePath": filepath.Join(dir, c.path)})
		saved := filepath.Join(dir, c.saved)
		mustContain(t, out, "Saved screenshot to "+saved+".")
		if img != nil {
			t.Fatalf("screenshot saved to a file also returned the image")
		}
		data, err := os.ReadFile(saved)
		if err != nil {
			t.Fatal(err)
		}
		decode(t, "image/"+c.format, data)
		if fi, _ := os.Stat(saved); fi.Mode().Perm() != 0o600 {
			t.Fatalf("%s has mode %v, want 0600", saved, fi.Mode().Perm())
		}
	}

	s.ok("navigate_page", map[string]any{"url": site.URL + "/noise"})
	out, img := s.shot(map[string]any{"fullPage": true})
	m := regexp.MustCompile(`saved it to (\S+)\.\n?`).FindStringSubmatch(out)
	if img != nil || m == nil {
		t.Fatalf("a big screenshot should go to a temporary file; got %q (image %v)", out, img != nil)
	}
	t.Cleanup(func() { os.Remove(m[1]) })
	data, err := os.ReadFile(m[1])
	if err != nil {
		t.Fatal(err)
	}
	if len(data) <= 2_000_000 {
		t.Fatalf("the temporary file holds %d bytes, want the big image", len(data))
	}
	if b := decode(t, "image/png", data).Bounds(); b.Dx() < 1400 || b.Dy() < 1400 {
		t.Fatalf("temporary file image is %v, want the whole 1400x1400 canvas", b)
	}
}

func TestScreenshotFlagDefaults(t *testing.T) {
	site := pages(t, map[string]string{"/": `<title>Shots</title><h1>Hello</h1>`})
	s := startServer(t, append(headless, "--viewport", "800x600", "--screenshotFormat", "jpeg", "--screenshotQuality", "30", "--screenshotMaxWidth", "400")...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	w, h := s.size("[innerWidth, innerHeight]")
	_, img := s.shot(nil)
	if img == nil || img.MIMEType != "image/jpeg" {
		t.Fatalf("--screenshotFormat jpeg: got %#v", img)
	}
	wantH := int(math.Round(float64(h) * 400 / float64(w)))
	if b := decode(t, img.MIMEType, img.Data).Bounds(); b.Dx() != 400 || b.Dy() != wantH {
		t.Fatalf("--screenshotMaxWidth 400: screenshot is %dx%d, want 400x%d", b.Dx(), b.Dy(), wantH)
	}
	_, img = s.shot(map[string]any{"format": "png"})
	if img == nil || img.MIMEType != "image/png" {
		t.Fatalf("format png must win over --screenshotFormat: got %#v", img)
	}
}

// recorder is a site that remembers the headers of the requests it served.
type recorder struct {
	mu      sync.Mutex
	headers map[string]http.Header // by path
}

func (r *recorder) header(path, name string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.headers[path].Get(name)
}

// recordingSite serves HTML pages (path -> body) and records request headers.
func recordingSite(t *testing.T, routes map[string]string) (*httptest.Server, *recorder) {
	rec := &recorder{headers: map[string]http.Header{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.mu.Lock()
		rec.headers[r.URL.Path] = r.Header.Clone()
		rec.mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		fmt.Fprint(w, routes[r.URL.Path])
	}))
	t.Cleanup(srv.Close)
	return srv, rec
}

func TestEmulateEachKindAndClear(t *testing.T) {
	page := `<title>Emu</title><meta name="viewport" content="width=device-width">`
	site, rec := recordingSite(t, map[string]string{"/": page, "/other": page, "/api": "ok"})
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	defaultUA := s.eval("() => navigator.userAgent")

	media := "() => ['(prefers-color-scheme: dark)', '(forced-colors: active)', '(prefers-contrast: more)', '(prefers-reduced-motion: reduce)'].map(q => matchMedia(q).matches)"
	if got := s.eval(media); got != "[false,false,false,false]" {
		t.Fatalf("media features before emulation: %s", got)
	}
	out := s.ok("emulate", map[string]any{
		"colorScheme": "dark", "forcedColors": "active", "prefersContrast": "more", "prefersReducedMotion": "reduce",
		"userAgent": "ProbeBot/1.0", "geolocation": "48.8584, 2.2945", "cpuThrottlingRate": 4,
		"extraHttpHeaders": `{"X-Probe": "yes"}`,
	})
	mustContain(t, out, "Emulating color scheme: dark", "Emulating forced colors: active", "Emulating prefers-contrast: more",
		"Emulating prefers-reduced-motion: reduce", "Emulating user agent: ProbeBot/1.0",
		"Emulating geolocation: latitude=48.8584, longitude=2.2945", "Emulating CPU throttling: 4x slowdown",
		"Sending extra HTTP headers: X-Probe")
	if got := s.eval(media); got != "[true,true,true,true]" {
		t.Fatalf("media features emulated: %s", got)
	}
	if got := s.eval("() => navigator.userAgent"); got != `"ProbeBot/1.0"` {
		t.Fatalf("navigator.userAgent = %s", got)
	}
	s.eval("async () => (await fetch('/api')).status")
	if ua, probe := rec.header("/api", "User-Agent"), rec.header("/api", "X-Probe"); ua != "ProbeBot/1.0" || probe != "yes" {
		t.Fatalf("the server saw User-Agent %q and X-Probe %q", ua, probe)
	}
	pos := "() => new Promise(r => navigator.geolocation.getCurrentPosition(p => r([p.coords.latitude, p.coords.longitude]), e => r(e.message)))"
	if got := s.eval(pos); got != "[48.8584,2.2945]" {
		t.Fatalf("navigator.geolocation reports %s", got)
	}

	// It lasts across navigations.
	s.ok("navigate_page", map[string]any{"url": site.URL + "/other"})
	if got := s.eval(media); got != "[true,true,true,true]" {
		t.Fatalf("media features after a navigation: %s", got)
	}
	if ua, probe := rec.header("/other", "User-Agent"), rec.header("/other", "X-Probe"); ua != "ProbeBot/1.0" || probe != "yes" {
		t.Fatalf("after a navigation the server saw User-Agent %q and X-Probe %q", ua, probe)
	}

	// A call without them clears all but the headers; "" clears those.
	out = s.ok("emulate", nil)
	mustContain(t, out, "Sending extra HTTP headers: X-Probe")
	if strings.Contains(out, "Emulating") {
		t.Fatalf("emulate without arguments kept some emulation:\n%s", out)
	}
	if got := s.eval(media); got != "[false,false,false,false]" {
		t.Fatalf("media features after clearing: %s", got)
	}
	if got := s.eval("() => navigator.userAgent"); got != defaultUA {
		t.Fatalf("navigator.userAgent after clearing = %s, want %s", got, defaultUA)
	}
	s.eval("async () => (await fetch('/api')).status")
	if probe := rec.header("/api", "X-Probe"); probe != "yes" {
		t.Fatalf("omitting extraHttpHeaders must keep them; the server saw X-Probe %q", probe)
	}
	mustContain(t, s.ok("emulate", map[string]any{"extraHttpHeaders": ""}), "the page emulates nothing")
	s.eval("async () => (await fetch('/api')).status")
	if probe := rec.header("/api", "X-Probe"); probe != "" {
		t.Fatalf("extraHttpHeaders \"\" must clear them; the server saw X-Probe %q", probe)
	}
	if got := s.eval(pos); got == "[48.8584,2.2945]" {
		t.Fatalf("geolocation still emulated after clearing")
	}
}

// TestGeolocationInEveryProfile checks that geolocation emulation works in
// each kind of profile the server starts Chrome with (--isolated, a
// --userDataDir of the user's) and in an isolated context of new_page, on
// every supported Chrome: the oldest ones refuse the default profile's id
// in Browser.setPermission.
func TestGeolocationInEveryProfile(t *testing.T) {
	site := pages(t, map[string]string{"/": `<title>Geo</title>`})
	pos := "() => new Promise(r => navigator.geolocation.getCurrentPosition(p => r([p.coords.latitude, p.coords.longitude]), e => r(e.message)))"
	for name, args := range map[string][]string{
		"isolated":    headless,
		"userDataDir": {"--headless", "--userDataDir", t.TempDir()},
	} {
		t.Run(name, func(t *testing.T) {
			s := startServer(t, args...)
			s.ok("navigate_page", map[string]any{"url": site.URL})
			s.ok("emulate", map[string]any{"geolocation": "48.8584,2.2945"})
			if got := s.eval(pos); got != "[48.8584,2.2945]" {
				t.Fatalf("navigator.geolocation reports %s", got)
			}
			s.ok("new_page", map[string]any{"url": site.URL, "isolatedContext": "geo"})
			s.ok("emulate", map[string]any{"geolocation": "-33.85,151.2"})
			if got := s.eval(pos); got != "[-33.85,151.2]" {
				t.Fatalf("in an isolated context navigator.geolocation reports %s", got)
			}
		})
	}
}

func TestEmulateNetworkConditions(t *testing.T) {
	site, _ := recordingSite(t, map[string]string{"/": `<title>Net</title>`, "/api": "ok"})
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	fetch := "async () => { try { return (await fetch('/api')).status } catch (e) { return String(e) } }"

	mustContain(t, s.ok("emulate", map[string]any{"networkConditions": "Offline"}), "Emulating network conditions: Offline")
	if got := s.eval(fetch); !strings.Contains(got, "Failed to fetch") {
		t.Fatalf("offline fetch returned %s", got)
	}
	mustContain(t, s.ok("emulate", map[string]any{"networkConditions": "Slow 3G"}), "Emulating network conditions: Slow 3G")
	// Slow 3G adds two seconds of latency to each request.
	if got := s.eval("async () => { const t = performance.now(); await fetch('/api?slow'); return performance.now() - t >= 1900 }"); got != "true" {
		t.Fatalf("a Slow 3G request took less than the preset's latency")
	}
	s.ok("emulate", nil)
	if got := s.eval(fetch); got != "200" {
		t.Fatalf("fetch after clearing network emulation returned %s", got)
	}
}

func TestEmulateViewport(t *testing.T) {
	site := pages(t, map[string]string{"/": `<title>Vp</title><meta name="viewport" content="width=device-width">`})
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	desktop := s.eval("() => [innerWidth, innerHeight, devicePixelRatio, 'ontouchstart' in window]")

	out := s.ok("emulate", map[string]any{"viewport": "390x844x3,mobile,touch"})
	mustContain(t, out, "Emulating viewport: 390x844x3,mobile,touch", "Reloaded the page")
	if n := strings.Count(out, "Emulating viewport"); n != 1 {
		t.Errorf("emulate that reloads lists the viewport %d times, want once:\n%s", n, out)
	}
	if got := s.eval("() => [innerWidth, innerHeight, devicePixelRatio, 'ontouchstart' in window, navigator.maxTouchPoints > 0]"); got != "[390,844,3,true,true]" {
		t.Fatalf("emulated viewport: page reports %s", got)
	}
	s.ok("emulate", map[string]any{"viewport": "844x390x2,landscape"})
	if got := s.eval("() => [innerWidth, innerHeight, devicePixelRatio, screen.orientation.type]"); got != `[844,390,2,"landscape-primary"]` {
		t.Fatalf("landscape viewport: page reports %s", got)
	}
	s.ok("emulate", nil)
	if got := s.eval("() => [innerWidth, innerHeight, devicePixelRatio, 'ontouchstart' in window]"); got != desktop {
		t.Fatalf("after clearing the viewport the page reports %s, before emulating %s", got, desktop)
	}
}

func TestEmulateRejectsBadValues(t *testing.T) {
	site := pages(t, map[string]string{"/": `<title>Bad</title>`})
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"geolocation": "100,0"}, "<latitude>,<longitude>"},
		{map[string]any{"geolocation": "north"}, "latitude -90 to 90"},
		{map[string]any{"viewport": "abc"}, "<width>x<height>x<devicePixelRatio>[,mobile][,touch][,landscape]"},
		{map[string]any{"viewport": "390x844x3,tablet"}, `unknown flag "tablet"`},
		{map[string]any{"viewport": "20000000x844", "colorScheme": "dark"}, "1 to 10000)"},
		{map[string]any{"extraHttpHeaders": "X-A: b"}, `JSON object`},
		{map[string]any{"cpuThrottlingRate": 50}, "between 1 (no slowdown) and 20"},
		{map[string]any{"networkConditions": "5G"}, "networkConditions"},
	} {
		mustContain(t, s.fails("emulate", c.args), c.want)
	}
	// A refused call changes nothing.
	if got := s.eval("() => matchMedia('(prefers-color-scheme: dark)').matches"); got != "false" {
		t.Fatalf("refused call changed the page: %s", got)
	}
}

func TestResizePage(t *testing.T) {
	site := pages(t, map[string]string{"/": `<title>Resize</title>`})
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	for _, size := range [][2]int{{700, 500}, {1000, 650}} {
		out := s.ok("resize_page", map[string]any{"width": size[0], "height": size[1]})
		mustContain(t, out, fmt.Sprintf("The page is now %dx%d.", size[0], size[1]), "## Pages")
		if w, h := s.size("[innerWidth, innerHeight]"); w != size[0] || h != size[1] {
			t.Fatalf("after resize_page %v the page is %dx%d", size, w, h)
		}
	}
	s.ok("emulate", map[string]any{"viewport": "400x300x1"})
	mustContain(t, s.fails("resize_page", map[string]any{"width": 800, "height": 600}), "emulates a 400x300x1 viewport")
}

func TestGetCSSStyles(t *testing.T) {
	var rules strings.Builder
	rules.WriteString("body { color: green; --accent: red; margin: 0 }\n\n.btn {\n  color: blue;\n  padding: 4px;\n}\n#go { color: purple }\n")
	for i := range 12 {
		fmt.Fprintf(&rules, ".r%d { order: %d }\n", i, i)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/style.css", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/css")
		fmt.Fprint(w, rules.String())
	})
	classes := "btn"
	for i := range 12 {
		classes += fmt.Sprintf(" r%d", i)
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<title>CSS</title><link rel=stylesheet href=/style.css>\n<style>\n  button { border: 0 }\n</style>\n<button id=go class=%q style=\"padding: 8px\">Go</button>", classes)
	})
	site := httptest.NewServer(mux)
	t.Cleanup(site.Close)
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	uid := uidOf(t, s.ok("take_snapshot", nil), `button "Go"`)

	out := s.ok("get_css_styles", map[string]any{"uid": uid, "pageSize": 50})
	sheet := site.URL + "/style.css"
	mustContain(t, out,
		"## CSS styles of uid="+uid+" (button#go.btn.r0",
		"### Computed style", "color: rgb(128, 0, 128)", "padding-top: 8px", "display: inline-block",
		"element.style {\n  padding: 8px;\n}",
		"/* "+sheet+":7 */\n#go {\n  color: purple;\n}",
		"/* "+sheet+":3 */\n.btn {\n  color: blue; /* overridden */\n  padding: 4px; /* overridden */\n}",
		"/* "+site.URL+"/:3 */\nbutton {\n  border: 0;",
		"/* inherited from body, "+sheet+":1 */\nbody {\n  color: green; /* overridden */\n  --accent: red;\n}",
		"user-agent stylesheet */",
		// The browser's logical padding loses to the physical one of the style attribute.
		"padding-block-start: 1px; /* overridden */",
	)
	if strings.Contains(out, "margin: 0") {
		t.Fatalf("body's margin is not inherited and must not be listed:\n%s", out)
	}
	if strings.Index(out, "element.style") > strings.Index(out, "#go {") || strings.Index(out, "#go {") > strings.Index(out, ".btn {") {
		t.Fatalf("rules are not in priority order:\n%s", out)
	}

	n := strings.Count(out, "{\n")
	page2 := s.ok("get_css_styles", map[string]any{"uid": uid, "pageSize": 5, "pageIdx": 1})
	mustContain(t, page2, fmt.Sprintf("Showing 6-10 of %d (Page 2 of %d).", n, (n+4)/5))
	if got := strings.Count(page2, "{\n"); got != 5 {
		t.Fatalf("page of 5 rules shows %d:\n%s", got, page2)
	}
	mustContain(t, s.ok("get_css_styles", map[string]any{"uid": uid}), fmt.Sprintf("Showing 1-10 of %d", n))
}

// TestEmulationReachesCrossSiteFrames checks that a cross-site iframe,
// which Chromium runs in its own process, sends and reports the emulated
// user agent and headers and sees the emulated media features, like its
// page, from its first request on; and that its requests are listed.
// The frame's script sits in its body: one in the head may see its fetch
// answered before the parser reached the end of the document and made
// the body (on a loaded machine it did).
func TestEmulationReachesCrossSiteFrames(t *testing.T) {
	frame := `<title>Frame</title><body><script>
fetch('/frame-api').then(() => {
  document.body.innerHTML = '<button>' + navigator.userAgent + ' ' + matchMedia('(prefers-color-scheme: dark)').matches + '</button>';
  document.querySelector('button').onclick = e => fetch('/frame-again').then(() => { e.target.textContent = 'again ' + navigator.userAgent; });
});
</script>`
	site, rec := recordingSite(t, map[string]string{"/frame": frame, "/frame-api": "ok", "/frame-again": "ok"})
	cross := strings.Replace(site.URL, "127.0.0.1", "localhost", 1)
	main := pages(t, map[string]string{"/": `<title>Host</title><iframe src="` + cross + `/frame"></iframe>`})
	s := startServer(t, headless...)
	s.ok("emulate", map[string]any{"userAgent": "ProbeBot/1.0", "extraHttpHeaders": `{"X-Probe": "yes"}`, "colorScheme": "dark"})
	s.ok("navigate_page", map[string]any{"url": main.URL})
	eventually(t, "the frame's answer in the snapshot", func() bool {
		return strings.Contains(s.ok("take_snapshot", nil), `button "`)
	})
	mustContain(t, s.ok("take_snapshot", nil), `button "ProbeBot/1.0 true"`)
	// The frame's own requests are listed with the page's.
	mustContain(t, s.ok("list_network_requests", nil), cross+"/frame-api [200]")
	for _, path := range []string{"/frame", "/frame-api"} {
		if ua, probe := rec.header(path, "User-Agent"), rec.header(path, "X-Probe"); ua != "ProbeBot/1.0" || probe != "yes" {
			t.Errorf("%s: the server saw User-Agent %q and X-Probe %q", path, ua, probe)
		}
	}

	// A change of emulation reaches the frame that is already there.
	s.ok("emulate", map[string]any{"userAgent": "OtherBot/2.0"})
	snap := s.ok("take_snapshot", nil)
	mustContain(t, s.ok("click", map[string]any{"uid": uidOf(t, snap, `button "ProbeBot`), "includeSnapshot": true}), `button "again OtherBot/2.0"`)
	if ua := rec.header("/frame-again", "User-Agent"); ua != "OtherBot/2.0" {
		t.Errorf("after the change the server saw User-Agent %q", ua)
	}
}

// TestThrottledLoadsGetLongerWaits checks that under Slow 3G the default
// wait of a navigation is lengthened: the page's server answers after
// 10.5 s, past the unthrottled default (10 s).
func TestThrottledLoadsGetLongerWaits(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "<title>Start</title>") })
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(10500 * time.Millisecond):
		case <-r.Context().Done():
		}
		fmt.Fprint(w, "<title>Slow</title><h1>Finally</h1>")
	})
	site := httptest.NewServer(mux)
	t.Cleanup(site.Close)
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	s.ok("emulate", map[string]any{"networkConditions": "Slow 3G"})
	out := s.ok("navigate_page", map[string]any{"url": site.URL + "/slow"})
	if strings.Contains(out, "timed out") || strings.Contains(out, "Timed out") {
		t.Fatalf("the throttled load timed out:\n%s", out)
	}
	mustContain(t, s.ok("take_snapshot", nil), `heading "Finally"`)
}
