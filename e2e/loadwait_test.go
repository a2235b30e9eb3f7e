package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestNavigationWaitsForTheLoadPastTheDocumentsOwnHistoryChanges checks
// that navigate_page, and a click that leads to another page, answer once
// the new document has loaded, even when
// that document changes its own URL while it loads: Sphinx's pages drop
// ?highlight= with history.replaceState, single-page apps route with
// pushState or the hash. Each such change is a same-document navigation
// to Chrome, which ended the wait: both answered before the load
// (readyState "interactive", the slow image still missing), and the
// snapshot that followed waited for the rest of it.
func TestNavigationWaitsForTheLoadPastTheDocumentsOwnHistoryChanges(t *testing.T) {
	spellings := map[string]string{
		"replaceState": `history.replaceState(null, '', location.pathname + '?routed')`,
		"pushState":    `history.pushState({}, '', location.pathname + '?pushed')`,
		"hash":         `location.hash = 'routed'`,
	}
	mux := http.NewServeMux()
	for name, change := range spellings {
		mux.HandleFunc("/"+name, func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprintf(w, `<title>%s</title><script>%s</script><p>Routed</p><img alt="late" src="/late.png">`, name, change)
		})
	}
	mux.HandleFunc("/late.png", func(w http.ResponseWriter, r *http.Request) {
		// The load event waits for this image; the page's URL changed long before.
		time.Sleep(400 * time.Millisecond)
		w.Header().Set("Content-Type", "image/gif")
		w.Write([]byte("GIF89a\x01\x00\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x00;"))
	})
	mux.HandleFunc("/links", func(w http.ResponseWriter, r *http.Request) {
		for name := range spellings {
			fmt.Fprintf(w, `<p><a href="/%s">to %s</a></p>`, name, name)
		}
	})
	site := httptest.NewServer(mux)
	defer site.Close()

	s := startServer(t, headless...)
	for name := range spellings {
		s.ok("navigate_page", map[string]any{"url": site.URL + "/" + name})
		if got := s.eval(`() => [document.readyState, document.images[0].complete].join()`); got != `"complete,true"` {
			t.Errorf("after navigate_page to a page that ran %s while loading, the page was %s, want loaded (complete,true)", name, got)
		}
		s.ok("navigate_page", map[string]any{"type": "reload"})
		if got := s.eval(`() => [document.readyState, document.images[0].complete].join()`); got != `"complete,true"` {
			t.Errorf("after a reload of the page that ran %s, it was %s", name, got)
		}
	}
	// The same pages reached by a click: the action waits for their load.
	for name := range spellings {
		snap := s.open(site, "/links")
		s.ok("click", map[string]any{"uid": uidOf(t, snap, `link "to `+name+`"`)})
		if got := s.eval(`() => [document.readyState, document.images[0].complete].join()`); got != `"complete,true"` {
			t.Errorf("after a click that led to the page that ran %s while loading, it was %s, want loaded (complete,true)", name, got)
		}
	}
	// A navigation that is itself same-document still answers.
	s.ok("navigate_page", map[string]any{"url": site.URL + "/hash"})
	s.ok("navigate_page", map[string]any{"url": site.URL + "/hash#elsewhere"})
	if got := s.eval(`() => location.hash`); got != `"#elsewhere"` {
		t.Errorf("after a same-document navigation, location.hash = %s", got)
	}
}
