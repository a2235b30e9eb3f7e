package chrome

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestFindExecutableSaysWhereItLooked(t *testing.T) {
	if _, err := FindExecutable("/no/such/chrome", ""); err == nil || !strings.Contains(err.Error(), "--executablePath /no/such/chrome") {
		t.Errorf("a missing explicit path = %v, want it named", err)
	}
	t.Setenv("CHROME_PATH", "/no/such/env-chrome")
	if _, err := FindExecutable("", ""); err == nil || !strings.Contains(err.Error(), "CHROME_PATH=/no/such/env-chrome") {
		t.Errorf("a missing CHROME_PATH = %v, want the variable named", err)
	}
	t.Setenv("CHROME_PATH", "")
	t.Setenv("PATH", t.TempDir())
	_, err := FindExecutable("", "canary")
	if err == nil || !strings.Contains(err.Error(), `no Chrome found for channel "canary"; looked in: `) || strings.Contains(err.Error(), "(in PATH)") {
		t.Errorf("no canary = %v, want the channel's places and no PATH lookup", err)
	}
	self, _ := os.Executable()
	if got, err := FindExecutable(self, ""); err != nil || got != self {
		t.Errorf("an existing explicit path = %q, %v", got, err)
	}
}

func TestBuildArgs(t *testing.T) {
	args, _ := buildArgs(LaunchOptions{Headless: true, ProxyServer: "http://p:1", AcceptInsecureCerts: true,
		Args: []string{"--enable-features=A"}, ExtraFeatures: []string{"WebMCP"}, IgnoreDefaultArgs: []string{"--disable-sync"}}, "/prof")
	for _, want := range []string{"--headless=new", "--window-size=1280,720", "--proxy-server=http://p:1", "--ignore-certificate-errors",
		"--disable-extensions", "--enable-features=A,WebMCP", "--user-data-dir=/prof", "--remote-debugging-pipe"} {
		if !slices.Contains(args, want) {
			t.Errorf("args lack %s: %q", want, args)
		}
	}
	if slices.Contains(args, "--disable-sync") {
		t.Error("an ignored default argument was kept")
	}
	if args[len(args)-1] != "about:blank" {
		t.Errorf("the last argument is %q, want about:blank", args[len(args)-1])
	}
	args, _ = buildArgs(LaunchOptions{Devtools: true, EnableExtensions: true, ViewportWidth: 800, ViewportHeight: 600}, "/prof")
	for _, want := range []string{"--auto-open-devtools-for-tabs", "--enable-unsafe-extension-debugging", "--window-size=800,600"} {
		if !slices.Contains(args, want) {
			t.Errorf("args lack %s: %q", want, args)
		}
	}
	if slices.Contains(args, "--disable-extensions") {
		t.Error("extensions disabled although the extensions category is on")
	}
}

// TestLaunchFailureExplains launches a "browser" that exits at once: the
// error says so and the isolated profile is removed.
func TestLaunchFailureExplains(t *testing.T) {
	exe := filepath.Join(t.TempDir(), "fake-chrome")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\necho 'The profile appears to be in use by another Chromium process' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, _, err := Launch(ctx, LaunchOptions{ExecutablePath: exe, Isolated: true, Headless: true}, slog.New(slog.DiscardHandler))
	if err == nil {
		conn.Close()
		t.Fatal("a browser that exits at once launched")
	}
	for _, want := range []string{"launch " + exe + ": ", "Chrome said:\nThe profile appears to be in use", "close it, pass --isolated"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("launch error %q does not say %q", err, want)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "devtools-mcp-profile-*")); len(left) > 0 {
		t.Errorf("isolated profiles left behind: %v", left)
	}
}

func TestTailBufferKeepsTheEnd(t *testing.T) {
	b := &TailBuffer{max: 10}
	b.Write([]byte("0123456789\n\n"))
	b.Write([]byte("abc\n"))
	if got := b.String(); got != "6789\nabc\n" { // the last 10 bytes, blank lines dropped
		t.Errorf("tail = %q", got)
	}
}

func TestAttachEndpoints(t *testing.T) {
	ctx := context.Background()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/json/version":
			w.Write([]byte(`{"webSocketDebuggerUrl":"ws://127.0.0.1:1/devtools/browser/x"}`))
		case "/bad/json/version":
			w.Write([]byte(`{}`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	if ws, err := ResolveBrowserURL(ctx, srv.URL); err != nil || ws != "ws://127.0.0.1:1/devtools/browser/x" {
		t.Errorf("ResolveBrowserURL = %q, %v", ws, err)
	}
	for url, want := range map[string]string{
		"ftp://x":            "is not an http URL",
		srv.URL + "/bad":     "did not return a webSocketDebuggerUrl",
		srv.URL + "/other/":  "answered 404 Not Found",
		"http://127.0.0.1:9": "could not reach Chrome at http://127.0.0.1:9",
	} {
		if _, err := ResolveBrowserURL(ctx, url); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ResolveBrowserURL(%s) = %v, want %q", url, err, want)
		}
	}

	dir := t.TempDir()
	if _, err := ReadDevToolsActivePort(dir); err == nil || !strings.Contains(err.Error(), "chrome://inspect/#remote-debugging") {
		t.Errorf("no DevToolsActivePort = %v", err)
	}
	os.WriteFile(filepath.Join(dir, "DevToolsActivePort"), []byte("99999\n/devtools/browser/y\n"), 0o600)
	if _, err := ReadDevToolsActivePort(dir); err == nil || !strings.Contains(err.Error(), "invalid port") {
		t.Errorf("a bad port = %v", err)
	}
	os.WriteFile(filepath.Join(dir, "DevToolsActivePort"), []byte("9333\n/devtools/browser/y\n"), 0o600)
	o := AttachOptions{AutoConnect: true, UserDataDir: dir}
	if ws, _, err := o.Endpoint(ctx); err != nil || ws != "ws://127.0.0.1:9333/devtools/browser/y" {
		t.Errorf("autoConnect endpoint = %q, %v", ws, err)
	}
	o = AttachOptions{WSEndpoint: "ws://h/x", WSHeaders: map[string]string{"Authorization": "Bearer t"}}
	if ws, h, err := o.Endpoint(ctx); err != nil || ws != "ws://h/x" || h.Get("Authorization") != "Bearer t" {
		t.Errorf("wsEndpoint = %q %v %v", ws, h, err)
	}
	if dir, err := UserDataDir("beta"); err != nil || !strings.Contains(dir, "beta") {
		t.Errorf("UserDataDir(beta) = %q, %v", dir, err)
	}
	if dir, err := DefaultUserDataDir("dev"); err != nil || !strings.HasSuffix(dir, filepath.Join("devtools-mcp", "chrome-profile-dev")) {
		t.Errorf("DefaultUserDataDir(dev) = %q, %v", dir, err)
	}
}

// TestChromeUserDataDirConfigHome checks the order in which --autoConnect
// looks for the user's profile on Linux: $CHROME_CONFIG_HOME, then
// $XDG_CONFIG_HOME, then ~/.config, as Chrome itself does.
func TestChromeUserDataDirConfigHome(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the config home variables are Linux's")
	}
	t.Setenv("XDG_CONFIG_HOME", "/xdg")
	t.Setenv("CHROME_CONFIG_HOME", "/chrome-config")
	if dir, _ := UserDataDir("stable"); dir != "/chrome-config/google-chrome" {
		t.Errorf("with CHROME_CONFIG_HOME: %q", dir)
	}
	t.Setenv("CHROME_CONFIG_HOME", "")
	if dir, _ := UserDataDir("canary"); dir != "/xdg/google-chrome-canary" {
		t.Errorf("with XDG_CONFIG_HOME only: %q", dir)
	}
}
