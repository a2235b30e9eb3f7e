package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// replayModules is the node_modules folder that holds @puppeteer/replay
// and puppeteer-core: $DTMCP_REPLAY_MODULES, else /tmp/replay's. CI
// installs them (.ci/run) and sets the variable: the replay tests fail
// when it is set, or CI=true, and they are missing; elsewhere they are
// skipped with the command that installs them.
func replayModules(t *testing.T) string {
	t.Helper()
	dir, required := os.LookupEnv("DTMCP_REPLAY_MODULES")
	if !required {
		dir = "/tmp/replay/node_modules"
	}
	if _, err := os.Stat(filepath.Join(dir, "@puppeteer", "replay", "package.json")); err != nil {
		msg := "@puppeteer/replay is not installed in " + dir + ": run `PUPPETEER_SKIP_DOWNLOAD=1 npm install --prefix /tmp/replay @puppeteer/replay puppeteer-core` or set DTMCP_REPLAY_MODULES"
		if required || os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return dir
}

// replayed is what testdata/recorder/replay.cjs reports of a replay.
type replayed struct {
	OK    bool            `json:"ok"`
	URL   string          `json:"url"`
	Title string          `json:"title"`
	State json.RawMessage `json:"state"`
}

// replay plays the flow in file with @puppeteer/replay on the tests'
// Chromium with a fresh profile and returns the end state, expression's
// value on the page included.
func replay(t *testing.T, file, expression string) replayed {
	t.Helper()
	modules := replayModules(t)
	script, err := filepath.Abs("testdata/recorder/replay.cjs")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", script, file, chromiumPath(t), expression)
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		flow, _ := os.ReadFile(file)
		t.Fatalf("replaying the flow failed: %v\n%s\nflow:\n%s", err, stderr.String(), flow)
	}
	var r replayed
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("replay printed %q: %v", out, err)
	}
	return r
}

// TestRecorderFlowReplays drives a form over two pages, exports what the
// calls did as a Recorder flow, and replays it with @puppeteer/replay on a
// fresh profile: the replay must end on the second page with what the
// agent filled, and the flow must keep no password.
func TestRecorderFlowReplays(t *testing.T) {
	site := fixtures(t)
	s := startServer(t, append(headless, "--categoryExperimentalRecorder")...)
	snap := s.open(site, "/pages/recorder/form.html")
	s.ok("fill_form", map[string]any{"elements": []map[string]any{
		{"uid": uidOf(t, snap, `textbox "Name"`), "value": "Ada"},
		{"uid": uidOf(t, snap, `combobox "Size"`), "value": "Medium"},
	}})
	// Typed key by key into the focused field: keyDown/keyUp steps.
	s.ok("click", map[string]any{"uid": uidOf(t, snap, `textbox "Password"`)})
	s.ok("type_text", map[string]any{"text": "hunter2-secret"})
	s.ok("fill", map[string]any{"uid": uidOf(t, snap, `checkbox "Gift wrap"`), "value": "true"})
	s.ok("click", map[string]any{"uid": uidOf(t, snap, `button "Place order"`)})
	s.ok("wait_for", map[string]any{"text": []string{"Thanks Ada, size m, gift wrapped."}})

	file := filepath.Join(t.TempDir(), "flow.json")
	out := s.ok("export_recorder_flow", map[string]any{"filePath": file, "title": "order",
		"assertions": []map[string]any{{"type": "waitForElement", "selector": "#summary", "visible": true, "count": 1}}})
	mustContain(t, out, "Wrote the Recorder flow", file)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	flow := string(data)
	if strings.Contains(flow, "hunter2") {
		t.Errorf("the flow holds the typed password:\n%s", flow)
	}
	mustContain(t, flow, `"type": "setViewport"`, `"type": "keyDown"`, `"key": "<"`, `"type": "navigate"`, `"type": "change"`, `"value": "m"`,
		`"aria/Name[role=\"textbox\"]"`, `"xpath/`, `"pierce/`, `"assertedEvents"`, `"text/Thanks Ada, size m, gift wrapped."`)

	if !strings.HasPrefix(strings.TrimSpace(strings.SplitN(flow, `"steps": [`, 2)[1]), "{\n      \"type\": \"setViewport\"") {
		t.Errorf("the flow does not set the viewport first, as Recorder does:\n%s", flow)
	}
	r := replay(t, file, `() => document.getElementById('summary').textContent`)
	if !r.OK || !strings.HasSuffix(strings.Split(r.URL, "?")[0], "/pages/recorder/done.html") || string(r.State) != `"Thanks Ada, size m, gift wrapped."` {
		t.Errorf("replay ended with %+v (state %s), want done.html with the order", r, r.State)
	}
	if !strings.Contains(r.URL, "pw=%3Cpassword%3E") {
		t.Errorf("replay submitted %s, want the password placeholder", r.URL)
	}
}

// TestRecorderFlowReplaysFramesAndShadowDOM checks that steps on a
// button in a shadow tree and on a field and button in an iframe replay.
func TestRecorderFlowReplaysFramesAndShadowDOM(t *testing.T) {
	site := fixtures(t)
	s := startServer(t, append(headless, "--categoryExperimentalRecorder")...)
	s.ok("navigate_page", map[string]any{"url": site.URL + "/pages/recorder/frames.html"})
	snap := s.ok("take_snapshot", nil)
	s.ok("click", map[string]any{"uid": uidOf(t, snap, `button "Shadow press"`)})
	s.ok("fill", map[string]any{"uid": uidOf(t, snap, `textbox "Note"`), "value": "from the frame"})
	s.ok("click", map[string]any{"uid": uidOf(t, snap, `button "Frame press"`)})

	file := filepath.Join(t.TempDir(), "frames.json")
	s.ok("export_recorder_flow", map[string]any{"filePath": file,
		"assertions": []map[string]any{{"type": "waitForExpression", "expression": "document.title === 'inner pressed'"}}})
	data, _ := os.ReadFile(file)
	mustContain(t, string(data), `"frame": [`, `"#host",`)

	r := replay(t, file, `() => [document.getElementById('status').textContent, frames[0].document.body.dataset.note]`)
	if !r.OK || r.Title != "inner pressed" || string(r.State) != `["shadow pressed","from the frame"]` {
		t.Errorf("replay ended with %+v (state %s)", r, r.State)
	}
}

// TestRecorderFlowsPerHTTPSession checks that two HTTP sessions each
// export their own steps, never the other's.
func TestRecorderFlowsPerHTTPSession(t *testing.T) {
	site := fixtures(t)
	hs := startHTTPServer(t, append(headless, "--categoryExperimentalRecorder")...)
	a, b := hs.connect(), hs.connect()
	snapA := a.open(site, "/pages/recorder/form.html")
	a.ok("fill", map[string]any{"uid": uidOf(t, snapA, `textbox "Name"`), "value": "only A"})
	b.open(site, "/pages/recorder/frames.html")

	dir := t.TempDir()
	fa, fb := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	a.ok("export_recorder_flow", map[string]any{"filePath": fa})
	b.ok("export_recorder_flow", map[string]any{"filePath": fb})
	da, _ := os.ReadFile(fa)
	db, _ := os.ReadFile(fb)
	mustContain(t, string(da), "form.html", `"value": "only A"`)
	mustContain(t, string(db), "frames.html")
	if strings.Contains(string(da), "frames.html") || strings.Contains(string(db), "form.html") || strings.Contains(string(db), "only A") {
		t.Errorf("a session's flow holds the other's steps:\nA:\n%s\nB:\n%s", da, db)
	}
}
