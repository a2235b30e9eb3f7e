package browser

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/devtools-mcp/devtools-mcp/snapshot"
)

// TestPagewalkMatchesChromium reads fixture pages both ways, from
// Chromium's accessibility tree and by pagewalk.js, and checks that the
// snapshots an agent reads are the same.
func TestPagewalkMatchesChromium(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	site := httptest.NewServer(http.FileServer(http.Dir("../../e2e/testdata")))
	defer site.Close()
	m, b, p := headlessPage(ctx, t)
	defer m.Close(ctx)
	old := olderChromiumReads(b.Version())
	uids := regexp.MustCompile(`uid=\S+ `)
	text := func(threshold int) string {
		s, err := p.Snapshots().snapshot(ctx, false, threshold)
		if err != nil {
			t.Fatal(err)
		}
		if scripted := s.Root.Key.World != ""; scripted != (threshold == 0) {
			t.Fatalf("read by pagewalk.js: %v, want %v", scripted, threshold == 0)
		}
		out, err := s.Format(snapshot.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return uids.ReplaceAllString(out, "")
	}
	pages := []string{"/pages/common.html", "/pages/form.html", "/pages/actions.html", "/pages/frames.html", "/pages/console.html", "/pages/content.html", "/pages/app.html", "/pages/widgets.html", "/pages/aria.html"}
	// The widget corpus (e2e/testdata/widgets) too: its ARIA widgets must
	// read the same on a big page as on a small one.
	widgets, err := filepath.Glob("../../e2e/testdata/widgets/*.html")
	if err != nil || len(widgets) < 10 {
		t.Fatalf("widget corpus: %d pages, %v", len(widgets), err)
	}
	for _, w := range widgets {
		pages = append(pages, "/widgets/"+filepath.Base(w))
	}
	for i, page := range pages {
		if _, err := p.Navigate(ctx, Navigation{URL: site.URL + page}); err != nil {
			t.Fatal(err)
		}
		// Half the pages with a control focused, half with the document.
		if i%2 == 1 {
			if _, err := p.Evaluate(ctx, "document.querySelector('input, button')?.focus()"); err != nil {
				t.Fatal(err)
			}
		}
		// In a tree whose selection follows the focus, the focused item
		// is the selected one.
		focusedItem := page == "/pages/aria.html"
		if focusedItem {
			if _, err := p.Evaluate(ctx, "document.querySelector('[aria-label=Implicit] [role=treeitem]').focus()"); err != nil {
				t.Fatal(err)
			}
		}
		want, got := old(withoutPickerParts(text(-1))), old(text(0))
		if got != want {
			t.Errorf("%s: pagewalk.js reads\n%s\nChromium's tree reads\n%s", page, got, want)
		}
		if focusedItem && !strings.Contains(want, `treeitem "First" focused level="1" selected`) {
			t.Errorf("%s: Chromium's tree does not select the focused tree item:\n%s", page, want)
		}
	}
	// What Debian's documentation pages showed differing: hidden header
	// links, footnote links, access keys, ::after text, spaces at the ends
	// of lines and inline boxes, pre blocks, aside footnotes, and
	// off-screen content-visibility:auto sections, whose content Chromium
	// leaves out.
	if _, err := p.Navigate(ctx, Navigation{URL: site.URL + "/pages/sections.html"}); err != nil {
		t.Fatal(err)
	}
	// Which sections are near the viewport settles over a few frames after
	// the load (each one laid out moves the next): both reads wait for it.
	if _, err := p.Evaluate(ctx, `new Promise((done) => {
		let last = -1, same = 0, frames = 0;
		const tick = () => {
			const shown = [...document.querySelectorAll('section.lazy > h2')].filter((h) => h.checkVisibility({ contentVisibilityAuto: true })).length;
			if (shown === last) same++;
			else [last, same] = [shown, 0];
			if (same >= 3 || ++frames > 120) done(shown);
			else requestAnimationFrame(tick);
		};
		requestAnimationFrame(tick);
	})`); err != nil {
		t.Fatal(err)
	}
	want, got := text(-1), text(0)
	if got != want {
		t.Errorf("sections.html: pagewalk.js reads\n%s\nChromium's tree reads\n%s", got, want)
	}
	for _, line := range []string{`doc-noteref "[1]" url=`, `doc-backlink "1" url=`, `link "Index" keyshortcuts="Alt+U"`, "\n  \"deprecated\"\n",
		"\n  \"This page is licensed under a licence.\"\n", `heading "Part 0"`} {
		if !strings.Contains(want, line) {
			t.Errorf("sections.html: Chromium's tree lacks %q:\n%s", line, want)
		}
	}
	if strings.Contains(want, "Permalink") || strings.Contains(want, "Part 299") || strings.Contains(want, "complementary") {
		t.Errorf("sections.html: Chromium's tree shows a hidden link, an off-screen section or a landmark of a footnote:\n%s", want)
	}

	// With a modal dialog open, only the dialog is shown.
	if _, err := p.Navigate(ctx, Navigation{URL: site.URL + "/pages/content.html"}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Evaluate(ctx, "document.querySelector('dialog').showModal()"); err != nil {
		t.Fatal(err)
	}
	want, got = text(-1), text(0)
	if got != want || !strings.Contains(want, "Closed dialog") || strings.Contains(want, "Footer text") {
		t.Errorf("with a modal dialog, pagewalk.js reads\n%s\nChromium's tree reads\n%s", got, want)
	}

	// A document nested deeper than the script goes is Chromium's.
	if _, err := p.Evaluate(ctx, `(() => {
		let d = document.body;
		for (let i = 0; i < 1200; i++) d = d.appendChild(document.createElement('div'));
		d.textContent = 'Deep down';
		document.querySelector('dialog').close();
	})()`); err != nil {
		t.Fatal(err)
	}
	deep, err := p.Snapshots().snapshot(ctx, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	out, err := deep.Format(snapshot.Options{})
	if err != nil || !strings.Contains(out, `"Deep down"`) || deep.Root.Key.World != "" {
		t.Errorf("deep document (read by script: %v): %v\n%.300s", deep.Root.Key.World != "", err, out)
	}
}

// withoutPickerParts drops the lines below a Date node: the month, day and
// year fields of Chromium's date picker live in a user-agent shadow tree
// that page scripts cannot read.
func withoutPickerParts(snap string) string {
	var out []string
	inside := -1
	for _, line := range strings.Split(snap, "\n") {
		depth := len(line) - len(strings.TrimLeft(line, " "))
		if inside >= 0 && depth > inside {
			continue
		}
		inside = -1
		if strings.HasPrefix(strings.TrimLeft(line, " "), "Date ") {
			inside = depth
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// olderChromiumReads rewrites what Chromium 150 and older report
// differently from newer versions, which pagewalk.js follows, so that both
// readings compare on what they agree on: value texts are left out (150
// leaves a range input's empty and gives an ARIA widget's aria-valuetext;
// newer versions the other way round), and a file input named by its
// <label> loses the label's trailing space. For newer versions it returns
// the text unchanged.
func olderChromiumReads(v Version) func(string) string {
	if v.Major == 0 || v.Major > 150 {
		return func(s string) string { return s }
	}
	valuetext := regexp.MustCompile(` valuetext="[^"]*"`)
	file := regexp.MustCompile(`button "([^"]*?) +" value="`)
	return func(s string) string {
		s = valuetext.ReplaceAllString(s, "")
		return file.ReplaceAllString(s, `button "$1" value="`)
	}
}
