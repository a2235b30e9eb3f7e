package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLighthouseAudit audits a page that fails audits on purpose, in both
// modes, and checks the failing ids the agent is told, the scores, and the
// reports written to the output directory.
func TestLighthouseAudit(t *testing.T) {
	page, err := os.ReadFile("testdata/audit/fails.html")
	if err != nil {
		t.Fatal(err)
	}
	site := pages(t, map[string]string{"/": string(page)})
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL + "/"})
	s.ok("take_snapshot", nil)
	want := []string{"html-has-lang", "document-title", "heading-order", "color-contrast", "image-alt", "button-name",
		"link-name", "label", "list", "tabindex", "aria-roles", "doctype", "meta-description", "landmark-one-main",
		"crawlable-anchors", "link-text", "agent-accessibility-tree"}
	for _, mode := range []string{"navigation", "snapshot"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			out := s.ok("lighthouse_audit", map[string]any{"mode": mode, "device": "mobile", "outputDirPath": dir})
			mustContain(t, out, "## Lighthouse audit results", "Mode: "+mode, "Device: mobile", "### Category scores",
				"- Accessibility: ", "(accessibility)", "(seo)", "(best-practices)", "(agentic-browsing)", "### Failed audits",
				filepath.Join(dir, "report.json"), filepath.Join(dir, "report.html"))
			for _, id := range want {
				if mode == "snapshot" && id == "doctype" {
					continue
				}
				if !strings.Contains(out, "\n- "+id+" [") {
					t.Errorf("answer does not list %s as failing", id)
				}
			}
			// The image is in the snapshot taken above: its uid is given.
			if !strings.Contains(out, "uid=") {
				t.Errorf("no flagged node has a snapshot uid:\n%s", out)
			}
			data, err := os.ReadFile(filepath.Join(dir, "report.json"))
			if err != nil {
				t.Fatal(err)
			}
			var lhr struct {
				GatherMode string `json:"gatherMode"`
				Categories map[string]struct {
					Score     *float64 `json:"score"`
					AuditRefs []struct {
						ID string `json:"id"`
					} `json:"auditRefs"`
				} `json:"categories"`
				Audits map[string]struct {
					Score   *float64 `json:"score"`
					Details struct {
						Items []map[string]any `json:"items"`
					} `json:"details"`
				} `json:"audits"`
				ConfigSettings struct {
					FormFactor string `json:"formFactor"`
				} `json:"configSettings"`
			}
			if err := json.Unmarshal(data, &lhr); err != nil {
				t.Fatalf("report.json: %v", err)
			}
			if lhr.GatherMode != mode || lhr.ConfigSettings.FormFactor != "mobile" {
				t.Errorf("report says mode %q, form factor %q", lhr.GatherMode, lhr.ConfigSettings.FormFactor)
			}
			a11y := lhr.Categories["accessibility"]
			if a11y.Score == nil || *a11y.Score > 0.7 {
				t.Errorf("accessibility score %v for a page failing most checks", a11y.Score)
			}
			if a := lhr.Audits["image-alt"]; a.Score == nil || *a.Score != 0 || len(a.Details.Items) != 1 {
				t.Errorf("image-alt in the report: %+v", a)
			}
			html, err := os.ReadFile(filepath.Join(dir, "report.html"))
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range []string{"<!DOCTYPE html>", "Accessibility", "image-alt", "Passed audits"} {
				if !strings.Contains(string(html), w) {
					t.Errorf("report.html lacks %q", w)
				}
			}
			for _, ref := range []string{"<script", "<link", "<img", "<iframe", "@import", "url("} {
				if strings.Contains(string(html), ref) {
					t.Errorf("report.html is not self-contained: it has %q", ref)
				}
			}
		})
	}
	// The device emulation is restored afterwards.
	got := s.ok("evaluate_script", map[string]any{"function": "() => navigator.userAgent + ' ' + innerWidth"})
	if strings.Contains(got, "moto g power") {
		t.Errorf("the mobile user agent is still emulated: %s", got)
	}
}

// auditFormPage is the small form page the timings were taken on.
const auditFormPage = `<!DOCTYPE html><html lang="en"><head><title>Sign up</title>
<meta name="description" content="A small form"></head><body><main><h1>Sign up</h1>
<form><label>Name <input name="name"></label><label>Email <input type="email" name="email"></label>
<label>Plan <select name="plan"><option>Free</option><option>Pro</option></select></label>
<button>Send</button></form></main></body></html>`

// BenchmarkLighthouseAudit times lighthouse_audit on a small form page in
// both modes (run it against the reference with $BENCH_SERVER).
func BenchmarkLighthouseAudit(b *testing.B) {
	site := pages(b, map[string]string{"/": auditFormPage})
	s := startServer(b, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL + "/"})
	for _, mode := range []string{"snapshot", "navigation"} {
		b.Run(mode, func(b *testing.B) {
			timeCalls(b, "audit", func() { s.ok("lighthouse_audit", map[string]any{"mode": mode}) })
		})
	}
}

// TestLighthouseAuditPageID audits a page named by pageId while another is
// selected, in both modes: the report is of the named page (its URL, its
// failing image) and the selection and the selected page stay as they
// were.
func TestLighthouseAuditPageID(t *testing.T) {
	site := pages(t, map[string]string{
		"/clean":  auditFormPage,
		"/broken": `<!DOCTYPE html><html lang="en"><head><title>Broken</title></head><body><main><h1>Broken</h1><img src="x.png"></main></body></html>`,
	})
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL + "/clean"})
	out := s.ok("new_page", map[string]any{"url": site.URL + "/broken"})
	clean, broken := pageID(t, out, "/clean"), pageID(t, out, "/broken")
	s.ok("select_page", map[string]any{"pageId": clean})
	for _, mode := range []string{"snapshot", "navigation"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			out := s.ok("lighthouse_audit", map[string]any{"mode": mode, "pageId": broken, "outputDirPath": dir})
			if !strings.Contains(out, "\n- image-alt [") {
				t.Errorf("the audit of page %d does not fail image-alt:\n%s", broken, out)
			}
			data, err := os.ReadFile(filepath.Join(dir, "report.json"))
			if err != nil {
				t.Fatal(err)
			}
			var lhr struct {
				FinalDisplayedURL string `json:"finalDisplayedUrl"`
			}
			if err := json.Unmarshal(data, &lhr); err != nil {
				t.Fatal(err)
			}
			if lhr.FinalDisplayedURL != site.URL+"/broken" {
				t.Errorf("report of %q, want the page named by pageId, %s/broken", lhr.FinalDisplayedURL, site.URL)
			}
			// Without pageId the selected page is audited.
			out = s.ok("lighthouse_audit", map[string]any{"mode": mode})
			if strings.Contains(out, "\n- image-alt [") {
				t.Errorf("the selected page (%d) was not the one audited:\n%s", clean, out)
			}
			mustContain(t, pageLine(s.ok("list_pages", nil), "/clean"), "[selected]")
		})
	}
}

// TestLighthouseAuditCrossSiteFrame audits a page whose frame is another
// site's, which Chrome renders in a process of its own: the elements of
// the frame's document (an image without alt, a frame without a title in
// it) are flagged, with node paths through the frame element, as axe-core
// and the reference flag them.
func TestLighthouseAuditCrossSiteFrame(t *testing.T) {
	site := pages(t, map[string]string{
		"/inner": `<!DOCTYPE html><html lang="en"><head><title>Inner</title></head><body><img src="x.png"><iframe src="/leaf"></iframe></body></html>`,
		"/leaf":  `<!DOCTYPE html><html lang="en"><head><title>Leaf</title></head><body><p>leaf</p></body></html>`,
	})
	top := pages(t, map[string]string{
		"/": `<!DOCTYPE html><html lang="en"><head><title>Top</title></head><body><main><h1>Top</h1>` +
			`<iframe title="Other site" src="http://localhost:` + strings.TrimPrefix(site.URL, "http://127.0.0.1:") + `/inner"></iframe></main></body></html>`,
	})
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": top.URL + "/"})
	dir := t.TempDir()
	s.ok("lighthouse_audit", map[string]any{"mode": "snapshot", "outputDirPath": dir})
	got := flaggedPaths(t, filepath.Join(dir, "report.json"))
	want := map[string]string{
		"image-alt":   "1,HTML,1,BODY,0,MAIN,1,IFRAME/1,HTML,1,BODY,0,IMG",
		"frame-title": "1,HTML,1,BODY,0,MAIN,1,IFRAME/1,HTML,1,BODY,1,IFRAME",
	}
	for id, path := range want {
		if _, ok := got[id][path]; !ok || len(got[id]) != 1 {
			t.Errorf("%s flags %v, want only %s (in the cross-site frame)", id, got[id], path)
		}
	}
}
