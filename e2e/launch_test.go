package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLaunchFlagsReachChrome(t *testing.T) {
	logFile := filepath.Join(t.TempDir(), "server.log")
	s := startServer(t, append(headless, "--logFile", logFile, "--chromeArg=--user-agent=probe-agent/1.0")...)
	if got := s.eval("() => navigator.userAgent"); got != `"probe-agent/1.0"` {
		t.Fatalf("--chromeArg did not reach Chrome: userAgent %s", got)
	}
	fi, err := os.Stat(logFile)
	if err != nil || fi.Mode().Perm() != 0o600 || fi.Size() == 0 {
		t.Fatalf("--logFile: %v %v", fi, err)
	}
	data, _ := os.ReadFile(logFile)
	mustContain(t, string(data), "launched Chrome")
}

func TestAcceptInsecureCerts(t *testing.T) {
	tlsSite := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "<title>Self-signed</title>")
	}))
	defer tlsSite.Close()
	strict := startServer(t, headless...)
	// As in the reference, a refused navigation is the answer's text.
	mustContain(t, strict.ok("navigate_page", map[string]any{"url": tlsSite.URL}), "Unable to navigate in the selected page: net::ERR_CERT")
	lax := startServer(t, append(headless, "--acceptInsecureCerts")...)
	lax.ok("navigate_page", map[string]any{"url": tlsSite.URL})
	if got := lax.eval("() => document.title"); got != `"Self-signed"` {
		t.Fatalf("with --acceptInsecureCerts the page title is %s", got)
	}
}

func TestProxyServer(t *testing.T) {
	seen := make(chan string, 100)
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen <- r.URL.String()
		fmt.Fprint(w, "<title>Via proxy</title>")
	}))
	defer proxy.Close()
	s := startServer(t, append(headless, "--proxyServer", strings.TrimPrefix(proxy.URL, "http://"))...)
	s.ok("navigate_page", map[string]any{"url": "http://devtools-mcp.test/page"})
	if got := s.eval("() => document.title"); got != `"Via proxy"` {
		t.Fatalf("through the proxy the title is %s", got)
	}
	// Air-gapped: all that went through the proxy is the page's own.
	viaProxy := false
	for len(seen) > 0 {
		u := <-seen
		viaProxy = viaProxy || strings.Contains(u, "devtools-mcp.test/page")
		if !strings.Contains(u, "devtools-mcp.test/") {
			t.Errorf("Chrome contacted %s on its own", u)
		}
	}
	if !viaProxy {
		t.Fatal("the page did not load through --proxyServer")
	}
}
