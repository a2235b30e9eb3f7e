package main

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

// coverage is what some line of the corpus must show: footnote links both
// ways, a form field, a details summary, access keys, line breaks.
var coverage = []string{`doc-noteref "`, `doc-backlink "`, "textbox ", "DisclosureTriangle ", `keyshortcuts="Alt+`, "LineBreak "}

// TestCorpus reads every page of testdata/corpus.txt (real documentation
// from Debian packages, installed by .ci/run) both ways our server reads a
// document, from Chromium's accessibility tree and by pagewalk.js, and
// compares the lines, uids stripped: the agreement of each page is logged,
// and a page under 99.5% fails. (That Chromium's tree as we print it is the
// reference's take_snapshot line for line is what `go run ./cmd/snapcompare`
// checks with the reference installed.)
func TestCorpus(t *testing.T) {
	pages, err := readList("testdata/corpus.txt")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	r, err := newReader(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(ctx)
	s := newSite()
	defer s.Close()
	big, features := 0, map[string]bool{}
	for _, page := range pages {
		url, err := s.url(page)
		if err != nil {
			t.Fatalf("%s: %v (is its Debian package installed? .ci/run installs them)", page, err)
		}
		res, err := compare(ctx, r, nil, url)
		if err != nil {
			t.Fatal(err)
		}
		a := res.ScriptVsChromium
		t.Logf("%s: %d elements, %d lines, %.2f%% agree", page, res.Elements, len(res.Chromium), 100*a.Share)
		if a.Share < 0.995 {
			var b strings.Builder
			printDiff(&b, "pagewalk.js", "Chromium", a.OnlyA, a.OnlyB, 20)
			t.Errorf("%s: pagewalk.js agrees with Chromium's tree on %.2f%% of the lines, want at least 99.5%%:\n%s", page, 100*a.Share, b.String())
		}
		if res.Elements > 3000 {
			big++
		}
		for _, l := range res.Chromium {
			l = strings.TrimSpace(l)
			for _, f := range coverage {
				if strings.Contains(l, f) {
					features[f] = true
				}
			}
		}
	}
	// The corpus must keep covering what it was chosen for.
	if len(pages) < 30 || big < 10 {
		t.Errorf("%d pages, %d with more than 3,000 elements; want at least 30 and 10", len(pages), big)
	}
	for _, f := range coverage {
		if !features[f] {
			t.Errorf("no line of the corpus has %s", f)
		}
	}
	if os.Getenv("CHROME_PATH") != "" {
		t.Logf("Chromium: %s", os.Getenv("CHROME_PATH"))
	}
}
