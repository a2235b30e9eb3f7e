package e2e

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// socketProbe serves pages that each open a WebSocket to /sock and then
// report with /done?who how it ended; it remembers the handshakes that
// reached it.
type socketProbe struct {
	mu         sync.Mutex
	handshakes []string
	done       map[string]string
}

// sockScript opens a WebSocket and reports its fate as who.
const sockScript = `function probe(who) {
	const s = new WebSocket(location.origin.replace('http', 'ws') + '/sock?' + who);
	let told = false;
	const tell = how => { if (!told) { told = true; fetch('/done?' + who + '=' + how); } };
	s.onopen = () => tell('open'); s.onerror = () => tell('refused'); s.onclose = () => tell('refused');
}`

// listen adds to mux the probe's /sock, which records handshakes, and
// /done, where scripts report.
func (p *socketProbe) listen(mux *http.ServeMux) {
	mux.HandleFunc("/sock", func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.handshakes = append(p.handshakes, r.URL.RawQuery)
		p.mu.Unlock()
		http.Error(w, "no", http.StatusBadRequest)
	})
	mux.HandleFunc("/done", func(w http.ResponseWriter, r *http.Request) {
		who, how, _ := strings.Cut(r.URL.RawQuery, "=")
		p.mu.Lock()
		p.done[who] = how
		p.mu.Unlock()
	})
}

func newSocketProbe(t *testing.T) (*socketProbe, *httptest.Server) {
	p := &socketProbe{done: map[string]string{}}
	mux := http.NewServeMux()
	p.listen(mux)
	html := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(body))
		}
	}
	js := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/javascript")
			w.Write([]byte(body))
		}
	}
	mux.HandleFunc("/worker.js", js(sockScript+"probe('worker')"))
	mux.HandleFunc("/shared.js", js(sockScript+"probe('shared')"))
	mux.HandleFunc("/sw.js", js(sockScript+"probe('sw')"))
	mux.HandleFunc("/frame", html(`<script>`+sockScript+`probe('frame')</script>`))
	mux.HandleFunc("/popup", html(`<title>Popup</title><script>`+sockScript+`probe('popup')</script>`))
	mux.HandleFunc("/", html(`<title>Sockets</title><script>`+sockScript+`probe('page');
		new Worker('/worker.js'); new SharedWorker('/shared.js'); navigator.serviceWorker.register('/sw.js');
		</script><iframe src="/frame"></iframe>`))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return p, srv
}

// TestURLPolicyRefusesWebSockets: Fetch interception does not see
// WebSockets, so under a URL policy none may reach the network, from a
// page, an iframe, a popup or a worker.
func TestURLPolicyRefusesWebSockets(t *testing.T) {
	probe, site := newSocketProbe(t)
	s := startServer(t, append(headless, "--blockedUrlPattern", "*/ads/*")...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	s.eval("() => { window.open('/popup'); }")
	want := []string{"page", "worker", "shared", "sw", "frame", "popup"}
	eventually(t, "every WebSocket to end", func() bool {
		probe.mu.Lock()
		defer probe.mu.Unlock()
		return len(probe.done) == len(want)
	})
	probe.mu.Lock()
	defer probe.mu.Unlock()
	if len(probe.handshakes) > 0 {
		t.Fatalf("WebSocket handshakes reached the server under a URL policy: %q", probe.handshakes)
	}
	for _, who := range want {
		if probe.done[who] != "refused" {
			t.Errorf("the %s's WebSocket: %q, want refused", who, probe.done[who])
		}
	}
}

// TestURLPolicyRefusesWebSocketsOfSlowServiceWorkers: a new service worker
// answers no DevTools command until its script has loaded, and the guard
// used to give up after 10 s and let it run without its rule; the page
// decides how slowly its server sends the script.
func TestURLPolicyRefusesWebSocketsOfSlowServiceWorkers(t *testing.T) {
	probe := &socketProbe{done: map[string]string{}}
	mux := http.NewServeMux()
	probe.listen(mux)
	mux.HandleFunc("/sw.js", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(11 * time.Second):
		case <-r.Context().Done():
			return
		}
		w.Header().Set("Content-Type", "text/javascript")
		w.Write([]byte(sockScript + "probe('sw')"))
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<title>Slow</title><script>navigator.serviceWorker.register('/sw.js')</script>`))
	})
	site := httptest.NewServer(mux)
	t.Cleanup(site.Close)
	s := startServer(t, append(headless, "--blockedUrlPattern", "*/ads/*")...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	eventually(t, "the service worker's WebSocket to end", func() bool {
		probe.mu.Lock()
		defer probe.mu.Unlock()
		return probe.done["sw"] != ""
	})
	probe.mu.Lock()
	defer probe.mu.Unlock()
	if len(probe.handshakes) > 0 || probe.done["sw"] != "refused" {
		t.Fatalf("handshakes %q reached the server, the service worker's WebSocket: %q; want none, refused", probe.handshakes, probe.done["sw"])
	}
}

// TestURLPolicyRefusesWebSocketsOfRestartedServiceWorkers: a service worker
// that was stopped starts again in place, in its old session, paused once
// more; the guard must set its rule again and let it run, or it never
// answers its pages (under a URL policy their requests go to the network,
// not to it: a message starts it again).
func TestURLPolicyRefusesWebSocketsOfRestartedServiceWorkers(t *testing.T) {
	probe := &socketProbe{done: map[string]string{}}
	mux := http.NewServeMux()
	probe.listen(mux)
	mux.HandleFunc("/sw.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		// Each start of the worker reports under a name of its own.
		w.Write([]byte(sockScript + `probe('sw' + Date.now());
			self.addEventListener('activate', e => e.waitUntil(clients.claim()));
			self.addEventListener('message', e => e.source.postMessage('answered by the worker'));`))
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<title>Restart</title><script>navigator.serviceWorker.register('/sw.js')</script>`))
	})
	site := httptest.NewServer(mux)
	t.Cleanup(site.Close)
	ws, _, _ := chromium(t)
	conn := openTabs(t, ws, 0)
	s := startServer(t, "--browserUrl", browserURL(ws), "--blockedUrlPattern", "*/ads/*")
	s.ok("navigate_page", map[string]any{"url": site.URL})
	mustContain(t, s.ok("evaluate_script", map[string]any{"function": `async () => {
		await navigator.serviceWorker.ready;
		if (!navigator.serviceWorker.controller) await new Promise(r => navigator.serviceWorker.addEventListener('controllerchange', r));
		return 'controlled'; }`}), "controlled")
	ended := func(n int) func() bool {
		return func() bool {
			probe.mu.Lock()
			defer probe.mu.Unlock()
			return len(probe.done) == n
		}
	}
	eventually(t, "the service worker's first WebSocket to end", ended(1))

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	targets, err := cdp.TargetGetTargets.Call(ctx, conn.Session(""), cdp.GetTargetsParams{})
	if err != nil {
		t.Fatal(err)
	}
	var page string
	for _, ti := range targets.TargetInfos {
		if ti.Type == "page" && strings.HasPrefix(ti.URL, site.URL) {
			page = ti.TargetID
		}
	}
	att, err := cdp.TargetAttachToTarget.Call(ctx, conn.Session(""), cdp.AttachToTargetParams{TargetID: page, Flatten: true})
	if err != nil {
		t.Fatalf("attach to the page %q: %v", page, err)
	}
	for _, a := range []cdp.Action{cdp.ServiceWorkerEnable, cdp.ServiceWorkerStopAllWorkers} {
		if err := a.Do(ctx, conn.Session(att.SessionID)); err != nil {
			t.Fatal(err)
		}
	}
	mustContain(t, s.ok("evaluate_script", map[string]any{"function": `() => new Promise(answered => {
		navigator.serviceWorker.onmessage = e => answered(e.data);
		navigator.serviceWorker.ready.then(r => r.active.postMessage('again'));
	})`}), "answered by the worker")
	eventually(t, "the restarted service worker's WebSocket to end", ended(2))
	probe.mu.Lock()
	defer probe.mu.Unlock()
	if len(probe.handshakes) > 0 {
		t.Fatalf("WebSocket handshakes reached the server under a URL policy: %q", probe.handshakes)
	}
	for who, how := range probe.done {
		if how != "refused" {
			t.Errorf("%s: %q, want refused", who, how)
		}
	}
}

// TestURLPolicyCoversOtherRequests: the other ways a page reaches the
// network go through the browser-wide interception: a worker's and a
// service worker's fetch, EventSource, sendBeacon, prefetch, and a
// redirect onto a blocked URL.
func TestURLPolicyCoversOtherRequests(t *testing.T) {
	var mu sync.Mutex
	var blocked []string
	done := map[string]bool{}
	mux := http.NewServeMux()
	mux.HandleFunc("/blocked/", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		blocked = append(blocked, r.URL.String())
		mu.Unlock()
	})
	mux.HandleFunc("/done", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		done[r.URL.RawQuery] = true
		mu.Unlock()
	})
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/blocked/redirected", http.StatusFound)
	})
	serve := func(typ, body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", typ)
			w.Write([]byte(body))
		}
	}
	tell := `const tell = who => () => fetch('/done?' + who);`
	mux.HandleFunc("/worker.js", serve("text/javascript", tell+`fetch('/blocked/worker').then(tell('worker'), tell('worker'));`))
	mux.HandleFunc("/sw.js", serve("text/javascript", tell+`self.addEventListener('install', e => e.waitUntil(fetch('/blocked/sw').then(tell('sw'), tell('sw'))));`))
	mux.HandleFunc("/", serve("text/html", `<title>Requests</title><script>`+tell+`
		new Worker('/worker.js');
		navigator.serviceWorker.register('/sw.js');
		const es = new EventSource('/blocked/events'); es.onerror = () => { es.close(); tell('events')(); };
		navigator.sendBeacon('/blocked/beacon', 'x');
		fetch('/redirect').then(tell('redirect'), tell('redirect'));
		const l = document.createElement('link'); l.rel = 'prefetch'; l.href = '/blocked/prefetch';
		l.onload = l.onerror = tell('prefetch'); document.head.append(l);
		</script>`))
	site := httptest.NewServer(mux)
	t.Cleanup(site.Close)
	s := startServer(t, append(headless, "--blockedUrlPattern", "*/blocked/*")...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	eventually(t, "every request to end", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(done) == 5
	})
	mu.Lock()
	defer mu.Unlock()
	if len(blocked) > 0 {
		t.Fatalf("blocked URLs reached the server: %q (ended: %v)", blocked, done)
	}
}
