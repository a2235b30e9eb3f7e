package e2e

// Benchmarks of many agents at once over Streamable HTTP. Run them with
//
//	go test -run '^$' -bench 'HTTPSessions|WebDriverSessions' -benchtime 1x .
//
// Each iteration runs the scenario once in one session alone, then in
// every session at once; the log prints p50/p95 per tool for both.

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// scenarioTools are the tools a scenario run times, in its order.
var scenarioTools = []string{"new_page", "navigate_page", "take_snapshot", "fill", "click", "evaluate_script", "take_screenshot"}

// scenarioPage is what the scenario drives: a field and a button that
// writes the field into the title.
const scenarioPage = `<title>Scenario</title><input aria-label="Word" id="q"><button onclick="document.title='clicked-'+q.value">Go</button>`

// samples are the durations of each tool's calls.
type samples struct {
	mu sync.Mutex
	by map[string][]time.Duration
}

func (s *samples) add(tool string, d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.by[tool] = append(s.by[tool], d)
}

// percentile returns the p-th percentile (0 < p ≤ 100) of tool's calls in ms.
func (s *samples) percentile(tool string, p int) float64 {
	s.mu.Lock()
	ds := slices.Clone(s.by[tool])
	s.mu.Unlock()
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	i := (len(ds)*p + 99) / 100
	return float64(ds[max(i-1, 0)].Microseconds()) / 1000
}

var (
	markerRe   = regexp.MustCompile(`[?&]s=(\w+)`)
	selectedRe = regexp.MustCompile(`(?m)^(\d+): .*\[selected\]$`)
)

// runScenario runs the scenario once in s as the agent named marker:
// new page, navigate, snapshot, fill, click, evaluate, screenshot. It
// fails when the session sees a page or a cookie of another.
func runScenario(s *server, siteURL, marker string, round int, into *samples) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	call := func(tool string, args map[string]any) (string, error) {
		start := time.Now()
		res, err := s.session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			return "", fmt.Errorf("%s: %w", tool, err)
		}
		if res.IsError {
			return "", fmt.Errorf("%s failed: %s", tool, text(res))
		}
		into.add(tool, time.Since(start))
		return text(res), nil
	}
	url := fmt.Sprintf("%s/?s=%s", siteURL, marker)
	// Generous timeouts: the benchmark measures how slow calls get under
	// load, and every call must still succeed.
	list, err := call("new_page", map[string]any{"url": url, "timeout": 60000})
	if err != nil {
		return err
	}
	for _, m := range markerRe.FindAllStringSubmatch(list, -1) {
		if m[1] != marker {
			return fmt.Errorf("session %s lists a page of session %s:\n%s", marker, m[1], list)
		}
	}
	page := selectedRe.FindStringSubmatch(list)
	if page == nil {
		return fmt.Errorf("new_page selected no page:\n%s", list)
	}
	if _, err := call("navigate_page", map[string]any{"url": fmt.Sprintf("%s&n=%d", url, round), "timeout": 60000}); err != nil {
		return err
	}
	if err := formRound(call, marker); err != nil {
		return err
	}
	if _, err := call("take_screenshot", nil); err != nil {
		return err
	}
	id, _ := strconv.Atoi(page[1])
	_, err = call("close_page", map[string]any{"pageId": id})
	return err
}

// snapshotUID returns the uid on the snapshot line containing substr, or "".
func snapshotUID(snap, substr string) string {
	for line := range strings.Lines(snap) {
		if m := uidRe.FindStringSubmatch(line); m != nil && strings.Contains(line, substr) {
			return m[1]
		}
	}
	return ""
}

// benchSessions serves n+1 MCP sessions from one server started with
// args. Each iteration runs the scenario in one session alone, then in
// the n others at once. It reports p50/p95 per tool for both, the first
// call of a new session (its browser context or grid browser made), and
// the server's RSS per added session.
func benchSessions(b *testing.B, n int, args ...string) {
	site := pages(b, map[string]string{"/": scenarioPage})
	hs := startHTTPServer(b, args...)
	alone, together, first := &samples{by: map[string][]time.Duration{}}, &samples{by: map[string][]time.Duration{}}, &samples{by: map[string][]time.Duration{}}

	single := hs.connect()
	if err := runScenario(single, site.URL, "solo", 0, &samples{by: map[string][]time.Duration{}}); err != nil {
		b.Fatal(err)
	}
	base := rss(b, hs.cmd.Process.Pid)
	agents := make([]*server, n)
	for i := range agents {
		agents[i] = hs.connect()
	}
	each := func(f func(i int, s *server) error) {
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i, s := range agents {
			wg.Go(func() { errs[i] = f(i, s) })
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	each(func(_ int, s *server) error { // the session's browser is made here
		start := time.Now()
		res, err := s.callErr("list_pages", nil)
		if err == nil && res.IsError {
			err = fmt.Errorf("list_pages: %s", text(res))
		}
		first.add("first call", time.Since(start))
		return err
	})

	round := 0
	for b.Loop() {
		round++
		if err := runScenario(single, site.URL, "solo", round, alone); err != nil {
			b.Fatal(err)
		}
		each(func(i int, s *server) error {
			return runScenario(s, site.URL, fmt.Sprintf("agent%d", i), round, together)
		})
	}
	perSession := float64(rss(b, hs.cmd.Process.Pid)-base) / float64(n)

	var table strings.Builder
	fmt.Fprintf(&table, "%d sessions at once vs one alone; a new session's first call p50 %.0f ms, p95 %.0f ms; server RSS %.0f KB per added session\n",
		n, first.percentile("first call", 50), first.percentile("first call", 95), perSession)
	fmt.Fprintf(&table, "%-16s %9s %9s %9s %9s\n", "tool (ms)", "1 p50", "1 p95", fmt.Sprintf("%d p50", n), fmt.Sprintf("%d p95", n))
	for _, tool := range scenarioTools {
		fmt.Fprintf(&table, "%-16s %9.1f %9.1f %9.1f %9.1f\n", tool,
			alone.percentile(tool, 50), alone.percentile(tool, 95), together.percentile(tool, 50), together.percentile(tool, 95))
		b.ReportMetric(together.percentile(tool, 95), tool+"-p95-ms")
	}
	b.Log(strings.TrimSuffix(table.String(), "\n"))
	b.ReportMetric(first.percentile("first call", 95), "first-call-p95-ms")
	b.ReportMetric(perSession, "rss-KB/session")
}

// BenchmarkHTTPSessions runs the scenario in 20 HTTP sessions at once
// ($BENCH_SESSIONS to change), each in its own browser context of one
// launched browser.
func BenchmarkHTTPSessions(b *testing.B) {
	benchSessions(b, sessionCount(b, 20), headless...)
}

// sessionCount is $BENCH_SESSIONS, or def.
func sessionCount(b *testing.B, def int) int {
	v := os.Getenv("BENCH_SESSIONS")
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		b.Fatalf("BENCH_SESSIONS=%q is not a positive number", v)
	}
	return n
}

// BenchmarkWebDriverSessions runs it in 5 HTTP sessions at once
// ($BENCH_SESSIONS to change), each with a browser of its own from
// chromedriver.
func BenchmarkWebDriverSessions(b *testing.B) {
	wd := chromedriver(b)
	benchSessions(b, sessionCount(b, 5), append([]string{"--webdriverUrl", wd, "--headless"}, noSandbox()...)...)
}

// formRound is the work a benchmark session does on the small form page it
// opened: snapshot it, fill the field with the session's marker, click, and
// check through a script that the page and its cookie are this session's
// alone.
func formRound(call func(tool string, args map[string]any) (string, error), marker string) error {
	snap, err := call("take_snapshot", nil)
	if err != nil {
		return err
	}
	field, button := snapshotUID(snap, `textbox "Word"`), snapshotUID(snap, `button "Go"`)
	if field == "" || button == "" {
		return fmt.Errorf("the snapshot lacks the field or the button:\n%s", snap)
	}
	if _, err := call("fill", map[string]any{"uid": field, "value": marker}); err != nil {
		return err
	}
	if _, err := call("click", map[string]any{"uid": button}); err != nil {
		return err
	}
	got, err := call("evaluate_script", map[string]any{"function": fmt.Sprintf(`() => { document.cookie = "who=%s"; return document.title + "|" + document.cookie; }`, marker)})
	if err != nil {
		return err
	}
	if want := fmt.Sprintf("clicked-%s|who=%s", marker, marker); !strings.Contains(got, want) {
		return fmt.Errorf("session %s: evaluate_script answered %s, want %s (another session's state leaked in?)", marker, got, want)
	}
	return nil
}
