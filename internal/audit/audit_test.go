package audit

import (
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the testdata/*.golden files")

// load reads a recorded input (internal/browser's TestAuditInput
// -record-audit writes them).
func load(t *testing.T, name string) *Input {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name+".json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var in Input
	if err := json.NewDecoder(z).Decode(&in); err != nil {
		t.Fatal(err)
	}
	return &in
}

// failing returns the ids of the audits scoring below 1.
func failing(r *Result) []string {
	var ids []string
	for _, id := range SortedAuditIDs(r) {
		if s := r.Audits[id].Score; s != nil && *s < 1 {
			ids = append(ids, id)
		}
	}
	return ids
}

// TestFixtureFailsOnPurpose runs the audits on the page that fails them
// on purpose and checks each failure is found, with its element.
func TestFixtureFailsOnPurpose(t *testing.T) {
	r := Run(load(t, "fails"))
	got := failing(r)
	for _, id := range []string{"html-has-lang", "document-title", "heading-order", "color-contrast", "image-alt",
		"button-name", "link-name", "label", "list", "tabindex", "aria-roles", "meta-description",
		"landmark-one-main", "crawlable-anchors", "link-text", "agent-accessibility-tree", "doctype"} {
		if !slices.Contains(got, id) {
			t.Errorf("%s does not fail; failing: %v", id, got)
		}
	}
	img := r.Audits["image-alt"]
	nodes := Nodes(img)
	if len(nodes) != 1 || !strings.HasPrefix(nodes[0].Snippet, "<img ") || nodes[0].Selector != "body > img" || nodes[0].Backend == 0 {
		t.Errorf("image-alt nodes: %+v", nodes)
	}
	if img.Title != "Image elements do not have `[alt]` attributes" {
		t.Errorf("failing image-alt is titled %q", img.Title)
	}
	for _, id := range []string{"aria-dialog-name", "video-caption", "frame-title", "object-alt"} {
		if m := r.Audits[id].ScoreDisplayMode; m != ModeNotApplicable {
			t.Errorf("%s is %s on a page without such elements; want notApplicable", id, m)
		}
	}
	if m := r.Audits["focus-traps"].ScoreDisplayMode; m != ModeManual {
		t.Errorf("focus-traps is %s, want manual", m)
	}
}

// TestRecordedPages replays real documentation pages and compares the
// failing audits and the scores with testdata/<page>.golden (-update
// rewrites them; check the diff against the reference's results with
// e2e/cmd/auditcompare before committing).
func TestRecordedPages(t *testing.T) {
	for _, name := range []string{"valgrind-quickstart", "libxslt-faq", "time", "fails"} {
		t.Run(name, func(t *testing.T) {
			r := Run(load(t, name))
			var b strings.Builder
			for _, id := range CategoryOrder() {
				fmt.Fprintf(&b, "%s %v\n", id, *r.Categories[id].Score)
			}
			fmt.Fprintf(&b, "failing %s\n", strings.Join(failing(r), " "))
			path := filepath.Join("testdata", name+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if b.String() != string(want) {
				t.Errorf("got:\n%swant:\n%s", b.String(), want)
			}
		})
	}
}

// TestScoring checks Lighthouse's weighted mean: not applicable, manual
// and informative audits weigh nothing; no scored audit is a null score.
func TestScoring(t *testing.T) {
	one, zero := 1.0, 0.0
	audits := map[string]*AuditResult{}
	for _, m := range metaTable() {
		audits[m.ID] = &AuditResult{ID: m.ID, ScoreDisplayMode: ModeNotApplicable}
	}
	audits["is-crawlable"] = &AuditResult{Score: &zero, ScoreDisplayMode: ModeBinary}
	audits["document-title"] = &AuditResult{Score: &one, ScoreDisplayMode: ModeBinary}
	audits["meta-description"] = &AuditResult{Score: &zero, ScoreDisplayMode: ModeInformative}
	cats := scoreCategories(audits, "navigation")
	// is-crawlable weighs 93/23 against document-title's 1.
	if s := cats["seo"].Score; s == nil || *s != math.Round(1/(1+93.0/23)*100)/100 {
		t.Errorf("seo score %v", s)
	}
	if s := cats["agentic-browsing"].Score; s != nil {
		t.Errorf("agentic-browsing with nothing applicable scores %v, want null", *s)
	}
	snap := scoreCategories(audits, "snapshot")
	for _, ref := range snap["best-practices"].AuditRefs {
		if ref.ID == "errors-in-console" {
			t.Error("a snapshot scores errors-in-console, which needs a page load")
		}
	}
}

// TestMetricScores checks the CLS curve and session windows.
func TestMetricScores(t *testing.T) {
	for _, c := range []struct{ v, want float64 }{{0, 1}, {0.1, 0.9}, {0.25, 0.5}, {1, 0.03}} {
		if got := logNormalScore(0.1, 0.25, c.v); math.Abs(got-c.want) > 0.011 {
			t.Errorf("CLS %v scores %v, want %v", c.v, got, c.want)
		}
	}
	shifts := []Shift{{0, 0.1, false}, {500, 0.1, false}, {2000, 0.05, false}, {2100, 0.3, true}}
	if got := clsWindows(shifts); math.Abs(got-0.2) > 1e-9 {
		t.Errorf("CLS of the windows = %v, want 0.2 (the input shift does not count)", got)
	}
}

// TestContrast checks the WCAG ratio and colour parsing.
func TestContrast(t *testing.T) {
	black, _ := parseColor("rgb(0, 0, 0)")
	white, _ := parseColor("rgba(255, 255, 255, 1)")
	if r := contrast(black, white); math.Abs(r-21) > 0.01 {
		t.Errorf("black on white = %v, want 21", r)
	}
	grey, ok := parseColor("rgb(187, 187, 187)")
	if r := contrast(grey, white); !ok || r > 2 {
		t.Errorf("#bbb on white = %v", r)
	}
	if _, ok := parseColor("color(srgb 1 0 0)"); ok {
		t.Error("an unknown colour syntax parsed")
	}
	half, _ := parseColor("rgba(0, 0, 0, 0.5)")
	if c := half.over(white); math.Abs(c.r-127.5) > 0.01 {
		t.Errorf("half black over white = %v", c)
	}
}

// TestHTMLReport renders the fixture's report: one self-contained file with
// the gauges, the failing audits with their elements, and the rest folded.
func TestHTMLReport(t *testing.T) {
	page, err := HTML(Run(load(t, "fails")))
	if err != nil {
		t.Fatal(err)
	}
	html := string(page)
	for _, want := range []string{"<svg", "Accessibility", "image-alt", "body &gt; img", "<details><summary>Passed audits",
		"Not applicable", "Additional items to check manually", "Image elements do not have <code>[alt]</code> attributes"} {
		if !strings.Contains(html, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	for _, bad := range []string{"<script", "<link", "<img", "url(", "@import"} {
		if strings.Contains(html, bad) {
			t.Errorf("report is not self-contained: %q", bad)
		}
	}
}
