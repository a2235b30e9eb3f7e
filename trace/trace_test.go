package trace

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
)

// E is one hand-built trace event.
type E map[string]any

// build parses a trace made of events.
func build(t *testing.T, events ...E) *Trace {
	t.Helper()
	raw, err := json.Marshal(map[string]any{"traceEvents": events, "metadata": map[string]any{"x": 1}})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := Parse(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return tr
}

const (
	pid   = 10
	frame = "F1"
	nav   = "NAV1"
	page  = "https://site.test/"
	t0    = 1_000_000 // navigation start, µs
)

// ms0 is t0 plus ms milliseconds, in µs.
func ms0(ms float64) float64 { return t0 + ms*1000 }

func instant(name string, ts float64, args E) E {
	return E{"name": name, "ph": "I", "pid": pid, "tid": pid, "ts": ts, "cat": "devtools.timeline", "s": "t", "args": args}
}

func mark(name string, ts float64, args E) E {
	e := instant(name, ts, args)
	e["ph"] = "R"
	return e
}

func complete(name string, ts, dur float64, args E) E {
	return E{"name": name, "ph": "X", "pid": pid, "tid": pid, "ts": ts, "dur": dur, "cat": "devtools.timeline", "args": args}
}

// request is the events of one request: sent at ms (relative to t0), first
// byte after ttfb ms, finished after total ms.
func request(id, url, typ, priority string, at, ttfb, total float64, data E, headers ...Header) []E {
	send := E{"requestId": id, "url": url, "frame": frame, "resourceType": typ, "priority": priority, "requestMethod": "GET"}
	resp := E{"requestId": id, "statusCode": 200, "mimeType": "text/html", "protocol": "h2", "encodedDataLength": 200,
		"headers": headers, "timing": E{"requestTime": ms0(at) / 1e6, "sendStart": 0.5, "receiveHeadersStart": ttfb, "receiveHeadersEnd": ttfb + 0.1}}
	fin := E{"requestId": id, "encodedDataLength": 10_000, "decodedBodyLength": 10_000, "finishTime": ms0(at+total) / 1e6}
	for k, v := range data {
		switch k {
		case "mimeType", "statusCode", "protocol":
			resp[k] = v
		case "decodedBodyLength", "encodedDataLength":
			fin[k] = v
		default:
			send[k] = v
		}
	}
	return []E{
		instant("ResourceSendRequest", ms0(at), E{"data": send}),
		instant("ResourceReceiveResponse", ms0(at+ttfb), E{"data": resp}),
		instant("ResourceFinish", ms0(at+total), E{"data": fin}),
	}
}

// navigation is a page load of page: document first byte at 100 ms, done
// at 150 ms, first (contentful) paint at fcp ms.
func navigation(fcp float64, doc E, headers ...Header) []E {
	evs := []E{
		{"name": "thread_name", "ph": "M", "pid": pid, "tid": pid, "ts": 0, "args": E{"name": "CrRendererMain"}},
		instant("TracingStartedInBrowser", t0-1000, E{"data": E{"frames": []E{{"frame": frame, "url": page, "processId": pid}}}}),
		mark("navigationStart", t0, E{"frame": frame, "data": E{"documentLoaderURL": page, "isLoadingMainFrame": true, "isOutermostMainFrame": true, "navigationId": nav}}),
		mark("firstPaint", ms0(fcp), E{"frame": frame, "data": E{"navigationId": nav}}),
		mark("firstContentfulPaint", ms0(fcp), E{"frame": frame, "data": E{"navigationId": nav}}),
	}
	if doc == nil {
		doc = E{}
	}
	if len(headers) == 0 {
		headers = []Header{{"Content-Type", "text/html; charset=utf-8"}, {"Content-Encoding", "gzip"}}
	}
	return append(evs, request(nav, page, "Document", "VeryHigh", 0, 100, 150, doc, headers...)...)
}

func lcp(ms float64, node int, typ string) E {
	return mark("largestContentfulPaint::Candidate", ms0(ms), E{"frame": frame, "data": E{"navigationId": nav, "nodeId": node, "nodeName": "IMG id='x'", "type": typ, "size": 1000, "candidateIndex": 1, "isMainFrame": true}})
}

func shift(ms, score float64, recentInput bool) E {
	return instant("LayoutShift", ms0(ms), E{"frame": frame, "data": E{"score": score, "weighted_score_delta": score, "had_recent_input": recentInput,
		"impacted_nodes": []E{{"node_id": 5, "debug_name": "DIV id='ad'", "old_rect": []int{0, 0, 10, 10}, "new_rect": []int{0, 50, 10, 10}}}}})
}

func cat(parts ...[]E) []E {
	var out []E
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// insight returns the named insight of the first set, or fails.
func insight(t *testing.T, r *Report, name string) *Insight {
	t.Helper()
	in := r.Sets[0].Insight(name)
	if in == nil {
		t.Fatalf("no %s insight; summary:\n%s", name, r.Summary())
	}
	return in
}

func open(t testing.TB, name string) *Trace {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := Parse(f)
	if err != nil {
		t.Fatalf("parse %s: %v", name, err)
	}
	return tr
}

func TestRecordedLoad(t *testing.T) {
	r := open(t, "load.json.gz").Analyze()
	if len(r.Sets) != 1 || r.Sets[0].ID != "NAVIGATION_0" {
		t.Fatalf("want one navigation set:\n%s", r.Summary())
	}
	m := r.Sets[0].Metrics
	if m.LCP < 400*1000 || m.LCPNodeName != "IMG id='hero'" || m.LCPRequest == nil || !strings.HasSuffix(m.LCPRequest.URL, "/hero.png") {
		t.Errorf("LCP %v on %q (request %v), want > 400 ms on the hero image", m.LCP, m.LCPNodeName, m.LCPRequest)
	}
	var sum Micro
	for _, p := range m.LCPParts {
		sum += p.Dur()
	}
	if len(m.LCPParts) != 4 || sum != m.LCP {
		t.Errorf("LCP phases %v add up to %v, want 4 phases adding up to %v", m.LCPParts, sum, m.LCP)
	}
	if m.CLS <= 0 || len(m.CLSWindow) != 1 {
		t.Errorf("CLS %v over %d shifts, want one shift", m.CLS, len(m.CLSWindow))
	}
	if m.INP < 300*1000 || m.Interaction.Type != "click" {
		t.Errorf("INP %v (%+v), want the 300 ms click", m.INP, m.Interaction)
	}
	if len(m.LongTasks) != 2 || m.LongTasks[1].Dur < 250*1000 || m.TBT < 400*1000 {
		t.Errorf("long tasks %+v, TBT %v; want the 300 and 250 ms tasks", m.LongTasks, m.TBT)
	}
	if m.FCP < 300*1000 {
		t.Errorf("FCP %v, want after the 300 ms stylesheet", m.FCP)
	}
	rb := insight(t, r, "RenderBlocking")
	if !rb.Failed || !strings.Contains(rb.Details, "/slow.css") || rb.Savings.FCP < 250*1000 {
		t.Errorf("RenderBlocking: %+v", rb)
	}
	if dl := insight(t, r, "DocumentLatency"); dl.Failed {
		t.Errorf("DocumentLatency failed on a local server: %s", dl.Details)
	}
	if c := insight(t, r, "Cache"); !c.Failed || !strings.Contains(c.Details, "/hero.png") {
		t.Errorf("Cache: %s", c.Details)
	}
	for _, name := range []string{"LCPBreakdown", "LCPDiscovery", "CLSCulprits", "INPBreakdown", "NetworkDependencyTree", "Viewport", "ThirdParties", "ModernHTTP", "DOMSize"} {
		insight(t, r, name)
	}
}

func TestRecordedIdle(t *testing.T) {
	r := open(t, "idle.json.gz").Analyze()
	if len(r.Sets) != 1 || r.Sets[0].ID != "NO_NAVIGATION" {
		t.Fatalf("want one set for the whole trace:\n%s", r.Summary())
	}
	m := r.Sets[0].Metrics
	if m.INP < 300*1000 || m.LCP != None || m.FCP != None {
		t.Errorf("INP %v LCP %v FCP %v; want only the INP of the click", m.INP, m.LCP, m.FCP)
	}
	if r.Sets[0].Bounds != r.Bounds {
		t.Errorf("set bounds %v, want the trace's %v", r.Sets[0].Bounds, r.Bounds)
	}
}

func TestCLSSessionWindows(t *testing.T) {
	tr := build(t, cat(navigation(100, nil), []E{
		shift(200, 0.05, false), shift(700, 0.05, false), // window 1: 0.10
		shift(2000, 0.3, true),                                                       // after input: not counted
		shift(3000, 0.08, false), shift(3900, 0.04, false), shift(4800, 0.04, false), // window 2: 0.16
		shift(9000, 0.01, false), // more than 5 s after window 2 started
	})...)
	m := tr.Analyze().Sets[0].Metrics
	if m.CLS < 0.1599 || m.CLS > 0.1601 || len(m.CLSWindow) != 3 {
		t.Fatalf("CLS %v over %d shifts, want 0.16 over 3", m.CLS, len(m.CLSWindow))
	}
}

func TestINPSkipsOutliers(t *testing.T) {
	var evs []E
	for i := range 60 {
		d := 40.0
		if i == 7 {
			d = 900 // the one outlier skipped for 50+ interactions
		}
		if i == 8 {
			d = 300
		}
		evs = append(evs, E{"name": "EventTiming", "ph": "b", "id": i + 1, "pid": pid, "tid": pid, "ts": ms0(1000 + float64(i)*1000), "cat": "devtools.timeline",
			"args": E{"data": E{"type": "click", "interactionId": 100 + i, "duration": d, "timeStamp": 10, "processingStart": 12, "processingEnd": 20, "nodeId": 3}}})
	}
	m := build(t, cat(navigation(100, nil), evs)...).Analyze().Sets[0].Metrics
	if m.INP != 300*1000 {
		t.Fatalf("INP %v, want 300 ms (the 900 ms outlier skipped)", m.INP)
	}
	if in := m.Interaction; in.ProcessingStart-in.Start != 2000 || in.ProcessingEnd-in.ProcessingStart != 8000 {
		t.Fatalf("interaction phases %+v", in)
	}
}

func TestLCPTextAndInvalidated(t *testing.T) {
	m := build(t, cat(navigation(100, nil), []E{lcp(500, 7, "text")})...).Analyze().Sets[0].Metrics
	if m.LCP != 500*1000 || len(m.LCPParts) != 2 || m.LCPParts[0].Dur() != 100*1000 || m.LCPParts[1].Name != "Render delay" {
		t.Fatalf("text LCP %v phases %+v, want 500 ms = TTFB 100 + render delay 400", m.LCP, m.LCPParts)
	}
	gone := mark("largestContentfulPaint::Invalidate", ms0(800), E{"frame": frame})
	m = build(t, cat(navigation(100, nil), []E{lcp(500, 7, "text"), gone})...).Analyze().Sets[0].Metrics
	if m.LCP != None {
		t.Fatalf("LCP %v after its element was removed, want none", m.LCP)
	}
}

func TestLCPImage(t *testing.T) {
	img := page + "hero.jpg"
	evs := cat(navigation(100, nil), request("r1", img, "Image", "Low", 300, 50, 400, E{"initiator": E{"type": "script", "url": page + "app.js"}}), []E{
		lcp(900, 9, "image"),
		mark("LargestImagePaint::Candidate", ms0(900), E{"frame": frame, "data": E{"DOMNodeId": 9, "imageUrl": img, "candidateIndex": 1}}),
	})
	r := build(t, evs...).Analyze()
	m := r.Sets[0].Metrics
	want := []Micro{100_000, 200_000, 400_000, 200_000}
	for i, p := range m.LCPParts {
		if p.Dur() != want[i] {
			t.Fatalf("LCP phases %+v, want durations %v", m.LCPParts, want)
		}
	}
	d := insight(t, r, "LCPDiscovery")
	if !d.Failed || d.Savings.LCP != 0 || !strings.Contains(d.Details, "It was found 200 ms after that.") || !strings.Contains(d.Details, "FAIL: the request was not discoverable") || !strings.Contains(d.Details, "FAIL: fetchpriority=high") {
		t.Fatalf("LCPDiscovery %+v", d)
	}
}

func TestTBTAndLongTasks(t *testing.T) {
	evs := cat(navigation(100, nil), []E{
		complete("RunTask", ms0(50), 90_000, E{}), // before FCP: not blocking
		complete("RunTask", ms0(200), 40_000, E{}),
		complete("RunTask", ms0(300), 70_000, E{}),
		complete("RunTask", ms0(400), 150_000, E{}),
		complete("FunctionCall", ms0(410), 100_000, E{"data": E{"url": page + "app.js", "functionName": "render", "lineNumber": 9, "columnNumber": 0}}),
		complete("Layout", ms0(450), 30_000, E{"beginData": E{"dirtyObjects": 10}}),
	})
	r := build(t, evs...).Analyze()
	m := r.Sets[0].Metrics
	if m.TBT != 120_000 {
		t.Errorf("TBT %v, want 20 + 100 ms", m.TBT)
	}
	if len(m.LongTasks) != 3 || m.LongTasks[0].Dur != 150_000 {
		t.Fatalf("long tasks %+v", m.LongTasks)
	}
	top := m.LongTasks[0]
	if top.Breakdown[0].Name != "Script evaluation" || top.Breakdown[0].Dur != 70_000 || top.Scripts[0].Name != "render ("+page+"app.js:10:1)" {
		t.Errorf("breakdown %+v scripts %+v", top.Breakdown, top.Scripts)
	}
	fr := insight(t, r, "ForcedReflow")
	if !fr.Failed || !strings.Contains(fr.Details, "render ("+page+"app.js:10:1): 30 ms") {
		t.Errorf("ForcedReflow %+v", fr)
	}
}

func TestRenderBlocking(t *testing.T) {
	evs := cat(navigation(600, nil),
		request("css", page+"a.css", "Stylesheet", "VeryHigh", 110, 300, 450, E{"renderBlocking": "blocking"}),
		request("late", page+"b.css", "Stylesheet", "VeryHigh", 110, 300, 700, E{"renderBlocking": "blocking"}),     // done after the paint
		request("low", page+"c.js", "Script", "Low", 110, 100, 200, E{"renderBlocking": "in_body_parser_blocking"}), // low priority in body
		request("img", page+"d.png", "Image", "Low", 110, 100, 200, E{"renderBlocking": "non_blocking"}),
	)
	r := build(t, evs...).Analyze()
	rb := insight(t, r, "RenderBlocking")
	if !rb.Failed || !strings.Contains(rb.Details, "a.css") || strings.Contains(rb.Details, "b.css") || strings.Contains(rb.Details, "c.js") || strings.Contains(rb.Details, "d.png") {
		t.Fatalf("RenderBlocking details:\n%s", rb.Details)
	}
	if rb.Savings.FCP != 410_000 || rb.Savings.LCP != 410_000 {
		t.Errorf("savings %+v, want FCP = LCP = 560 - 150 ms", rb.Savings)
	}
	nt := insight(t, r, "NetworkDependencyTree")
	if nt.Failed {
		t.Errorf("requests without an initiator made a chain:\n%s", nt.Details)
	}
}

func TestDocumentLatency(t *testing.T) {
	evs := navigation(1000, E{"decodedBodyLength": 30_000}, Header{"Content-Type", "text/html"})
	// The server took 800 ms: rewrite the document's response.
	for _, e := range evs {
		if e["name"] == "ResourceReceiveResponse" {
			e["args"].(E)["data"].(E)["timing"].(E)["receiveHeadersStart"] = 800.5
		}
	}
	r := build(t, evs...).Analyze()
	dl := insight(t, r, "DocumentLatency")
	if !dl.Failed || dl.Savings.FCP != 700_000 || dl.Savings.WastedBytes != 20_100 {
		t.Fatalf("DocumentLatency %+v", dl)
	}
	if cs := r.Sets[0].Insight("CharacterSet"); cs == nil {
		t.Errorf("no CharacterSet insight for text/html without charset")
	}
}

func TestNetworkChain(t *testing.T) {
	evs := cat(navigation(900, nil),
		request("css", page+"a.css", "Stylesheet", "VeryHigh", 110, 100, 200, E{"initiator": E{"type": "parser", "url": page}}),
		request("font", "https://fonts.test/f.woff2", "Font", "VeryHigh", 320, 100, 400, E{"initiator": E{"type": "parser", "url": page + "a.css"}}),
	)
	nt := insight(t, build(t, evs...).Analyze(), "NetworkDependencyTree")
	if !nt.Failed || !strings.Contains(nt.Details, "3 requests deep") || !strings.Contains(nt.Details, `preconnect href="https://fonts.test"`) {
		t.Fatalf("NetworkDependencyTree:\n%s", nt.Details)
	}
}

func TestCacheAndThirdPartiesAndHTTP(t *testing.T) {
	var evs []E
	evs = append(evs, navigation(100, nil)...)
	for i, cc := range []string{"max-age=60", "max-age=31536000", "no-store", ""} {
		id := "c" + string(rune('0'+i))
		evs = append(evs, request(id, page+"s"+id+".js", "Script", "Low", 200, 10, 20, E{"mimeType": "text/javascript"}, Header{"Cache-Control", cc})...)
	}
	for i := range 6 {
		id := "x" + string(rune('0'+i))
		evs = append(evs, request(id, "https://cdn.other.test/"+id+".png", "Image", "Low", 200, 10, 20, E{"mimeType": "image/png", "protocol": "http/1.1"})...)
	}
	evs = append(evs,
		complete("RunTask", ms0(300), 50_000, E{}),
		complete("EventDispatch", ms0(301), 40_000, E{"data": E{"type": "click"}}),
		complete("FunctionCall", ms0(302), 30_000, E{"data": E{"url": "https://cdn.other.test/w.js", "functionName": "track"}}))
	r := build(t, evs...).Analyze()
	c := insight(t, r, "Cache")
	if !c.Failed || !strings.Contains(c.Details, "sc0.js") || strings.Contains(c.Details, "sc1.js") || strings.Contains(c.Details, "sc2.js") || !strings.Contains(c.Details, "sc3.js") {
		t.Errorf("Cache:\n%s", c.Details)
	}
	tp := insight(t, r, "ThirdParties")
	if tp.Failed || !tp.Informative || !strings.Contains(tp.Details, "other.test: 60.0 kB transferred, 30 ms of main-thread time") {
		t.Errorf("ThirdParties:\n%s", tp.Details)
	}
	h := insight(t, r, "ModernHTTP")
	if !h.Failed || strings.Count(h.Details, "cdn.other.test") != 6 {
		t.Errorf("ModernHTTP:\n%s", h.Details)
	}
}

func TestImageDeliveryFontsViewportDOM(t *testing.T) {
	img := page + "big.jpg"
	evs := cat(navigation(100, nil),
		request("img", img, "Image", "Low", 200, 10, 300, E{"mimeType": "image/jpeg", "decodedBodyLength": 500_000, "encodedDataLength": 500_000}),
		request("10.7", page+"f.woff2", "Font", "VeryHigh", 200, 10, 400, nil),
		[]E{
			complete("PaintImage", ms0(600), 100, E{"data": E{"url": img, "srcWidth": 2000, "srcHeight": 1000, "width": 200, "height": 100, "nodeId": 4}}),
			instant("BeginRemoteFontLoad", ms0(190), E{"display": "auto", "id": 7, "url": page + "f.woff2"}),
			{"name": "BeginCommitCompositorFrame", "ph": "I", "pid": pid, "tid": pid, "ts": ms0(120), "args": E{"frame": frame, "is_mobile_optimized": false}},
			instant("DOMStats", ms0(130), E{"data": E{"frame": frame, "totalElements": 5000, "maxDepth": E{"depth": 40, "nodeName": "DIV"}, "maxChildren": E{"numChildren": 900, "nodeName": "UL"}}}),
			complete("RunTask", ms0(700), 60_000, E{}),
			complete("Layout", ms0(700), 50_000, E{"beginData": E{"dirtyObjects": 4000}}),
		})
	r := build(t, evs...).Analyze()
	id := insight(t, r, "ImageDelivery")
	if !id.Failed || !strings.Contains(id.Details, "2000x1000 but shown at 200x100") || !strings.Contains(id.Details, "modern format") || id.Savings.WastedBytes < 400_000 {
		t.Errorf("ImageDelivery %+v", id)
	}
	fd := insight(t, r, "FontDisplay")
	if !fd.Failed || fd.Savings.FCP != 399_500 {
		t.Errorf("FontDisplay %+v", fd)
	}
	vp := insight(t, r, "Viewport")
	if !vp.Failed || vp.Savings.INP != 0 { // no slow tap: nothing to save

		t.Errorf("Viewport %+v", vp)
	}
	ds := insight(t, r, "DOMSize")
	if ds.Failed || !ds.Informative || !strings.Contains(ds.Details, "5000 elements") || !strings.Contains(ds.Details, "4000 objects") {
		t.Errorf("DOMSize %+v", ds)
	}
}

func TestSlowCSSSelector(t *testing.T) {
	stats := func(ms float64, elapsed int) E {
		return complete("SelectorStats", ms0(ms), 10, E{"selector_stats": E{"selector_timings": []E{
			{"selector": "div *", "elapsed (us)": elapsed, "match_attempts": 5000, "match_count": 3},
			{"selector": ".a", "elapsed (us)": 10, "match_attempts": 10, "match_count": 10},
		}}})
	}
	r := build(t, cat(navigation(100, nil), []E{stats(200, 30_000), stats(300, 30_000)})...).Analyze()
	in := insight(t, r, "SlowCSSSelector")
	if in.Failed || !in.Informative || !strings.Contains(in.Details, "div *: 60 ms, 10000 match attempts, 6 matches") {
		t.Fatalf("SlowCSSSelector %+v", in)
	}
	r = build(t, navigation(100, nil)...).Analyze()
	if in := insight(t, r, "SlowCSSSelector"); in.Informative || !strings.Contains(in.Details, "blink.debug") {
		t.Fatalf("without selector stats: %+v", in)
	}
}

func TestParseForms(t *testing.T) {
	ev := `{"name":"thread_name","ph":"M","pid":1,"tid":2,"args":{"name":"CrRendererMain"}},{"name":"Unknown\u0041","ph":"X","ts":5.5,"dur":1e3,"pid":1,"tid":2,"args":{"x":[1,{"y":null}],"z":true},"extra":"ignored"}`
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(`{"metadata":{},"traceEvents":[` + ev + `]}`))
	zw.Close()
	for name, in := range map[string]string{
		"array":  "[" + ev + "]",
		"object": ` {"traceEvents": [` + ev + "] , \"metadata\": {\"a\": [1, 2]}}\n",
		"gzip":   gz.String(),
	} {
		tr, err := Parse(strings.NewReader(in))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if tr.Events != 2 || tr.Threads[0].Name != "CrRendererMain" || tr.Bounds != (Bounds{5, 1005}) {
			t.Errorf("%s: %d events, threads %+v, bounds %v", name, tr.Events, tr.Threads, tr.Bounds)
		}
	}
	if tr, err := Parse(strings.NewReader(`{"traceEvents":[]}`)); err != nil || tr.Events != 0 {
		t.Errorf("empty trace: %v", err)
	}
}

func TestParseErrors(t *testing.T) {
	for in, want := range map[string]int64{
		``:                                   0,
		`x`:                                  0,
		`{"traceEvents":[{"name":"a"},]}`:    29,
		`{"traceEvents":[{"name":"a"}`:       28,
		`[{"name":"a","ts":1.}]`:             20,
		`[{"name":"a"}] x`:                   15,
		`[1]`:                                1,
		`{"traceEvents":[{"name":"a\x01"}]}`: 27,
		`[{"a":tru}]`:                        6,
		`[{"a" 1}]`:                          6,
	} {
		_, err := Parse(strings.NewReader(in))
		var se *SyntaxError
		if !errors.As(err, &se) || se.Offset != want {
			t.Errorf("Parse(%q) = %v, want a syntax error at byte %d", in, err, want)
		}
	}
}

// TestParseLongEvent checks events larger than the read buffer.
func TestParseLongEvent(t *testing.T) {
	big := strings.Repeat("a", 1<<20)
	tr, err := Parse(strings.NewReader(`[{"name":"x","ts":1,"args":{"s":"` + big + `"}},{"name":"y","ts":2}]`))
	if err != nil || tr.Events != 2 {
		t.Fatalf("%v, %+v", err, tr)
	}
}

func FuzzParse(f *testing.F) {
	raw, err := os.ReadFile("testdata/idle.json.gz")
	if err != nil {
		f.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		f.Fatal(err)
	}
	var plain bytes.Buffer
	plain.ReadFrom(zr)
	f.Add(plain.Bytes()[:4096])
	f.Add([]byte(`{"traceEvents":[{"name":"LayoutShift","ph":"I","ts":1,"args":{"data":{"score":0.1}}}]}`))
	f.Add([]byte(`[{"name":"navigationStart","ph":"R","ts":1,"args":{"frame":"F","data":{"documentLoaderURL":"https://a/","isLoadingMainFrame":true,"navigationId":"N"}}}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := Parse(bytes.NewReader(data))
		if err != nil {
			return
		}
		r := tr.Analyze()
		_ = r.Summary()
		for _, s := range r.Sets {
			for _, in := range s.Insights {
				if _, err := r.InsightDetails(s.ID, in.Name); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
}
