package e2e

import (
	"bufio"
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/devtools-mcp/devtools-mcp/e2e/internal/docsite"
)

// docPages are real documentation pages of the snapcompare corpus
// (cmd/snapcompare/testdata/corpus.txt) of 2,500 to 6,000 elements, all
// above the 1,000 from which our server reads a document with pagewalk.js
// (json.html, 2,500, was read from Chromium's tree below 3,000).
var docPages = []string{
	"/usr/share/doc/python3-doc/html/library/re.html",
	"/usr/share/doc/postgresql-doc-15/html/sql-keywords-appendix.html",
	"/usr/share/doc/python3-doc/html/library/json.html",
	"/usr/share/doc/python3-doc/html/tutorial/controlflow.html",
}

// BenchmarkFirstSnapshot measures the call agents make most, take_snapshot
// right after navigate_page, on a fresh server each round (as a user's
// session begins): on a small form page, and on real documentation pages
// (the sum over docPages, each navigated to then snapshotted to a file).
// On the form page the navigation before the snapshot is timed too, and
// both together: time moved from the snapshot into navigate_page is no gain.
func BenchmarkFirstSnapshot(b *testing.B) {
	b.Run("form", func(b *testing.B) {
		site := fixtures(b)
		var navs, snaps, both []time.Duration
		for b.Loop() {
			s := startServer(b, headless...)
			s.ok("list_pages", nil) // Chrome started, not timed
			start := time.Now()
			s.ok("navigate_page", map[string]any{"url": site.URL + "/pages/form.html"})
			loaded := time.Now()
			s.ok("take_snapshot", nil)
			navs, snaps, both = append(navs, loaded.Sub(start)), append(snaps, time.Since(loaded)), append(both, time.Since(start))
			s.session.Close()
		}
		b.ReportMetric(medianMs(snaps), "first_snapshot_form-ms")
		b.ReportMetric(medianMs(navs), "navigate_form-ms")
		b.ReportMetric(medianMs(both), "navigate+snapshot_form-ms")
	})
	b.Run("docs", func(b *testing.B) {
		dirs := docsite.Dirs{}
		for _, p := range docPages {
			if _, err := os.Stat(p); err != nil {
				b.Skipf("corpus page missing (installed by .ci/run): %v", err)
			}
			// The package's whole tree: pages link styles from sibling directories.
			dirs[filepath.Join("/usr/share/doc", strings.Split(p, "/")[4])] = true
		}
		site := httptest.NewServer(dirs)
		b.Cleanup(site.Close)
		path := filepath.Join(b.TempDir(), "snapshot.txt")
		var ds []time.Duration
		for b.Loop() {
			s := startServer(b, headless...)
			var took time.Duration
			for _, p := range docPages {
				s.ok("navigate_page", map[string]any{"url": site.URL + p})
				start := time.Now()
				s.ok("take_snapshot", map[string]any{"filePath": path})
				took += time.Since(start)
			}
			ds = append(ds, took)
			s.session.Close()
		}
		b.ReportMetric(medianMs(ds), "first_snapshot_docs-ms")
	})
}

// BenchmarkColdNewPage measures an agent's first new_page sent right after
// initialize, when the browser has yet to start, beside Chromium's own
// start-up on this machine (spawned headless, until it says where its
// DevTools listen) and a warm new_page of the same server: the first call
// should cost about the two together, nothing of its own.
func BenchmarkColdNewPage(b *testing.B) {
	site := pages(b, map[string]string{"/": `<title>Bench</title><p>hello</p>`})
	var colds, warms, starts []time.Duration
	for b.Loop() {
		starts = append(starts, chromiumStartup(b))
		client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		session, err := client.Connect(ctx, &mcp.CommandTransport{Command: serverCommand(headless...)}, legacySession)
		if err != nil {
			b.Fatal(err)
		}
		for _, ds := range []*[]time.Duration{&colds, &warms} {
			start := time.Now()
			res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "new_page", Arguments: map[string]any{"url": site.URL}})
			if err != nil || res.IsError {
				b.Fatalf("new_page: %v %v", err, res)
			}
			*ds = append(*ds, time.Since(start))
		}
		session.Close()
		cancel()
	}
	b.ReportMetric(medianMs(colds), "cold_new_page-ms")
	b.ReportMetric(medianMs(starts), "chromium_startup-ms")
	b.ReportMetric(medianMs(warms), "warm_new_page-ms")
}

// chromiumStartup times a headless Chromium from its spawn until it
// answers its first DevTools command (Browser.getVersion, over
// --remote-debugging-pipe), the start-up any server launching it waits for,
// then kills it.
func chromiumStartup(b *testing.B) time.Duration {
	b.Helper()
	args := []string{"--headless", "--remote-debugging-pipe", "--user-data-dir=" + b.TempDir(),
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "about:blank"}
	if os.Geteuid() == 0 {
		args = append(args, "--no-sandbox")
	}
	// Chromium reads commands from fd 3 and writes replies to fd 4.
	toR, toW, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	fromR, fromW, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	defer toW.Close()
	defer fromR.Close()
	cmd := exec.Command(chromiumPath(b), args...)
	cmd.ExtraFiles = []*os.File{toR, fromW}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	toR.Close()
	fromW.Close()
	defer func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	}()
	if _, err := toW.Write([]byte(`{"id":1,"method":"Browser.getVersion"}` + "\x00")); err != nil {
		b.Fatal(err)
	}
	reply, err := bufio.NewReader(fromR).ReadBytes(0)
	if err != nil {
		b.Fatalf("Chromium did not answer Browser.getVersion: %v", err)
	}
	took := time.Since(start)
	if !bytes.Contains(reply, []byte(`"id":1,"result"`)) {
		b.Fatalf("Chromium answered Browser.getVersion with %s", reply)
	}
	return took
}
