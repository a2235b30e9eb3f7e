package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bankPage is a sensitive page to frame: a button at the top left of its
// document (0..100, 0..40), a field, and a srcdoc iframe, which has the
// bank's origin, with a button of its own.
func bankPage(label string) string {
	return `<title>Bank ` + label + `</title><body style="margin:0">` +
		`<button style="position:absolute;left:0;top:0;width:100px;height:40px" onclick="document.title='Paid ` + label + `'">Pay ` + label + `</button>` +
		`<input aria-label="Amount ` + label + `" style="position:absolute;left:0;top:50px">` +
		`<iframe srcdoc="<button onclick=&quot;parent.document.title='Inner paid'&quot;>Inner ` + label + `</button>" style="position:absolute;left:150px;top:0;width:140px;height:60px;border:0"></iframe>`
}

// TestSensitiveFramesAreGuarded checks that the sensitive page guard
// looks at the frame an action lands in, not only at the top page's URL:
// a page that is not sensitive itself frames sensitive pages cross-site
// (localhost under 127.0.0.1: another process), same-site but cross-origin
// (another port: the same process), nested two deep, and in a srcdoc
// iframe of theirs. Clicks, fills, click_at, keys and scripts landing in
// them need the user's yes; the top page's own elements do not.
func TestSensitiveFramesAreGuarded(t *testing.T) {
	other := pages(t, map[string]string{"/bank/b": bankPage("B"), "/bank/c": bankPage("C")})
	site := pages(t, map[string]string{
		"/bank/a": bankPage("A"),
		// The wrapper, on localhost, frames a bank page of the other port.
		"/wrap":  `<body style="margin:0"><iframe src="` + other.URL + `/bank/c" style="width:300px;height:120px;border:0;display:block"></iframe>`,
		"/plain": `<body style="margin:0"><button style="width:100px;height:40px">Plain</button>`,
		"/news": `<title>News</title><style>body{margin:0} iframe{width:300px;height:120px;border:0;display:block}</style>` +
			`<iframe id="a"></iframe><iframe id="b" src="` + other.URL + `/bank/b"></iframe><iframe id="c"></iframe><iframe id="d" src="/plain"></iframe>` +
			`<button onclick="document.title='Top clicked'">Top</button> <button onclick="d.src='http://localhost:'+location.port+'/bank/a'">Swap</button>` +
			`<script>a.src='http://localhost:'+location.port+'/bank/a'; c.src='http://localhost:'+location.port+'/wrap'</script>`,
	})
	port := site.URL[strings.LastIndex(site.URL, ":")+1:]
	config := t.TempDir()
	os.MkdirAll(filepath.Join(config, "devtools-mcp"), 0o700)
	patterns := "http://localhost:" + port + "/bank/*\n" + other.URL + "/bank/*\n"
	os.WriteFile(filepath.Join(config, "devtools-mcp", "sensitive-patterns.txt"), []byte(patterns), 0o600)
	t.Setenv("XDG_CONFIG_HOME", config)
	var asked []string
	client := mcp.NewClient(&mcp.Implementation{Name: "elicit", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked = append(asked, req.Params.Message)
			return &mcp.ElicitResult{Action: "decline"}, nil
		},
	})
	s := startServerWith(t, client, append(headless, "--sensitivePages=on", "--experimentalVision")...)
	s.ok("navigate_page", map[string]any{"url": site.URL + "/news"})
	var snap string
	eventually(t, "the framed pages to load", func() bool {
		snap = s.ok("take_snapshot", nil)
		return strings.Contains(snap, "Inner A") && strings.Contains(snap, "Pay C") && strings.Contains(snap, "Plain")
	})
	declined := func(tool string, args map[string]any, frame string) {
		t.Helper()
		n := len(asked)
		mustContain(t, s.fails(tool, args), "you declined", "iframe showing", frame, "/bank/*")
		if len(asked) != n+1 {
			t.Fatalf("%s: asked %d times, want once", tool, len(asked)-n)
		}
	}
	a, b := "http://localhost:"+port+"/bank/a", other.URL+"/bank/b"
	declined("click", map[string]any{"uid": uidOf(t, snap, `"Pay A"`)}, a)
	declined("click", map[string]any{"uid": uidOf(t, snap, `"Pay B"`)}, b)
	declined("click", map[string]any{"uid": uidOf(t, snap, `"Pay C"`)}, other.URL+"/bank/c")
	declined("click", map[string]any{"uid": uidOf(t, snap, `"Inner A"`)}, a)
	declined("fill", map[string]any{"uid": uidOf(t, snap, `"Amount B"`), "value": "1000"}, b)
	declined("fill_form", map[string]any{"elements": []map[string]any{{"uid": uidOf(t, snap, `"Amount A"`), "value": "1000"}}}, a)
	declined("drag", map[string]any{"from_uid": uidOf(t, snap, `"Top"`), "to_uid": uidOf(t, snap, `"Pay B"`)}, b)
	declined("click_at", map[string]any{"x": 50, "y": 20}, a)          // frame a's button
	declined("click_at", map[string]any{"x": 50, "y": 140}, b)         // frame b's, same process
	declined("click_at", map[string]any{"x": 50, "y": 260}, "/bank/c") // in frame c's frame
	declined("press_key", map[string]any{"key": "Enter"}, "/bank/")
	declined("type_text", map[string]any{"text": "1000"}, "/bank/")
	declined("evaluate_script", map[string]any{"function": "() => document.title"}, "/bank/")
	// The top page's own elements and the plain frame are not sensitive.
	n := len(asked)
	s.ok("click", map[string]any{"uid": uidOf(t, snap, `"Top"`)})
	s.ok("click", map[string]any{"uid": uidOf(t, snap, `"Plain"`)})
	s.ok("click_at", map[string]any{"x": 50, "y": 380})
	if len(asked) != n {
		t.Fatalf("asked for the top page's own elements: %q", asked[n:])
	}
	// A frame navigated to a sensitive page since the snapshot is judged
	// by where it is now.
	s.ok("click", map[string]any{"uid": uidOf(t, snap, `"Swap"`)})
	eventually(t, "frame d to show the bank", func() bool {
		return strings.Count(s.ok("take_snapshot", nil), `"Pay A"`) == 2
	})
	declined("click_at", map[string]any{"x": 50, "y": 380}, a)
	if snap := s.ok("take_snapshot", nil); strings.Contains(snap, "Paid") || strings.Contains(snap, "Inner paid") {
		t.Fatalf("a click reached a sensitive frame past the guard:\n%s", snap)
	}
}

// TestSensitiveFrameMovedUnderThePointer checks the guard against a page
// that waits for the mouse: the sensitive iframe sits away from the button
// the agent clicks and jumps under the pointer when the mouse moves there,
// after the guard judged the click. The press must not reach it.
func TestSensitiveFrameMovedUnderThePointer(t *testing.T) {
	site := pages(t, map[string]string{
		"/bank/a": bankPage("A"),
		"/trap": `<title>Trap</title><body style="margin:0">` +
			`<button style="position:absolute;left:20px;top:300px;width:100px;height:40px">Decoy</button>` +
			`<button style="position:absolute;left:600px;top:300px;width:100px;height:40px">Other decoy</button>` +
			`<iframe id="f" style="position:fixed;left:400px;top:0;width:300px;height:120px;border:0"></iframe>` +
			`<script>f.src='http://localhost:'+location.port+'/bank/a';` +
			`addEventListener('mousemove', e => { f.style.left = (e.clientX - 50) + 'px'; f.style.top = (e.clientY - 20) + 'px' })</script>`,
	})
	port := site.URL[strings.LastIndex(site.URL, ":")+1:]
	config := t.TempDir()
	os.MkdirAll(filepath.Join(config, "devtools-mcp"), 0o700)
	os.WriteFile(filepath.Join(config, "devtools-mcp", "sensitive-patterns.txt"), []byte("http://localhost:"+port+"/bank/*\n"), 0o600)
	t.Setenv("XDG_CONFIG_HOME", config)
	client := mcp.NewClient(&mcp.Implementation{Name: "elicit", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			t.Errorf("asked %q: the click was aimed outside the sensitive frame", req.Params.Message)
			return &mcp.ElicitResult{Action: "decline"}, nil
		},
	})
	s := startServerWith(t, client, append(headless, "--sensitivePages=on", "--experimentalVision")...)
	s.ok("navigate_page", map[string]any{"url": site.URL + "/trap"})
	var snap string
	eventually(t, "the framed bank to load", func() bool {
		snap = s.ok("take_snapshot", nil)
		return strings.Contains(snap, "Pay A")
	})
	mustContain(t, s.fails("click", map[string]any{"uid": uidOf(t, snap, `"Decoy"`)}), "under the pointer", "localhost:"+port+"/bank/a", "nothing was pressed")
	// The frame now sits over the first decoy: click_at aims at the other.
	mustContain(t, s.fails("click_at", map[string]any{"x": 650, "y": 320}), "under the pointer", "nothing was pressed")
	if snap := s.ok("take_snapshot", nil); strings.Contains(snap, "Paid") {
		t.Fatalf("the press reached the sensitive frame:\n%s", snap)
	}
}
