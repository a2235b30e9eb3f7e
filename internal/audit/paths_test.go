package audit

import (
	"testing"
	"time"
)

// TestShadowPaths checks the node path and selector of elements in an
// open shadow tree and of slotted light content, as Lighthouse names
// them, and that an id resolves in its own tree only.
func TestShadowPaths(t *testing.T) {
	in := &Input{SiblingIndexes: true, Nodes: []Node{
		{Tag: "html", Parent: -1, Sib: 1},                                                // 0
		{Tag: "body", Parent: 0, Sib: 1},                                                 // 1
		{Tag: "div", Parent: 1, Attrs: map[string]string{"id": "host"}},                  // 2
		{Tag: "div", Parent: 2, Shadow: 9, ShadowTop: true, Sib: 1},                      // 3: in the shadow root
		{Tag: "slot", Parent: 3, Shadow: 9},                                              // 4
		{Tag: "button", Parent: 4, Sib: 2},                                               // 5: slotted, a light child of the host
		{Tag: "span", Parent: 3, Shadow: 9, Attrs: map[string]string{"id": "x"}, Sib: 1}, // 6
		{Tag: "span", Parent: 1, Sib: 1, Attrs: map[string]string{"id": "x"}},            // 7
	}}
	in.Nodes[5].DOMParent = 3 // the host, index 2, plus one
	pg := newPage(in)
	for _, c := range []struct {
		i              int
		path, selector string
	}{
		{3, "1,HTML,1,BODY,0,DIV,a,#document-fragment,1,DIV", "div"},
		{4, "1,HTML,1,BODY,0,DIV,a,#document-fragment,1,DIV,0,SLOT", "div > slot"},
		{5, "1,HTML,1,BODY,0,DIV,2,BUTTON", "body > div#host > button"},
	} {
		if got := pg.path(c.i); got != c.path {
			t.Errorf("path(%d) = %q, want %q", c.i, got, c.path)
		}
		if got := pg.selector(c.i); got != c.selector {
			t.Errorf("selector(%d) = %q, want %q", c.i, got, c.selector)
		}
	}
	if got := pg.byID(4, "x"); len(got) != 1 || got[0] != 6 {
		t.Errorf("byID in the shadow tree = %v, want [6]", got)
	}
	if got := pg.byID(1, "x"); len(got) != 1 || got[0] != 7 {
		t.Errorf("byID in the document = %v, want [7]", got)
	}
}

// TestBlocksIndexing checks the robots directives that keep a page out
// of the index, unavailable_after by its date.
func TestBlocksIndexing(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for v, want := range map[string]bool{
		"noindex": true, "NoIndex, follow": true, "none": true, "nofollow": false, "index, follow": false,
		"unavailable_after: 1 Jan 2000 00:00:00 GMT": true, "unavailable_after: 2030-05-01": false,
		// Directives are split at commas before dates are read, as Lighthouse
		// does, so a date with a comma in it blocks nothing.
		"unavailable_after: Saturday, 01-Jan-00 00:00:00 GMT": false, "unavailable_after: someday": false,
	} {
		if got := blocksIndexing(v, now); got != want {
			t.Errorf("blocksIndexing(%q) = %v, want %v", v, got, want)
		}
	}
}

// TestRobotsTxt checks which rule of a robots.txt decides a crawler's
// access: its own group or else "*", the longest pattern, Allow on a tie,
// wildcards and the end anchor.
func TestRobotsTxt(t *testing.T) {
	r := parseRobots("http://h", "User-agent: *\nDisallow: /private/\nAllow: /private/open\nDisallow: /*.pdf$\n\n# bots\nUser-agent: Googlebot\nUser-agent: bingbot/2.0\nDisallow: /\n")
	for _, c := range []struct {
		url, agent string
		allowed    bool
	}{
		{"http://h/page", "", true}, {"http://h/private/x", "", false}, {"http://h/private/open/y", "", true},
		{"http://h/a/b.pdf", "", false}, {"http://h/a/b.pdf?x", "", true}, {"http://h/page", "Googlebot", false},
		{"http://h/page", "bingbot", false}, {"http://h/page", "DuckDuckBot", true}, {"http://other/private/x", "", true},
	} {
		rule := r.match(c.url, c.agent)
		if got := rule == nil || rule.allow; got != c.allowed {
			t.Errorf("%s for %q: allowed %v, want %v", c.url, c.agent, got, c.allowed)
		}
	}
}
