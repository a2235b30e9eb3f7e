package e2e

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// ownTimePage is a small page with something for every input tool.
const ownTimePage = `<title>Own</title><h1>Bench</h1>
<label>Name <input></label>
<button onclick="this.textContent = 'Clicked'">Send</button>
<p style="color: teal">Styled text</p>`

// chromeTimes reads the "tool call timing" lines the server logs to its
// --logFile, in order, giving each call's time spent waiting on Chrome.
type chromeTimes struct {
	f  *os.File
	sc *bufio.Reader
}

func openChromeTimes(b *testing.B, path string) *chromeTimes {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { f.Close() })
	return &chromeTimes{f: f, sc: bufio.NewReader(f)}
}

// callTiming is one logged call's time spent waiting on Chrome and, of the
// server's own wall time, what was not.
type callTiming struct{ chrome, own time.Duration }

// next returns the timing of the next logged call of tool.
func (c *chromeTimes) next(b *testing.B, tool string) callTiming {
	for {
		line, err := c.sc.ReadString('\n')
		if err != nil {
			b.Fatalf("no timing logged for %s (%v)", tool, err) // logged before the answer
		}
		if !strings.Contains(line, `msg="tool call timing" tool=`+tool+" ") {
			continue
		}
		var t callTiming
		for f := range strings.FieldsSeq(line) {
			name, v, _ := strings.Cut(f, "=")
			var field *time.Duration
			switch name {
			case "chrome":
				field = &t.chrome
			case "own":
				field = &t.own
			default:
				continue
			}
			d, err := time.ParseDuration(v)
			if err != nil {
				b.Fatalf("timing line %q: %v", line, err)
			}
			*field = d
		}
		return t
	}
}

// BenchmarkOwnTime reports, for each tool on a small page, the median time
// of a call as the client sees it (<tool>-wall-ms); of that, the time not
// spent waiting on Chrome (<tool>-own-ms: wall time minus the server's
// logged sum of CDP round trips and event waits, so it includes the pipe
// and the client's decoding of the answer); and the server's own share
// alone (<tool>-server-own-ms: from the call's arrival to its answer being
// written, minus the Chrome waits), so that a slowdown in the server's code
// shows apart from Chrome's and the client's. Servers that log no timings
// (the reference) get the first figure only.
func BenchmarkOwnTime(b *testing.B) {
	site := pages(b, map[string]string{"/": ownTimePage, "/other": `<title>Other</title>`})
	logFile := filepath.Join(b.TempDir(), "server.log")
	ours := os.Getenv("BENCH_SERVER") == ""
	args := headless
	if ours {
		args = append(append([]string{}, headless...), "--logFile", logFile)
	}
	s := startServer(b, args...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	snap := s.ok("take_snapshot", nil)
	name, send, styled := uidOf(b, snap, `textbox "Name"`), uidOf(b, snap, `button "Send"`), uidOf(b, snap, `Styled text`)
	page := pageID(b, s.ok("list_pages", nil), "[selected]")
	var times *chromeTimes
	if ours {
		times = openChromeTimes(b, logFile)
	}
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"list_pages", nil},
		{"select_page", map[string]any{"pageId": page}},
		{"take_snapshot", nil},
		{"click", map[string]any{"uid": send}},
		{"hover", map[string]any{"uid": send}},
		{"fill", map[string]any{"uid": name, "value": "Ada"}},
		{"type_text", map[string]any{"text": "abc"}},
		{"press_key", map[string]any{"key": "Shift"}},
		{"evaluate_script", map[string]any{"function": "() => document.title"}},
		{"wait_for", map[string]any{"text": []string{"Bench"}}},
		{"get_css_styles", map[string]any{"uid": styled}},
		{"take_screenshot", nil},
		{"list_console_messages", nil},
		{"list_network_requests", nil},
		{"resize_page", map[string]any{"width": 800, "height": 600}},
		{"navigate_page", map[string]any{"url": site.URL}}, // last: it makes the uids stale
	}
	for _, c := range calls {
		b.Run(c.tool, func(b *testing.B) {
			var walls, owns, serverOwns []time.Duration
			for b.Loop() {
				args := map[string]any{}
				for k, v := range c.args {
					args[k] = v
				}
				start := time.Now()
				s.ok(c.tool, args)
				wall := time.Since(start)
				walls = append(walls, wall)
				if times != nil {
					t := times.next(b, c.tool)
					owns = append(owns, wall-t.chrome)
					serverOwns = append(serverOwns, t.own)
				}
			}
			b.ReportMetric(medianMs(walls), c.tool+"-wall-ms")
			if len(owns) > 0 {
				b.ReportMetric(medianMs(owns), c.tool+"-own-ms")
				b.ReportMetric(medianMs(serverOwns), c.tool+"-server-own-ms")
			}
		})
	}
}
