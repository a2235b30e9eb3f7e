package e2e

// Flags, config file and environment variables of chrome-devtools-mcp:
// every one the reference accepts starts this server, and the hardening
// flags close every entry point they name.

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// startFlagServer is startServer with extra environment variables and a
// client without roots. Config discovery is off unless env turns it on
// (an empty CHROME_DEVTOOLS_MCP_NO_CONFIG_DISCOVERY), so that a config
// file of the machine's user cannot change the test.
func startFlagServer(t testing.TB, env []string, args ...string) *server {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append(append(os.Environ(), "CHROME_DEVTOOLS_MCP_NO_CONFIG_DISCOVERY=1"), env...)
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "flags", Version: "1"}, &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, legacySession)
	if err != nil {
		t.Fatalf("connect to devtools-mcp %v: %v; stderr:\n%s", args, err, stderr.String())
	}
	s := &server{t: t, session: session, cmd: cmd, stderr: stderr}
	t.Cleanup(func() {
		session.Close()
		if t.Failed() {
			t.Logf("server stderr:\n%s", s.stderr.String())
		}
	})
	return s
}

// listedTools returns the tools the server lists, by name.
func listedTools(t testing.TB, s *server) map[string]*mcp.Tool {
	t.Helper()
	res, err := s.session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	out := map[string]*mcp.Tool{}
	for _, tool := range res.Tools {
		out[tool.Name] = tool
	}
	return out
}

// schemaProps returns the property names and required names of a tool's
// input schema.
func schemaProps(t testing.TB, tool *mcp.Tool) (props map[string]bool, required []string) {
	t.Helper()
	raw, err := json.Marshal(tool.InputSchema)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Properties map[string]json.RawMessage
		Required   []string
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	props = map[string]bool{}
	for k := range s.Properties {
		props[k] = true
	}
	return props, s.Required
}

// TestEveryReferenceFlagStarts starts the server with each flag
// chrome-devtools-mcp 1.11.0 accepts, listed in its --help or hidden, in
// the spellings its documentation uses, and with a flag no version knows:
// each must serve tools/list, and only the unknown one may warn.
func TestEveryReferenceFlagStarts(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "cd4a.config.json")
	if err := os.WriteFile(config, []byte(`{"headless": true}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := [][]string{
		{"--categoryInput=false"}, {"--categoryNavigation"}, {"--no-category-emulation"}, {"--no-category-performance"},
		{"--no-category-network"}, {"--categoryDebugging=true"}, {"--categoryExtensions"}, {"--categoryExperimentalThirdParty"},
		{"--categoryMemory"}, {"--categoryExperimentalWebmcp"}, {"--categoryPwa"},
		{"--autoConnect"}, {"--auto-connect", "--channel=canary"}, {"--browserUrl", "http://127.0.0.1:9"}, {"-u", "http://127.0.0.1:9"},
		{"--wsEndpoint", "ws://127.0.0.1:9/devtools/browser/abc123"}, {"-w", "ws://127.0.0.1:9/devtools/browser/abc123"},
		{"--wsEndpoint", "ws://127.0.0.1:9/devtools/browser/abc123", "--wsHeaders", `{"Authorization":"Bearer token"}`},
		{"--headless"}, {"--executablePath", "/usr/bin/chromium"}, {"-e", "/usr/bin/chromium"}, {"--isolated"},
		{"--userDataDir", filepath.Join(dir, "profile")}, {"--user-data-dir=" + filepath.Join(dir, "profile")}, {"--channel", "beta"},
		{"--proxyServer", "http://127.0.0.1:3128"}, {"--chrome-arg=--no-sandbox", "--chrome-arg=--disable-setuid-sandbox"},
		{"--ignore-default-chrome-arg=--disable-extensions"}, {"--viewport", "1280x720"}, {"--acceptInsecureCerts"},
		{"--blockedUrlPattern", "https://ads.example.com/*"}, {"--allowedUrlPattern", "http://127.0.0.1/*"},
		{"--screenshotFormat", "jpeg"}, {"--screenshotQuality", "0"}, {"--screenshotQuality", "100"},
		{"--screenshotMaxWidth", "1024"}, {"--screenshotMaxHeight", "768"}, {"--logFile", filepath.Join(dir, "log.txt")},
		{"--pageIdRouting"}, {"--no-page-id-routing"}, {"--devtoolsComments"}, {"--experimentalDevtools"}, {"--experimentalVision"},
		{"--memoryDebugging"}, {"--experimentalMemory"}, {"--experimentalStructuredContent"}, {"--experimentalToonFormat"},
		{"--experimentalDataFormat", "toon"}, {"--experimentalIncludeAllPages"}, {"--experimentalInteropTools"},
		{"--experimentalScreencast"}, {"--experimentalScreencast", "--experimentalFfmpegPath", "/usr/bin/ffmpeg"},
		{"--screencastFps", "10"}, {"--experimentalScreencastFps", "5"}, {"--performanceCrux"}, {"--no-performance-crux"},
		{"--usageStatistics"}, {"--no-usage-statistics"}, {"--javascriptEvaluation"}, {"--no-javascript-evaluation"},
		{"--fileNavigations"}, {"--no-file-navigations"}, {"--sourceMaps"}, {"--no-source-maps"},
		{"--clearcutEndpoint", "https://example.com/log"}, {"--clearcutForceFlushIntervalMs", "1000"}, {"--clearcutIncludePidHeader"},
		{"--slim"}, {"--viaCli"}, {"--redactNetworkHeaders"}, {"--allowUnrestrictedPaths"},
		{"--filesystemRoot", dir}, {"--workspace", dir, "--workspace", "/"}, {"--config", config},
	}
	for _, args := range cases {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			// --lazyLaunch: listing tools needs no browser, so none is started.
			s := startFlagServer(t, nil, append([]string{"--lazyLaunch"}, args...)...)
			if n := len(listedTools(t, s)); n < 2 {
				t.Fatalf("%q: %d tools listed", args, n)
			}
			if strings.Contains(s.stderr.String(), "warning") {
				t.Errorf("%q: the server warned:\n%s", args, s.stderr.String())
			}
		})
	}
	t.Run("unknown flags", func(t *testing.T) {
		s := startFlagServer(t, nil, "--lazyLaunch", "--experimentalSomethingNew", "42", "--someFutureSwitch", "--slim")
		if got := len(listedTools(t, s)); got != 3 {
			t.Errorf("the flags after the unknown ones were lost: %d tools listed, want the 3 of --slim", got)
		}
		eventually(t, "the warnings", func() bool {
			return strings.Contains(s.stderr.String(), "ignoring unknown flag --experimentalSomethingNew") &&
				strings.Contains(s.stderr.String(), "ignoring unknown flag --someFutureSwitch")
		})
	})
}

// TestFlagMistakesStillStop checks that what the reference refuses, a
// malformed value or a contradiction, still stops the server with a
// message rather than being ignored like an unknown flag.
func TestFlagMistakesStillStop(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--no-javascript-evaluation=yes"}, "--no-javascript-evaluation takes no value"},
		{[]string{"--screencastFps", "0"}, "--screencastFps expects a positive integer"},
		{[]string{"--workspace=/tmp", "--allowUnrestrictedPaths"}, "--allowUnrestrictedPaths and --filesystemRoot"},
		{[]string{"--categoryPwa", "--browserUrl", "http://127.0.0.1:9"}, "--categoryPwa needs a Chrome this server launches"},
		{[]string{"--config", "/nonexistent/cd4a.json"}, "no such file"},
	} {
		cmd := exec.Command(binary, tc.args...)
		cmd.Env = append(os.Environ(), "CHROME_DEVTOOLS_MCP_NO_CONFIG_DISCOVERY=1")
		out, err := cmd.CombinedOutput()
		if code := cmd.ProcessState.ExitCode(); err == nil || code != 2 || !strings.Contains(string(out), tc.want) {
			t.Errorf("%q: exit %d, output %q; want exit 2 and %q", tc.args, code, out, tc.want)
		}
	}
}

// refused is the text of an error answer that must name why.
func (s *server) refused(name string, args map[string]any, why string) {
	s.t.Helper()
	mustContain(s.t, s.fails(name, args), why)
}

func TestNoJavaScriptEvaluation(t *testing.T) {
	site := pages(t, map[string]string{"/": `<title>Untouched</title><h1>Before</h1>`})
	s := startFlagServer(t, nil, append(headless, "--no-javascript-evaluation", "--categoryExtensions")...)
	tools := listedTools(t, s)
	for _, name := range []string{"evaluate_script", "install_extension"} {
		if tools[name] != nil {
			t.Errorf("%s is listed under --no-javascript-evaluation", name)
		}
	}
	if props, _ := schemaProps(t, tools["navigate_page"]); props["initScript"] || !props["url"] {
		t.Errorf("navigate_page's schema under --no-javascript-evaluation: %v, want url and no initScript", props)
	}
	if res, err := s.callErr("evaluate_script", map[string]any{"function": "() => 1"}); err == nil && !res.IsError {
		t.Errorf("evaluate_script ran: %s", text(res))
	}
	s.ok("navigate_page", map[string]any{"url": site.URL})
	mustContain(t, s.fails("navigate_page", map[string]any{"url": site.URL, "initScript": "document.title = 'pwned'"}), "initScript")

	const why = "URLs is not allowed when JavaScript evaluation is disabled"
	for _, u := range []string{
		"javascript:document.title='pwned'",
		"JavaScript:document.title='pwned'",
		"  jAvAsCrIpT:document.title='pwned'",
		"java\tscript:document.title='pwned'",
		"\njavascript:document.title='pwned'",
		"data:text/html,<title>pwned</title>",
		"DATA:text/html;base64,PHRpdGxlPnB3bmVkPC90aXRsZT4=",
		"vbscript:msgbox(1)",
		"view-source:data:text/html,<title>pwned</title>",
	} {
		s.refused("navigate_page", map[string]any{"url": u}, why)
		s.refused("navigate_page", map[string]any{"type": "url", "url": u}, why)
		s.refused("new_page", map[string]any{"url": u}, why)
	}
	list := s.ok("list_pages", nil)
	if strings.Count(list, site.URL) != 1 || strings.Contains(list, "pwned") || strings.Contains(list, "data:") {
		t.Fatalf("after the refusals the pages are:\n%s", list)
	}
	if snap := s.ok("take_snapshot", nil); !strings.Contains(snap, "Untouched") || !strings.Contains(snap, "Before") {
		t.Fatalf("the page changed:\n%s", snap)
	}
	// Ordinary pages still open, and their own scripts still run.
	s.ok("new_page", map[string]any{"url": site.URL + "/?second"})

	slim := startFlagServer(t, nil, append(headless, "--slim", "--no-javascript-evaluation")...)
	if names := slices.Sorted(maps.Keys(listedTools(t, slim))); !slices.Equal(names, []string{"navigate", "screenshot"}) {
		t.Errorf("--slim --no-javascript-evaluation lists %v, want navigate and screenshot", names)
	}
	slim.refused("navigate", map[string]any{"url": " JAVASCRIPT:alert(1)"}, why)
	slim.refused("navigate", map[string]any{"url": "data:text/html,x"}, why)
	mustContain(t, slim.ok("navigate", map[string]any{"url": site.URL}), "Navigated to")
}

func TestNoFileNavigations(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret.txt")
	if err := os.WriteFile(secret, []byte("top-secret-contents"), 0o600); err != nil {
		t.Fatal(err)
	}
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/redirect" {
			http.Redirect(w, r, "file://"+secret, http.StatusFound)
			return
		}
		fmt.Fprintf(w, `<title>Web</title><a href="file://%s">local</a>`, secret)
	}))
	t.Cleanup(site.Close)

	// Without the flag the file opens: the test can tell.
	open := startFlagServer(t, nil, headless...)
	open.ok("navigate_page", map[string]any{"url": "file://" + secret})
	mustContain(t, open.ok("take_snapshot", nil), "top-secret-contents")

	s := startFlagServer(t, nil, append(headless, "--no-file-navigations")...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	const why = "Navigating to file: URLs is not allowed when --file-navigations is disabled."
	for _, u := range []string{
		"file://" + secret,
		"FILE://" + secret,
		" file:" + secret,
		"fi\nle://" + secret,
		"view-source:file://" + secret,
		"VIEW-SOURCE:File://" + secret,
		"view-source: file://" + secret,
	} {
		s.refused("navigate_page", map[string]any{"url": u}, why)
		s.refused("new_page", map[string]any{"url": u}, why)
	}
	// A redirect from the web, and the page's own link, are Chrome's to
	// refuse; the file must not show either way.
	s.call("navigate_page", map[string]any{"url": site.URL + "/redirect"})
	s.ok("navigate_page", map[string]any{"url": site.URL})
	snap := s.ok("take_snapshot", nil)
	s.call("click", map[string]any{"uid": uidOf(t, snap, "local")})
	list := s.ok("list_pages", nil)
	if strings.Contains(list, "file:") {
		t.Fatalf("a file page is open:\n%s", list)
	}
	if snap := s.ok("take_snapshot", nil); strings.Contains(snap, "top-secret-contents") {
		t.Fatalf("the file's contents are shown:\n%s", snap)
	}

	slim := startFlagServer(t, nil, append(headless, "--slim", "--no-file-navigations")...)
	slim.refused("navigate", map[string]any{"url": "view-source:file://" + secret}, why)
	slim.refused("navigate", map[string]any{"url": "File://" + secret}, why)
}

func TestNoSourceMaps(t *testing.T) {
	var mu sync.Mutex
	var maps int
	files := http.FileServer(http.Dir("testdata"))
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, ".map") {
			mu.Lock()
			maps++
			mu.Unlock()
		}
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(site.Close)
	s := startFlagServer(t, nil, append(headless, "--no-source-maps")...)
	s.ok("navigate_page", map[string]any{"url": site.URL + "/pages/sourcemap.html"})
	list := s.ok("list_console_messages", nil)
	var id int
	if _, err := fmt.Sscanf(pageLine(list, "mapped"), "msgid=%d", &id); err != nil {
		t.Fatalf("no mapped message in:\n%s", list)
	}
	detail := s.ok("get_console_message", map[string]any{"msgid": id})
	mustContain(t, detail, "at fail ("+site.URL+"/pages/bundle.js:")
	withStacks := s.ok("list_console_messages", map[string]any{"includeStackTraces": true})
	if strings.Contains(detail+withStacks, "app.ts") {
		t.Fatalf("stack traces are source-mapped under --no-source-maps:\n%s\n%s", detail, withStacks)
	}
	mu.Lock()
	defer mu.Unlock()
	if maps != 0 {
		t.Fatalf("%d source map requests reached the site", maps)
	}
}

func TestNoPageIDRouting(t *testing.T) {
	site := pages(t, map[string]string{"/": `<title>One</title>`, "/two": `<title>Two</title>`})
	// By default pageId is accepted and optional.
	def := listedTools(t, startFlagServer(t, nil, "--lazyLaunch"))
	props, required := schemaProps(t, def["take_snapshot"])
	if !props["pageId"] || slices.Contains(required, "pageId") {
		t.Errorf("default take_snapshot schema: pageId listed=%v required=%v; want optional", props["pageId"], required)
	}

	s := startFlagServer(t, nil, append(headless, "--no-page-id-routing")...)
	for name, tool := range listedTools(t, s) {
		if props, _ := schemaProps(t, tool); props["pageId"] && name != "select_page" && name != "close_page" {
			t.Errorf("%s still takes pageId under --no-page-id-routing", name)
		}
	}
	s.ok("navigate_page", map[string]any{"url": site.URL})
	s.ok("new_page", map[string]any{"url": site.URL + "/two"})
	mustContain(t, s.ok("take_snapshot", nil), "Two")
	first := pageID(t, s.ok("list_pages", nil), "One (")
	mustContain(t, s.fails("take_snapshot", map[string]any{"pageId": first}), `unknown argument "pageId"`)
	s.ok("select_page", map[string]any{"pageId": first})
	mustContain(t, s.ok("take_snapshot", nil), "One")
}

func TestFilesystemRootFlag(t *testing.T) {
	site := pages(t, map[string]string{"/": `<title>Files</title>`})
	work, other := t.TempDir(), t.TempDir()
	s := startFlagServer(t, nil, append(headless, "--workspace", work)...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	mustContain(t, s.ok("take_snapshot", map[string]any{"filePath": filepath.Join(work, "in.txt")}), "Saved")
	// The temp directory is not allowed once directories are configured.
	mustContain(t, s.fails("take_snapshot", map[string]any{"filePath": filepath.Join(other, "out.txt")}), "--filesystemRoot directories", work)
	if strings.Contains(s.stderr.String(), "shares no roots") {
		t.Errorf("warned about missing roots although --workspace names one:\n%s", s.stderr.String())
	}

	all := startFlagServer(t, nil, append(headless, "--filesystemRoot", work, "--workspace=/")...)
	all.ok("navigate_page", map[string]any{"url": site.URL})
	mustContain(t, all.ok("take_snapshot", map[string]any{"filePath": filepath.Join(other, "anywhere.txt")}), "Saved")
}

func TestConfigFileAndEnvironment(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(config, []byte(`{"slim": true, "headless": true, "isolated": true, "futureSetting": 1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startFlagServer(t, nil, "--lazyLaunch", "--config", config)
	if n := len(listedTools(t, s)); n != 3 {
		t.Errorf("--config with slim: %d tools, want 3", n)
	}
	eventually(t, "the warning about the unknown setting", func() bool {
		return strings.Contains(s.stderr.String(), `ignoring unknown setting "futureSetting"`)
	})
	// The command line wins over the file.
	if n := len(listedTools(t, startFlagServer(t, nil, "--lazyLaunch", "--config", config, "--no-slim"))); n <= 3 {
		t.Errorf("--config with slim and --no-slim: %d tools", n)
	}

	// Discovery: $PLUGIN_DATA/cd4a.config.json, then the user config directory.
	plugin, xdg := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(plugin, "cd4a.config.json"), []byte(`{"slim": true}`), 0o600); err != nil {
		t.Fatal(err)
	}
	discover := []string{"CHROME_DEVTOOLS_MCP_NO_CONFIG_DISCOVERY=", "PLUGIN_DATA=" + plugin, "XDG_CONFIG_HOME=" + xdg}
	if n := len(listedTools(t, startFlagServer(t, discover, "--lazyLaunch"))); n != 3 {
		t.Errorf("PLUGIN_DATA config with slim: %d tools, want 3", n)
	}
	if err := os.MkdirAll(filepath.Join(xdg, "cd4a"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(xdg, "cd4a", "config.json"), []byte(`{"categoryExperimentalThirdParty": true}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if tools := listedTools(t, startFlagServer(t, []string{"CHROME_DEVTOOLS_MCP_NO_CONFIG_DISCOVERY=", "XDG_CONFIG_HOME=" + xdg}, "--lazyLaunch")); tools["list_3p_developer_tools"] == nil {
		t.Errorf("the user config directory's file was not read")
	}
	if n := len(listedTools(t, startFlagServer(t, []string{"PLUGIN_DATA=" + plugin}, "--lazyLaunch"))); n <= 3 {
		t.Errorf("discovery turned off, yet the PLUGIN_DATA config applied (%d tools)", n)
	}

	// The reference's environment variable for the page's own tools.
	env := []string{"CHROME_DEVTOOLS_MCP_CATEGORY_EXPERIMENTAL_THIRD_PARTY=1"}
	if tools := listedTools(t, startFlagServer(t, env, "--lazyLaunch")); tools["list_3p_developer_tools"] == nil {
		t.Errorf("CHROME_DEVTOOLS_MCP_CATEGORY_EXPERIMENTAL_THIRD_PARTY=1 did not add the third-party tools")
	}
	if tools := listedTools(t, startFlagServer(t, env, "--lazyLaunch", "--no-category-experimental-third-party")); tools["list_3p_developer_tools"] != nil {
		t.Errorf("--no-category-experimental-third-party did not win over the environment variable")
	}
}
