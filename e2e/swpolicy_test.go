package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestURLPolicyHoldsUnderServiceWorkers has a service worker answer its
// site's navigations: from its navigation preload (a request Chrome makes
// itself as the navigation starts, beside every DevTools interception),
// with a page it makes up for a refused URL, and with a page whose
// Speculation-Rules header names rules it makes up too. Under
// --blockedUrlPattern, launched and attached, neither the agent's
// navigation nor a link it clicks reaches or shows a refused URL: before,
// the navigation preload fetched it and the made-up pages showed.
func TestURLPolicyHoldsUnderServiceWorkers(t *testing.T) {
	log := &requestLog{}
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.add(r)
		switch r.URL.Path {
		case "/ok/sw":
			fmt.Fprint(w, `<title>SW</title><a href="/blocked/link">Go</a><script>navigator.serviceWorker.register("/sw.js").then(() => navigator.serviceWorker.ready).then(() => document.title = "SW ready")</script>`)
		case "/ok/rules":
			fmt.Fprint(w, `<title>Rules page</title><a href="/blocked/spf">Go</a>`)
		case "/sw.js":
			w.Header().Set("Content-Type", "text/javascript")
			fmt.Fprint(w, `self.addEventListener("install", e => self.skipWaiting());
self.addEventListener("activate", e => e.waitUntil(self.registration.navigationPreload.enable().then(() => clients.claim())));
const html = (body, headers) => new Response(body, {headers: {"Content-Type": "text/html", ...headers}});
self.addEventListener("fetch", e => {
  const path = new URL(e.request.url).pathname;
  if (path === "/blocked/made-up") e.respondWith(html("<title>Refused page made up</title>"));
  else if (path === "/ok/rules") e.respondWith(html('<title>Made-up rules</title><a href="/blocked/spf">Go</a>', {"Speculation-Rules": '"/ok/rules.json"'}));
  else if (path === "/ok/rules.json") e.respondWith(new Response('{"prefetch":[{"source":"list","urls":["/blocked/spf"],"eagerness":"immediate"}]}', {headers: {"Content-Type": "application/speculationrules+json"}}));
  else if (e.request.mode === "navigate") e.respondWith((async () => (await e.preloadResponse) || fetch(e.request))());
});`)
		default:
			fmt.Fprint(w, `<title>Refused page</title>`)
		}
	}))
	t.Cleanup(site.Close)
	for name, start := range blockedServers() {
		t.Run(name, func(t *testing.T) {
			s := start(t)
			open := func() string {
				s.ok("navigate_page", map[string]any{"url": site.URL + "/ok/sw"})
				var snap string
				eventually(t, "the service worker", func() bool {
					snap = s.ok("take_snapshot", nil)
					return strings.Contains(snap, "SW ready")
				})
				return snap
			}
			refused := func(what, out string) {
				t.Helper()
				if strings.Contains(out, "Refused page") || strings.Contains(s.ok("take_snapshot", nil), "Refused page") {
					t.Fatalf("%s showed a refused page:\n%s", what, out)
				}
			}
			open()
			for _, path := range []string{"/blocked/preloaded", "/blocked/made-up"} {
				res := s.call("navigate_page", map[string]any{"url": site.URL + path})
				refused("navigate_page "+path, text(res))
			}
			snap := open()
			refused("the link", s.ok("click", map[string]any{"uid": uidOf(t, snap, `link "Go"`)}))
			open()
			s.ok("navigate_page", map[string]any{"url": site.URL + "/ok/rules"})
			snap = s.ok("take_snapshot", nil)
			refused("the speculation rules' link", s.ok("click", map[string]any{"uid": uidOf(t, snap, `link "Go"`)}))
			if got := log.matching("/blocked/"); len(got) > 0 {
				t.Fatalf("requests for refused URLs reached the server:\n%s", strings.Join(got, "\n"))
			}
		})
	}
}

// blockedServers starts, per subtest, a server refusing */blocked/* on a
// browser it launched and on one it attached to (with a page of its own
// open there), by name.
func blockedServers() map[string]func(t *testing.T) *server {
	blocked := []string{"--blockedUrlPattern", "*/blocked/*"}
	return map[string]func(t *testing.T) *server{
		"launched": func(t *testing.T) *server { return startServer(t, append(blocked, headless...)...) },
		"attached": func(t *testing.T) *server {
			ws, _, _ := chromium(t)
			s := startServer(t, append(blocked, "--browserUrl", browserURL(ws))...)
			s.ok("new_page", map[string]any{"url": "about:blank"})
			return s
		},
	}
}
