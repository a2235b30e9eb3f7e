package e2e

// Benchmarks of the real binary. Run them with
//
//	go test -run '^$' -bench . -benchtime 20x
//
// They report start-up, tools/list, idle memory and binary size, the
// figures users compare with the Node reference server.

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// spawnInitialized starts the binary, sends initialize and returns when the
// result arrived, with the time that took.
func spawnInitialized(b *testing.B, args ...string) (*exec.Cmd, io.WriteCloser, *bufio.Reader, time.Duration) {
	b.Helper()
	start := time.Now()
	cmd := serverCommand(args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	out := bufio.NewReaderSize(stdout, 1<<20)
	fmt.Fprintln(stdin, initLine("2025-06-18"))
	if _, err := out.ReadBytes('\n'); err != nil {
		b.Fatal(err)
	}
	return cmd, stdin, out, time.Since(start)
}

// median of durations, in milliseconds.
func medianMs(ds []time.Duration) float64 {
	slices.Sort(ds)
	return float64(ds[len(ds)/2].Microseconds()) / 1000
}

// BenchmarkStartup measures spawn-to-initialize-result and tools/list, and
// reports idle RSS after initialize, the size of the default tools/list
// result and the binary size.
func BenchmarkStartup(b *testing.B) {
	var inits, lists []time.Duration
	var rssKB, listBytes int
	for b.Loop() {
		cmd, stdin, out, d := spawnInitialized(b, "--headless", "--isolated")
		inits = append(inits, d)
		start := time.Now()
		fmt.Fprintln(stdin, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
		line, err := out.ReadBytes('\n')
		if err != nil {
			b.Fatal(err)
		}
		lists = append(lists, time.Since(start))
		listBytes = len(line)
		rssKB = max(rssKB, rss(b, cmd.Process.Pid))
		stdin.Close()
		cmd.Wait()
	}
	b.ReportMetric(medianMs(inits), "init-ms")
	b.ReportMetric(medianMs(lists), "tools/list-ms")
	b.ReportMetric(float64(rssKB)/1024, "idle-RSS-MB")
	b.ReportMetric(float64(listBytes)/1024, "tools/list-KB")
	if fi, err := os.Stat(binary); err == nil && os.Getenv("BENCH_SERVER") == "" {
		b.ReportMetric(float64(fi.Size())/(1<<20), "binary-MB")
	}
}

// rss reads a process's resident set size in KB from /proc.
func rss(b *testing.B, pid int) int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.Atoi(strings.Fields(rest)[0])
			return kb
		}
	}
	b.Fatal("no VmRSS in /proc status")
	return 0
}

// timeCalls runs call b.N times and reports the median in ms under name.
func timeCalls(b *testing.B, name string, call func()) {
	var ds []time.Duration
	for b.Loop() {
		start := time.Now()
		call()
		ds = append(ds, time.Since(start))
	}
	b.ReportMetric(medianMs(ds), name+"-ms")
}

// BenchmarkNavigation measures new_page with the load of a local page, and
// navigate_page to a local page.
func BenchmarkNavigation(b *testing.B) {
	site := pages(b, map[string]string{"/": `<title>Bench</title><p>hello</p>`})
	s := startServer(b, headless...)
	s.ok("list_pages", nil)
	b.Run("new_page", func(b *testing.B) {
		var ds []time.Duration
		for b.Loop() {
			start := time.Now()
			out := s.ok("new_page", map[string]any{"url": site.URL})
			ds = append(ds, time.Since(start))
			s.ok("close_page", map[string]any{"pageId": pageID(b, out, "[selected]")})
		}
		b.ReportMetric(medianMs(ds), "new_page-ms")
	})
	b.Run("navigate_page", func(b *testing.B) {
		timeCalls(b, "navigate_page", func() { s.ok("navigate_page", map[string]any{"url": site.URL}) })
	})
}

// BenchmarkListPages200Tabs measures list_pages attached to a browser with
// 200 open tabs.
func BenchmarkListPages200Tabs(b *testing.B) {
	ws, _, _ := chromium(b)
	openTabs(b, ws, 200)
	s := startServer(b, "--browserUrl", browserURL(ws))
	s.ok("list_pages", nil)
	timeCalls(b, "list_pages", func() { s.ok("list_pages", nil) })
}

// rowsPage is a page of 3,000 rows, each a link, a button and an input:
// about 12,000 accessibility nodes.
const rowsPage = `<title>Rows</title><div id=rows></div><script>
const rows = document.getElementById('rows');
for (let i = 0; i < 3000; i++) {
  const d = document.createElement('div');
  d.innerHTML = '<a href="#r' + i + '">Row ' + i + '</a> <button>Edit ' + i + '</button> <input aria-label="Value ' + i + '" value="' + i + '">';
  rows.append(d);
}
</script>`

// BenchmarkSnapshot3000Rows measures take_snapshot through MCP on a page of
// 3,000 rows: again on the same document, and as the first snapshot of a
// freshly loaded one (the load is not timed).
func BenchmarkSnapshot3000Rows(b *testing.B) {
	site := pages(b, map[string]string{"/": rowsPage})
	s := startServer(b, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	// To a file: the whole tree, with no inline cap, as both servers do it.
	path := filepath.Join(b.TempDir(), "snapshot.txt")
	snap := func() { s.ok("take_snapshot", map[string]any{"filePath": path}) }
	snap()
	b.Run("again", func(b *testing.B) { timeCalls(b, "take_snapshot", snap) })
	b.Run("fresh", func(b *testing.B) {
		var ds []time.Duration
		for b.Loop() {
			s.ok("navigate_page", map[string]any{"type": "reload"})
			start := time.Now()
			snap()
			ds = append(ds, time.Since(start))
		}
		b.ReportMetric(medianMs(ds), "take_snapshot_first-ms")
	})
}

// BenchmarkInput measures fill and click round trips on a simple form.
func BenchmarkInput(b *testing.B) {
	site := pages(b, map[string]string{"/": `<title>Form</title><input aria-label="Name"><button onclick="this.textContent='Clicked'">Send</button>`})
	s := startServer(b, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	snap := s.ok("take_snapshot", nil)
	name, send := uidOf(b, snap, `textbox "Name"`), uidOf(b, snap, `button "Send"`)
	b.Run("fill", func(b *testing.B) {
		timeCalls(b, "fill", func() { s.ok("fill", map[string]any{"uid": name, "value": "Ada Lovelace"}) })
	})
	b.Run("click", func(b *testing.B) {
		timeCalls(b, "click", func() { s.ok("click", map[string]any{"uid": send}) })
	})
}

// BenchmarkScreenshot measures take_screenshot (PNG, returned inline)
// through MCP of a form page in a 1280x720 viewport, and the size of the
// image it returns (before base64), which the agent receives.
func BenchmarkScreenshot(b *testing.B) {
	site := fixtures(b)
	s := startServer(b, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL + "/pages/form.html"})
	s.ok("resize_page", map[string]any{"width": 1280, "height": 720})
	_, img := s.shot(nil)
	if img == nil {
		b.Fatal("take_screenshot returned no image")
	}
	timeCalls(b, "take_screenshot", func() { s.ok("take_screenshot", nil) })
	b.ReportMetric(float64(len(img.Data))/1000, "png-KB")
}

// BenchmarkPerformanceTrace measures the whole performance_start_trace call
// with its defaults (reload, then stop once the load has settled) on a
// small local page: tracing, reading the trace stream, analysis, summary.
func BenchmarkPerformanceTrace(b *testing.B) {
	site := pages(b, map[string]string{"/": `<title>Bench</title><h1>Hello</h1><p>A small page.</p>`})
	s := startServer(b, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	timeCalls(b, "performance_start_trace", func() { s.ok("performance_start_trace", nil) })
}

// bigHeapPage allocates n linked objects, each with a string and an array:
// about 350 bytes of snapshot per object on top of the 2.5 MB of an empty
// page.
func bigHeapPage(n int) string {
	return fmt.Sprintf(`<title>Heap</title><script>
window.big = [];
for (let i = 0; i < %d; i++) {
  big.push({id: i, name: 'n' + i, next: null, tags: [i, i + 1]});
  if (i) big[i - 1].next = big[i];
}
</script>`, n)
}

// peakRSSKB reads a process's peak resident set size in KB from /proc.
func peakRSSKB(b *testing.B, pid int) int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.Fields(rest)[0])
			return kb
		}
	}
	b.Fatal("no VmHWM in /proc status")
	return 0
}

// BenchmarkHeapSnapshot takes a heap snapshot of about 10 MB and one of
// about 100 MB of a page with a large object graph, then measures loading
// it with dominators and retained sizes plus the summary
// (get_heapsnapshot_summary after close_heapsnapshot), and the server's
// peak memory after the first load, against the file size.
func BenchmarkHeapSnapshot(b *testing.B) {
	for _, mb := range []int{10, 100} {
		b.Run(fmt.Sprintf("%dMB", mb), func(b *testing.B) {
			site := pages(b, map[string]string{"/": bigHeapPage((mb*1000 - 2500) * 1000 / 350)})
			s := startServer(b, append(headless, "--memoryDebugging")...)
			s.ok("navigate_page", map[string]any{"url": site.URL})
			path := b.TempDir() + "/big.heapsnapshot"
			start := time.Now()
			s.ok("take_heapsnapshot", map[string]any{"filePath": path})
			took := time.Since(start)
			fi, err := os.Stat(path)
			if err != nil {
				b.Fatal(err)
			}
			s.ok("get_heapsnapshot_summary", map[string]any{"filePath": path})
			peak := peakRSSKB(b, s.cmd.Process.Pid)
			timeCalls(b, "load+summary", func() {
				s.ok("close_heapsnapshot", map[string]any{"filePath": path})
				s.ok("get_heapsnapshot_summary", map[string]any{"filePath": path})
			})
			size := float64(fi.Size()) / 1e6
			b.ReportMetric(size, "file-MB")
			b.ReportMetric(float64(took.Milliseconds()), "take-ms")
			b.ReportMetric(float64(peak)/1e3, "peak-RSS-MB")
			b.ReportMetric(float64(peak)/1e3/size, "peak/file")
		})
	}
}

// BenchmarkCLIListPages measures `devtools-mcp list_pages` run from the
// shell against a warm daemon: process start, connection, tools/list and
// the call.
func BenchmarkCLIListPages(b *testing.B) {
	sh := newShell(b, "bench")
	sh.ok("list_pages") // starts the daemon and the browser
	timeCalls(b, "cli-list_pages", func() { sh.ok("list_pages") })
}

// soakPage logs 100 messages and makes 20 requests on every load.
const soakPage = `<title>Soak</title><button onclick="this.textContent='clicked'">Go</button><script>
for (let i = 0; i < 100; i++) console.log('soak message', i, {i});
for (let i = 0; i < 20; i++) fetch('/data?' + i + '-' + Math.random());
</script>`

// BenchmarkSoak performs a few thousand tool calls of a long agent session
// — navigations, snapshots, clicks, console- and network-heavy pages, pages
// opened and closed — and reports the server's RSS after warm-up and at the
// end, and its OS thread count. Run it with
//
//	go test -run '^$' -bench Soak -benchtime 1x
func BenchmarkSoak(b *testing.B) {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, soakPage) })
	mux.HandleFunc("/data", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, `{"ok":true}`) })
	site := httptest.NewServer(mux)
	defer site.Close()
	s := startServer(b, headless...)
	pid := s.cmd.Process.Pid
	const rounds = 300 // 10 calls each
	var warm int
	for b.Loop() {
		for i := range rounds {
			s.ok("navigate_page", map[string]any{"url": site.URL})
			snap := s.ok("take_snapshot", nil)
			s.ok("click", map[string]any{"uid": uidOf(b, snap, `button "Go"`)})
			s.ok("list_console_messages", map[string]any{"pageSize": 10})
			s.ok("list_network_requests", map[string]any{"pageSize": 10})
			s.ok("evaluate_script", map[string]any{"function": "() => document.title", "waitForStableDom": false})
			id := pageID(b, s.ok("new_page", map[string]any{"url": site.URL}), "[selected]")
			s.ok("take_snapshot", nil)
			s.ok("close_page", map[string]any{"pageId": id})
			s.ok("list_pages", nil)
			if i == 50 {
				warm = rss(b, pid)
			}
			if i%50 == 0 {
				b.Logf("after %d calls: RSS %.1f MB, threads %d", i*10, float64(rss(b, pid))/1024, threads(b, pid))
			}
		}
	}
	end := rss(b, pid)
	b.ReportMetric(float64(warm)/1024, "RSS-after-warmup-MB")
	b.ReportMetric(float64(end)/1024, "RSS-end-MB")
	b.ReportMetric(float64(end-warm)/1024, "RSS-growth-MB")
	b.ReportMetric(float64(threads(b, pid)), "threads")
}

// threads reads a process's OS thread count from /proc.
func threads(b *testing.B, pid int) int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, "Threads:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(rest))
			return n
		}
	}
	return 0
}

// BenchmarkEvaluate measures evaluate_script round trips: reading only
// (waitForStableDom false) and with the default wait for a quiet DOM.
func BenchmarkEvaluate(b *testing.B) {
	site := pages(b, map[string]string{"/": `<title>Eval</title>`})
	s := startServer(b, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	b.Run("read", func(b *testing.B) {
		timeCalls(b, "evaluate-read", func() {
			s.ok("evaluate_script", map[string]any{"function": "() => document.title", "waitForStableDom": false})
		})
	})
	b.Run("settled", func(b *testing.B) {
		timeCalls(b, "evaluate-settled", func() { s.ok("evaluate_script", map[string]any{"function": "() => document.title"}) })
	})
}

// BenchmarkConsole1000 measures list_console_messages on a page that
// logged 1,000 messages.
func BenchmarkConsole1000(b *testing.B) {
	site := pages(b, map[string]string{"/": `<title>Logs</title><script>for (let i = 0; i < 1000; i++) console.log('message', i, {i})</script>`})
	s := startServer(b, headless...)
	s.ok("list_pages", nil)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	timeCalls(b, "list_console_messages", func() { s.ok("list_console_messages", nil) })
}

// BenchmarkFirstCall measures the first tool call (list_pages) made one
// second after initialize, as an agent's first call comes after it has
// thought, against the same call once warm: with the browser started in the
// background after initialize, the two should be about the same.
func BenchmarkFirstCall(b *testing.B) {
	var firsts, warms []time.Duration
	for b.Loop() {
		cmd := serverCommand(headless...)
		client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, legacySession)
		if err != nil {
			b.Fatal(err)
		}
		time.Sleep(time.Second) // the agent thinks
		for _, ds := range []*[]time.Duration{&firsts, &warms} {
			start := time.Now()
			res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "list_pages", Arguments: map[string]any{}})
			if err != nil || res.IsError {
				b.Fatalf("list_pages: %v %v", err, res)
			}
			*ds = append(*ds, time.Since(start))
		}
		session.Close()
		cancel()
	}
	b.ReportMetric(medianMs(firsts), "first-call-ms")
	b.ReportMetric(medianMs(warms), "warm-call-ms")
}

// BenchmarkScenarioRSS runs a short agent session of 12 tool calls, those
// of the side-by-side table, on a fresh server: a snapshot of 3,000 rows, a
// form read, filled and clicked, a script, a screenshot, the console, a
// page opened and closed, a trace of a reload. It reports the server's
// resident memory at the end.
func BenchmarkScenarioRSS(b *testing.B) {
	site := fixtures(b)
	rows := pages(b, map[string]string{"/": rowsPage})
	var rssKB []int
	for b.Loop() {
		s := startServer(b, headless...)
		s.ok("navigate_page", map[string]any{"url": rows.URL})
		s.ok("take_snapshot", map[string]any{"filePath": filepath.Join(b.TempDir(), "rows.txt")})
		s.ok("navigate_page", map[string]any{"url": site.URL + "/pages/form.html"})
		snap := s.ok("take_snapshot", nil)
		s.ok("fill", map[string]any{"uid": uidOf(b, snap, `textbox "Username"`), "value": "ada"})
		s.ok("click", map[string]any{"uid": uidOf(b, snap, `button "Log in"`)})
		s.ok("evaluate_script", map[string]any{"function": "() => document.title"})
		s.ok("take_screenshot", nil)
		s.ok("list_console_messages", nil)
		id := pageID(b, s.ok("new_page", map[string]any{"url": site.URL + "/pages/common.html"}), "[selected]")
		s.ok("close_page", map[string]any{"pageId": id})
		s.ok("performance_start_trace", nil)
		rssKB = append(rssKB, rss(b, s.cmd.Process.Pid))
		s.session.Close()
	}
	slices.Sort(rssKB)
	b.ReportMetric(float64(rssKB[len(rssKB)/2])/1024, "RSS-MB")
}
