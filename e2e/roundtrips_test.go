package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// span is one command of a call's CDP timeline, as the server logs it with
// DEBUG=* ("method@sent+took", in ms since the call began).
type span struct {
	method      string
	sent, ended float64
}

// timelines returns, in order, the CDP timelines the server logged to log
// for calls of tool.
func timelines(t *testing.T, log, tool string) [][]span {
	t.Helper()
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	var all [][]span
	re := regexp.MustCompile(`tool call CDP timeline" tool=` + tool + ` timeline="?([^"\n]*)`)
	for _, m := range re.FindAllStringSubmatch(string(data), -1) {
		var spans []span
		for _, f := range strings.Fields(m[1]) {
			method, times, _ := strings.Cut(f, "@")
			sent, took, _ := strings.Cut(times, "+")
			s, err1 := strconv.ParseFloat(sent, 64)
			d, err2 := strconv.ParseFloat(took, 64)
			if err1 != nil || err2 != nil {
				t.Fatalf("timeline %q: bad span %q", m[1], f)
			}
			spans = append(spans, span{method, s, s + d})
		}
		all = append(all, spans)
	}
	return all
}

// methods lists the methods of spans.
func methods(spans []span) []string {
	var ms []string
	for _, s := range spans {
		ms = append(ms, s.method)
	}
	return ms
}

// tracedServer starts a server that logs each call's CDP timeline to the
// returned file.
func tracedServer(t *testing.T) (*server, string) {
	log := filepath.Join(t.TempDir(), "log.txt")
	return startServerEnv(t, []string{"DEBUG=*"}, append(headless, "--logFile", log)...), log
}

// TestFirstSnapshotAfterNavigationIsOneRoundTrip checks that the snapshot
// agents take right after navigate_page (or new_page, or a reload) asks
// Chrome only for the accessibility tree and the frame tree: the
// navigation made our world and sent the script that waits for the first
// rendering and counts the elements as the document committed, so the
// snapshot finds them done (or awaits the script's answer).
func TestFirstSnapshotAfterNavigationIsOneRoundTrip(t *testing.T) {
	site := fixtures(t)
	s, log := tracedServer(t)
	s.ok("navigate_page", map[string]any{"url": site.URL + "/pages/form.html"})
	mustContain(t, s.ok("take_snapshot", nil), `heading "Sign in"`, `button "Log in"`)
	s.ok("new_page", map[string]any{"url": site.URL + "/pages/form.html"})
	mustContain(t, s.ok("take_snapshot", nil), `heading "Sign in"`)
	s.ok("navigate_page", map[string]any{"type": "reload"})
	mustContain(t, s.ok("take_snapshot", nil), `heading "Sign in"`)
	// A second snapshot of the same document counts its elements again
	// (it may have grown), in our world.
	s.ok("take_snapshot", nil)
	s.session.Close()

	snaps := timelines(t, log, "take_snapshot")
	if len(snaps) != 4 {
		t.Fatalf("%d take_snapshot timelines logged, want 4", len(snaps))
	}
	// On a loaded machine the first paint may come later than navigate_page
	// waits for it past the load; the snapshot then gets the document ready
	// itself, as before. One of the three must have found it ready.
	ready := 0
	for i, spans := range snaps[:3] {
		got := strings.Join(methods(spans), " ")
		if len(spans) != 2 || !strings.Contains(got, "Accessibility.getFullAXTree") || !strings.Contains(got, "Page.getFrameTree") {
			t.Logf("first snapshot %d after a navigation sent %s, not only the tree and the frame tree", i+1, got)
			continue
		}
		ready++
	}
	if ready == 0 {
		t.Errorf("no first snapshot after a navigation found the document ready: %v", snaps[:3])
	}
	if got := strings.Join(methods(snaps[3]), " "); !strings.Contains(got, "Runtime.callFunctionOn") {
		t.Errorf("the second snapshot of a document sent %s, without counting its elements", got)
	}
}

// TestClickIsOneBurst checks that a click's mouse move, press and release
// go to Chrome together, not each after the one before was answered.
func TestClickIsOneBurst(t *testing.T) {
	site := pages(t, map[string]string{"/": `<title>Form</title><button onclick="this.textContent='Clicked'">Send</button>`})
	s, log := tracedServer(t)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	send := uidOf(t, s.ok("take_snapshot", nil), `button "Send"`)
	s.ok("click", map[string]any{"uid": send})
	mustContain(t, s.ok("take_snapshot", nil), `button "Clicked"`)
	s.session.Close()

	clicks := timelines(t, log, "click")
	if len(clicks) != 1 {
		t.Fatalf("%d click timelines logged, want 1", len(clicks))
	}
	var mouse []span
	for _, sp := range clicks[0] {
		if sp.method == "Input.dispatchMouseEvent" {
			mouse = append(mouse, sp)
		}
	}
	if len(mouse) != 3 {
		t.Fatalf("click sent %d mouse events, want 3 (move, press, release): %v", len(mouse), methods(clicks[0]))
	}
	for _, m := range mouse[1:] {
		if m.sent > mouse[0].ended {
			t.Errorf("a mouse event was sent at %.1f ms, after the move was answered at %.1f ms: %v", m.sent, mouse[0].ended, clicks[0])
		}
	}
}

// TestSnapshotOfAPageStillLoading checks that a snapshot taken after
// navigate_page ran out of time, the page's load still pending (an image
// that never arrives), answers at once with what is there: the script the
// navigation sent to get the document ready waits for the load, and the
// snapshot must not wait for it.
func TestSnapshotOfAPageStillLoading(t *testing.T) {
	hang := make(chan struct{})
	t.Cleanup(func() { close(hang) })
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>Slow</title><h1>Almost there</h1><img src="/never.png">`)
	})
	mux.HandleFunc("/never.png", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-hang:
		case <-r.Context().Done():
		}
	})
	site := httptest.NewServer(mux)
	t.Cleanup(site.Close)
	s := startServer(t, headless...)
	s.call("navigate_page", map[string]any{"url": site.URL, "timeout": 1000})
	start := time.Now()
	out := s.answerWithin(20*time.Second, "take_snapshot", nil)
	if took := time.Since(start); took > 2500*time.Millisecond {
		t.Errorf("take_snapshot of a page still loading took %v", took)
	}
	mustContain(t, text(out), `heading "Almost there"`)
}

// TestHandledInputSettlesAtOnce checks that a click and a fill whose
// events the page had handled when Chrome answered them end their wait for
// effects at once when they set nothing going: the last evaluation (the
// settle script) waited for a 10 ms window and the next animation frame
// before. The quickest of five is taken, so that a loaded machine does
// not fail it.
func TestHandledInputSettlesAtOnce(t *testing.T) {
	site := pages(t, map[string]string{"/": `<title>Form</title><input aria-label="Name"><button>Send</button>`})
	s, log := tracedServer(t)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	snap := s.ok("take_snapshot", nil)
	name, send := uidOf(t, snap, `textbox "Name"`), uidOf(t, snap, `button "Send"`)
	for range 5 {
		s.ok("fill", map[string]any{"uid": name, "value": "Ada"})
		s.ok("click", map[string]any{"uid": send})
	}
	s.session.Close()

	for _, tool := range []string{"fill", "click"} {
		calls := timelines(t, log, tool)
		if len(calls) != 5 {
			t.Fatalf("%d %s timelines logged, want 5", len(calls), tool)
		}
		quickest := -1.0
		for _, spans := range calls {
			var settle *span
			for i := range spans {
				if spans[i].method == "Runtime.evaluate" {
					settle = &spans[i]
				}
			}
			if settle == nil {
				t.Fatalf("%s sent no evaluation to settle: %v", tool, methods(spans))
			}
			if d := settle.ended - settle.sent; quickest < 0 || d < quickest {
				quickest = d
			}
		}
		if quickest >= 8 {
			t.Errorf("the quickest of five %s calls waited %.1f ms for its effects, as if for a window and a frame", tool, quickest)
		}
	}
}

// TestLaterSnapshotsOfASmallDocumentAreOneRoundTrip checks that a snapshot
// of a document an earlier snapshot saw rendered and small asks for
// Chromium's tree beside counting its elements, not after (one round trip,
// not two), that it shows what changed since, and that a document that
// grew past the size pagewalk.js reads from is then read by it all the
// same.
func TestLaterSnapshotsOfASmallDocumentAreOneRoundTrip(t *testing.T) {
	site := fixtures(t)
	s, log := tracedServer(t)
	s.ok("navigate_page", map[string]any{"url": site.URL + "/pages/form.html"})
	s.ok("take_snapshot", nil)
	s.eval(`() => { const b = document.createElement('button'); b.textContent = 'Added later'; document.body.append(b); }`)
	mustContain(t, s.ok("take_snapshot", nil), `heading "Sign in"`, `button "Added later"`)
	s.eval(`() => { for (let i = 0; i < 300; i++) document.body.insertAdjacentHTML('beforeend', '<section><h2>Part</h2><p>Some <a href="#x">grown</a>.</p></section>'); }`)
	grown := s.ok("take_snapshot", map[string]any{"maxChars": 1000000})
	mustContain(t, grown, `button "Added later"`, `heading "Part" level="2"`)
	if n := strings.Count(grown, `link "grown"`); n != 300 {
		t.Errorf("%d links in the snapshot of the grown document, want 300", n)
	}
	s.session.Close()

	snaps := timelines(t, log, "take_snapshot")
	if len(snaps) != 3 {
		t.Fatalf("%d take_snapshot timelines logged, want 3", len(snaps))
	}
	var count, tree *span
	for i, sp := range snaps[1] {
		switch sp.method {
		case "Runtime.callFunctionOn":
			count = &snaps[1][i]
		case "Accessibility.getFullAXTree":
			tree = &snaps[1][i]
		}
	}
	if count == nil || tree == nil || tree.sent > count.ended {
		t.Errorf("the second snapshot of the form sent %v: want the tree asked for before the count was answered", snaps[1])
	}
	// The grown document: counted, found big, read by pagewalk.js (the
	// script's call is the last one; the tree asked for beside the count
	// is dropped).
	last := snaps[2][len(snaps[2])-1]
	if last.method != "Runtime.callFunctionOn" {
		t.Errorf("the snapshot of the grown document ended with %s, want pagewalk.js's call: %v", last.method, snaps[2])
	}
}
