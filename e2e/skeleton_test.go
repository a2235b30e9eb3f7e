package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rawServer talks newline-delimited JSON-RPC to the binary directly, for
// tests about the protocol itself (versions, malformed input).
type rawServer struct {
	t     *testing.T
	stdin io.WriteCloser
	out   *bufio.Reader
}

func startRaw(t *testing.T, args ...string) *rawServer {
	t.Helper()
	cmd := exec.Command(binary, args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		if err := cmd.Wait(); err != nil {
			t.Errorf("server exited with %v; stderr:\n%s", err, stderr.String())
		}
	})
	return &rawServer{t: t, stdin: stdin, out: bufio.NewReaderSize(stdout, 1<<20)}
}

// roundTrip sends one line and returns the next message the server writes.
func (r *rawServer) roundTrip(line string) map[string]any {
	r.t.Helper()
	if _, err := io.WriteString(r.stdin, line+"\n"); err != nil {
		r.t.Fatalf("write: %v", err)
	}
	return r.read()
}

func (r *rawServer) read() map[string]any {
	r.t.Helper()
	line, err := r.out.ReadBytes('\n')
	if err != nil {
		r.t.Fatalf("read answer: %v", err)
	}
	var msg map[string]any
	if err := json.Unmarshal(line, &msg); err != nil {
		r.t.Fatalf("answer is not JSON: %v: %s", err, line)
	}
	return msg
}

// errorCode returns the JSON-RPC error code of msg, or 0 when it has none.
func errorCode(msg map[string]any) int {
	e, _ := msg["error"].(map[string]any)
	code, _ := e["code"].(float64)
	return int(code)
}

func initLine(version string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`, version)
}

func TestInitializeNegotiatesProtocolVersion(t *testing.T) {
	for _, tc := range []struct{ asked, want string }{
		{"2025-11-25", "2025-11-25"},
		{"2025-06-18", "2025-06-18"},
		{"2025-03-26", "2025-03-26"},
		{"2024-11-05", "2024-11-05"},
		{"1999-01-01", "2025-11-25"},
	} {
		t.Run(tc.asked, func(t *testing.T) {
			r := startRaw(t, headless...)
			msg := r.roundTrip(initLine(tc.asked))
			res, _ := msg["result"].(map[string]any)
			if got := res["protocolVersion"]; got != tc.want {
				t.Fatalf("asked %s, got protocolVersion %v, want %s (answer %v)", tc.asked, got, tc.want, msg)
			}
			info, _ := res["serverInfo"].(map[string]any)
			if info["name"] != "chrome_devtools" || info["version"] != version {
				t.Errorf("serverInfo = %v", info)
			}
			caps, _ := res["capabilities"].(map[string]any)
			tools, ok := caps["tools"].(map[string]any)
			if !ok || tools["listChanged"] != false || caps["logging"] == nil {
				t.Errorf("capabilities = %v, want tools (listChanged false: the list never changes) and logging", caps)
			}
		})
	}
}

func toolNames(t *testing.T, s *server) []string {
	t.Helper()
	res, err := s.session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	return names
}

func TestSlimListsExactlyThreeTools(t *testing.T) {
	s := startServer(t, append(headless, "--slim")...)
	if got, want := toolNames(t, s), []string{"evaluate", "navigate", "screenshot"}; !slices.Equal(got, want) {
		t.Fatalf("slim tools = %v, want %v", got, want)
	}
}

// offByDefault are tools of categories or conditions that need a flag.
var offByDefault = []string{
	"execute_3p_developer_tool", "list_3p_developer_tools", "execute_webmcp_tool", "list_webmcp_tools",
	"install_extension", "list_extensions", "reload_extension", "trigger_extension_action", "uninstall_extension",
	"click_at", "get_heapsnapshot_summary",
	"get_os_app_state", "install_pwa", "launch_pwa", "uninstall_pwa",
	"navigate", "evaluate", "screenshot",
}

func TestDefaultModeListsNoOffByDefaultTools(t *testing.T) {
	s := startServer(t, headless...)
	names := toolNames(t, s)
	for _, n := range names {
		if slices.Contains(offByDefault, n) {
			t.Errorf("default mode lists %s, which needs a flag", n)
		}
	}
	for _, want := range defaultTools {
		if !slices.Contains(names, want) {
			t.Errorf("default mode does not list %s; got %v", want, names)
		}
	}
}

func TestSlimNavigateEvaluateScreenshot(t *testing.T) {
	site := pages(t, map[string]string{"/": `<title>Probe page</title><h1>Hello</h1>`})
	s := startServer(t, append(headless, "--slim", "--viewport", "800x600")...)
	mustContain(t, s.ok("navigate", map[string]any{"url": site.URL}), "Navigated to "+site.URL)
	if got := s.ok("evaluate", map[string]any{"script": "document.title"}); got != `"Probe page"` {
		t.Fatalf("evaluate document.title = %s", got)
	}
	if got := s.ok("evaluate", map[string]any{"script": "(async () => ({a: [1, 2], b: await Promise.resolve('x')}))()"}); got != `{"a":[1,2],"b":"x"}` {
		t.Fatalf("evaluate object = %s", got)
	}
	mustContain(t, s.fails("evaluate", map[string]any{"script": "throw new Error('boom')"}), "boom")

	var size [2]int
	if err := json.Unmarshal([]byte(s.ok("evaluate", map[string]any{"script": "[innerWidth * devicePixelRatio, innerHeight * devicePixelRatio]"})), &size); err != nil {
		t.Fatal(err)
	}
	res := s.call("screenshot", nil)
	if res.IsError || len(res.Content) == 0 {
		t.Fatalf("screenshot: %s", text(res))
	}
	img, ok := res.Content[len(res.Content)-1].(*mcp.ImageContent)
	if !ok || img.MIMEType != "image/png" {
		t.Fatalf("screenshot content = %#v, want a PNG image", res.Content)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(img.Data))
	if err != nil {
		t.Fatalf("screenshot is not a PNG: %v", err)
	}
	if cfg.Width != size[0] || cfg.Height != size[1] {
		t.Fatalf("screenshot is %dx%d, viewport is %dx%d", cfg.Width, cfg.Height, size[0], size[1])
	}
}

// chromiumPath is the Chromium the tests run against: $CHROME_PATH (which
// the server under test honours as well), else chromium from PATH.
func chromiumPath(t testing.TB) string {
	t.Helper()
	if exe := os.Getenv("CHROME_PATH"); exe != "" {
		return exe
	}
	exe, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatalf("Chromium is needed (apt-get install chromium, or set CHROME_PATH): %v", err)
	}
	return exe
}

// chromium starts a headless Chromium with a debugging port of its own, as a
// user would, and returns its WebSocket URL and profile dir. It is killed
// when the test ends.
func chromium(t testing.TB) (wsURL, profile string, proc *os.Process) {
	t.Helper()
	return chromiumWith(t)
}

// chromiumWith is chromium with extra command-line switches.
func chromiumWith(t testing.TB, extra ...string) (wsURL, profile string, proc *os.Process) {
	t.Helper()
	exe := chromiumPath(t)
	profile = t.TempDir()
	args := append([]string{"--headless=new", "--remote-debugging-port=0", "--user-data-dir=" + profile,
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"}, extra...)
	args = append(args, "about:blank")
	if os.Geteuid() == 0 {
		args = append(args, "--no-sandbox")
	}
	cmd := exec.Command(exe, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Registered after t.TempDir, so it runs first: Chromium and its helpers
	// are gone before the profile is removed.
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	})
	listening := regexp.MustCompile(`DevTools listening on (ws://\S+)`)
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if m := listening.FindStringSubmatch(sc.Text()); m != nil {
			go io.Copy(io.Discard, stderr)
			return m[1], profile, cmd.Process
		}
	}
	t.Fatalf("Chromium did not say where it listens: %v", sc.Err())
	return "", "", nil
}

func TestAttachToRunningChrome(t *testing.T) {
	site := pages(t, map[string]string{"/": `<title>Attached</title>`})
	ws, profile, proc := chromium(t)
	port := strings.TrimPrefix(browserURL(ws), "http://127.0.0.1:")
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"browserUrl", []string{"--browserUrl", "http://127.0.0.1:" + port}},
		{"wsEndpoint", []string{"--wsEndpoint", ws, "--wsHeaders", `{"X-Test":"1"}`}},
		{"autoConnect", []string{"--autoConnect", "--userDataDir", profile}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := startServer(t, append(tc.args, "--slim")...)
			s.ok("navigate", map[string]any{"url": site.URL})
			if got := s.ok("evaluate", map[string]any{"script": "document.title"}); got != `"Attached"` {
				t.Fatalf("title = %s", got)
			}
			if err := s.session.Close(); err != nil {
				t.Fatal(err)
			}
			if err := s.cmd.Wait(); err != nil && !strings.Contains(err.Error(), "wait: no child processes") && !strings.Contains(err.Error(), "already") {
				t.Logf("server exit: %v", err)
			}
			if err := proc.Signal(syscall.Signal(0)); err != nil {
				t.Fatalf("the attached Chrome is gone after the server exited: %v", err)
			}
			resp, err := http.Get("http://127.0.0.1:" + port + "/json/version")
			if err != nil {
				t.Fatalf("the attached Chrome stopped answering after the server exited: %v", err)
			}
			resp.Body.Close()
			// Leave one fresh blank tab, as found: the next subtest's
			// server did not open this one, and may lead a tab away only
			// when it is blank with nothing behind it in its history.
			freshBlankTab(t, ws)
		})
	}
}

// freshBlankTab replaces every tab of the browser at ws with one new blank
// tab, as a browser started with --remote-debugging-port shows.
func freshBlankTab(t testing.TB, ws string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn := openTabs(t, ws, 0)
	old, err := cdp.TargetGetTargets.Call(ctx, conn.Session(""), cdp.GetTargetsParams{})
	if err != nil {
		t.Fatal(err)
	}
	if err := cdp.TargetCreateTarget.Do(ctx, conn.Session(""), cdp.CreateTargetParams{URL: "about:blank"}); err != nil {
		t.Fatal(err)
	}
	for _, info := range old.TargetInfos {
		if info.Type == "page" {
			if _, err := cdp.TargetCloseTarget.Call(ctx, conn.Session(""), cdp.CloseTargetParams{TargetID: info.TargetID}); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestBadInputGetsTheRightError(t *testing.T) {
	r := startRaw(t, headless...)
	r.roundTrip(initLine("2025-06-18"))
	for _, tc := range []struct {
		name, line string
		code       int
	}{
		{"not JSON", `{"jsonrpc":"2.0", nope`, -32700},
		{"no method", `{"jsonrpc":"2.0","id":2}`, -32600},
		{"unknown method", `{"jsonrpc":"2.0","id":3,"method":"tools/frobnicate"}`, -32601},
		{"unknown tool", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}`, -32602},
	} {
		msg := r.roundTrip(tc.line)
		if got := errorCode(msg); got != tc.code {
			t.Errorf("%s: error code %d, want %d (answer %v)", tc.name, got, tc.code, msg)
		}
		if ping := r.roundTrip(`{"jsonrpc":"2.0","id":"p","method":"ping"}`); ping["result"] == nil {
			t.Fatalf("after %s the server no longer answers ping: %v", tc.name, ping)
		}
	}
}

func TestBadArgumentsNameTheField(t *testing.T) {
	s := startServer(t, append(headless, "--slim")...)
	mustContain(t, s.fails("navigate", map[string]any{"url": 5}), `"url"`, "string")
	mustContain(t, s.fails("navigate", map[string]any{}), `missing required argument "url"`)
	mustContain(t, s.fails("navigate", map[string]any{"url": "about:blank", "bogus": true}), `unknown argument "bogus"`)
}

func TestBrowserStartFailuresAreExplained(t *testing.T) {
	s := startServer(t, "--slim", "--headless", "--executablePath", "/nowhere/chrome")
	mustContain(t, s.fails("evaluate", map[string]any{"script": "1"}), "--executablePath", "/nowhere/chrome")
	// The server keeps serving after the failure.
	mustContain(t, s.fails("evaluate", map[string]any{"script": "1"}), "/nowhere/chrome")

	s = startServer(t, "--slim", "--browserUrl", "http://127.0.0.1:1")
	mustContain(t, s.fails("evaluate", map[string]any{"script": "1"}), "could not reach Chrome", "--remote-debugging-port")
}

// childPIDs lists the direct children of pid.
func childPIDs(t *testing.T, pid int) []int {
	t.Helper()
	// Go starts processes from any thread, so look at every thread's children.
	files, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	if err != nil || len(files) == 0 {
		t.Fatalf("list threads of %d: %v", pid, err)
	}
	var pids []int
	for _, file := range files {
		data, _ := os.ReadFile(file)
		for f := range strings.FieldsSeq(string(data)) {
			var p int
			fmt.Sscan(f, &p)
			pids = append(pids, p)
		}
	}
	return pids
}

func TestKilledBrowserFailsPendingCallAndRelaunches(t *testing.T) {
	started := make(chan struct{}, 1)
	mux := http.NewServeMux()
	mux.HandleFunc("/started", func(w http.ResponseWriter, r *http.Request) { started <- struct{}{} })
	site := httptest.NewServer(mux)
	defer site.Close()
	s := startServer(t, append(headless, "--slim")...)
	s.ok("navigate", map[string]any{"url": site.URL})
	children := childPIDs(t, s.cmd.Process.Pid)
	if len(children) != 1 {
		t.Fatalf("server has children %v, want one Chromium", children)
	}
	done := make(chan *mcp.CallToolResult)
	go func() {
		res, _ := s.callErr("evaluate", map[string]any{"script": "fetch('/started').then(() => new Promise(() => {}))"})
		done <- res
	}()
	<-started // the call is now pending in the page
	killGroup(t, children[0])
	select {
	case res := <-done:
		if res == nil || !res.IsError {
			t.Fatalf("pending call did not fail: %v", res)
		}
		got := text(res)
		if !strings.Contains(got, "went away") && !strings.Contains(got, "launch") {
			t.Fatalf("pending call error = %q, want it to say the browser went away", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("pending call still hangs 10 s after Chromium was killed")
	}
	got := s.ok("evaluate", map[string]any{"script": "2 + 2"})
	mustContain(t, got, "browser was restarted")
	if !strings.HasSuffix(got, "\n4") {
		t.Fatalf("after relaunch evaluate = %s", got)
	}
}

func TestHelpAndVersion(t *testing.T) {
	out, err := exec.Command(binary, "--version").Output()
	if err != nil || strings.TrimSpace(string(out)) != version {
		t.Fatalf("--version = %q, %v", out, err)
	}
	out, err = exec.Command(binary, "--help").Output()
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, string(out), "--browserUrl", "--executablePath", "--slim", "--categoryNetwork")
	// An unknown flag is a warning, as in the reference (the server then
	// serves stdin, here empty); a malformed value of a known one stops it.
	cmd := exec.Command(binary, "--browserURL", "x")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("unknown flag: exit %v, want 0; stderr:\n%s", err, stderr.String())
	}
	mustContain(t, stderr.String(), "ignoring unknown flag --browserURL; did you mean --browserUrl?")
	cmd = exec.Command(binary, "--browserUrl", "x")
	stderr.Reset()
	cmd.Stderr = &stderr
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
		t.Fatalf("malformed --browserUrl: exit %v, want 2", err)
	}
	mustContain(t, stderr.String(), "--browserUrl expects an http(s) URL")
}

// defaultTools are the tools that must be listed without any flag.
var defaultTools = []string{
	"list_pages", "new_page", "select_page", "close_page", "navigate_page", "wait_for",
	"evaluate_script", "take_snapshot", "lighthouse_audit", "screencast_start", "screencast_stop",
	"click", "hover", "drag", "fill", "fill_form", "type_text", "press_key", "upload_file", "handle_dialog",
}

// killGroup SIGKILLs the process group led by pid (a Chromium we launched).
func killGroup(t *testing.T, pid int) {
	t.Helper()
	if err := syscall.Kill(-pid, syscall.SIGKILL); err != nil {
		t.Fatalf("kill Chromium %d: %v", pid, err)
	}
}

// TestToolListFitsItsBudget keeps tools/list in default mode under 20 KB:
// every agent pays for it in context on every session.
func TestToolListFitsItsBudget(t *testing.T) {
	r := startRaw(t, headless...)
	r.roundTrip(initLine("2025-06-18"))
	io.WriteString(r.stdin, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`+"\n")
	line, err := r.out.ReadBytes('\n')
	if err != nil {
		t.Fatal(err)
	}
	// The default list is 32 tools since lighthouse_audit and screencast_*
	// joined it; the reference's is 29.4 KB (1.11.0, the same tools, no
	// titles or hints). Every byte is context the agent pays for on each
	// turn, so the budget stays well under that.
	if len(line) >= 25*1024 {
		t.Fatalf("tools/list is %d bytes; keep descriptions and schemas short to stay under 25 KB (the reference's is 29.4 KB)", len(line))
	}
}
