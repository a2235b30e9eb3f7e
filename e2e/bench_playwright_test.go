package e2e

// playwright-mcp in the many-agents benchmark, beside ours: the same
// scenario, figures and Chrome. It needs the npm package, so it is opt-in:
//
//	PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --prefix /tmp/pw @playwright/mcp
//	PLAYWRIGHT_MCP=/tmp/pw/node_modules/@playwright/mcp/cli.js go test -run '^$' -bench PlaywrightSessionScale -benchtime 1x .

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkPlaywrightSessionScale runs the scaling scenario against
// playwright-mcp (--isolated, headless, the same Chromium) in 1, 4, 8 and
// 16 sessions at once, with its tools standing in for ours: browser_navigate
// for new_page, browser_snapshot, browser_type for fill, browser_click,
// browser_evaluate and browser_close for close_page.
func BenchmarkPlaywrightSessionScale(b *testing.B) {
	cli := os.Getenv("PLAYWRIGHT_MCP")
	if cli == "" {
		b.Skip("set PLAYWRIGHT_MCP to @playwright/mcp's cli.js to measure playwright-mcp beside ours (bench.sh does when /tmp/pw has it)")
	}
	cli, err := filepath.Abs(cli) // it runs in a directory of its own
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{1, 4, 8, 16} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) { benchPlaywright(b, n, cli) })
	}
}

// playwrightListening is the line playwright-mcp prints once it serves.
var playwrightListening = regexp.MustCompile(`Listening on (http://\S+)`)

// benchPlaywright starts playwright-mcp over HTTP and measures n sessions
// at once, as benchScale does ours.
func benchPlaywright(b *testing.B, n int, cli string) {
	site := pages(b, map[string]string{"/": scenarioPage})
	args := []string{cli, "--port", "0", "--host", "127.0.0.1", "--headless", "--isolated", "--executable-path", chromiumPath(b)}
	if os.Geteuid() == 0 {
		args = append(args, "--no-sandbox")
	}
	cmd := exec.Command("node", args...)
	cmd.Dir = b.TempDir() // it writes its snapshots under .playwright-mcp there
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		b.Fatalf("start playwright-mcp: %v", err)
	}
	b.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
		pw.Close()
	})
	endpoint := ""
	sc := bufio.NewScanner(pr)
	for endpoint == "" && sc.Scan() {
		if m := playwrightListening.FindStringSubmatch(sc.Text()); m != nil {
			endpoint = strings.TrimSuffix(m[1], "/") + "/mcp"
		}
	}
	if endpoint == "" {
		b.Fatalf("playwright-mcp did not say where it listens: %v", sc.Err())
	}
	go io.Copy(io.Discard, pr)
	// As for ours: one session starts a browser and loads the page first.
	warm, err := playwrightSession(endpoint, &samples{by: map[string][]time.Duration{}})
	if err != nil {
		b.Fatal(err)
	}
	defer warm.close()
	if _, err := warm.call("new_page", map[string]any{"url": site.URL + "/?s=warm"}); err != nil {
		b.Fatal(err)
	}
	pid := cmd.Process.Pid
	measureScale(b, n, pid, pid, func(marker string, times *samples, arrive func()) error {
		return playwrightScenario(endpoint, site.URL, marker, times, arrive)
	})
}

// playwrightTools names playwright-mcp's tool for each of ours.
var playwrightTools = map[string]string{
	"new_page": "browser_navigate", "take_snapshot": "browser_snapshot", "fill": "browser_type",
	"click": "browser_click", "evaluate_script": "browser_evaluate", "close_page": "browser_close",
}

// timedSession is an MCP session whose calls are timed under our tools'
// names.
type timedSession struct {
	ctx   context.Context
	close func()
	call  func(tool string, args map[string]any) (string, error)
}

// playwrightSession connects to playwright-mcp at endpoint.
func playwrightSession(endpoint string, into *samples) (*timedSession, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	client := mcp.NewClient(&mcp.Implementation{Name: "scale", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, MaxRetries: -1}, legacySession)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("connect: %w", err)
	}
	ts := &timedSession{ctx: ctx, close: func() { cs.Close(); cancel() }}
	ts.call = func(tool string, args map[string]any) (string, error) {
		start := time.Now()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: playwrightTools[tool], Arguments: args})
		if err != nil {
			return "", fmt.Errorf("%s: %w", playwrightTools[tool], err)
		}
		if res.IsError {
			return "", fmt.Errorf("%s failed: %s", playwrightTools[tool], text(res))
		}
		into.add(tool, time.Since(start))
		return text(res), nil
	}
	return ts, nil
}

// playwrightRef finds the snapshot ref of the element described by what.
func playwrightRef(snap, what string) string {
	m := regexp.MustCompile(regexp.QuoteMeta(what) + ` \[ref=(\w+)\]`).FindStringSubmatch(snap)
	if m == nil {
		return ""
	}
	return m[1]
}

// playwrightScenario is scaleScenario's work done with playwright-mcp's
// tools, its session ended with DELETE.
func playwrightScenario(endpoint, siteURL, marker string, into *samples, arrive func()) error {
	s, err := playwrightSession(endpoint, into)
	if err != nil {
		return err
	}
	defer s.close()
	if _, err := s.call("new_page", map[string]any{"url": siteURL + "/?s=" + marker}); err != nil {
		return err
	}
	snap, err := s.call("take_snapshot", map[string]any{})
	if err != nil {
		return err
	}
	field, button := playwrightRef(snap, `textbox "Word"`), playwrightRef(snap, `button "Go"`)
	if field == "" || button == "" {
		return fmt.Errorf("the snapshot lacks the field or the button:\n%s", snap)
	}
	if _, err := s.call("fill", map[string]any{"target": field, "element": "Word", "text": marker}); err != nil {
		return err
	}
	if _, err := s.call("click", map[string]any{"target": button, "element": "Go"}); err != nil {
		return err
	}
	got, err := s.call("evaluate_script", map[string]any{"function": fmt.Sprintf(`() => { document.cookie = "who=%s"; return document.title + "|" + document.cookie; }`, marker)})
	if err != nil {
		return err
	}
	if want := fmt.Sprintf("clicked-%s|who=%s", marker, marker); !strings.Contains(got, want) {
		return fmt.Errorf("session %s: browser_evaluate answered %s, want %s", marker, got, want)
	}
	arrive()
	_, err = s.call("close_page", map[string]any{})
	return err
}
