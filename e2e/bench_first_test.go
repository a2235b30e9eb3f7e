package e2e

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
