package e2e

import (
	"strings"
	"testing"
)

// TestPrerenderedLinkRuns checks a page whose speculation rules ask Chrome
// to prerender the next page: following the link shows that page with its
// script run. Chrome pauses a prerendered target for an auto-attaching
// client that waits for the debugger, as it does workers; today it never
// prerenders for a page that has a DevTools client attached to its page
// target, as ours always do (the Preload domain reports the attempt as
// PrerenderingDisabledByDevTools, and prerender targets, subtype
// "prerender", only appear under a tab target's auto-attach), so the link
// loads normally. Should that change, this catches a prerender left
// paused: its activation would never show the page.
func TestPrerenderedLinkRuns(t *testing.T) {
	site := pages(t, map[string]string{
		"/a": `<title>A</title><a href="/b">Next</a>` +
			`<script type="speculationrules">{"prerender":[{"source":"list","urls":["/b"],"eagerness":"immediate"}]}</script>`,
		"/b": `<title>B</title><script>document.title = "B ran, prerendering " + document.prerendering</script>`,
	})
	// A URL policy makes the server auto-attach to every target from the
	// browser's root as well.
	for name, extra := range map[string][]string{"plain": nil, "url policy": {"--blockedUrlPattern", "*://blocked.invalid/*"}} {
		t.Run(name, func(t *testing.T) {
			s := startServer(t, append(extra, headless...)...)
			snap := s.open(site, "/a")
			s.ok("click", map[string]any{"uid": uidOf(t, snap, `link "Next"`)})
			eventually(t, "the next page's script", func() bool {
				return strings.Contains(s.ok("take_snapshot", nil), "B ran")
			})
		})
	}
}
