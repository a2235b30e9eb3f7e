package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// requestLog records the requests a test site received, with their
// Sec-Purpose header (prefetch, prerender).
type requestLog struct {
	mu   sync.Mutex
	seen []string
}

func (l *requestLog) add(r *http.Request) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seen = append(l.seen, r.Host+r.URL.Path+" "+r.Header.Get("Sec-Purpose"))
}

// matching returns the requests whose line contains substr.
func (l *requestLog) matching(substr string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, s := range l.seen {
		if strings.Contains(s, substr) {
			out = append(out, s)
		}
	}
	return out
}

// speculationSite serves pages under /ok/ whose speculation rules ask
// Chrome to prefetch and prerender pages under /blocked/, of its own origin
// and of another site (the same server reached as localhost): inline
// (/ok/inline) and from a Speculation-Rules header (/ok/header); added by
// a script once the style is clean, so that Chrome sends them at once
// (/ok/dynamic), through document.write (/ok/write), by turning an empty
// script into rules (/ok/retype), written into the document reopened
// (/ok/reopen), cloned from a template (/ok/template), in a closed shadow root, where no
// observer sees them, for the press on the link (/ok/shadow), and in an
// iframe, inline and from a header (/ok/frame). Each has a link "Go" to
// its prerendered page; the inline one also has the older
// <link rel=prefetch> and <link rel=prerender>. Every request is logged.
func speculationSite(t *testing.T) (*httptest.Server, *requestLog) {
	log := &requestLog{}
	var other string
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.add(r)
		rulesWhen := func(p, eagerness string) string {
			return fmt.Sprintf(`{"prerender":[{"source":"list","urls":["/blocked/%[1]spr","%[2]s/blocked/%[1]sxpr"],"eagerness":"%[3]s"}],`+
				`"prefetch":[{"source":"list","urls":["/blocked/%[1]spf","%[2]s/blocked/%[1]sxpf"],"eagerness":"%[3]s"}]}`, p, other, eagerness)
		}
		rules := func(p string) string { return rulesWhen(p, "immediate") }
		switch r.URL.Path {
		case "/ok/dynamic":
			fmt.Fprintf(w, `<title>Dynamic rules</title><a href="/blocked/dpr">Go</a><script>getComputedStyle(document.body).color; const s = document.createElement("script"); s.type = "speculationrules"; s.text = %q; document.head.append(s);</script>`, rules("d"))
		case "/ok/write":
			fmt.Fprintf(w, `<title>Written rules</title><a href="/blocked/wpr">Go</a><script>document.write('<script type="SpeculationRules">' + %q + '</scr' + 'ipt>');</script>`, rules("w"))
		case "/ok/retype":
			fmt.Fprintf(w, `<title>Retyped rules</title><a href="/blocked/rpr">Go</a><script>const s = document.createElement("script"); document.head.append(s); s.type = "speculationrules"; getComputedStyle(document.body).color; s.append(%q);</script>`, rules("r"))
		case "/ok/reopen":
			fmt.Fprintf(w, `<title>Reopened</title><script>onload = () => { document.open(); document.write('<title>Reopened</title><a href="/blocked/opr">Go</a><script type="speculationrules">' + %q + '</scr' + 'ipt>'); document.close(); }</script>`, rules("o"))
		case "/ok/template":
			fmt.Fprintf(w, `<title>Template rules</title><a href="/blocked/tpr">Go</a><template id="tpl"><script type="speculationrules">%s</script></template><script>getComputedStyle(document.body).color; document.body.append(document.importNode(tpl.content, true));</script>`, rules("t"))
		case "/ok/shadow":
			fmt.Fprintf(w, `<title>Shadow rules</title><a href="/blocked/spr">Go</a><div id="host"></div><script>const s = document.createElement("script"); s.type = "speculationrules"; s.text = %q; host.attachShadow({mode: "closed"}).append(s);</script>`, rulesWhen("s", "conservative"))
		case "/ok/frame":
			fmt.Fprint(w, `<title>Framed rules</title><a href="/blocked/fpr">Go</a><iframe src="/ok/framed"></iframe>`)
		case "/ok/framed":
			w.Header().Set("Speculation-Rules", `"/ok/rules.json"`)
			fmt.Fprintf(w, `<title>Framed</title><script type="speculationrules">%s</script>`, rules("f"))
		case "/ok/inline":
			fmt.Fprintf(w, `<title>Inline rules</title><link rel="prefetch" href="/blocked/lpf"><link rel="prerender" href="/blocked/lpr"><a href="/blocked/ipr">Go</a><script type="speculationrules">%s</script>`, rules("i"))
		case "/ok/header":
			// The server takes the header off: the rest, cookies
			// included, stays as sent.
			w.Header().Set("Speculation-Rules", `"/ok/rules.json"`)
			w.Header().Add("Set-Cookie", "a=1; Path=/")
			w.Header().Add("Set-Cookie", "b=2; Path=/")
			fmt.Fprint(w, `<title>Header rules</title><a href="/blocked/hpr">Go</a><p id="c"></p><script>c.textContent = "cookies " + document.cookie</script>`)
		case "/ok/rules.json":
			w.Header().Set("Content-Type", "application/speculationrules+json")
			fmt.Fprint(w, rules("h"))
		default:
			fmt.Fprintf(w, `<title>Refused page</title><script>document.title = "Refused page ran"</script>`)
		}
	}))
	t.Cleanup(site.Close)
	other = strings.Replace(site.URL, "127.0.0.1", "localhost", 1)
	return site, log
}

// TestSpeculativeLoadsObeyTheURLPolicy checks that speculation rules
// cannot reach a URL the policy refuses: Chrome makes those prefetches
// and prerenders itself, where Fetch interception does not see them, and
// the link to a prefetched page was followed from the prefetch, showing
// the refused page. Under --blockedUrlPattern and --allowedUrlPattern, for
// inline rules and a Speculation-Rules header, same-origin and cross-site:
// no request for a refused URL reaches the server, and following the link
// is refused.
//
// An attached Chrome keeps its own "Preload pages" setting, which nothing
// over DevTools can change, and its prefetches pass beside every DevTools
// interception: with the setting on (Chrome's default), the server keeps
// the rules from Chrome instead (before this, every variant but the
// iframe's reached the refused URLs there); with it off the policy holds
// too. The server still warns at start of what it cannot stop there.
func TestSpeculativeLoadsObeyTheURLPolicy(t *testing.T) {
	blocked := []string{"--blockedUrlPattern", "*/blocked/*"}
	for name, start := range map[string]func(t *testing.T) *server{
		"blocked": func(t *testing.T) *server { return startServer(t, append(blocked, headless...)...) },
		"allowed": func(t *testing.T) *server {
			return startServer(t, append([]string{"--allowedUrlPattern", "*/ok/*"}, headless...)...)
		},
		"attached, preloading on": func(t *testing.T) *server {
			ws, _, _ := chromium(t)
			s := startServer(t, append(blocked, "--browserUrl", browserURL(ws))...)
			s.ok("new_page", map[string]any{"url": "about:blank"})
			return s
		},
		"attached": func(t *testing.T) *server {
			profile := t.TempDir()
			os.MkdirAll(filepath.Join(profile, "Default"), 0o700)
			os.WriteFile(filepath.Join(profile, "Default", "Preferences"), []byte(`{"net":{"network_prediction_options":2}}`), 0o600)
			ws, _, _ := chromiumWith(t, "--user-data-dir="+profile)
			s := startServer(t, append(blocked, "--browserUrl", browserURL(ws))...)
			s.ok("new_page", map[string]any{"url": "about:blank"})
			mustContain(t, s.stderr.String(), "Preload pages")
			return s
		},
	} {
		t.Run(name, func(t *testing.T) {
			site, log := speculationSite(t)
			s := start(t)
			for _, path := range []string{"/ok/inline", "/ok/header", "/ok/dynamic", "/ok/write", "/ok/retype", "/ok/reopen", "/ok/template", "/ok/shadow", "/ok/frame"} {
				snap := s.open(site, path)
				if path == "/ok/header" {
					mustContain(t, snap, "cookies a=1; b=2")
				}
				out := s.ok("click", map[string]any{"uid": uidOf(t, snap, `link "Go"`)})
				if snap := s.ok("take_snapshot", nil); strings.Contains(snap, "Refused page") || strings.Contains(out, "Refused page") {
					t.Fatalf("%s: the link showed the refused page:\n%s\n%s", path, out, snap)
				}
				if list := s.ok("list_pages", nil); strings.Contains(list, "Refused page") {
					t.Fatalf("%s: a refused page is listed:\n%s", path, list)
				}
			}
			if got := log.matching("/blocked/"); len(got) > 0 {
				t.Fatalf("requests for refused URLs reached the server:\n%s", strings.Join(got, "\n"))
			}
		})
	}
}
