package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// latePage has buttons whose effects start after the click returned: a
// timer of 30 ms before a fetch (answered 150 ms later) and its rendering,
// a timer of 30 ms before a navigation, and a timer set through a reference
// the page took before any action (so only the DOM change it makes shows).
const latePage = `<title>Late</title>
<script>const early = setTimeout.bind(window);</script>
<p id=out>nothing yet</p>
<button onclick="setTimeout(() => fetch('/slow').then(r => r.text()).then(t => out.textContent = t), 30)">Fetch later</button>
<button onclick="setTimeout(() => location.href = '/next', 30)">Go later</button>
<button onclick="early(() => out.textContent = 'changed soon after')">Change soon</button>`

// TestActionsWaitForEffectsThatStartLate checks that an action whose effect
// starts after it returned is answered once that effect is over: the
// snapshot or the next read shows the result, the navigation is reported.
func TestActionsWaitForEffectsThatStartLate(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, latePage) })
	mux.HandleFunc("/next", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, `<title>Next</title>`) })
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(150 * time.Millisecond)
		fmt.Fprint(w, r.URL.Query().Get("text")+"fetched late")
	})
	site := httptest.NewServer(mux)
	defer site.Close()
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	snap := s.ok("take_snapshot", nil)

	out := s.ok("click", map[string]any{"uid": uidOf(t, snap, `button "Fetch later"`), "includeSnapshot": true})
	mustContain(t, out, `"fetched late"`)
	out = s.ok("click", map[string]any{"uid": uidOf(t, snap, `button "Change soon"`), "includeSnapshot": true})
	mustContain(t, out, `"changed soon after"`)

	s.eval(`() => { setTimeout(() => fetch('/slow?text=script+').then(r => r.text()).then(t => out.textContent = t), 30); return 1; }`)
	if got := s.eval("() => out.textContent", "waitForStableDom", false); got != `"script fetched late"` {
		t.Errorf("right after the script that fetches later, the page shows %s", got)
	}

	out = s.ok("click", map[string]any{"uid": uidOf(t, snap, `button "Go later"`)})
	mustContain(t, out, "The page navigated to "+site.URL+"/next")
	if got := s.eval("() => document.title", "waitForStableDom", false); got != `"Next"` {
		t.Errorf("after the click that navigates later the title is %s", got)
	}
}
