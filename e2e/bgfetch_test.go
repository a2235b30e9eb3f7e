package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestURLPolicyRefusesBackgroundFetches has a page and its service worker
// start background fetches of a refused URL, which Chrome's download
// service makes itself, beside every DevTools interception: before, they
// reached the server, launched and attached. Under --blockedUrlPattern
// they fail with NotAllowedError, in an isolated context too, and none
// reaches the server.
func TestURLPolicyRefusesBackgroundFetches(t *testing.T) {
	log := &requestLog{}
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.add(r)
		switch r.URL.Path {
		case "/ok/sw":
			fmt.Fprint(w, `<title>SW</title><script>navigator.serviceWorker.register("/sw.js").then(() => navigator.serviceWorker.ready).then(() => document.title = "SW ready")</script>`)
		case "/sw.js":
			w.Header().Set("Content-Type", "text/javascript")
			fmt.Fprint(w, `self.addEventListener("install", e => self.skipWaiting());
self.addEventListener("message", e => e.waitUntil(self.registration.backgroundFetch.fetch("w" + Date.now(), [e.data]).then(() => "started", err => "refused: " + err.name).then(r => e.source.postMessage(r))));`)
		default:
			fmt.Fprint(w, "fetched")
		}
	}))
	t.Cleanup(site.Close)
	for name, start := range blockedServers() {
		t.Run(name, func(t *testing.T) {
			s := start(t)
			for _, isolated := range []string{"", "bg"} {
				args := map[string]any{"url": site.URL + "/ok/sw"}
				if isolated != "" {
					args["isolatedContext"] = isolated
				}
				s.ok("new_page", args)
				eventually(t, "the service worker", func() bool { return strings.Contains(s.ok("take_snapshot", nil), "SW ready") })
				path := "/blocked/" + name + isolated
				out := s.ok("evaluate_script", map[string]any{"function": `async () => {
					const r = await navigator.serviceWorker.ready;
					const page = await r.backgroundFetch.fetch('p' + Date.now(), ['` + path + `-page']).then(() => 'started', e => 'refused: ' + e.name);
					const worker = await new Promise(done => {
						navigator.serviceWorker.onmessage = e => done(e.data);
						r.active.postMessage('` + path + `-worker');
					});
					return 'page ' + page + ', worker ' + worker;
				}`})
				mustContain(t, out, "page refused: NotAllowedError, worker refused: NotAllowedError")
			}
			if got := log.matching("/blocked/"); len(got) > 0 {
				t.Fatalf("background fetches of refused URLs reached the server:\n%s", strings.Join(got, "\n"))
			}
		})
	}
}
