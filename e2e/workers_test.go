package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// pausedTargetSite serves one page per kind of target that Chrome starts
// paused while a debugger is auto-attached: each page writes "<kind> ran"
// into its body only once that target has run.
func pausedTargetSite(t *testing.T) *httptest.Server {
	t.Helper()
	js := map[string]string{
		"/worker.js": `postMessage("worker ran");`,
		"/nested.js": `const w = new Worker("/worker.js"); w.onmessage = e => postMessage("nested " + e.data);`,
		"/shared.js": `onconnect = e => { const port = e.ports[0]; port.postMessage("shared worker ran"); };`,
		"/sw.js":     `self.addEventListener("install", () => self.skipWaiting()); self.addEventListener("activate", e => e.waitUntil(clients.claim()));`,
		"/module.js": `postMessage("module worker ran");`,
		"/popped.js": `opener.postMessage("popup ran", "*");`,
		"/framed.js": `parent.postMessage("iframe ran", "*");`,
	}
	html := map[string]string{
		"/worker": `<title>w</title><body>waiting<script>
			const w = new Worker("/worker.js"); w.onmessage = e => document.body.textContent = e.data;
		</script>`,
		"/nested": `<title>n</title><body>waiting<script>
			const w = new Worker("/nested.js"); w.onmessage = e => document.body.textContent = e.data;
		</script>`,
		"/module": `<title>m</title><body>waiting<script>
			const w = new Worker("/module.js", {type: "module"}); w.onmessage = e => document.body.textContent = e.data;
		</script>`,
		"/shared": `<title>s</title><body>waiting<script>
			const w = new SharedWorker("/shared.js"); w.port.onmessage = e => document.body.textContent = e.data;
		</script>`,
		"/sw": `<title>sw</title><body>waiting<script>
			navigator.serviceWorker.addEventListener("controllerchange", () => document.body.textContent = "service worker controls");
			navigator.serviceWorker.register("/sw.js");
		</script>`,
		"/iframe": `<title>i</title><body>waiting<script>
			onmessage = e => document.body.textContent = e.data;
		</script><iframe src="CROSS/framed"></iframe>`,
		"/framed": `<script src="/framed.js"></script>`,
		"/popup": `<title>p</title><body>waiting<script>
			onmessage = e => document.body.textContent = e.data;
		</script><button onclick="window.open('/popped')">open</button>`,
		"/popped": `<title>popped</title><script src="/popped.js"></script>`,
		"/prerendered": `<title>prerendered</title><script>
			new BroadcastChannel("pr").postMessage(document.prerendering ? "prerendered page ran" : "page ran unprerendered");
		</script>`,
	}
	mux := http.NewServeMux()
	var cross string
	for path, body := range js {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/javascript")
			fmt.Fprint(w, body)
		})
	}
	for path, body := range html {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, strings.ReplaceAll(body, "CROSS", cross))
		})
	}
	srv := httptest.NewServer(mux)
	cross = strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
	t.Cleanup(srv.Close)
	return srv
}

// TestPausedTargetsRun checks that pages relying on workers, service
// workers, cross-site iframes and popups work under the server: Chrome
// starts each of them paused while auto-attach waits for a debugger, and
// the server must let every one run, attached or not.
func TestPausedTargetsRun(t *testing.T) {
	site := pausedTargetSite(t)
	s := startServer(t, headless...)
	for _, c := range []struct{ path, want string }{
		{"/worker", "worker ran"},
		{"/nested", "nested worker ran"},
		{"/module", "module worker ran"},
		{"/shared", "shared worker ran"},
		{"/sw", "service worker controls"},
		{"/iframe", "iframe ran"},
	} {
		s.ok("navigate_page", map[string]any{"url": site.URL + c.path})
		if res := s.call("wait_for", map[string]any{"text": []string{c.want}, "timeout": 5000}); res.IsError {
			t.Errorf("%s: %s", c.path, text(res))
		}
	}
	// The popup tells its opener, which must run on as well.
	s.ok("navigate_page", map[string]any{"url": site.URL + "/popup"})
	s.ok("click", map[string]any{"uid": uidOf(t, s.ok("take_snapshot", nil), `button "open"`)})
	s.ok("select_page", map[string]any{"pageId": pageID(t, s.ok("list_pages", nil), "/popup")})
	if res := s.call("wait_for", map[string]any{"text": []string{"popup ran"}, "timeout": 5000}); res.IsError {
		t.Errorf("/popup: %s", text(res))
	}
}
