package e2e

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// fixtures serves testdata/ on 127.0.0.1; pages are under /pages/.
func fixtures(t testing.TB) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.FileServer(http.Dir("testdata")))
	t.Cleanup(srv.Close)
	return srv
}

var uidRe = regexp.MustCompile(`uid=(\S+)`)

// uidOf returns the uid on the first snapshot line that contains substr.
func uidOf(t testing.TB, snap, substr string) string {
	t.Helper()
	for line := range strings.Lines(snap) {
		if strings.Contains(line, substr) {
			if m := uidRe.FindStringSubmatch(line); m != nil {
				return m[1]
			}
		}
	}
	t.Fatalf("no snapshot line with %q in:\n%s", substr, snap)
	return ""
}

// open navigates to path on site and returns a fresh snapshot.
func (s *server) open(site *httptest.Server, path string) string {
	s.t.Helper()
	s.ok("navigate_page", map[string]any{"url": site.URL + path})
	return s.ok("take_snapshot", nil)
}

func TestSnapshotOfAForm(t *testing.T) {
	site := fixtures(t)
	s := startServer(t, headless...)
	snap := s.open(site, "/pages/form.html")
	mustContain(t, snap, "## Latest page snapshot",
		`RootWebArea "Probe form" url="`+site.URL+`/pages/form.html"`,
		`heading "Sign in" level="1"`,
		`textbox "Username"`, `value="alice"`,
		`checkbox "Remember me" checked`,
		`combobox "Color"`, `option "Green"`,
		`button "Log in"`)
	if strings.Contains(snap, "hunter2secret") {
		t.Fatalf("snapshot shows the password:\n%s", snap)
	}
	if !regexp.MustCompile(`(?m)^  uid=\d+_\d+ heading`).MatchString(snap) {
		t.Fatalf("snapshot lines are not indented by depth:\n%s", snap)
	}
}

func TestUIDsAreStableAndStaleOnesFail(t *testing.T) {
	site := fixtures(t)
	s := startServer(t, headless...)
	first := s.open(site, "/pages/form.html")
	user, login := uidOf(t, first, `textbox "Username"`), uidOf(t, first, `button "Log in"`)
	s.eval(`() => { document.getElementById('login').remove(); const b = document.createElement('button'); b.textContent = 'Brand new'; document.body.append(b); }`)
	second := s.ok("take_snapshot", nil)
	if got := uidOf(t, second, `textbox "Username"`); got != user {
		t.Fatalf("Username uid changed from %s to %s across snapshots", user, got)
	}
	if got := uidOf(t, second, `button "Brand new"`); !strings.HasPrefix(got, "2_") {
		t.Fatalf("new node uid = %s, want a 2_ uid", got)
	}
	mustContain(t, s.fails("click", map[string]any{"uid": login}), "no longer exists", "take a new snapshot")
	// A uid from the first snapshot still works while its node lives.
	s.ok("fill", map[string]any{"uid": user, "value": "bob"})
	mustContain(t, s.fails("click", map[string]any{"uid": "nonsense"}), "nonsense")
}

func TestFillEveryKindOfField(t *testing.T) {
	site := fixtures(t)
	s := startServer(t, headless...)
	snap := s.open(site, "/pages/form.html")
	s.ok("fill", map[string]any{"uid": uidOf(t, snap, `textbox "Username"`), "value": "bob"})
	s.ok("fill", map[string]any{"uid": uidOf(t, snap, `combobox "Color"`), "value": "Blue"})
	s.ok("fill", map[string]any{"uid": uidOf(t, snap, `checkbox "Remember me"`), "value": "false"})
	s.ok("fill_form", map[string]any{"elements": []map[string]any{
		{"uid": uidOf(t, snap, `textbox "Bio"`), "value": "line one"},
		{"uid": uidOf(t, snap, `radio "Large"`), "value": "true"},
		{"uid": uidOf(t, snap, `"Birthday"`), "value": "2026-11-30"},
		{"uid": uidOf(t, snap, `spinbutton "Count"`), "value": "42"},
		{"uid": uidOf(t, snap, `slider "Volume"`), "value": "8"},
		{"uid": uidOf(t, snap, `"Editor"`), "value": "new text"},
	}})
	got := s.eval(`() => ({user: user.value, color: color.value, remember: remember.checked, bio: bio.value,
		size: document.querySelector('[name=size]:checked')?.value, day: day.value, count: count.value,
		volume: volume.value, editor: editor.textContent, seen: JSON.parse(out.textContent)})`)
	for _, want := range []string{`"user":"bob"`, `"color":"b"`, `"remember":false`, `"bio":"line one"`, `"size":"l"`,
		`"day":"2026-11-30"`, `"count":"42"`, `"volume":"8"`, `"editor":"new text"`,
		`"change:user":true`, `"change:color":true`, `"editor":"new text"`} {
		mustContain(t, got, want)
	}
	mustContain(t, s.fails("fill", map[string]any{"uid": uidOf(t, snap, `combobox "Color"`), "value": "Purple"}), `no option "Purple"`, `"Red"`)
	mustContain(t, s.fails("fill", map[string]any{"uid": uidOf(t, snap, `heading "Sign in"`), "value": "x"}), "takes no value")
}

func TestClickWaitsAndReportsWhatHappened(t *testing.T) {
	site := fixtures(t)
	s := startServer(t, headless...)
	snap := s.open(site, "/pages/actions.html")
	out := s.ok("click", map[string]any{"uid": uidOf(t, snap, `button "Throw"`)})
	mustContain(t, out, "Successfully clicked", "boom from click", "bad thing 42")
	out = s.ok("click", map[string]any{"uid": uidOf(t, snap, `button "Slow"`), "includeSnapshot": true})
	mustContain(t, out, "## Latest page snapshot", "Appeared later")
	out = s.ok("click", map[string]any{"uid": uidOf(t, snap, `button "Far away"`), "includeSnapshot": true})
	mustContain(t, out, `button "Far clicked"`)
	out = s.ok("click", map[string]any{"uid": uidOf(t, snap, `button "Double me"`), "dblClick": true, "includeSnapshot": true})
	mustContain(t, out, "double clicked", `button "Double clicked"`)
	out = s.ok("hover", map[string]any{"uid": uidOf(t, snap, `button "Hover me"`), "includeSnapshot": true})
	mustContain(t, out, `button "Hovered"`)
	out = s.fails("click", map[string]any{"uid": uidOf(t, snap, `button "Covered"`)})
	mustContain(t, out, "covered by", "Cookie banner")
	out = s.ok("click", map[string]any{"uid": uidOf(t, snap, `button "Go to form"`)})
	mustContain(t, out, "The page navigated to "+site.URL+"/pages/form.html")
	if got := s.eval("() => document.title"); got != `"Probe form"` {
		t.Fatalf("after the navigating click the title is %s", got)
	}
}

func TestDialogs(t *testing.T) {
	site := fixtures(t)
	s := startServer(t, headless...)
	snap := s.open(site, "/pages/actions.html")
	out := s.ok("click", map[string]any{"uid": uidOf(t, snap, `button "Alert"`)})
	mustContain(t, out, "Successfully clicked on the element.\nThe action opened a dialog (alert); answer it with handle_dialog.", "# Open dialog", "alert: hello dialog.")
	mustContain(t, s.fails("evaluate_script", map[string]any{"function": "() => 1"}), "alert dialog is open", "handle_dialog")
	out = s.ok("handle_dialog", map[string]any{"action": "accept"})
	mustContain(t, out, `Successfully accepted the alert dialog "hello dialog".`, "## Pages\n1: Actions ("+site.URL+"/pages/actions.html) [selected]")
	mustContain(t, s.fails("handle_dialog", map[string]any{"action": "accept"}), "no dialog is open")

	s.ok("click", map[string]any{"uid": uidOf(t, snap, `button "Confirm"`)})
	s.ok("handle_dialog", map[string]any{"action": "dismiss"})
	if got := s.eval("() => document.title"); got != `"confirm:false"` {
		t.Fatalf("after dismissing confirm the title is %s", got)
	}
	out = s.ok("click", map[string]any{"uid": uidOf(t, snap, `button "Prompt"`)})
	mustContain(t, out, `prompt: Name? (default value: "anon")`)
	s.ok("handle_dialog", map[string]any{"action": "accept", "promptText": "Ada"})
	if got := s.eval("() => document.title"); got != `"prompt:Ada"` {
		t.Fatalf("after answering the prompt the title is %s", got)
	}
}

func TestKeysAndTyping(t *testing.T) {
	site := fixtures(t)
	s := startServer(t, headless...)
	snap := s.open(site, "/pages/form.html")
	s.ok("click", map[string]any{"uid": uidOf(t, snap, `textbox "Username"`)})
	s.ok("press_key", map[string]any{"key": "Control+A"})
	s.ok("press_key", map[string]any{"key": "Backspace"})
	if got := s.eval("() => user.value"); got != `""` {
		t.Fatalf("Control+A then Backspace left %s", got)
	}
	s.ok("type_text", map[string]any{"text": "Hi There!", "submitKey": "Enter"})
	got := s.eval("() => ({v: user.value, seen: JSON.parse(out.textContent)})")
	mustContain(t, got, `"v":"Hi There!"`, `"submitted":true`)
	s.ok("press_key", map[string]any{"key": "Control+Shift+K"})
	mustContain(t, s.eval("() => out.textContent"), `Control+Shift+K`)
	mustContain(t, s.fails("press_key", map[string]any{"key": "Hyper+Q"}), "not a modifier")
}

func TestDragAndDrop(t *testing.T) {
	site := fixtures(t)
	s := startServer(t, headless...)
	snap := s.open(site, "/pages/actions.html")
	out := s.ok("drag", map[string]any{"from_uid": uidOf(t, snap, `"Item B"`), "to_uid": uidOf(t, snap, `"Drop zone"`), "includeSnapshot": true})
	mustContain(t, out, "dropped B")
}

func TestUploadFile(t *testing.T) {
	site := fixtures(t)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.bin")
	os.WriteFile(a, []byte("hello"), 0o600)
	os.WriteFile(b, make([]byte, 1234), 0o600)
	s := startServer(t, headless...)
	snap := s.open(site, "/pages/actions.html")
	s.ok("upload_file", map[string]any{"uid": uidOf(t, snap, `button "Attach`), "filePaths": []string{a, b}})
	if got := s.eval("() => document.title"); got != `"a.txt:5,b.bin:1234"` {
		t.Fatalf("page read %s", got)
	}
	s.ok("upload_file", map[string]any{"uid": uidOf(t, snap, `button "Choose files"`), "filePaths": []string{b}})
	if got := s.eval("() => document.title"); got != `"b.bin:1234"` {
		t.Fatalf("through the chooser the page read %s", got)
	}
	mustContain(t, s.fails("upload_file", map[string]any{"uid": uidOf(t, snap, `button "Attach`), "filePaths": []string{filepath.Join(dir, "missing")}}), "missing")
}

func TestIframesAndShadowDOM(t *testing.T) {
	site := fixtures(t)
	cross := strings.Replace(site.URL, "127.0.0.1", "localhost", 1) + "/pages/inner.html?who=cross"
	s := startServer(t, headless...)
	// With pad, every document has over 3,000 elements and is read by the
	// in-page walker instead of Chromium's accessibility tree.
	for _, pad := range []string{"", "&pad"} {
		s.ok("navigate_page", map[string]any{"url": site.URL + "/pages/frames.html?cross=" + url.QueryEscape(cross+pad) + pad})
		s.ok("wait_for", map[string]any{"text": []string{"Host"}})
		var snap string
		eventually(t, "both frames in the snapshot, pad="+pad, func() bool {
			snap = s.ok("take_snapshot", nil)
			return strings.Count(snap, `button "Inner button"`) == 2
		})
		mustContain(t, snap, `button "Shadow button"`)
		// Click each: the same-origin frame's, the cross-site frame's, the shadow one.
		for line := range strings.Lines(snap) {
			if strings.Contains(line, `button "Inner button"`) || strings.Contains(line, `button "Shadow button"`) {
				s.ok("click", map[string]any{"uid": uidRe.FindStringSubmatch(line)[1]})
			}
		}
		again := s.ok("take_snapshot", nil)
		mustContain(t, again, `button "same clicked"`, `button "cross clicked"`, `button "Shadow clicked"`)
		if a, b := uidOf(t, snap, `heading "Host"`), uidOf(t, again, `heading "Host"`); a != b {
			t.Fatalf("pad=%s: the heading's uid changed from %s to %s", pad, a, b)
		}
	}
}

func TestSnapshotSubtreeAndCap(t *testing.T) {
	site := fixtures(t)
	s := startServer(t, headless...)
	snap := s.open(site, "/pages/actions.html")
	zone := uidOf(t, snap, `region "Drop zone"`)
	sub := s.ok("take_snapshot", map[string]any{"uid": zone})
	mustContain(t, sub, "Drop here")
	if strings.Contains(sub, "Item A") || strings.Contains(sub, "Go to form") {
		t.Fatalf("subtree snapshot shows nodes outside uid=%s:\n%s", zone, sub)
	}
	cut := s.ok("take_snapshot", map[string]any{"maxChars": 300})
	if len(cut) > 900 {
		t.Fatalf("maxChars 300 gave %d characters", len(cut))
	}
	mustContain(t, cut, "filePath")
	file := filepath.Join(t.TempDir(), "snap.txt")
	mustContain(t, s.ok("take_snapshot", map[string]any{"filePath": file}), "Saved snapshot to "+file)
	data, err := os.ReadFile(file)
	if err != nil || !strings.Contains(string(data), "Far away") {
		t.Fatalf("saved snapshot: %v %.200s", err, data)
	}
}

func TestClickAtNeedsVisionFlag(t *testing.T) {
	site := fixtures(t)
	s := startServer(t, append(headless, "--experimentalVision")...)
	s.open(site, "/pages/actions.html")
	var box struct{ X, Y float64 }
	if err := json.Unmarshal([]byte(s.eval(`() => { const r = document.getElementById('hover').getBoundingClientRect(); return {x: r.x + 5, y: r.y + 5}; }`)), &box); err != nil {
		t.Fatal(err)
	}
	out := s.ok("click_at", map[string]any{"x": box.X, "y": box.Y, "includeSnapshot": true})
	mustContain(t, out, "clicked at the coordinates", `button "Hovered"`)
}

// TestBigPageUIDs acts on a page big enough to be read by the in-page
// walker: uids resolve for fill and click, stay the same across snapshots
// and for elements that evaluate_script returns, and fail once their
// element is gone.
func TestBigPageUIDs(t *testing.T) {
	site := pages(t, map[string]string{"/": rowsPage + `<script>
document.addEventListener('click', e => { if (e.target.matches('button')) e.target.textContent = 'Done ' + e.target.textContent; });
</script>`})
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	snap := s.ok("take_snapshot", nil)
	mustContain(t, snap, `link "Row 400" url="`+site.URL+`/#r400"`, "snapshot cut at 60000 characters")
	row5, edit7, value9 := uidOf(t, snap, `link "Row 5"`), uidOf(t, snap, `button "Edit 7"`), uidOf(t, snap, `textbox "Value 9"`)

	s.ok("fill", map[string]any{"uid": value9, "value": "nine"})
	if got := s.eval(`() => document.querySelectorAll('input')[9].value`); got != `"nine"` {
		t.Fatalf("after fill the input holds %s", got)
	}
	mustContain(t, s.ok("click", map[string]any{"uid": edit7, "includeSnapshot": true}), `button "Done Edit 7"`)
	if got := s.eval(`() => document.querySelectorAll('a')[5]`); got != `"uid=`+row5+`"` {
		t.Fatalf("evaluate_script names the Row 5 link %s, the snapshot %s", got, row5)
	}

	s.eval(`() => document.querySelectorAll('a')[5].parentElement.remove()`)
	again := s.ok("take_snapshot", nil)
	if strings.Contains(again, `"Row 5"`) {
		t.Fatal("the removed row is still in the snapshot")
	}
	if got := uidOf(t, again, `button "Done Edit 7"`); got != edit7 {
		t.Fatalf("the Edit 7 button's uid changed from %s to %s", edit7, got)
	}
	mustContain(t, s.fails("click", map[string]any{"uid": row5}), "no longer exists", "take a new snapshot")
	mustContain(t, s.ok("take_snapshot", map[string]any{"verbose": true}), `link "Row 6"`)
}

// TestCrossSiteFrameInsideSameSiteFrame snapshots a cross-site iframe that
// sits in a same-origin iframe: it shows under its own <iframe>, inside the
// same-origin frame's document, and its button can be clicked.
func TestCrossSiteFrameInsideSameSiteFrame(t *testing.T) {
	site := fixtures(t)
	s := startServer(t, headless...)
	for _, pad := range []string{"", "&pad"} {
		cross := strings.Replace(site.URL, "127.0.0.1", "localhost", 1) + "/pages/inner.html?who=nested" + pad
		middle := site.URL + "/pages/frames.html?cross=" + url.QueryEscape(cross) + pad
		s.ok("navigate_page", map[string]any{"url": site.URL + "/pages/frames.html?cross=" + url.QueryEscape(middle) + pad})
		var snap string
		eventually(t, "the nested frame in the snapshot, pad="+pad, func() bool {
			snap = s.ok("take_snapshot", nil)
			return strings.Contains(snap, `button "Inner button"`) && strings.Count(snap, `button "Inner button"`) == 3
		})
		// The nested frame's document sits under the middle frame's
		// second <iframe>, two levels deeper than the middle document.
		depths, lines := treeDepths(snap)
		middleAt, nestedAt := -1, -1
		for i, line := range lines {
			if strings.Contains(line, `RootWebArea "Frames" url="`+middle) {
				middleAt = i
			}
			if strings.Contains(line, `url="`+cross+`"`) {
				nestedAt = i
			}
		}
		if middleAt < 0 || nestedAt < middleAt || depths[nestedAt] != depths[middleAt]+2 {
			t.Fatalf("pad=%s: the nested frame is not under the middle frame's <iframe>:\n%s", pad, snap)
		}
		s.ok("click", map[string]any{"uid": uidRe.FindStringSubmatch(lines[nestedAt+1])[1]})
		mustContain(t, s.ok("take_snapshot", nil), `button "nested clicked"`)
	}
}

// treeDepths returns the snapshot lines below the header and how deep each
// is indented.
func treeDepths(snap string) (depths []int, lines []string) {
	for line := range strings.Lines(snap) {
		if !strings.Contains(line, "uid=") {
			continue
		}
		trimmed := strings.TrimLeft(line, " ")
		depths = append(depths, (len(line)-len(trimmed))/2)
		lines = append(lines, line)
	}
	return depths, lines
}
