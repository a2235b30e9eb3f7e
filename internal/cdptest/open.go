package cdptest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/devtools-mcp/devtools-mcp/cdp"
	"github.com/devtools-mcp/devtools-mcp/internal/chrome"
)

// RecordEnv is the environment variable that makes Open re-record its
// recording from Chromium instead of replaying it:
//
//	DEVTOOLS_MCP_RECORD=1 go test -run TestScenarios ./tools/
//
// CHROME_PATH picks the browser (default /usr/bin/chromium).
const RecordEnv = "DEVTOOLS_MCP_RECORD"

// Rerecording reports whether tests re-record instead of replaying.
func Rerecording() bool { return os.Getenv(RecordEnv) == "1" }

// Scenario is one recording as a test uses it.
type Scenario struct {
	// Site is the base URL of the scenario's pages (no trailing slash).
	Site string

	t    testing.TB
	path string
	args []string   // extra Chromium arguments when recording
	rec  *Recording // replaying: the recording; nil when recording

	mu       sync.Mutex
	fakes    []*Fake
	recorder *Recorder
}

// Open replays the recording at path (relative to the test's package), or,
// when [Rerecording] is true, serves site from a local server, records what a
// headless Chromium does during the test, and writes path when the test
// ends. site may be nil for scenarios that need no pages. chromeArgs are
// added to Chromium's command line when recording; with
// --enable-unsafe-extension-debugging, extensions are not disabled.
func Open(t testing.TB, path string, site http.Handler, chromeArgs ...string) *Scenario {
	t.Helper()
	if !Rerecording() {
		return Replay(t, path)
	}
	sc := &Scenario{t: t, path: path, args: chromeArgs}
	if site != nil {
		srv := httptest.NewServer(site)
		t.Cleanup(srv.Close)
		sc.Site = srv.URL
	}
	t.Cleanup(sc.save)
	return sc
}

// Replay replays the recording at path even when re-recording: for tests
// that script failures into the fake (Refuse, DisconnectOn) on top of a
// recording that another test records.
func Replay(t testing.TB, path string) *Scenario {
	t.Helper()
	rec, err := Load(path)
	if err != nil {
		t.Fatalf("%v (record it with %s=1 and Chromium installed)", err, RecordEnv)
	}
	return &Scenario{t: t, path: path, rec: rec, Site: rec.Header.Site}
}

// Dial connects to the scenario's browser: a new Fake replaying the whole
// recording each time it is called (so a test can let a browser go away and
// come back), or, when recording, a newly launched Chromium (once only).
func (sc *Scenario) Dial(ctx context.Context) (cdp.Transport, error) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.rec != nil {
		f := NewFake(sc.t, sc.rec)
		sc.fakes = append(sc.fakes, f)
		return f, nil
	}
	if sc.recorder != nil {
		return nil, errors.New("cdptest: a recording holds one browser; it went away")
	}
	t, product, err := launchChromium(ctx, sc.t, sc.args)
	if err != nil {
		return nil, err
	}
	sc.recorder = NewRecorder(t)
	sc.recorder.rec.Header.Browser = product
	return sc.recorder, nil
}

// Script adds e to the recording a replayed scenario plays, for a test
// that needs Chromium to have answered something it did not when recorded
// (an older version, say). Fakes dialled afterwards play it, before any
// recorded answer to the same command: a recording made since the command
// was first sent has that answer too.
func (sc *Scenario) Script(e Exchange) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.rec == nil {
		sc.t.Fatal("cdptest: Script needs a replayed scenario")
	}
	sc.rec.Exchanges = append([]*Exchange{&e}, sc.rec.Exchanges...)
}

// Fake returns the fake the latest Dial returned, or nil when recording
// or before the first Dial.
func (sc *Scenario) Fake() *Fake {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if len(sc.fakes) == 0 {
		return nil
	}
	return sc.fakes[len(sc.fakes)-1]
}

// save writes the recording at the end of a recording test that passed.
func (sc *Scenario) save() {
	sc.mu.Lock()
	r := sc.recorder
	sc.mu.Unlock()
	if r == nil || sc.t.Failed() {
		sc.t.Logf("cdptest: not writing %s: the test failed or never dialled", sc.path)
		return
	}
	rec := r.Recording()
	rec.Header.Site = sc.Site
	if err := os.MkdirAll(filepath.Dir(sc.path), 0o755); err != nil {
		sc.t.Error(err)
		return
	}
	if err := rec.Save(sc.path); err != nil {
		sc.t.Error(err)
	}
}

// launchChromium starts a headless Chromium with a CDP pipe and a temporary
// profile; the test's cleanup kills it.
func launchChromium(ctx context.Context, t testing.TB, extra []string) (_ cdp.Transport, product string, err error) {
	// Not t.TempDir: Chromium's helpers may still write the profile for a
	// moment after the browser is killed, which t.TempDir reports as an error.
	profile, err := os.MkdirTemp("", "cdptest-profile-")
	if err != nil {
		return nil, "", err
	}
	exe := os.Getenv("CHROME_PATH")
	if exe == "" {
		exe = "/usr/bin/chromium"
	}
	args := []string{
		"--headless=new", "--screen-info={3840x2160}", "--window-size=1280,720",
		"--no-first-run", "--no-default-browser-check", "--disable-extensions",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-features=Translate,OptimizationHints,MediaRouter",
		"--enable-features=WebMCP", "--force-color-profile=srgb",
		"--user-data-dir=" + profile, "--remote-debugging-pipe", "about:blank",
	}
	if slices.Contains(extra, "--enable-unsafe-extension-debugging") {
		args = slices.DeleteFunc(args, func(a string) bool { return a == "--disable-extensions" })
	}
	args = append(extra, args...)
	if runtime.GOOS == "linux" && os.Geteuid() == 0 {
		args = append([]string{"--no-sandbox"}, args...)
	}
	toR, toW, err := os.Pipe()
	if err != nil {
		return nil, "", err
	}
	fromR, fromW, err := os.Pipe()
	if err != nil {
		return nil, "", err
	}
	cmd := exec.CommandContext(context.WithoutCancel(ctx), exe, args...)
	cmd.ExtraFiles = []*os.File{toR, fromW}
	// Its own process group, so that the cleanup stops the network service
	// too, which otherwise writes the profile after it was removed.
	chrome.SetProcessGroup(cmd)
	if err := cmd.Start(); err != nil {
		return nil, "", fmt.Errorf("cdptest: start %s: %w", exe, err)
	}
	toR.Close()
	fromW.Close()
	t.Cleanup(func() {
		chrome.KillProcessGroup(cmd)
		_ = cmd.Wait()
		_ = os.RemoveAll(profile)
	})
	tr := cdp.NewPipeTransport(fromR, toW)
	// Ask for the version before the client speaks, so that the recording
	// says what was recorded; nothing else arrives before the first reply.
	if err := tr.Write(ctx, []byte(`{"id":1000000000,"method":"Browser.getVersion"}`)); err != nil {
		return nil, "", fmt.Errorf("cdptest: %w", err)
	}
	msg, err := tr.Read()
	if err != nil {
		return nil, "", fmt.Errorf("cdptest: %w", err)
	}
	var v struct {
		Result struct{ Product string }
	}
	_ = json.Unmarshal(msg, &v)
	return tr, v.Result.Product, nil
}
