package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// recordLandings makes the page record, for each click, the index in
// document.links of the link it landed on (or the tag it landed on), and
// keeps links from navigating away.
const recordLandings = `() => { window.__landed = []; document.addEventListener('click', e => {
	e.preventDefault();
	const a = e.target.closest && e.target.closest('a');
	__landed.push(a ? [...document.links].indexOf(a) : '<' + e.target.localName + '>');
}, true); }`

// longDocPage is a documentation-like page of sections that render only
// once scrolled near (content-visibility: auto), standing in with a height
// far from their real one, so that scrolling to one moves what is below
// the ones that start rendering; each ends with a link.
func longDocPage(sections int) string {
	var b strings.Builder
	b.WriteString(`<!doctype html><title>Long doc</title>
<style>section { content-visibility: auto; contain-intrinsic-size: auto 200px } p { margin: 0 0 1em }</style>
`)
	for i := range sections {
		fmt.Fprintf(&b, "<section><h2>Part %d</h2>", i)
		for j := range 6 {
			fmt.Fprintf(&b, "<p>Paragraph %d of part %d, long enough to wrap over a line or two of a narrow viewport, with words and more words.</p>", j, i)
		}
		fmt.Fprintf(&b, `<p>See <a href="#x%d"><span>link %d</span></a>.</p></section>`, i, i)
	}
	return b.String()
}

var anyUIDRe = regexp.MustCompile(`uid=(\w+)`)

// clickEveryLink clicks each link of the open page, in the order order
// gives for n links, and checks where each click landed: a link the
// snapshot lists must be clicked and the click must land on it; any other
// either lands on it too or is refused with the reason, never reported as
// clicked while landing elsewhere.
func clickEveryLink(t *testing.T, s *server, order func(n int) []int) {
	t.Helper()
	s.eval(recordLandings)
	snap := s.ok("take_snapshot", nil)
	listed := map[string]bool{}
	for line := range strings.Lines(snap) {
		if m := anyUIDRe.FindStringSubmatch(line); m != nil && strings.Contains(line, ` link "`) {
			listed[m[1]] = true
		}
	}
	var links []string
	for _, m := range anyUIDRe.FindAllStringSubmatch(s.eval(`() => [...document.links]`), -1) {
		links = append(links, m[1])
	}
	if len(links) == 0 || len(listed) == 0 {
		t.Fatalf("no links (%d) or none in the snapshot (%d):\n%.2000s", len(links), len(listed), snap)
	}
	clicked, refused := 0, map[string]int{}
	for _, i := range order(len(links)) {
		uid := links[i]
		res := s.call("click", map[string]any{"uid": uid})
		landed := s.eval(`() => __landed.splice(0)`)
		switch {
		case !res.IsError && landed != fmt.Sprintf("[%d]", i):
			t.Errorf("link %d (uid=%s): %q, but the click landed on %s", i, uid, text(res), landed)
		case !res.IsError:
			clicked++
		case listed[uid]:
			t.Errorf("link %d (uid=%s) is in the snapshot but was not clicked: %s", i, uid, text(res))
		case landed != "[]" && !strings.Contains(text(res), "landed on"):
			t.Errorf("link %d (uid=%s) was refused (%s) but a click landed on %s", i, uid, text(res), landed)
		case !regexp.MustCompile(`uid=\w+ (is|has|does)`).MatchString(text(res)):
			t.Errorf("link %d (uid=%s) was refused without saying why: %s", i, uid, text(res))
		default:
			refused[regexp.MustCompile(`uid=\w+ `).ReplaceAllString(text(res), "")]++
		}
	}
	t.Logf("%d links, %d listed in the snapshot: %d clicked, refused with a reason: %v", len(links), len(listed), clicked, refused)
}

// inOrder and fromBothEnds are click orders: document order, and the last
// link, the first, the last but one, and so on, so that each click scrolls
// across the page.
func inOrder(n int) []int {
	o := make([]int, n)
	for i := range o {
		o[i] = i
	}
	return o
}

func fromBothEnds(n int) []int {
	var o []int
	for k := 0; len(o) < n; k++ {
		o = append(o, n-1-k)
		if len(o) < n {
			o = append(o, k)
		}
	}
	return o
}

// TestClickLinksInContentVisibilityAutoSections clicks links in sections
// that render only once scrolled near, jumping across the page: each click
// must land on its link, the last ones included (which move when the
// sections around them start rendering), on a small page (read through
// Chromium's tree) and a big one (read by the in-page walker).
func TestClickLinksInContentVisibilityAutoSections(t *testing.T) {
	for _, n := range []int{40, 320} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			site := pages(t, map[string]string{"/": longDocPage(n)})
			s := startServer(t, headless...)
			s.ok("navigate_page", map[string]any{"url": site.URL})
			clickEveryLink(t, s, func(n int) []int { return fromBothEnds(n)[:min(n, 24)] })
		})
	}
}

// pythonDocs is where Debian's python3-doc puts Python's HTML documentation.
const pythonDocs = "/usr/share/doc/python3-doc/html"

// TestClickEveryLinkOfARealPage clicks every link of a long page of
// Python's documentation, as Debian ships it, in document order; then of
// the same page with its sections rendering only near the viewport
// (content-visibility: auto, as many sites set), from both ends.
func TestClickEveryLinkOfARealPage(t *testing.T) {
	page := filepath.Join(pythonDocs, "library", "json.html")
	if _, err := os.Stat(page); err != nil {
		t.Fatalf("this test clicks through a page of Debian's python3-doc, which is missing (%v): apt-get install python3-doc (.ci/run does)", err)
	}
	site := httptest.NewServer(http.FileServer(http.Dir(pythonDocs)))
	t.Cleanup(site.Close)
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL + "/library/json.html"})
	t.Run("as shipped", func(t *testing.T) { clickEveryLink(t, s, inOrder) })
	s.ok("navigate_page", map[string]any{"type": "reload"})
	s.eval(`() => { document.head.append(Object.assign(document.createElement('style'), {textContent: 'section section { content-visibility: auto; contain-intrinsic-size: auto 120px }'})); scrollTo(0, 0); }`)
	t.Run("content-visibility", func(t *testing.T) { clickEveryLink(t, s, fromBothEnds) })
}

// guardsPage has elements a click must find its way to, or be refused
// with the reason: under a sticky header, partly under a badge, with no
// size, through a label, not taking pointer events.
const guardsPage = `<!doctype html><title>Guards</title>
<style>header { position: sticky; top: 0; height: 120px; background: #eee; z-index: 2 }</style>
<header>Site header</header>
<div style="height: 900px"></div>
<button id="under" onclick="this.textContent = 'Under clicked'">Under header</button>
<div style="position: relative"><button id="badged" style="width: 300px; height: 40px" onclick="this.textContent = 'Badged clicked'">Badged</button><span style="position: absolute; left: 130px; top: 10px; width: 40px; height: 20px; background: red">3</span></div>
<p><a id="zero" href="#zero" aria-label="Zero link" style="display: inline-block; width: 0; height: 0; overflow: hidden"></a></p>
<label><input id="box" type="checkbox" style="position: absolute; opacity: 0; width: 0; height: 0"> Subscribe</label>
<p><button id="ghost" style="pointer-events: none">Ghost</button></p>
<div style="height: 900px"></div>`

// TestClickFindsItsWay clicks elements that a click at the centre of their
// box, without scrolling, would miss.
func TestClickFindsItsWay(t *testing.T) {
	site := pages(t, map[string]string{"/": guardsPage})
	s := startServer(t, headless...)
	snap := s.open(site, "/")
	// Scrolled to sit under the sticky header: the click scrolls it out.
	s.eval(`() => scrollTo(0, under.getBoundingClientRect().top + scrollY - 10)`)
	mustContain(t, s.ok("click", map[string]any{"uid": uidOf(t, snap, `button "Under header"`), "includeSnapshot": true}), `button "Under clicked"`)
	// Its centre under a badge: the click takes a part of it in view.
	mustContain(t, s.ok("click", map[string]any{"uid": uidOf(t, snap, `button "Badged"`), "includeSnapshot": true}), `button "Badged clicked"`)
	// A checkbox drawn by its label is clicked through the label.
	s.ok("click", map[string]any{"uid": uidOf(t, snap, `checkbox "Subscribe"`)})
	if got := s.eval(`() => box.checked`); got != "true" {
		t.Fatalf("after the click the checkbox is checked=%s", got)
	}
	mustContain(t, s.fails("click", map[string]any{"uid": uidOf(t, snap, `link "Zero link"`)}), "has no size", "evaluate_script")
	mustContain(t, s.fails("click", map[string]any{"uid": uidOf(t, snap, `button "Ghost"`)}), "does not take clicks", "pointer-events: none")
}

// modalPage covers the page with a cookie dialog until it is accepted.
const modalPage = `<!doctype html><title>Modal</title>
<button id="behind" onclick="this.textContent = 'Behind clicked'" onmouseenter="this.dataset.hovered = 1">Behind</button>
<ul><li id="item" draggable="true" ondragstart="event.dataTransfer.setData('text/plain', 'I')">Item</li></ul>
<div id="zone" role="region" aria-label="Zone" style="height: 60px" ondragover="event.preventDefault()" ondrop="this.textContent = 'dropped'">Zone</div>
<div id="modal" style="position: fixed; inset: 0; background: rgba(0, 0, 0, .5)">Accept cookies <button onclick="modal.remove()">Accept</button></div>`

// TestInputOnCoveredElementsFails checks that click, hover, drag and
// click_at do not land on what covers their target, and say what does.
func TestInputOnCoveredElementsFails(t *testing.T) {
	site := pages(t, map[string]string{"/": modalPage})
	s := startServer(t, append(headless, "--experimentalVision")...)
	snap := s.open(site, "/")
	behind := uidOf(t, snap, `button "Behind"`)
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"click", map[string]any{"uid": behind}},
		{"hover", map[string]any{"uid": behind}},
		{"drag", map[string]any{"from_uid": uidOf(t, snap, `"Item"`), "to_uid": uidOf(t, snap, `region "Zone"`)}},
	} {
		mustContain(t, s.fails(c.tool, c.args), "is covered by <div#modal> \"Accept cookies", "close or remove it first")
	}
	if got := s.eval(`() => [behind.textContent, behind.dataset.hovered, zone.textContent]`); got != `["Behind",null,"Zone"]` {
		t.Fatalf("a refused input reached the page: %s", got)
	}
	mustContain(t, s.ok("click_at", map[string]any{"x": 5, "y": 5}), `The click reached <div#modal> "Accept cookies`)
	mustContain(t, s.fails("click_at", map[string]any{"x": 5, "y": 5000}), "outside the page's viewport")
	s.ok("click", map[string]any{"uid": uidOf(t, snap, `button "Accept"`)})
	mustContain(t, s.ok("click", map[string]any{"uid": behind, "includeSnapshot": true}), `button "Behind clicked"`)
}

// framesPage holds a same-origin and a cross-site iframe, both under a
// banner until it is closed.
const framesPage = `<!doctype html><title>Framed</title>
<iframe id="same" src="/inner" style="width: 300px; height: 80px"></iframe>
<iframe id="cross" style="width: 300px; height: 80px"></iframe>
<div id="promo" style="position: absolute; left: 0; top: 0; width: 800px; height: 120px; background: rgba(255, 0, 0, .3)">Promo banner</div>
<script>cross.src = location.origin.replace('127.0.0.1', 'localhost') + '/inner';</script>`

// TestClickInFramesUnderABanner clicks buttons in iframes that an element
// of the page covers: refused, naming it, until it is gone.
func TestClickInFramesUnderABanner(t *testing.T) {
	site := pages(t, map[string]string{"/": framesPage, "/inner": `<title>Inner</title><button onclick="this.textContent = 'Inner clicked'">Inner</button>`})
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	var snap string
	eventually(t, "both frames in the snapshot", func() bool {
		snap = s.ok("take_snapshot", nil)
		return strings.Count(snap, `button "Inner"`) == 2
	})
	var inner []string
	for line := range strings.Lines(snap) {
		if strings.Contains(line, `button "Inner"`) {
			inner = append(inner, anyUIDRe.FindStringSubmatch(line)[1])
		}
	}
	for _, uid := range inner {
		mustContain(t, s.fails("click", map[string]any{"uid": uid}), `is covered by <div#promo> "Promo banner"`)
	}
	mustContain(t, s.ok("take_snapshot", nil), `button "Inner"`)
	s.eval(`() => promo.remove()`)
	for _, uid := range inner {
		s.ok("click", map[string]any{"uid": uid})
	}
	if got := strings.Count(s.ok("take_snapshot", nil), `button "Inner clicked"`); got != 2 {
		t.Fatalf("%d of the 2 frame buttons were clicked", got)
	}
}
