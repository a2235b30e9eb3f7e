package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMidSizePagesAreReadInThePage checks which reader a snapshot uses by
// the document's size: a page of 1,200 elements (a long documentation
// page's size) is read by pagewalk.js in one call, not from Chromium's
// accessibility tree, which takes several times as long there; a small one
// still comes from Chromium. Both read the same lines.
func TestMidSizePagesAreReadInThePage(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<title>Manual</title><main><h1>Manual</h1>`)
	for range 300 { // 4 elements a section
		b.WriteString(`<section><h2>Part</h2><p>Some <a href="#x">text</a>.</p></section>`)
	}
	b.WriteString(`</main>`)
	site := pages(t, map[string]string{"/big": b.String(), "/small": `<title>Small</title><h1>Manual</h1><p>Some <a href="#x">text</a>.</p>`})
	s, log := tracedServer(t)
	s.ok("navigate_page", map[string]any{"url": site.URL + "/big"})
	path := filepath.Join(t.TempDir(), "big.txt")
	s.ok("take_snapshot", map[string]any{"filePath": path})
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	big := string(data)
	mustContain(t, big, `heading "Manual" level="1"`, `heading "Part" level="2"`, `link "text" url="`+site.URL+`/big#x"`)
	if n := strings.Count(big, `link "text"`); n != 300 {
		t.Errorf("%d links in the snapshot, want 300", n)
	}
	s.ok("navigate_page", map[string]any{"url": site.URL + "/small"})
	mustContain(t, s.ok("take_snapshot", nil), `heading "Manual" level="1"`, `link "text" url="`+site.URL+`/small#x"`)
	s.session.Close()

	snaps := timelines(t, log, "take_snapshot")
	if len(snaps) != 2 {
		t.Fatalf("%d take_snapshot timelines logged, want 2", len(snaps))
	}
	if got := strings.Join(methods(snaps[0]), " "); strings.Contains(got, "Accessibility.getFullAXTree") || !strings.Contains(got, "Runtime.callFunctionOn") {
		t.Errorf("the snapshot of 1,200 elements sent %s; want it read by pagewalk.js, not Chromium's tree", got)
	}
	if got := strings.Join(methods(snaps[1]), " "); !strings.Contains(got, "Accessibility.getFullAXTree") {
		t.Errorf("the snapshot of a small page sent %s; want Chromium's tree", got)
	}
}
