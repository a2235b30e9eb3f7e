// Command auditcompare runs the reference's lighthouse_audit and ours on the
// same pages with the same Chromium and prints, per page and category, both
// scores and the failing audit ids of each, then the agreement totals.
//
//	cd e2e && go run ./cmd/auditcompare [-mode snapshot] [-pages corpus.txt]
//
// Pages are files under -root served on 127.0.0.1 (by default the Debian
// documentation corpus listed in testdata/audit/corpus.txt plus the pages
// under testdata/audit that fail audits on purpose).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/devtools-mcp/devtools-mcp/e2e/internal/docsite"
	"github.com/devtools-mcp/devtools-mcp/e2e/internal/mcptext"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	var (
		mode    = flag.String("mode", "navigation", "lighthouse_audit mode: navigation or snapshot")
		device  = flag.String("device", "desktop", "lighthouse_audit device: desktop or mobile")
		list    = flag.String("pages", "testdata/audit/corpus.txt", "file listing the pages, one path a line (absolute, or relative to the e2e directory)")
		refCmd  = flag.String("ref", "node /work/ref/node_modules/chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js --no-usage-statistics --no-performance-crux --no-page-id-routing --executablePath /usr/bin/chromium --chromeArg=--no-sandbox", "the reference server's command")
		ours    = flag.String("ours", "", "our binary (built from .. when empty)")
		only    = flag.String("only", "", "run only ref or ours (reads the other's reports from -cache)")
		cache   = flag.String("cache", filepath.Join(os.TempDir(), "auditcompare"), "directory keeping each server's JSON reports, so one side can be re-run alone")
		verbose = flag.Bool("v", false, "print the failing ids of every page, also when both agree")
	)
	flag.Parse()
	log.SetFlags(0)
	files, err := readList(*list)
	if err != nil {
		log.Fatal(err)
	}
	srv := serve(files)
	defer srv.Close()
	if *ours == "" {
		*ours = filepath.Join(os.TempDir(), "auditcompare-devtools-mcp")
		build := exec.Command("go", "build", "-o", *ours, ".")
		build.Dir = ".."
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			log.Fatalf("build: %v\n%s", err, out)
		}
	}
	runs := map[string][]string{"ref": strings.Fields(*refCmd), "ours": {*ours}}
	results := map[string]map[string]*report{}
	times := map[string]time.Duration{}
	for _, side := range []string{"ref", "ours"} {
		dir := filepath.Join(*cache, *mode+"-"+*device, side)
		if *only != "" && *only != side {
			results[side] = loadCached(dir, files)
			continue
		}
		os.MkdirAll(dir, 0o755)
		res, d, err := runAll(runs[side], srv.URL, files, *mode, *device, dir)
		if err != nil {
			log.Fatalf("%s: %v", side, err)
		}
		results[side], times[side] = res, d
	}
	printTable(os.Stdout, files, results["ref"], results["ours"], *verbose)
	if times["ref"] > 0 && times["ours"] > 0 {
		fmt.Printf("\ntime per audit (mean over %d pages): reference %.2fs, ours %.2fs (%.0f%%)\n", len(files),
			times["ref"].Seconds()/float64(len(files)), times["ours"].Seconds()/float64(len(files)),
			100*times["ours"].Seconds()/times["ref"].Seconds())
	}
}

// readList reads the page list: one path a line, # comments.
func readList(name string) ([]string, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var files []string
	for line := range strings.SplitSeq(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		abs, err := filepath.Abs(line)
		if err != nil {
			return nil, err
		}
		files = append(files, abs)
	}
	return files, nil
}

// serve serves the listed files' directories on 127.0.0.1, each file as
// itself (no index.html redirect), everything else 404.
func serve(files []string) *httptest.Server {
	dirs := docsite.Dirs{}
	for _, f := range files {
		dirs[filepath.Dir(f)] = true
	}
	return httptest.NewServer(dirs)
}

// report is what the comparison reads of a Lighthouse JSON report.
type report struct {
	Categories map[string]struct {
		Score *float64 `json:"score"`
	} `json:"categories"`
	Audits map[string]struct {
		Score            *float64 `json:"score"`
		ScoreDisplayMode string   `json:"scoreDisplayMode"`
	} `json:"audits"`
}

// failing returns the ids of the audits with a score below 1.
func (r *report) failing() []string {
	var ids []string
	for id, a := range r.Audits {
		if a.Score != nil && *a.Score < 1 {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	return ids
}

// runAll audits every file with one server and copies each JSON report to dir.
func runAll(command []string, base string, files []string, mode, device, dir string) (map[string]*report, time.Duration, error) {
	ctx := context.Background()
	cmd := exec.Command(command[0], append(command[1:], "--headless", "--isolated")...)
	client := mcp.NewClient(&mcp.Implementation{Name: "auditcompare", Version: "1"}, nil)
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return nil, 0, err
	}
	defer session.Close()
	out := map[string]*report{}
	var total time.Duration
	for _, f := range files {
		url := base + f
		if _, err := call(ctx, session, "navigate_page", map[string]any{"url": url}); err != nil {
			return nil, 0, fmt.Errorf("%s: %w", f, err)
		}
		start := time.Now()
		answer, err := call(ctx, session, "lighthouse_audit", map[string]any{"mode": mode, "device": device})
		d := time.Since(start)
		if err != nil {
			log.Printf("%s: %v", f, err)
			continue
		}
		total += d
		path := jsonReport(answer)
		if path == "" {
			log.Printf("%s: no JSON report in the answer:\n%s", f, answer)
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, 0, err
		}
		os.WriteFile(filepath.Join(dir, cacheName(f)), data, 0o644)
		var r report
		if err := json.Unmarshal(data, &r); err != nil {
			return nil, 0, fmt.Errorf("%s: %w", path, err)
		}
		out[f] = &r
		fmt.Fprintf(os.Stderr, "%s %s %.2fs\n", filepath.Base(command[len(command)-1]), f, d.Seconds())
	}
	return out, total, nil
}

// cacheName names a page's cached report.
func cacheName(f string) string {
	return strings.ReplaceAll(strings.TrimPrefix(f, "/"), "/", "_") + ".json"
}

// loadCached reads the reports a previous run kept.
func loadCached(dir string, files []string) map[string]*report {
	out := map[string]*report{}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(dir, cacheName(f)))
		if err != nil {
			continue
		}
		var r report
		if json.Unmarshal(data, &r) == nil {
			out[f] = &r
		}
	}
	return out
}

// call runs a tool and returns its text, or its error text as an error.
func call(ctx context.Context, s *mcp.ClientSession, name string, args map[string]any) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return "", err
	}
	text := mcptext.Join(res)
	if res.IsError {
		return "", errors.New(text)
	}
	return text, nil
}

// jsonReport finds the JSON report's path in the answer's Reports list.
func jsonReport(answer string) string {
	for line := range strings.SplitSeq(answer, "\n") {
		if p, ok := strings.CutPrefix(line, "- "); ok && strings.HasSuffix(p, ".json") {
			return p
		}
	}
	return ""
}

// categories are the compared categories, in the reference's order.
var categories = []string{"accessibility", "seo", "best-practices", "agentic-browsing"}

// printTable prints both sides' scores and failing ids per page, then the
// totals: score differences, and failing ids found and extra.
func printTable(w *os.File, files []string, ref, ours map[string]*report, verbose bool) {
	var within, scored, found, want, extra, got int
	maxDiff := 0
	for _, f := range files {
		r, o := ref[f], ours[f]
		fmt.Fprintf(w, "%s\n", f)
		if r == nil || o == nil {
			fmt.Fprintf(w, "  missing report (ref %v, ours %v)\n", r != nil, o != nil)
			continue
		}
		for _, c := range categories {
			rs, os := score(r, c), score(o, c)
			diff := rs - os
			if diff < 0 {
				diff = -diff
			}
			scored++
			if diff <= 5 {
				within++
			}
			maxDiff = max(maxDiff, diff)
			mark := ""
			if diff > 5 {
				mark = "  <-- off by more than 5"
			}
			fmt.Fprintf(w, "  %-17s ref %3d  ours %3d%s\n", c, rs, os, mark)
		}
		rf, of := r.failing(), o.failing()
		var missed, extras []string
		for _, id := range rf {
			if slices.Contains(of, id) {
				found++
			} else {
				missed = append(missed, id)
			}
		}
		for _, id := range of {
			if !slices.Contains(rf, id) {
				extras = append(extras, id)
			}
		}
		want += len(rf)
		got += len(of)
		extra += len(extras)
		if verbose || len(missed)+len(extras) > 0 {
			fmt.Fprintf(w, "  ref fails:  %s\n  ours fails: %s\n", strings.Join(rf, " "), strings.Join(of, " "))
		}
		if len(missed) > 0 {
			fmt.Fprintf(w, "  missed:     %s\n", strings.Join(missed, " "))
		}
		if len(extras) > 0 {
			fmt.Fprintf(w, "  extra:      %s\n", strings.Join(extras, " "))
		}
	}
	fmt.Fprintf(w, "\ncategory scores within ±5: %d of %d (largest difference %d)\n", within, scored, maxDiff)
	fmt.Fprintf(w, "failing ids: found %d of the reference's %d (%.0f%%); %d of our %d are extra (%.0f%%)\n",
		found, want, pct(found, want), extra, got, pct(extra, got))
}

// score returns a category's score out of 100, -1 when missing.
func score(r *report, c string) int {
	cat, ok := r.Categories[c]
	if !ok || cat.Score == nil {
		return -1
	}
	return int(*cat.Score*100 + 0.5)
}

func pct(a, b int) float64 {
	if b == 0 {
		return 100
	}
	return 100 * float64(a) / float64(b)
}
