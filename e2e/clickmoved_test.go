package e2e

import (
	"regexp"
	"strings"
	"testing"
)

// movingButtonPage has a button that jumps when the mouse reaches it: a
// banner is put above it, once (#once), or put there and taken away by
// turns every time (#always). A click on the banner is counted.
const movingButtonPage = `<!doctype html><title>Moving</title>
<div id="slot"></div>
<button id="go" onclick="this.textContent = 'Go clicked'">Go</button>
<script>
let bannerClicks = 0, moves = 0;
const go = document.getElementById('go'), slot = document.getElementById('slot');
go.addEventListener('pointerover', () => {
  if (moves++ && location.hash !== '#always') return;
  if (slot.firstChild) return slot.firstChild.remove();
  const b = Object.assign(document.createElement('div'), {textContent: 'Banner'});
  b.style.cssText = 'height: 60px; background: gold';
  b.onclick = () => { bannerClicks++; };
  slot.append(b);
});
</script>`

// TestClickOnAnElementThatMovesWhenTheMouseArrives clicks a button that
// the page moves as soon as the mouse reaches it, so the press lands on
// what took its place: the click is tried again once the button stands
// still, and lands; a button that moves every time is reported as such,
// and neither try reached the page.
func TestClickOnAnElementThatMovesWhenTheMouseArrives(t *testing.T) {
	site := pages(t, map[string]string{"/": movingButtonPage})
	s := startServer(t, headless...)
	uidOf := regexp.MustCompile(`uid=(\w+) button "Go"`)

	s.ok("navigate_page", map[string]any{"url": site.URL + "/#once"})
	uid := uidOf.FindStringSubmatch(s.ok("take_snapshot", nil))[1]
	if got := s.ok("click", map[string]any{"uid": uid}); !strings.Contains(got, "Successfully clicked") {
		t.Fatalf("the click on a button that moved once answered %q", got)
	}
	if got := s.eval(`() => [document.getElementById('go').textContent, bannerClicks]`); got != `["Go clicked",0]` {
		t.Fatalf("after the click, [button text, banner clicks] = %s, want the button clicked and not the banner", got)
	}

	s.ok("navigate_page", map[string]any{"url": site.URL + "/?always#always"})
	uid = uidOf.FindStringSubmatch(s.ok("take_snapshot", nil))[1]
	res := s.call("click", map[string]any{"uid": uid})
	if !res.IsError || !regexp.MustCompile(`uid=\w+: the click landed on <\w+>.* instead \(the page moved`).MatchString(text(res)) {
		t.Fatalf("the click on a button that moves every time answered %q, want an error saying where it landed", text(res))
	}
	if got := s.eval(`() => [document.getElementById('go').textContent, bannerClicks]`); got != `["Go",0]` {
		t.Fatalf("after the refused click, [button text, banner clicks] = %s, want neither clicked", got)
	}
}
