package e2e

// The many-agents scaling benchmark: N sessions at once each run the
// issue's scenario once (new_page on a small form, take_snapshot, fill,
// click, evaluate_script, close_page, DELETE). Run it with
//
//	go test -run '^$' -bench 'SessionScale' -benchtime 1x .

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// scaleTools are the tools the scaling scenario times, in its order.
var scaleTools = []string{"new_page", "take_snapshot", "fill", "click", "evaluate_script", "close_page"}

// BenchmarkHTTPSessionScale runs the scenario in 1, 4, 8 and 16 HTTP
// sessions at once, each in its own browser context of one launched
// browser, with default arguments.
func BenchmarkHTTPSessionScale(b *testing.B) {
	for _, n := range []int{1, 4, 8, 16} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) { benchScale(b, n, true, headless...) })
	}
}

// BenchmarkWebDriverSessionScale runs it in 1, 2 and 4 sessions, each with
// a browser of its own from chromedriver (--webdriverUrl). Chrome's memory
// is not reported: its browsers are chromedriver's children, not the
// server's.
func BenchmarkWebDriverSessionScale(b *testing.B) {
	wd := chromedriver(b)
	for _, n := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			benchScale(b, n, false, append([]string{"--webdriverUrl", wd, "--headless"}, noSandbox()...)...)
		})
	}
}

// benchScale runs the scenario in n fresh sessions at once per iteration
// and reports the failed sessions, p50/p95 per call, Chrome's memory per
// session at its peak (the RSS of the server's child processes summed,
// over the baseline) and how much of it is left after the sessions ended
// when chrome says the server launched it, and the server's RSS.
func benchScale(b *testing.B, n int, chrome bool, args ...string) {
	site := pages(b, map[string]string{"/": scenarioPage})
	hs := startHTTPServer(b, args...)
	warm := hs.connect() // starts the browser, outside the figures
	warm.ok("list_pages", nil)
	pid := hs.cmd.Process.Pid
	base := childrenRSS(pid)
	times := &samples{by: map[string][]time.Duration{}}
	var failed atomic.Int64
	var peak atomic.Int64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() { // Chrome's peak while the sessions run
		defer close(sampled)
		for {
			if kb := int64(childrenRSS(pid)); kb > peak.Load() {
				peak.Store(kb)
			}
			select {
			case <-stop:
				return
			case <-time.After(250 * time.Millisecond):
			}
		}
	}()
	for b.Loop() {
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				if err := scaleScenario(hs, site.URL, fmt.Sprintf("agent%d", i), times); err != nil {
					failed.Add(1)
					b.Logf("session %d: %v", i, err)
				}
			})
		}
		wg.Wait()
	}
	close(stop)
	<-sampled
	// Disposed contexts free their renderers shortly after: wait for it,
	// up to a bound.
	after := childrenRSS(pid)
	for deadline := time.Now().Add(20 * time.Second); chrome && time.Now().Before(deadline) && float64(after) > 1.1*float64(base); {
		time.Sleep(500 * time.Millisecond) // polling /proc: there is no event for it
		after = childrenRSS(pid)
	}
	b.ReportMetric(float64(failed.Load()), "failed-sessions")
	for _, tool := range scaleTools {
		b.ReportMetric(times.percentile(tool, 50), tool+"-p50-ms")
		b.ReportMetric(times.percentile(tool, 95), tool+"-p95-ms")
	}
	if chrome {
		b.ReportMetric(float64(peak.Load()-int64(base))/float64(n)/1024, "chrome-MB/session")
		b.ReportMetric(100*float64(after-base)/float64(max(base, 1)), "chrome-left-%")
	}
	b.ReportMetric(float64(rss(b, pid))/1024, "server-MB")
}

// scaleScenario runs the scenario once in a new session of hs and ends
// the session (DELETE).
func scaleScenario(hs *httpServer, siteURL, marker string, into *samples) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "scale", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.url, MaxRetries: -1}, legacySession)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer cs.Close()
	call := func(tool string, args map[string]any) (string, error) {
		start := time.Now()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			return "", fmt.Errorf("%s: %w", tool, err)
		}
		if res.IsError {
			return "", fmt.Errorf("%s failed: %s", tool, text(res))
		}
		into.add(tool, time.Since(start))
		return text(res), nil
	}
	list, err := call("new_page", map[string]any{"url": siteURL + "/?s=" + marker})
	if err != nil {
		return err
	}
	page := selectedRe.FindStringSubmatch(list)
	if page == nil {
		return fmt.Errorf("new_page selected no page:\n%s", list)
	}
	if err := formRound(call, marker); err != nil {
		return err
	}
	id, _ := strconv.Atoi(page[1])
	_, err = call("close_page", map[string]any{"pageId": id})
	return err
}

// childrenRSS sums the RSS in KB of pid's descendants (the browser it
// launched, chromedriver and their children), from /proc.
func childrenRSS(pid int) int {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	parent := map[int]int{}
	for _, f := range stats {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses.
		s := string(data)
		rest := s[strings.LastIndexByte(s, ')')+1:]
		fields := strings.Fields(rest)
		if len(fields) < 2 {
			continue
		}
		id, _ := strconv.Atoi(strings.TrimSpace(s[:strings.IndexByte(s, ' ')]))
		ppid, _ := strconv.Atoi(fields[1])
		parent[id] = ppid
	}
	total := 0
	for id := range parent {
		for p := parent[id]; p != 0; p = parent[p] {
			if p == pid {
				total += procRSS(id)
				break
			}
		}
	}
	return total
}

// procRSS is the VmRSS of pid in KB, 0 when it is gone.
func procRSS(pid int) int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.Atoi(strings.Fields(rest)[0])
			return kb
		}
	}
	return 0
}
