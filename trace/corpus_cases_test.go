package trace

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// corpusSet analyzes a corpus trace and returns its only insight set.
func corpusSet(t *testing.T, name string) *InsightSet {
	t.Helper()
	rep := open(t, "corpus/"+name+".json.gz").Analyze()
	if len(rep.Sets) != 1 {
		t.Fatalf("%s: %d insight sets, want 1:\n%s", name, len(rep.Sets), rep.Summary())
	}
	return &rep.Sets[0]
}

// corpusInsight returns an insight of a corpus trace's set.
func corpusInsight(t *testing.T, name, insight string) *Insight {
	t.Helper()
	in := corpusSet(t, name).Insight(insight)
	if in == nil {
		t.Fatalf("%s: no %s insight", name, insight)
	}
	return in
}

// Both servers' traces show each bug the corpus was built for.
var servers = []string{"ours", "ref"}

func TestRecordedEarlierPagesScriptsAreNotThisPages(t *testing.T) {
	for _, srv := range servers {
		// The renderer still holds /scripts' scripts when /plain is traced.
		for _, name := range []string{"DuplicatedJavaScript", "LegacyJavaScript"} {
			set := corpusSet(t, srv+"-plain-after-scripts")
			if in := set.Insight(name); in != nil && (in.Failed || strings.Contains(in.Details, "lib-a.js") || strings.Contains(in.Details, "legacy.js")) {
				t.Errorf("%s-plain-after-scripts %s blames the previous page's scripts:\n%s", srv, name, in.Details)
			}
		}
		// On /scripts itself: the 12 kB legacy script fails with an
		// estimate, the 184-byte polyfill is not worth reporting.
		leg := corpusInsight(t, srv+"-scripts", "LegacyJavaScript")
		if !leg.Failed || leg.Savings.WastedBytes < 5000 || !strings.Contains(leg.Details, "/legacy.js (") ||
			!strings.Contains(leg.Details, "Array.prototype.includes polyfill") || !strings.Contains(leg.Details, "String.prototype.startsWith polyfill") || strings.Contains(leg.Details, "tiny-polyfill.js") {
			t.Errorf("%s-scripts LegacyJavaScript (wasted %d):\n%s", srv, leg.Savings.WastedBytes, leg.Details)
		}
		dup := corpusInsight(t, srv+"-scripts", "DuplicatedJavaScript")
		if dup.Failed || !strings.Contains(dup.Details, "lib-a.js") || !strings.Contains(dup.Details, "lib-b.js") {
			t.Errorf("%s-scripts DuplicatedJavaScript: want the identical copies named, not failed:\n%s", srv, dup.Details)
		}
	}
}

var redirectRE = regexp.MustCompile(`(\d+) redirect\(s\) cost ([0-9.]+) ms`)

func TestRecordedRedirects(t *testing.T) {
	for _, srv := range servers {
		set := corpusSet(t, srv+"-redirect")
		if !strings.HasSuffix(set.URL, "/redirect/final") {
			t.Errorf("%s-redirect: the set's URL is %s, want the final document's", srv, set.URL)
		}
		in := set.Insight("DocumentLatency")
		m := redirectRE.FindStringSubmatch(in.Details)
		if m == nil {
			t.Fatalf("%s-redirect: no redirects reported:\n%s", srv, in.Details)
		}
		cost, _ := strconv.ParseFloat(m[2], 64)
		if m[1] != "2" || cost < 5 || cost > 50 {
			t.Errorf("%s-redirect: %s redirects costing %v ms, want 2 costing 5-50 ms:\n%s", srv, m[1], cost, in.Details)
		}
		if !strings.Contains(in.Details, "the server took 9") || in.Savings.FCP > set.Metrics.FCP {
			t.Errorf("%s-redirect: savings %s exceed the FCP %s, or the 900 ms server delay is missing:\n%s", srv, ms(in.Savings.FCP), ms(set.Metrics.FCP), in.Details)
		}
	}
}

func TestRecordedThresholds(t *testing.T) {
	for _, srv := range servers {
		if in := corpusInsight(t, srv+"-reflow", "ForcedReflow"); !in.Failed || in.key["reflowMs"] < 30 {
			t.Errorf("%s-reflow: want forced reflow of 30 ms or more in one task:\n%s", srv, in.Details)
		}
		// /plain forces one small layout: not worth fixing.
		if in := corpusInsight(t, srv+"-plain-after-404", "ForcedReflow"); in.Failed {
			t.Errorf("%s-plain: a small forced layout fails:\n%s", srv, in.Details)
		}
		if in := corpusInsight(t, srv+"-blocking", "LCPDiscovery"); !in.Failed || in.Savings.LCP != 0 {
			t.Errorf("%s-blocking LCPDiscovery: want failed (image inserted by script) without savings: %+v", srv, in.Savings)
		}
		if in := corpusSet(t, srv+"-noviewport").Insight("Viewport"); in != nil && in.Savings.INP != 0 {
			t.Errorf("%s-noviewport: INP savings %s without a slow tap", srv, ms(in.Savings.INP))
		}
	}
}

func TestRecordedCharacterSet(t *testing.T) {
	for _, srv := range servers {
		if in := corpusInsight(t, srv+"-noviewport", "CharacterSet"); !in.Failed || !strings.Contains(in.Details, "FAIL: the HTML has no <meta charset>") {
			t.Errorf("%s-noviewport: a page without any charset passes:\n%s", srv, in.Details)
		}
		if in := corpusInsight(t, srv+"-blocking", "CharacterSet"); in.Failed || !strings.Contains(in.Details, "PASS: the Content-Type header declares a charset") {
			t.Errorf("%s-blocking: a page served with a charset fails:\n%s", srv, in.Details)
		}
	}
	// Without a charset in the header, Blink says where it found <meta charset>.
	for disposition, fail := range map[string]bool{"found-in-first-1024-bytes": false, "found-after-first-1024-bytes": true, "not-found": true} {
		r := build(t, cat(navigation(100, nil, Header{"Content-Type", "text/html"}), []E{instant("MetaCharsetCheck", ms0(50), E{"data": E{"frame": frame, "disposition": disposition}})})...).Analyze()
		if in := insight(t, r, "CharacterSet"); in.Failed != fail {
			t.Errorf("<meta charset> %s: failed %v, want %v:\n%s", disposition, in.Failed, fail, in.Details)
		}
	}
}

func TestRecordedLateShiftCulprit(t *testing.T) {
	for _, srv := range servers {
		in := corpusInsight(t, srv+"-lateshift", "CLSCulprits")
		if !strings.Contains(in.Details, "image without explicit size painted with the shift: ") || !strings.Contains(in.Details, "/late.png") ||
			strings.Contains(in.Details, "script that changed") {
			t.Errorf("%s-lateshift: want the unsized image as the culprit:\n%s", srv, in.Details)
		}
	}
}

func TestRecordedAfterNotFound(t *testing.T) {
	for _, srv := range servers {
		set := corpusSet(t, srv+"-plain-after-404") // fails unless exactly one set
		if set.ID != "NAVIGATION_0" || !strings.HasSuffix(set.URL, "/plain") {
			t.Errorf("%s-plain-after-404: set %s %s", srv, set.ID, set.URL)
		}
	}
}

func TestNavigationBeforeRecordingIsNotASet(t *testing.T) {
	early := mark("navigationStart", t0-5000, E{"frame": frame, "data": E{"documentLoaderURL": page + "404", "isLoadingMainFrame": true, "isOutermostMainFrame": true, "navigationId": "OLD"}})
	r := build(t, cat([]E{early}, navigation(100, nil))...).Analyze()
	if len(r.Sets) != 1 || r.Sets[0].URL != page {
		t.Errorf("want one set for %s, got:\n%s", page, r.Summary())
	}
}

func TestRecordedRenderBlockingSavingsSayWhatTheyAre(t *testing.T) {
	in := corpusInsight(t, "ours-blocking", "RenderBlocking")
	if !in.Failed || in.key["requests"] != 2 || in.Savings.FCP <= 0 || !strings.Contains(in.Details, "It is an upper bound") {
		t.Errorf("RenderBlocking: %+v\n%s", in.Savings, in.Details)
	}
}
