package e2e

// End-to-end tests of the command line: the built binary run as a shell
// command against its background daemon, each test with a private
// XDG_RUNTIME_DIR so daemons of different tests never meet.

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// shell runs the binary as a command-line client of one session.
type shell struct {
	t       testing.TB
	prog    string // the program to run; the built binary when ""
	env     []string
	cwd     string
	runtime string // $XDG_RUNTIME_DIR/devtools-mcp
	session string
}

// newShell returns a client of session with its own runtime directory.
func newShell(t testing.TB, session string) *shell {
	return shellIn(t, t.TempDir(), session)
}

// shellIn returns a client of session whose XDG_RUNTIME_DIR is dir. The
// session's daemon is stopped when the test ends.
func shellIn(t testing.TB, dir, session string) *shell {
	t.Helper()
	sh := shellAt(t, dir, session)
	t.Cleanup(func() {
		if t.Failed() {
			if log, err := os.ReadFile(sh.file(".log")); err == nil {
				t.Logf("daemon log of session %s:\n%s", session, log)
			}
		}
		if out, errOut, code := sh.run("stop"); code != 0 {
			t.Errorf("stop session %s: exit %d\n%s%s", session, code, out, errOut)
		}
	})
	return sh
}

// shellAt is shellIn without the stop at the end, for a runtime directory
// the command line refuses.
func shellAt(t testing.TB, dir, session string) *shell {
	return &shell{
		t:       t,
		env:     append(os.Environ(), "XDG_RUNTIME_DIR="+dir, "DEVTOOLS_MCP_SESSION="+session),
		cwd:     t.TempDir(),
		runtime: filepath.Join(dir, "devtools-mcp"),
		session: session,
	}
}

// file is the path of one of the session's files (".sock", ".pid", ".log").
func (sh *shell) file(ext string) string {
	return filepath.Join(sh.runtime, sh.session+ext)
}

// run runs the binary with args and returns its output and exit status.
func (sh *shell) run(args ...string) (stdout, stderr string, code int) {
	sh.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, cmp.Or(sh.prog, binary), args...)
	cmd.Env, cmd.Dir = sh.env, sh.cwd
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		sh.t.Fatalf("devtools-mcp %q: %v", args, err)
	}
	return out.String(), errOut.String(), cmd.ProcessState.ExitCode()
}

// ok runs a command that must succeed and returns its standard output.
func (sh *shell) ok(args ...string) string {
	sh.t.Helper()
	out, errOut, code := sh.run(args...)
	if code != 0 {
		sh.t.Fatalf("devtools-mcp %q: exit %d, want 0\nstdout:\n%s\nstderr:\n%s", args, code, out, errOut)
	}
	return out
}

// exits runs a command that must end with exit status code and returns
// its standard output and error.
func (sh *shell) exits(code int, args ...string) (stdout, stderr string) {
	sh.t.Helper()
	out, errOut, got := sh.run(args...)
	if got != code {
		sh.t.Fatalf("devtools-mcp %q: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", args, got, code, out, errOut)
	}
	return out, errOut
}

// pid reads the session's pid file.
func (sh *shell) pid() int {
	sh.t.Helper()
	data, err := os.ReadFile(sh.file(".pid"))
	if err != nil {
		sh.t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		sh.t.Fatalf("pid file holds %q", data)
	}
	return pid
}

// alive reports whether process pid exists and has not exited.
func alive(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	_, rest, _ := strings.Cut(string(stat), ") ")
	return !strings.HasPrefix(rest, "Z") && !strings.HasPrefix(rest, "X")
}

// children lists the pids of a process's children (those of all its threads).
func children(t *testing.T, pid int) []int {
	t.Helper()
	files, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	if err != nil || len(files) == 0 {
		t.Skipf("cannot list child processes: %v", err)
	}
	var pids []int
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue // the thread ended
		}
		for _, field := range strings.Fields(string(data)) {
			n, _ := strconv.Atoi(field)
			pids = append(pids, n)
		}
	}
	return pids
}

func mustNotExist(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s should not exist (err %v)", path, err)
	}
}

func mustHaveMode(t *testing.T, path string, want os.FileMode) {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != want {
		t.Errorf("%s has mode %03o, want %03o", path, got, want)
	}
}

func TestCLIStartStatusStop(t *testing.T) {
	sh := newShell(t, "default")
	out, _ := sh.exits(1, "status")
	mustContain(t, out, `session "default" is not running`)

	out = sh.ok("start")
	mustContain(t, out, `Started the daemon of session "default"`, sh.file(".sock"), sh.file(".log"))
	pid := sh.pid()
	mustContain(t, out, fmt.Sprintf("(pid %d)", pid))
	mustHaveMode(t, sh.runtime, 0o700)
	mustHaveMode(t, sh.file(".sock"), 0o600)
	mustHaveMode(t, sh.file(".pid"), 0o600)
	mustContain(t, sh.ok("status"), fmt.Sprintf("is running (pid %d", pid), "Browser: none yet")

	out = sh.ok("start")
	mustContain(t, out, fmt.Sprintf("already runs (pid %d)", pid))
	_, errOut := sh.exits(1, "start", "--viewport", "800x600")
	mustContain(t, errOut, "run devtools-mcp stop first")

	mustContain(t, sh.ok("list_pages"), "1: about:blank [selected]")
	out = sh.ok("status")
	mustContain(t, out, fmt.Sprintf("is running (pid %d", pid), "Browser: Chrome/", "Pages:\n  1: about:blank [selected]")
	browsers := children(t, pid)
	if len(browsers) == 0 {
		t.Fatalf("the daemon (pid %d) has no child process after launching the browser", pid)
	}

	mustContain(t, sh.ok("stop"), fmt.Sprintf(`Stopped the daemon of session "default" (pid %d)`, pid))
	mustNotExist(t, sh.file(".sock"))
	mustNotExist(t, sh.file(".pid"))
	for _, b := range browsers {
		if alive(b) {
			t.Errorf("browser process %d still runs after stop", b)
		}
	}
	eventually(t, "the daemon process to exit", func() bool { return !alive(pid) })
	out, _ = sh.exits(1, "status")
	mustContain(t, out, "is not running")
	mustContain(t, sh.ok("stop"), "is not running")
}

func TestCLIStatePersistsBetweenCommands(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/set", func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "flavor", Value: "oatmeal", Path: "/"})
		fmt.Fprint(w, `<title>Form</title><input aria-label="Name"><button onclick="this.textContent='Clicked'">Send</button>`)
	})
	mux.HandleFunc("/show", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "cookie: %s", r.Header.Get("Cookie"))
	})
	site := httptest.NewServer(mux)
	t.Cleanup(site.Close)
	sh := newShell(t, "default")

	sh.ok("new_page", site.URL+"/set")
	mustContain(t, sh.ok("evaluate_script", "--function", "async () => (await fetch('/show')).text()"), "cookie: flavor=oatmeal")

	// uids from a snapshot taken by one command work in the next ones.
	snap := sh.ok("take_snapshot")
	name, send := uidOf(t, snap, `textbox "Name"`), uidOf(t, snap, `button "Send"`)
	sh.ok("fill_form", fmt.Sprintf(`[{"uid":%q,"value":"Ada Lovelace"}]`, name))
	sh.ok("click", send)
	got := sh.ok("evaluate_script", "--function", "() => document.querySelector('input').value + ' / ' + document.querySelector('button').textContent")
	mustContain(t, got, "Ada Lovelace / Clicked")
}

func TestCLISessionsDoNotSharePages(t *testing.T) {
	site := pages(t, map[string]string{"/alpha": "<title>Alpha</title>", "/beta": "<title>Beta</title>"})
	dir := t.TempDir()
	alpha, beta := shellIn(t, dir, "alpha"), shellIn(t, dir, "beta")
	alpha.ok("new_page", site.URL+"/alpha")
	beta.ok("new_page", site.URL+"/beta")

	a, b := alpha.ok("list_pages"), beta.ok("list_pages")
	mustContain(t, a, site.URL+"/alpha")
	mustContain(t, b, site.URL+"/beta")
	if strings.Contains(a, "/beta") || strings.Contains(b, "/alpha") {
		t.Errorf("sessions share pages:\nalpha:\n%s\nbeta:\n%s", a, b)
	}
	if alpha.pid() == beta.pid() {
		t.Errorf("both sessions are served by pid %d", alpha.pid())
	}
}

func TestCLIRefusesUnsafeRuntimeDir(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T, dir string)
		want  string
	}{
		{"world-writable", func(t *testing.T, dir string) { mkdirMode(t, dir, 0o777) }, "must not be writable by group or others"},
		{"group-writable", func(t *testing.T, dir string) { mkdirMode(t, dir, 0o770) }, "must not be writable by group or others"},
		{"symlink", func(t *testing.T, dir string) {
			if err := os.Symlink(t.TempDir(), dir); err != nil {
				t.Fatal(err)
			}
		}, "is a symbolic link"},
		{"other owner", func(t *testing.T, dir string) {
			if os.Getuid() != 0 {
				t.Skip("only root can give a directory away")
			}
			mkdirMode(t, dir, 0o700)
			if err := os.Chown(dir, 65534, 65534); err != nil {
				t.Fatal(err)
			}
		}, "belongs to another user"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			xdg := t.TempDir()
			dir := filepath.Join(xdg, "devtools-mcp")
			tc.setup(t, dir)
			sh := shellAt(t, xdg, "default")
			t.Cleanup(func() {
				// Should the directory be wrongly accepted, stop its daemon.
				if data, err := os.ReadFile(filepath.Join(dir, "default.pid")); err == nil {
					if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil {
						if p, err := os.FindProcess(pid); err == nil {
							p.Signal(syscall.SIGTERM)
						}
					}
				}
			})
			for _, cmd := range []string{"list_pages", "start", "status", "stop"} {
				_, errOut := sh.exits(1, cmd)
				mustContain(t, errOut, "runtime directory "+dir, tc.want, "refusing to use it")
			}
			mustNotExist(t, filepath.Join(dir, "default.sock"))
			mustNotExist(t, filepath.Join(dir, "default.pid"))
		})
	}
}

func mkdirMode(t *testing.T, dir string, mode os.FileMode) {
	t.Helper()
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, mode); err != nil { // not subject to the umask
		t.Fatal(err)
	}
}

func TestCLIRecoversStaleFiles(t *testing.T) {
	t.Run("killed daemon", func(t *testing.T) {
		sh := newShell(t, "default")
		sh.ok("start") // no browser yet, so killing the daemon leaves nothing behind
		old := sh.pid()
		if p, err := os.FindProcess(old); err != nil || p.Kill() != nil {
			t.Fatalf("kill the daemon %d: %v", old, err)
		}
		if _, err := os.Stat(sh.file(".sock")); err != nil {
			t.Fatalf("the killed daemon's socket should be left behind: %v", err)
		}
		mustContain(t, sh.ok("list_pages"), "about:blank")
		if now := sh.pid(); now == old {
			t.Errorf("pid file still names the killed daemon %d", old)
		}
		mustContain(t, sh.ok("status"), fmt.Sprintf("(pid %d", sh.pid()))
	})
	t.Run("pid file of another process", func(t *testing.T) {
		sh := newShell(t, "default")
		if err := os.MkdirAll(sh.runtime, 0o700); err != nil {
			t.Fatal(err)
		}
		// A live pid that is not a daemon, and a socket path that is no socket.
		for ext, content := range map[string]string{".pid": strconv.Itoa(os.Getpid()), ".sock": "junk"} {
			if err := os.WriteFile(sh.file(ext), []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		out, _ := sh.exits(1, "status")
		mustContain(t, out, "is not running")
		mustContain(t, sh.ok("list_pages"), "about:blank")
		if sh.pid() == os.Getpid() {
			t.Error("the pid file was not rewritten")
		}
	})
}

func TestCLIParallelCommands(t *testing.T) {
	site := pages(t, map[string]string{"/": "<title>Page</title>"})
	sh := newShell(t, "default")
	// No daemon runs yet: the four commands race to start one.
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			if out, errOut, code := sh.run("new_page", fmt.Sprintf("%s/?n=%d", site.URL, i)); code != 0 {
				t.Errorf("command %d: exit %d\n%s%s", i, code, out, errOut)
			}
		})
	}
	wg.Wait()
	list := sh.ok("list_pages")
	for i := range 4 {
		mustContain(t, list, fmt.Sprintf("%s/?n=%d", site.URL, i))
	}
}

func TestCLIOutput(t *testing.T) {
	site := pages(t, map[string]string{"/": "<title>Shot</title><h1>Hello</h1>"})
	sh := newShell(t, "default")
	sh.ok("navigate_page", "--url", site.URL)

	var res struct {
		Content []struct{ Type, Text, Data, MimeType string }
		IsError bool
	}
	raw := sh.ok("list_pages", "--output-format=json")
	if err := json.Unmarshal([]byte(raw), &res); err != nil {
		t.Fatalf("--output-format=json printed invalid JSON: %v\n%s", err, raw)
	}
	if len(res.Content) != 1 || res.Content[0].Type != "text" || !strings.Contains(res.Content[0].Text, site.URL) {
		t.Errorf("list_pages JSON result = %+v", res)
	}

	out := sh.ok("take_screenshot")
	_, path, ok := strings.Cut(strings.TrimSpace(out), "Saved the image/png image to ")
	if !ok || filepath.Dir(path) != sh.cwd {
		t.Fatalf("take_screenshot should save its image in the current directory %s; got:\n%s", sh.cwd, out)
	}
	if png, err := os.ReadFile(path); err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Errorf("%s is not a PNG (err %v)", path, err)
	}
	shot := filepath.Join(sh.cwd, "shot.jpg")
	mustContain(t, sh.ok("take_screenshot", "--format", "jpeg", "--filePath", "shot.jpg"), "shot.jpg")
	if jpg, err := os.ReadFile(shot); err != nil || !bytes.HasPrefix(jpg, []byte("\xff\xd8")) {
		t.Errorf("--filePath shot.jpg should be saved relative to the command's directory as %s (err %v)", shot, err)
	}

	// A tool error: exit 1, its text on stderr, or the JSON result on stdout.
	_, errOut := sh.exits(1, "select_page", "99")
	mustContain(t, errOut, "99")
	raw, _ = sh.exits(1, "select_page", "99", "--output-format", "json")
	res.IsError = false
	if err := json.Unmarshal([]byte(raw), &res); err != nil || !res.IsError {
		t.Errorf("error result as JSON: isError=%v err=%v\n%s", res.IsError, err, raw)
	}
}

func TestCLIUsage(t *testing.T) {
	sh := newShell(t, "default")
	help := sh.ok("navigate_page", "--help")
	mustContain(t, help, "Usage: devtools-mcp navigate_page [options]", "--type url|back|forward|reload", "--timeout integer", "--ignoreCache [true|false]\n")
	mustContain(t, sh.ok("new_page", "--help"), "Usage: devtools-mcp new_page <url> [options]", "<url>  string", "URL to load")

	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"fill", "1_1"}, []string{"missing the required argument <value>", "Usage: devtools-mcp fill <uid> <value> [options]"}},
		{[]string{"click", "1_1", "extra"}, []string{`unexpected argument "extra"`, "Usage: devtools-mcp click <uid>"}},
		{[]string{"new_page", "about:blank", "--timeout", "soon"}, []string{"<timeout> must be a whole number", "Usage: devtools-mcp new_page <url>"}},
		{[]string{"navigate_page", "--type", "sideways"}, []string{"must be one of url, back, forward, reload", "Usage: devtools-mcp navigate_page"}},
		{[]string{"list_pages", "--bogus"}, []string{"unknown option --bogus", "Usage: devtools-mcp list_pages"}},
		{[]string{"list_pages", "--output-format=xml"}, []string{"--output-format must be md (or text) or json", "Usage: devtools-mcp list_pages"}},
		{[]string{"take_snapshot", "--maxChars"}, []string{"--maxChars needs a value", "Usage: devtools-mcp take_snapshot"}},
		{[]string{"lis_pages"}, []string{`unknown command or tool "lis_pages"; did you mean list_pages?`, "  list_pages  "}},
		{[]string{"start", "--headless=maybe"}, []string{"--headless expects true or false", "Usage: devtools-mcp start"}},
	}
	for _, tc := range cases {
		_, errOut := sh.exits(2, tc.args...)
		mustContain(t, errOut, tc.want...)
	}
}
