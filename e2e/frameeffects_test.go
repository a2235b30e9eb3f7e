package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestClickAwaitsWhatItStartsInACrossSiteFrame checks that a click on a
// button of a cross-site iframe, which Chromium runs in its own process,
// is over only when what it started there is: the button's fetch, answered
// late, and the text it then shows. The snapshot the click includes shows
// that text, as it would for a button of the page itself.
func TestClickAwaitsWhatItStartsInACrossSiteFrame(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/widget", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<title>Widget</title><body><button onclick="fetch('/pay').then(r => r.text()).then(t => { this.textContent = t; })">Pay</button>`)
	})
	mux.HandleFunc("/pay", func(w http.ResponseWriter, r *http.Request) {
		select { // far longer than a click with no effects takes
		case <-time.After(500 * time.Millisecond):
		case <-r.Context().Done():
		}
		fmt.Fprint(w, "Paid")
	})
	widget := httptest.NewServer(mux)
	t.Cleanup(widget.Close)
	cross := strings.Replace(widget.URL, "127.0.0.1", "localhost", 1)
	shop := pages(t, map[string]string{"/": `<title>Shop</title><iframe src="` + cross + `/widget"></iframe>`})
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": shop.URL})
	var snap string
	eventually(t, "the widget's button in the snapshot", func() bool {
		snap = s.ok("take_snapshot", nil)
		return strings.Contains(snap, `button "Pay"`)
	})
	out := s.ok("click", map[string]any{"uid": uidOf(t, snap, `button "Pay"`), "includeSnapshot": true})
	mustContain(t, out, `button "Paid"`)
}
