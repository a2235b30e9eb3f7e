package chrome

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeWebDriver is a WebDriver endpoint that records what it is asked and
// answers new sessions with caps.
type fakeWebDriver struct {
	mu      sync.Mutex
	created []map[string]any // alwaysMatch of each POST /session
	deleted []string
	auth    []string
	gone    bool // keep-alives get "invalid session id"
	caps    func(srvURL string) map[string]any
}

func (f *fakeWebDriver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.auth = append(f.auth, r.Header.Get("Authorization"))
	reply := func(status int, v any) {
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(map[string]any{"value": v})
	}
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/wd/hub/session":
		var body struct {
			Capabilities struct{ AlwaysMatch map[string]any } `json:"capabilities"`
		}
		json.NewDecoder(r.Body).Decode(&body)
		f.created = append(f.created, body.Capabilities.AlwaysMatch)
		reply(http.StatusOK, map[string]any{"sessionId": "s1", "capabilities": f.caps("http://" + r.Host)})
	case r.Method == http.MethodGet && r.URL.Path == "/wd/hub/session/s1/timeouts":
		if f.gone {
			reply(http.StatusNotFound, map[string]any{"error": "invalid session id", "message": "session deleted"})
			return
		}
		reply(http.StatusOK, map[string]any{"script": 30000})
	case r.Method == http.MethodDelete && r.URL.Path == "/wd/hub/session/s1":
		f.deleted = append(f.deleted, "s1")
		reply(http.StatusOK, nil)
	case r.URL.Path == "/json/version": // a chromedriver's browser, at debuggerAddress
		json.NewEncoder(w).Encode(map[string]string{"webSocketDebuggerUrl": "ws://" + r.Host + "/devtools/browser/b1"})
	default:
		reply(http.StatusNotFound, map[string]any{"error": "unknown command", "message": r.Method + " " + r.URL.Path})
	}
}

// TestWebDriverSession creates a session on a fake endpoint and checks the
// capabilities sent, the CDP address taken from se:cdp or from
// debuggerAddress, basic auth from the URL, and the session's deletion.
func TestWebDriverSession(t *testing.T) {
	for _, tc := range []struct {
		name string
		caps func(srvURL string) map[string]any
		want func(srvURL string) string
	}{
		{"se:cdp", func(string) map[string]any { return map[string]any{"se:cdp": "ws://grid:4444/session/s1/se/cdp"} },
			func(string) string { return "ws://grid:4444/session/s1/se/cdp" }},
		{"debuggerAddress", func(u string) map[string]any {
			port := u[strings.LastIndex(u, ":")+1:]
			return map[string]any{"goog:chromeOptions": map[string]any{"debuggerAddress": "localhost:" + port}}
		}, func(u string) string { return "ws://" + strings.TrimPrefix(u, "http://") + "/devtools/browser/b1" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeWebDriver{caps: tc.caps}
			srv := httptest.NewServer(f)
			defer srv.Close()
			u := strings.Replace(srv.URL, "http://", "http://me:pw@", 1) + "/wd/hub/"
			launch := LaunchOptions{Headless: true, ViewportWidth: 800, ViewportHeight: 600, AcceptInsecureCerts: true, Args: []string{"--lang=de"}, IgnoreDefaultArgs: []string{"--disable-sync"}}
			extra := map[string]any{"platformName": "linux", "goog:chromeOptions": map[string]any{"args": []any{"--mute-audio"}, "prefs": map[string]any{"a": 1}}}
			s, ws, header, err := StartWebDriver(t.Context(), WebDriverOptions{URL: u, Capabilities: extra}, launch, slog.New(slog.DiscardHandler))
			if err != nil {
				t.Fatal(err)
			}
			if want := tc.want(srv.URL); ws != want {
				t.Errorf("CDP endpoint %q, want %q", ws, want)
			}
			if header.Get("Authorization") != "Basic bWU6cHc=" {
				t.Errorf("CDP handshake headers %v lack the URL's basic auth", header)
			}
			s.Close()
			s.Close()

			f.mu.Lock()
			defer f.mu.Unlock()
			if len(f.deleted) != 1 {
				t.Errorf("deleted %v, want the session once", f.deleted)
			}
			for _, a := range f.auth[:1] {
				if a != "Basic bWU6cHc=" {
					t.Errorf("WebDriver request with Authorization %q", a)
				}
			}
			caps := f.created[0]
			chrome, _ := caps["goog:chromeOptions"].(map[string]any)
			args := []string{}
			for _, a := range chrome["args"].([]any) {
				args = append(args, a.(string))
			}
			for _, want := range []string{"--headless=new", "--window-size=800,600", "--lang=de", "--mute-audio", "--no-first-run"} {
				if !slices.Contains(args, want) {
					t.Errorf("args %v lack %s", args, want)
				}
			}
			if slices.Contains(args, "--disable-sync") || slices.Index(args, "--mute-audio") < slices.Index(args, "--lang=de") {
				t.Errorf("args %v: ignored default kept, or the user's args not last", args)
			}
			if caps["browserName"] != "chrome" || caps["platformName"] != "linux" || caps["acceptInsecureCerts"] != true || chrome["prefs"] == nil {
				t.Errorf("capabilities %v", caps)
			}
		})
	}
}

// TestWebDriverSessionGone checks that the keep-alive notices a session the
// endpoint no longer knows, which ends the browser's connection.
func TestWebDriverSessionGone(t *testing.T) {
	f := &fakeWebDriver{caps: func(string) map[string]any { return map[string]any{"se:cdp": "ws://grid/cdp"} }}
	srv := httptest.NewServer(f)
	defer srv.Close()
	s, _, _, err := StartWebDriver(t.Context(), WebDriverOptions{URL: srv.URL + "/wd/hub"}, LaunchOptions{}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	f.mu.Lock()
	f.gone = true
	f.mu.Unlock()
	gone := make(chan struct{})
	s.KeepAlive(time.Millisecond, func() { close(gone) })
	select {
	case <-gone:
	case <-time.After(10 * time.Second):
		t.Fatal("the keep-alive did not notice the session was gone")
	}
}

// TestWebDriverSessionErrors checks that the endpoint's refusals and
// sessions without a CDP address are explained.
func TestWebDriverSessionErrors(t *testing.T) {
	f := &fakeWebDriver{caps: func(string) map[string]any { return map[string]any{"browserName": "firefox"} }}
	srv := httptest.NewServer(f)
	defer srv.Close()
	log := slog.New(slog.DiscardHandler)
	if _, _, _, err := StartWebDriver(t.Context(), WebDriverOptions{URL: srv.URL + "/wd/hub"}, LaunchOptions{}, log); err == nil || !strings.Contains(err.Error(), "names no CDP endpoint") {
		t.Errorf("a session without a CDP address: %v", err)
	}
	if len(f.deleted) != 1 {
		t.Errorf("the useless session was not deleted: %v", f.deleted)
	}
	if _, _, _, err := StartWebDriver(t.Context(), WebDriverOptions{URL: srv.URL + "/elsewhere"}, LaunchOptions{}, log); err == nil || !strings.Contains(err.Error(), "unknown command") {
		t.Errorf("an endpoint that refuses: %v", err)
	}
	if _, _, _, err := StartWebDriver(t.Context(), WebDriverOptions{URL: "grid:4444"}, LaunchOptions{}, log); err == nil || !strings.Contains(err.Error(), "not an http(s) URL") {
		t.Errorf("a bad URL: %v", err)
	}
}
