package browser

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/devtools-mcp/devtools-mcp/internal/audit"
)

var recordAudit = flag.Bool("record-audit", false, "record the audit inputs of the corpus pages into ../audit/testdata")

// auditFixture has what AuditInput must read: no doctype, an image of
// known natural size, a field that blocks paste, a named button.
const auditFixture = `<html><head><title>Fixture</title></head><body>
<img src="data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7" width="40" height="20">
<input id="f" onpaste="event.preventDefault()"><input id="g">
<button>OK</button><p style="color: rgb(1, 2, 3)">text</p></body></html>`

// TestAuditInput gathers a page and checks the facts the audits read.
func TestAuditInput(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(auditFixture))
	}))
	defer srv.Close()
	m, _, p := headlessPage(ctx, t)
	defer m.Close(ctx)
	if _, err := p.Navigate(ctx, Navigation{URL: srv.URL + "/"}); err != nil {
		t.Fatal(err)
	}
	in, err := p.AuditInput(ctx, "snapshot", "desktop")
	if err != nil {
		t.Fatal(err)
	}
	if in.Doc.HasDoctype || in.Doc.Title != "Fixture" || in.Doc.CompatMode != "BackCompat" {
		t.Errorf("document facts: %+v", in.Doc)
	}
	if in.Robots == nil || in.Robots.Status != 404 || in.LLMs == nil || in.LLMs.Status != 404 {
		t.Errorf("robots.txt %+v, llms.txt %+v; want both 404", in.Robots, in.LLMs)
	}
	if in.Main == nil || in.Main.Status != 200 || in.FinalURL != srv.URL+"/" {
		t.Errorf("main response %+v, final URL %s", in.Main, in.FinalURL)
	}
	if !in.ShiftsKnown {
		t.Error("layout shifts not read")
	}
	byTag := map[string][]audit.Node{}
	for _, n := range in.Nodes {
		byTag[n.Tag] = append(byTag[n.Tag], n)
	}
	if img := byTag["img"]; len(img) != 1 || img[0].Prop == nil || img[0].Prop.NaturalWidth != 1 || !strings.HasPrefix(img[0].Prop.Src, "data:image/gif") || img[0].Attrs["currentSrc"] != "" || img[0].Box == nil || img[0].Box[2] != 40 {
		t.Errorf("img: %+v", img)
	}
	if in := byTag["input"]; len(in) != 2 || in[0].Prop == nil || !in[0].Prop.PreventsPaste || in[1].Prop == nil || in[1].Prop.PreventsPaste {
		t.Errorf("inputs (first blocks paste, second not): %+v", in)
	}
	if ps := byTag["p"]; len(ps) != 1 || ps[0].Text != "text" || ps[0].Style == nil || ps[0].Style.Color != "rgb(1, 2, 3)" {
		t.Errorf("p: %+v", ps)
	}
	named := false
	for _, b := range byTag["button"] {
		for _, a := range in.AX {
			if a.Backend == b.Backend && a.Name == "OK" && a.Role == "button" {
				named = true
			}
		}
	}
	if !named {
		t.Error("the button's accessible name was not read")
	}
	if *recordAudit {
		record(ctx, t, p)
	}
}

// record gathers the corpus pages that the audit package's tests replay.
func record(ctx context.Context, t *testing.T, p *Page) {
	pages := map[string]string{
		"valgrind-quickstart": "/usr/share/doc/valgrind/html/QuickStart.html",
		"libxslt-faq":         "/usr/share/doc/libxslt1-dev/html/FAQ.html",
		"time":                "/usr/share/doc/time/time.html",
	}
	srv := httptest.NewServer(http.FileServer(http.Dir("/usr/share/doc")))
	defer srv.Close()
	fixture, err := os.ReadFile("../../e2e/testdata/audit/fails.html")
	if err != nil {
		t.Fatal(err)
	}
	for name, path := range pages {
		url := srv.URL + strings.TrimPrefix(path, "/usr/share/doc")
		if name == "" {
			continue
		}
		if _, err := p.Navigate(ctx, Navigation{URL: url}); err != nil {
			t.Fatal(err)
		}
		saveInput(ctx, t, p, name)
	}
	if _, err := p.Navigate(ctx, Navigation{URL: "data:text/html," + strings.ReplaceAll(string(fixture), "#", "%23")}); err != nil {
		t.Fatal(err)
	}
	saveInput(ctx, t, p, "fails")
}

// saveInput writes the page's audit input to ../audit/testdata/name.json.gz.
func saveInput(ctx context.Context, t *testing.T, p *Page, name string) {
	in, err := p.AuditInput(ctx, "snapshot", "desktop")
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join("..", "audit", "testdata", name+".json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z := gzip.NewWriter(f)
	if err := json.NewEncoder(z).Encode(in); err != nil {
		t.Fatal(err)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
}
