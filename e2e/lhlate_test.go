package e2e

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAuditLateEntries audits, in navigation mode, a page
// that logs errors before its load, in its load handler and in a timer
// the handler starts, and whose load handler fetches a response with a
// cookie Chrome rejects (a DevTools issue raised by the browser, not the
// page): errors-in-console must list the three errors and
// inspector-issues the cookie issue, however late they came before the
// audit read what was collected.
func TestAuditLateEntries(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/cookie" {
			w.Header().Set("Set-Cookie", "late=1; SameSite=None")
			w.Write([]byte("ok"))
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!DOCTYPE html><html lang="en"><head><title>Late</title></head><body><main><h1>Late</h1>
<script>
console.error('before load');
addEventListener('load', () => {
  console.error('at load');
  setTimeout(() => console.error('after load'), 0);
  fetch('/cookie');
});
</script></main></body></html>`))
	}))
	t.Cleanup(srv.Close)
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": srv.URL + "/late.html"})
	for _, mode := range []string{"navigation", "navigation"} { // twice: the page is reloaded each time
		dir := t.TempDir()
		s.ok("lighthouse_audit", map[string]any{"mode": mode, "outputDirPath": dir})
		data, err := os.ReadFile(filepath.Join(dir, "report.json"))
		if err != nil {
			t.Fatal(err)
		}
		var lhr struct {
			Audits map[string]struct {
				Details struct {
					Items []map[string]any `json:"items"`
				} `json:"details"`
			} `json:"audits"`
		}
		if err := json.Unmarshal(data, &lhr); err != nil {
			t.Fatal(err)
		}
		var logged []string
		for _, it := range lhr.Audits["errors-in-console"].Details.Items {
			d, _ := it["description"].(string)
			logged = append(logged, d)
		}
		for _, want := range []string{"before load", "at load", "after load"} {
			if !strings.Contains(strings.Join(logged, "\n"), want) {
				t.Errorf("%s: errors-in-console lists %q, not %q", mode, logged, want)
			}
		}
		var kinds []string
		for _, it := range lhr.Audits["inspector-issues"].Details.Items {
			k, _ := it["issueType"].(string)
			kinds = append(kinds, k)
		}
		if !strings.Contains(strings.Join(kinds, " "), "Cookie") {
			t.Errorf("%s: inspector-issues lists %q, no cookie issue", mode, kinds)
		}
	}
}

// TestAuditFrameErrors audits frame-errors.html of the Lighthouse corpus,
// whose two frames log an error each, one of its own site and one of
// another (a cross-process frame under site isolation, on a session of
// its own): errors-in-console lists the first only, as Lighthouse, which
// hears the page's session, does, with Lighthouse's source.
func TestAuditFrameErrors(t *testing.T) {
	var rt lhRoutes
	data, err := os.ReadFile("testdata/lighthouse/routes.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &rt); err != nil {
		t.Fatal(err)
	}
	site := lhServe(t, &rt)
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL + "/frame-errors.html"})
	dir := t.TempDir()
	s.ok("lighthouse_audit", map[string]any{"mode": "navigation", "outputDirPath": dir})
	data, err = os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var lhr struct {
		Audits map[string]struct {
			Details struct {
				Items []struct {
					Source      string `json:"source"`
					Description string `json:"description"`
				} `json:"items"`
			} `json:"details"`
		} `json:"audits"`
	}
	if err := json.Unmarshal(data, &lhr); err != nil {
		t.Fatal(err)
	}
	items := lhr.Audits["errors-in-console"].Details.Items
	own := "error from " + strings.TrimPrefix(site.URL, "http://")
	if len(items) != 1 || items[0].Description != own || items[0].Source != "console.error" {
		t.Errorf("errors-in-console lists %+v, want only {console.error %s}", items, own)
	}
}
