package e2e

// The many-agents scaling benchmark: N sessions at once each run the
// issue's scenario once (new_page on a small form, take_snapshot, fill,
// click, evaluate_script, close_page, DELETE). Run it with
//
//	go test -run '^$' -bench 'SessionScale' -benchtime 1x .

import (
	"cmp"
	"context"
	"fmt"
	"strconv"
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
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) { benchScale(b, n, 0, headless...) })
	}
}

// BenchmarkWebDriverSessionScale runs it in 1, 2 and 4 sessions, each with
// a browser of its own from chromedriver (--webdriverUrl); Chrome's memory
// is that of chromedriver's children.
func BenchmarkWebDriverSessionScale(b *testing.B) {
	wd, driver := startChromedriver(b)
	for _, n := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			benchScale(b, n, driver, append([]string{"--webdriverUrl", wd, "--headless"}, noSandbox()...)...)
		})
	}
}

// benchScale runs the scenario in n fresh sessions of our server at once
// per iteration; the browsers are the server's children, or those of the
// chromedriver whose pid is driver.
func benchScale(b *testing.B, n, driver int, args ...string) {
	site := pages(b, map[string]string{"/": scenarioPage})
	hs := startHTTPServer(b, args...)
	// The first session starts the browser and loads the page once, outside
	// the figures: Chrome sets up much of itself lazily on a first page.
	warm := hs.connect()
	warm.ok("new_page", map[string]any{"url": site.URL + "/?s=warm"})
	pid := hs.cmd.Process.Pid
	measureScale(b, n, cmp.Or(driver, pid), pid, func(marker string, times *samples, arrive func()) error {
		return scaleScenario(hs.url, site.URL, marker, times, arrive)
	})
}

// scaleRun runs the scenario once in a session of its own as the agent
// named marker, timing its calls into times, and calls arrive once it
// holds its page, before closing it.
type scaleRun func(marker string, times *samples, arrive func()) error

// measureScale runs run in n sessions at once per iteration and reports
// the failed sessions, p50/p95 per call, Chrome's memory per session (the
// PSS of root's descendants while every session holds its page, over
// Chrome at rest with the one warm session), how much of that is left
// once the sessions ended, and the RSS of the server, server.
func measureScale(b *testing.B, n, root, server int, run scaleRun) {
	baseMem := settledMem(root, 20*time.Second)
	base := baseMem.pss
	times := &samples{by: map[string][]time.Duration{}}
	var failed atomic.Int64
	var held int
	for b.Loop() {
		var wg, open sync.WaitGroup
		hold := make(chan struct{})
		open.Add(n)
		for i := range n {
			wg.Go(func() {
				arrive := sync.OnceFunc(func() { open.Done(); <-hold })
				defer arrive() // a failed session must not hold the others
				if err := run(fmt.Sprintf("agent%d", i), times, arrive); err != nil {
					failed.Add(1)
					b.Logf("session %d: %v", i, err)
				}
			})
		}
		open.Wait()
		held = descendantsMem(root).pss
		close(hold)
		wg.Wait()
	}
	// Disposed contexts free their renderers shortly after.
	afterMem := settledMem(root, 20*time.Second)
	after := afterMem.pss
	b.Logf("Chrome before: %v", baseMem)
	b.Logf("Chrome after:  %v", afterMem)
	b.ReportMetric(float64(failed.Load()), "failed-sessions")
	for _, tool := range scaleTools {
		b.ReportMetric(times.percentile(tool, 50), tool+"-p50-ms")
		b.ReportMetric(times.percentile(tool, 95), tool+"-p95-ms")
	}
	b.ReportMetric(float64(held-base)/float64(n)/1024, "chrome-MB/session")
	b.ReportMetric(100*float64(after-base)/float64(max(base, 1)), "chrome-left-%")
	b.ReportMetric(float64(rss(b, server))/1024, "server-MB")
}

// scaleScenario runs the scenario once in a new session of our server at
// endpoint and ends the session (DELETE). Before it closes its page it
// calls arrive, which returns once every session has its page (so that
// Chrome's memory can be read with all of them open).
func scaleScenario(endpoint, siteURL, marker string, into *samples, arrive func()) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "scale", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, MaxRetries: -1}, legacySession)
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
	arrive()
	id, _ := strconv.Atoi(page[1])
	_, err = call("close_page", map[string]any{"pageId": id})
	return err
}
