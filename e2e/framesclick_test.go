package e2e

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// TestClickInCrossOriginFramesOfOneSite clicks buttons in frames of another
// origin that Chrome keeps in their parent's process because they are of
// the same site (a dev server on one port framing another): directly in
// the page, and inside a cross-process (cross-site) frame. Each click must
// land on its button, as it does in a same-origin frame.
func TestClickInCrossOriginFramesOfOneSite(t *testing.T) {
	routes := map[string]string{
		"/inner": `<title>Inner</title><div style="height: 40px"></div><button onclick="this.textContent = 'Inner clicked'">Inner</button>`,
	}
	// The pages name both servers' ports, so the ports come first.
	la, lb := listen(t), listen(t)
	port := func(l net.Listener) string { return strconv.Itoa(l.Addr().(*net.TCPAddr).Port) }
	// The top page (127.0.0.1:A) frames 127.0.0.1:B, the same site in the
	// same process, and localhost:A, another site in its own process,
	// which frames localhost:B, of its own site and process.
	routes["/"] = `<!doctype html><title>Framed</title><div style="height: 30px"></div>
<iframe src="http://127.0.0.1:` + port(lb) + `/inner" style="width: 300px; height: 120px; margin-left: 50px"></iframe>
<iframe src="http://localhost:` + port(la) + `/middle" style="width: 420px; height: 240px"></iframe>`
	routes["/middle"] = `<title>Middle</title><div style="height: 20px"></div>
<iframe src="http://localhost:` + port(lb) + `/inner" style="width: 300px; height: 120px; margin-left: 30px"></iframe>`
	serve := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, routes[r.URL.Path])
	})
	for _, l := range []net.Listener{la, lb} {
		srv := &httptest.Server{Listener: l, Config: &http.Server{Handler: serve}}
		srv.Start()
		t.Cleanup(srv.Close)
	}
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": "http://127.0.0.1:" + port(la) + "/"})
	var snap string
	eventually(t, "both inner frames in the snapshot", func() bool {
		snap = s.ok("take_snapshot", nil)
		return strings.Count(snap, `button "Inner"`) == 2
	})
	var clicks []string
	for line := range strings.Lines(snap) {
		if strings.Contains(line, `button "Inner"`) {
			uid := anyUIDRe.FindStringSubmatch(line)[1]
			s.ok("hover", map[string]any{"uid": uid})
			s.ok("take_screenshot", map[string]any{"uid": uid})
			clicks = append(clicks, s.ok("click", map[string]any{"uid": uid}))
		}
	}
	if final := s.ok("take_snapshot", nil); strings.Count(final, `button "Inner clicked"`) != 2 {
		t.Fatalf("%d of the 2 frame buttons were clicked, in\n%s\nafter clicks that answered\n%s\non\n%s",
			strings.Count(final, `button "Inner clicked"`), final, strings.Join(clicks, "\n"), snap)
	}
}

// listen opens a TCP listener on a free port of 127.0.0.1.
func listen(t *testing.T) net.Listener {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return l
}
