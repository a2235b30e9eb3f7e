package snapshot

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// The fixtures are recorded from Chromium by testdata/record.go.

var (
	fixtureMu sync.Mutex
	fixtures  = map[string][]byte{}
)

// load decodes a recorded Frame tree (a fresh copy every call).
func load(t testing.TB, name string) *Frame {
	t.Helper()
	fixtureMu.Lock()
	data, ok := fixtures[name]
	fixtureMu.Unlock()
	if !ok {
		f, err := os.Open(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		var r io.Reader = f
		if strings.HasSuffix(name, ".gz") {
			zr, err := gzip.NewReader(f)
			if err != nil {
				t.Fatal(err)
			}
			r = zr
		}
		if data, err = io.ReadAll(r); err != nil {
			t.Fatal(err)
		}
		fixtureMu.Lock()
		fixtures[name] = data
		fixtureMu.Unlock()
	}
	var fr Frame
	if err := json.Unmarshal(data, &fr); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return &fr
}

// format renders s whole, failing the test on error.
func format(t testing.TB, s *Snapshot, opts Options) string {
	t.Helper()
	out, err := s.Format(opts)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// hostPort hides the httptest port, which changes with every recording.
var hostPort = regexp.MustCompile(`//(127\.0\.0\.1|localhost):\d+/`)

func normalize(s string) string { return hostPort.ReplaceAllString(s, "//$1:PORT/") }

// lineRE is the shape of every snapshot line.
var lineRE = regexp.MustCompile(`^(  )*uid=\d+_\d+( [^ "]+)?( "[^"\n]*")?( [a-z]+(="[^"\n]*")?)*$`)

// find returns the first node (preorder) with the role and name.
func find(s *Snapshot, role, name string) *Node {
	var found *Node
	walk(s.Root, func(n *Node) {
		if found == nil && n.Role == role && n.Name == name {
			found = n
		}
	})
	return found
}

func walk(n *Node, fn func(*Node)) {
	if n == nil {
		return
	}
	fn(n)
	for _, c := range n.Children {
		walk(c, fn)
	}
}

const wantForm = `uid=1_0 RootWebArea "Probe form" url="http://127.0.0.1:PORT/form.html"
  uid=1_1 heading "Sign in" level="1"
  uid=1_2 form
    uid=1_3 "Username"
    uid=1_4 textbox "Username" value="alice"
    uid=1_5 "Password"
    uid=1_6 textbox "Password" value="••••"
    uid=1_7 checkbox "Remember me" checked
    uid=1_8 "Color"
    uid=1_9 combobox "Color" expandable haspopup="menu" value="Green"
      uid=1_10 option "Red"
      uid=1_11 option "Green" selected
      uid=1_12 option "Blue"
    uid=1_13 "Bio"
    uid=1_14 textbox "Bio" multiline value="Hello there"
    uid=1_15 "Plan"
    uid=1_16 radio "Free" checked
    uid=1_17 radio "Pro"
    uid=1_18 "We never share your data."
    uid=1_19 button "Log in" focused
    uid=1_20 button "Delete account" disabled
  uid=1_21 link "Big page" url="http://127.0.0.1:PORT/big.html"
`

func TestFormSnapshot(t *testing.T) {
	s := NewTracker().Take(load(t, "form.json"), false)
	got := normalize(format(t, s, Options{}))
	if got != wantForm {
		t.Errorf("form snapshot:\n%s\nwant:\n%s", got, wantForm)
	}
	if s.Number != 1 || s.Count() != 22 {
		t.Errorf("Number, Count = %d, %d; want 1, 22", s.Number, s.Count())
	}
	// What a user checks by eye, independent of uids and indentation.
	for _, want := range []string{
		`RootWebArea "Probe form" url="http://127.0.0.1:PORT/form.html"`,
		`heading "Sign in" level="1"`,
		`textbox "Username" value="alice"`,
		`textbox "Password" value="••••"`,
		`checkbox "Remember me" checked`,
		`combobox "Color" expandable haspopup="menu" value="Green"`,
		`option "Green" selected`,
		`radio "Free" checked`,
		`button "Log in" focused`,
		`button "Delete account" disabled`,
		`link "Big page" url="http://127.0.0.1:PORT/big.html"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("snapshot lacks %q", want)
		}
	}
	for _, line := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
		if !lineRE.MatchString(line) {
			t.Errorf("malformed line %q", line)
		}
	}
	// The link's own text is not repeated under it; unchecked controls
	// say nothing about it.
	if regexp.MustCompile(`(?m)^ *uid=\S+ "Big page"$`).MatchString(got) || strings.Contains(got, "InlineTextBox") {
		t.Errorf("repeated link text or inline text boxes in:\n%s", got)
	}
	if strings.Contains(got, `radio "Pro" checked`) {
		t.Error("unchecked radio printed as checked")
	}
}

func TestPasswordMasked(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mutate func(*Frame)
	}{
		{"as recorded", func(*Frame) {}},
		{"without the Passwords set", func(f *Frame) { f.Passwords = nil }},
		{"browser exposing the value", func(f *Frame) {
			// As if Chromium reported the real text: only the Passwords
			// set tells. The text node inside the input must not leak
			// either.
			secret := &cdp.AXValue{Type: "string", Value: json.RawMessage(`"hunter2-secret"`)}
			for i := range f.Nodes {
				n := &f.Nodes[i]
				switch {
				case f.Passwords[n.BackendDOMNodeID]:
					n.Value = secret
				case str(n.Name) == strings.Repeat("•", 14):
					n.Name = secret
				}
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := load(t, "form.json")
			tc.mutate(f)
			for _, verbose := range []bool{false, true} {
				out := format(t, NewTracker().Take(f, verbose), Options{})
				if !strings.Contains(out, `textbox "Password" value="••••"`) {
					t.Errorf("verbose=%v: password value not masked:\n%s", verbose, out)
				}
				if strings.Contains(out, "hunter2") || strings.Contains(out, strings.Repeat("•", 5)) {
					t.Errorf("verbose=%v: password text or length leaked:\n%s", verbose, out)
				}
			}
		})
	}
}

// treeLines parses a snapshot text into (depth, text) pairs.
func treeLines(text string) (depths []int, lines []string) {
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		trimmed := strings.TrimLeft(l, " ")
		depths = append(depths, (len(l)-len(trimmed))/2)
		lines = append(lines, trimmed)
	}
	return depths, lines
}

// under tells whether the line containing child sits in the subtree of the
// line containing parent.
func under(text, parent, child string) bool {
	depths, lines := treeLines(text)
	for i, l := range lines {
		if !strings.Contains(l, parent) {
			continue
		}
		for j := i + 1; j < len(lines) && depths[j] > depths[i]; j++ {
			if strings.Contains(lines[j], child) {
				return true
			}
		}
	}
	return false
}

func TestFramesAndShadowDOM(t *testing.T) {
	root := load(t, "frames.json")
	tr := NewTracker()
	s := tr.Take(root, false)
	out := normalize(format(t, s, Options{}))
	t.Logf("frames snapshot:\n%s", out)

	for _, c := range []struct{ parent, child string }{
		{`Iframe "Same origin"`, `RootWebArea "Inner" url="http://127.0.0.1:PORT/inner.html"`},
		{`Iframe "Same origin"`, `button "Inner button"`},
		{`Iframe "Same origin"`, `"Inner text"`},
		{`Iframe "Cross site"`, `RootWebArea "Cross" url="http://localhost:PORT/cross.html"`},
		{`Iframe "Cross site"`, `link "Cross link" url="http://localhost:PORT/x"`},
		{`RootWebArea "Frames"`, `button "Shadow button"`},
		{`RootWebArea "Frames"`, `"Shadow text"`},
	} {
		if !under(out, c.parent, c.child) {
			t.Errorf("%s is not under %s", c.child, c.parent)
		}
	}
	if under(out, `Iframe "Same origin"`, "Cross link") || under(out, `Iframe "Cross site"`, "Inner button") {
		t.Error("frame content grafted under the wrong iframe")
	}

	// Uids resolve to keys in the right scope.
	var same, cross *Frame
	for _, c := range root.Children {
		if c.Scope == root.Scope {
			same = c
		} else {
			cross = c
		}
	}
	if same == nil || cross == nil {
		t.Fatal("fixture: want one same-process and one cross-process iframe (with its own scope)")
	}
	for _, c := range []struct {
		role, name string
		frame      *Frame
	}{
		{"link", "Cross link", cross},
		{"button", "Inner button", same},
		{"button", "Shadow button", root},
		{"Iframe", "Cross site", root},
	} {
		n := find(s, c.role, c.name)
		if n == nil {
			t.Fatalf("no %s %q", c.role, c.name)
		}
		want := Key{Scope: c.frame.Scope, BackendNodeID: backendID(t, c.frame, c.role, c.name)}
		got, err := tr.Lookup(n.UID)
		if err != nil || got != want || n.Key != want {
			t.Errorf("Lookup(%s %q = %s) = %v, %v; node key %v; want %v", c.role, c.name, n.UID, got, err, n.Key, want)
		}
	}
	// The cross-site frame's owner is the "Cross site" iframe.
	if id := backendID(t, root, "Iframe", "Cross site"); id != cross.Owner {
		t.Errorf("fixture: cross frame owner %d, iframe node %d", cross.Owner, id)
	}
}

// backendID returns the backend DOM node id of the AX node of f with role and name.
func backendID(t *testing.T, f *Frame, role, name string) int {
	t.Helper()
	for _, n := range f.Nodes {
		if n.Role.String() == role && n.Name.String() == name {
			return n.BackendDOMNodeID
		}
	}
	t.Fatalf("fixture has no %s %q", role, name)
	return 0
}

func TestUIDStability(t *testing.T) {
	tr := NewTracker()
	s1 := tr.Take(load(t, "form.json"), false)
	s2 := tr.Take(load(t, "form_changed.json"), false)
	if s2.Number != 2 {
		t.Fatalf("second snapshot number %d", s2.Number)
	}

	uids1 := map[Key]string{}
	walk(s1.Root, func(n *Node) { uids1[n.Key] = n.UID })
	kept := 0
	walk(s2.Root, func(n *Node) {
		if old, ok := uids1[n.Key]; ok {
			kept++
			if n.UID != old {
				t.Errorf("%s %q changed uid %s -> %s", n.Role, n.Name, old, n.UID)
			}
		}
	})
	if kept != s2.Count()-1 {
		t.Errorf("%d of %d nodes kept their uid; want all but the new one", kept, s2.Count())
	}

	added := find(s2, "button", "Sign up")
	if added == nil || !strings.HasPrefix(added.UID, "2_") {
		t.Fatalf("new button: %+v; want a 2_ uid", added)
	}
	if added.UID != "2_0" {
		t.Errorf("new button uid %s; want 2_0 (the only new node)", added.UID)
	}

	// The removed paragraph's text: its uid still resolves (uids live until
	// Reset; the browser side reports the DOM node as gone), but it is not
	// in the new snapshot.
	removed := find(s1, "StaticText", "We never share your data.")
	if removed == nil {
		t.Fatal("fixture: no hint text")
	}
	if k, err := tr.Lookup(removed.UID); err != nil || k != removed.Key {
		t.Errorf("Lookup(removed %s) = %v, %v; want %v", removed.UID, k, err, removed.Key)
	}
	if s2.Node(removed.UID) != nil {
		t.Error("removed node still in the new snapshot")
	}
	if _, err := s2.Format(Options{UID: removed.UID}); err == nil || !strings.Contains(err.Error(), "take a new snapshot") {
		t.Errorf("Format of a uid not in the snapshot: %v", err)
	}

	// Back to the first document: the removed node comes back with its
	// old uid, and nothing new is numbered.
	s3 := tr.Take(load(t, "form.json"), false)
	if back := find(s3, "StaticText", "We never share your data."); back == nil || back.UID != removed.UID {
		t.Errorf("reappearing node: %+v; want uid %s", back, removed.UID)
	}
	walk(s3.Root, func(n *Node) {
		if strings.HasPrefix(n.UID, "3_") {
			t.Errorf("unexpected new uid %s for %s %q", n.UID, n.Role, n.Name)
		}
	})
	if got, want := tr.Len(), s1.Count()+1; got != want {
		t.Errorf("tracker holds %d uids; want %d (distinct nodes)", got, want)
	}
}

func TestLookupErrors(t *testing.T) {
	tr := NewTracker()
	tr.Take(load(t, "form.json"), false)
	for _, uid := range []string{"", "abc", "1_", "_1", "1_2_3", "uid=1_2", "1-2", " 1_2", "1_2 ", "１_2"} {
		_, err := tr.Lookup(uid)
		want := fmt.Sprintf("uid %q is not a snapshot uid like 1_5; take a snapshot and use a uid from it", uid)
		if err == nil || err.Error() != want {
			t.Errorf("Lookup(%q) = %v; want %q", uid, err, want)
		}
	}
	// Uids as uidString never writes them name nothing either.
	for _, uid := range []string{"9_9", "1_99", "0_0", "01_4", "1_04", "00_0", "999999999999999999_999999999999999999"} {
		_, err := tr.Lookup(uid)
		want := fmt.Sprintf("no element with uid %q; take a new snapshot", uid)
		if err == nil || err.Error() != want {
			t.Errorf("Lookup(%q) = %v; want %q", uid, err, want)
		}
	}
	if k, err := tr.Lookup("1_4"); err != nil || k.Scope != "main" || k.BackendNodeID <= 0 {
		t.Errorf("Lookup(1_4) = %v, %v", k, err)
	}
}

func TestUIDFor(t *testing.T) {
	tr := NewTracker()
	s := tr.Take(load(t, "form.json"), false)
	user := find(s, "textbox", "Username")
	if got := tr.UIDFor(user.Key); got != user.UID {
		t.Errorf("UIDFor(known node) = %s; want %s", got, user.UID)
	}
	// A DOM node that is in no snapshot (a <div> a script returned).
	div := Key{Scope: "main", BackendNodeID: 424242}
	uid := tr.UIDFor(div)
	if want := fmt.Sprintf("1_%d", s.Count()); uid != want {
		t.Errorf("UIDFor(new node) = %s; want %s", uid, want)
	}
	if again := tr.UIDFor(div); again != uid {
		t.Errorf("UIDFor twice: %s then %s", uid, again)
	}
	if k, err := tr.Lookup(uid); err != nil || k != div {
		t.Errorf("Lookup(%s) = %v, %v", uid, k, err)
	}
	// The next snapshot numbers its new nodes afresh.
	s2 := tr.Take(load(t, "form_changed.json"), false)
	if n := find(s2, "button", "Sign up"); n == nil || n.UID != "2_0" {
		t.Errorf("new node after UIDFor: %+v", n)
	}

	// Before any snapshot, UIDFor opens snapshot 1.
	tr = NewTracker()
	if got := tr.UIDFor(div); got != "1_0" {
		t.Errorf("UIDFor before Take = %s; want 1_0", got)
	}
	if s := tr.Take(load(t, "form.json"), false); s.Number != 2 || s.Root.UID != "2_0" {
		t.Errorf("first Take after UIDFor: number %d, root %s", s.Number, s.Root.UID)
	}
}

func TestReset(t *testing.T) {
	tr := NewTracker()
	s1 := tr.Take(load(t, "form.json"), false)
	tr.Take(load(t, "form.json"), false)
	tr.Reset()
	if _, err := tr.Lookup(s1.Root.UID); err == nil {
		t.Error("uid still resolves after Reset")
	}
	if tr.Len() != 0 {
		t.Errorf("Len after Reset = %d", tr.Len())
	}
	extra := tr.UIDFor(Key{Scope: "main", BackendNodeID: 1})
	s3 := tr.Take(load(t, "form.json"), false)
	if s3.Number != 3 || s3.Root.UID != "3_0" {
		t.Errorf("after Reset: number %d, root uid %s; want 3, 3_0", s3.Number, s3.Root.UID)
	}
	seen := map[string]bool{}
	walk(s1.Root, func(n *Node) { seen[n.UID] = true })
	if seen[extra] {
		t.Errorf("UIDFor after Reset reused %s", extra)
	}
	walk(s3.Root, func(n *Node) {
		if seen[n.UID] {
			t.Errorf("uid %s reused after Reset", n.UID)
		}
	})
}

func TestVerbose(t *testing.T) {
	tr := NewTracker()
	brief := tr.Take(load(t, "form.json"), false)
	full := tr.Take(load(t, "form.json"), true)
	if !full.Verbose || full.Count() <= brief.Count() {
		t.Fatalf("verbose has %d nodes, default %d", full.Count(), brief.Count())
	}
	out := format(t, full, Options{})
	for _, want := range []string{" ignored\n", " generic\n", " paragraph\n", " LabelText\n", " \"Big page\"\n", " MenuListPopup\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("verbose snapshot lacks %q", want)
		}
	}
	if strings.Contains(out, "InlineTextBox") {
		t.Error("verbose snapshot has inline text boxes")
	}
	// Every node of the short snapshot is in the verbose one, same uid.
	walk(brief.Root, func(n *Node) {
		if full.Node(n.UID) == nil {
			t.Errorf("%s %q (%s) missing from the verbose snapshot", n.Role, n.Name, n.UID)
		}
	})
	if strings.Contains(format(t, brief, Options{}), "ignored") {
		t.Error("default snapshot has ignored nodes")
	}
}

func TestSubtree(t *testing.T) {
	s := NewTracker().Take(load(t, "form.json"), false)
	form := find(s, "form", "")
	out := format(t, s, Options{UID: form.UID})
	if !strings.HasPrefix(out, "uid="+form.UID+" form\n  uid=") {
		t.Errorf("subtree does not start at the form:\n%s", out)
	}
	if strings.Contains(out, "heading") || strings.Contains(out, "RootWebArea") || strings.Contains(out, "Big page") {
		t.Errorf("subtree has nodes outside the form:\n%s", out)
	}
	if !strings.Contains(out, "\n    uid=1_11 option \"Green\"") {
		t.Errorf("subtree depth not relative to the form:\n%s", out)
	}
	_, err := s.Format(Options{UID: "7_7"})
	if err == nil || !strings.Contains(err.Error(), `"7_7"`) || !strings.Contains(err.Error(), "take a new snapshot") {
		t.Errorf("Format(unknown uid) error = %v", err)
	}
}

var markerRE = regexp.MustCompile(`^\.\.\. snapshot cut at (\d+) characters: (\d+) more nodes not shown\. Take a snapshot of a subtree with uid=(\d+_\d+), or pass filePath to save the whole snapshot\.$`)

func TestMaxChars(t *testing.T) {
	s := NewTracker().Take(load(t, "big.json.gz"), false)
	full := format(t, s, Options{})
	for _, max := range []int{1, 50, 200, 400, 2000, 60000} {
		out := format(t, s, Options{MaxChars: max})
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		last := lines[len(lines)-1]
		m := markerRE.FindStringSubmatch(last)
		if m == nil {
			t.Fatalf("MaxChars=%d: last line %q is no marker", max, last)
		}
		shown := len(lines) - 1
		if m[1] != fmt.Sprint(max) || m[2] != fmt.Sprint(s.Count()-shown) {
			t.Errorf("MaxChars=%d: marker %q after %d of %d nodes", max, last, shown, s.Count())
		}
		body := strings.TrimSuffix(out, last+"\n")
		if !strings.HasPrefix(full, body) {
			t.Errorf("MaxChars=%d: cut text is not a prefix of the full text (cut mid-line?)", max)
		}
		if n := utf8.RuneCountInString(out); n > max && shown > 0 {
			t.Errorf("MaxChars=%d: %d characters", max, n)
		}
		if max >= 400 && shown == 0 {
			t.Errorf("MaxChars=%d: no line shown", max)
		}
		if s.Node(m[3]) == nil {
			t.Errorf("MaxChars=%d: marker names %s, not in the snapshot", max, m[3])
		}
	}
	// Enough room: no marker, same text.
	if out := format(t, s, Options{MaxChars: len(full)}); out != full {
		t.Error("MaxChars = len(text) changed the text")
	}
	// Subtree and cut together: the marker counts the subtree's nodes.
	form := NewTracker().Take(load(t, "form.json"), false)
	sub := format(t, form, Options{UID: "1_2", MaxChars: 300})
	lines := strings.Split(strings.TrimSuffix(sub, "\n"), "\n")
	m := markerRE.FindStringSubmatch(lines[len(lines)-1])
	if m == nil || m[2] != fmt.Sprint(19-(len(lines)-1)) {
		t.Errorf("subtree cut:\n%s", sub)
	}
	if m != nil && m[3] == "1_2" {
		t.Errorf("marker suggests the subtree it cut: %s", m[0])
	}
}

func TestNodesWithoutDOMNode(t *testing.T) {
	f := &Frame{Scope: "s", Nodes: []cdp.AXNode{
		{NodeID: "1", Role: axv(`"RootWebArea"`), Name: axv(`"Page"`), ChildIDs: []string{"2", "3", "4"}, BackendDOMNodeID: 1},
		{NodeID: "2", Role: axv(`"button"`), Name: axv(`"No DOM"`)},
		{NodeID: "3", Role: axv(`"button"`), Name: axv(`"Shared a"`), BackendDOMNodeID: 7},
		{NodeID: "4", Role: axv(`"button"`), Name: axv(`"Shared b"`), BackendDOMNodeID: 7},
	}}
	tr := NewTracker()
	s1 := tr.Take(f, false)
	s2 := tr.Take(f, false)
	uids := map[string]bool{}
	walk(s1.Root, func(n *Node) {
		if uids[n.UID] {
			t.Errorf("duplicate uid %s", n.UID)
		}
		uids[n.UID] = true
		if m := s2.Node(n.UID); m == nil || m.Name != n.Name {
			t.Errorf("%q: uid %s not stable", n.Name, n.UID)
		}
	})
	noDOM := find(s1, "button", "No DOM")
	if noDOM.Key.BackendNodeID >= 0 || noDOM.Key.Scope != "s" {
		t.Errorf("node without DOM node has key %v", noDOM.Key)
	}
	// Both nodes on one DOM node resolve to it.
	for _, name := range []string{"Shared a", "Shared b"} {
		n := find(s1, "button", name)
		if k, err := tr.Lookup(n.UID); err != nil || k != (Key{Scope: "s", BackendNodeID: 7}) {
			t.Errorf("Lookup(%s) = %v, %v", name, k, err)
		}
	}
}

// TestScriptedFrameKeys checks that nodes of a frame read by the in-page
// script are keyed in that frame's world, apart from Chromium's backend ids
// of another frame with the same numbers.
func TestScriptedFrameKeys(t *testing.T) {
	root := &Frame{Scope: "s", Nodes: []cdp.AXNode{
		{NodeID: "1", Role: axv(`"RootWebArea"`), Name: axv(`"Top"`), ChildIDs: []string{"2", "3"}, BackendDOMNodeID: 1},
		{NodeID: "2", Role: axv(`"button"`), Name: axv(`"Chromium's"`), BackendDOMNodeID: 2},
		{NodeID: "3", Role: axv(`"Iframe"`), BackendDOMNodeID: 3},
	}}
	root.Children = []*Frame{{Scope: "s", World: "child", Owner: 3, Nodes: []cdp.AXNode{
		{NodeID: "1", Role: axv(`"RootWebArea"`), Name: axv(`"Inner"`), ChildIDs: []string{"2"}, BackendDOMNodeID: 1},
		{NodeID: "2", Role: axv(`"button"`), Name: axv(`"Script's"`), BackendDOMNodeID: 2},
	}}}
	tr := NewTracker()
	s := tr.Take(root, false)
	for name, want := range map[string]Key{
		"Chromium's": {Scope: "s", BackendNodeID: 2},
		"Script's":   {Scope: "s", BackendNodeID: 2, World: "child"},
	} {
		n := find(s, "button", name)
		if n == nil {
			t.Fatalf("no button %q in\n%s", name, format(t, s, Options{}))
		}
		if k, err := tr.Lookup(n.UID); err != nil || k != want {
			t.Errorf("Lookup(%s) = %v, %v; want %v", name, k, err, want)
		}
	}
	if a, b := find(s, "button", "Chromium's").UID, find(tr.Take(root, false), "button", "Chromium's").UID; a != b {
		t.Errorf("uid changed from %s to %s", a, b)
	}
}

func axv(raw string) *cdp.AXValue { return &cdp.AXValue{Type: "string", Value: json.RawMessage(raw)} }

// TestPropertyRules checks how properties print: sorted, a true state
// without its "-able" form, a false one as that form alone, a tab (always
// selectable) never saying selectable, false tokens left out.
func TestPropertyRules(t *testing.T) {
	prop := func(name, raw string) cdp.AXProperty {
		return cdp.AXProperty{Name: name, Value: cdp.AXValue{Value: json.RawMessage(raw)}}
	}
	f := &Frame{Scope: "s", Nodes: []cdp.AXNode{
		{NodeID: "1", Role: axv(`"RootWebArea"`), Name: axv(`"P"`), ChildIDs: []string{"2", "3", "4", "5", "6", "7", "8"}, BackendDOMNodeID: 1,
			Properties: []cdp.AXProperty{prop("focused", "true"), prop("focusable", "true")}},
		{NodeID: "2", Role: axv(`"checkbox"`), Name: axv(`"Mixed"`), BackendDOMNodeID: 2,
			Properties: []cdp.AXProperty{prop("checked", `"mixed"`), prop("disabled", "false"), prop("required", "true")}},
		{NodeID: "3", Role: axv(`"slider"`), Name: axv(`"Volume"`), BackendDOMNodeID: 3, Value: &cdp.AXValue{Value: json.RawMessage("50")},
			Properties: []cdp.AXProperty{prop("valuemin", "0"), prop("valuemax", "100"), prop("orientation", `"horizontal"`), prop("hasPopup", `"false"`)}},
		{NodeID: "4", Role: axv(`"textbox"`), Name: axv(`"Notes"`), BackendDOMNodeID: 4, Value: axv(`"line 1\nline \"2\""`),
			Description: axv(`"Say something"`), Properties: []cdp.AXProperty{prop("invalid", `"spelling"`), prop("pressed", `"false"`)}},
		{NodeID: "5", Role: axv(`"button"`), Name: axv(`"Menu"`), BackendDOMNodeID: 5,
			Properties: []cdp.AXProperty{prop("expanded", "true"), prop("hasPopup", `"menu"`), prop("pressed", `"true"`)}},
		{NodeID: "6", Role: axv(`"generic"`), Name: axv(`"Hidden"`), BackendDOMNodeID: 6, Properties: []cdp.AXProperty{prop("hidden", "true")}},
		{NodeID: "7", Role: axv(`"tab"`), Name: axv(`"On"`), BackendDOMNodeID: 7, Properties: []cdp.AXProperty{prop("selected", "true"), prop("focused", "false")}},
		{NodeID: "8", Role: axv(`"tab"`), Name: axv(`"Off"`), BackendDOMNodeID: 8, Properties: []cdp.AXProperty{prop("selected", "false"), prop("expanded", "false")}},
	}}
	out := format(t, NewTracker().Take(f, false), Options{})
	want := `uid=1_0 RootWebArea "P"
  uid=1_1 checkbox "Mixed" checked="mixed" disableable required
  uid=1_2 slider "Volume" orientation="horizontal" value="50" valuemax="100" valuemin="0"
  uid=1_3 textbox "Notes" description="Say something" invalid="spelling" value="line 1
line "2""
  uid=1_4 button "Menu" expanded haspopup="menu" pressed
  uid=1_5 tab "On" focusable selected
  uid=1_6 tab "Off" expandable
`
	if out != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
}

// TestVersionNeutralNames checks that the whitespace older Chromium
// versions put around a label's text reads as the current ones report it,
// while text and buttons keep their spaces, a line break its name, and a
// slider's value text is Chromium's, empty when the page sets none (as the
// reference prints it: an ARIA slider without aria-valuetext, or a range
// input on Chromium 150).
func TestVersionNeutralNames(t *testing.T) {
	prop := func(name, raw string) cdp.AXProperty {
		return cdp.AXProperty{Name: name, Value: cdp.AXValue{Value: json.RawMessage(raw)}}
	}
	f := &Frame{Scope: "s", Nodes: []cdp.AXNode{
		{NodeID: "1", Role: axv(`"RootWebArea"`), Name: axv(`"P"`), ChildIDs: []string{"2", "3", "4", "5", "6", "7", "8"}, BackendDOMNodeID: 1},
		{NodeID: "2", Role: axv(`"textbox"`), Name: axv(`"Username "`), BackendDOMNodeID: 2},
		{NodeID: "3", Role: axv(`"checkbox"`), Name: axv(`" Remember\tme\n"`), BackendDOMNodeID: 3},
		{NodeID: "4", Role: axv(`"StaticText"`), Name: axv(`"Read the "`), BackendDOMNodeID: 4},
		{NodeID: "5", Role: axv(`"button"`), Name: axv(`"\u00a0Keep\u00a0"`), BackendDOMNodeID: 5},
		{NodeID: "6", Role: axv(`"slider"`), Name: axv(`"Vol "`), BackendDOMNodeID: 6, Value: &cdp.AXValue{Value: json.RawMessage("0.5")},
			Properties: []cdp.AXProperty{prop("valuemin", "0"), prop("valuemax", "1"), prop("valuetext", `""`)}},
		{NodeID: "7", Role: axv(`"LineBreak"`), Name: axv(`"\n"`), BackendDOMNodeID: 7},
		{NodeID: "8", Role: axv(`"link"`), Name: axv(`" Index "`), BackendDOMNodeID: 8},
	}}
	out := format(t, NewTracker().Take(f, false), Options{})
	want := "uid=1_0 RootWebArea \"P\"\n" +
		"  uid=1_1 textbox \"Username\"\n" +
		"  uid=1_2 checkbox \"Remember\tme\"\n" +
		"  uid=1_3 \"Read the \"\n" +
		"  uid=1_4 button \"\u00a0Keep\u00a0\"\n" +
		"  uid=1_5 slider \"Vol\" value=\"0.5\" valuemax=\"1\" valuemin=\"0\" valuetext=\"\"\n" +
		"  uid=1_6 LineBreak \"\n\"\n" +
		"  uid=1_7 link \" Index \"\n"
	if out != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
}

func TestEmpty(t *testing.T) {
	tr := NewTracker()
	for _, f := range []*Frame{nil, {Scope: "x"}} {
		s := tr.Take(f, false)
		if s.Root != nil || s.Count() != 0 {
			t.Errorf("empty frame: root %v, count %d", s.Root, s.Count())
		}
		if out, err := s.Format(Options{MaxChars: 10}); out != "" || err != nil {
			t.Errorf("Format(empty) = %q, %v", out, err)
		}
	}
}

func TestCycles(t *testing.T) {
	f := &Frame{Scope: "s", Nodes: []cdp.AXNode{
		{NodeID: "1", Role: axv(`"RootWebArea"`), ChildIDs: []string{"2", "1", "9"}, BackendDOMNodeID: 1},
		{NodeID: "2", Role: axv(`"button"`), Name: axv(`"A"`), ChildIDs: []string{"3", "2"}, ParentID: "3", BackendDOMNodeID: 2},
		{NodeID: "3", Role: axv(`"link"`), Name: axv(`"B"`), ChildIDs: []string{"2", "1"}, ParentID: "2", BackendDOMNodeID: 3},
		{NodeID: "3", Role: axv(`"link"`), Name: axv(`"dup id"`), ChildIDs: []string{"1"}, BackendDOMNodeID: 4},
	}}
	f.Children = []*Frame{f, {Scope: "t", Owner: 3, Nodes: f.Nodes, Children: []*Frame{f}}}
	done := make(chan *Snapshot)
	go func() { done <- NewTracker().Take(f, true) }()
	select {
	case s := <-done:
		out := format(t, s, Options{})
		if strings.Count(out, "\n") != s.Count() || s.Count() != 6 {
			t.Errorf("cyclic input gave %d nodes:\n%s", s.Count(), out)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Take does not return on cyclic input")
	}
}

func TestConcurrentUse(t *testing.T) {
	tr := NewTracker()
	form := load(t, "form.json")
	changed := load(t, "form_changed.json")
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 20 {
				f := form
				if (i+j)%2 == 0 {
					f = changed
				}
				s := tr.Take(f, j%3 == 0)
				walk(s.Root, func(n *Node) {
					if _, err := tr.Lookup(n.UID); err != nil && j%7 != 0 {
						// A concurrent Reset may have dropped it.
						_ = err
					}
				})
				tr.UIDFor(Key{Scope: "main", BackendNodeID: 1000 + j})
				if i == 0 && j == 10 {
					tr.Reset()
				}
				if _, err := s.Format(Options{MaxChars: 500}); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
}

func TestMemoryBounded(t *testing.T) {
	tr := NewTracker()
	form := load(t, "form.json")
	changed := load(t, "form_changed.json")
	tr.Take(form, true)
	tr.Take(changed, true)
	n := tr.Len()
	for range 200 {
		tr.Take(form, true)
		tr.Take(changed, false)
	}
	if tr.Len() != n {
		t.Errorf("tracker grew from %d to %d uids over 400 snapshots of the same nodes", n, tr.Len())
	}
}

// TestBigPage checks the snapshot of a 27,000-node page; its speed is
// BenchmarkTake's to measure, not a test's (a loaded machine is no bug).
func TestBigPage(t *testing.T) {
	f := load(t, "big.json.gz")
	s := NewTracker().Take(f, false)
	if s.Count() != 3*3000+2 {
		t.Errorf("big page: %d nodes; want 9002 (root, heading, 3000 rows of link, button, textbox)", s.Count())
	}
}

func BenchmarkTake(b *testing.B) {
	f := load(b, "big.json.gz")
	tr := NewTracker()
	b.ReportAllocs()
	for b.Loop() {
		tr.Take(f, false)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e6/float64(b.N), "ms/snapshot")
	b.ReportMetric(float64(len(f.Nodes)), "axnodes")
}

func BenchmarkTakeVerbose(b *testing.B) {
	f := load(b, "big.json.gz")
	tr := NewTracker()
	b.ReportAllocs()
	for b.Loop() {
		tr.Take(f, true)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e6/float64(b.N), "ms/snapshot")
}

func BenchmarkFormat(b *testing.B) {
	s := NewTracker().Take(load(b, "big.json.gz"), false)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Format(Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e6/float64(b.N), "ms/format")
}

// TestTextThatSpellsItsParent checks which text lines are left out as
// repeating their parent, as the reference does: only the children of a
// named node that are all text and spell its name. Text that also occurs in
// the page's title, whitespace between links, and text that only partly
// repeats a link's name are kept; a cell is not interesting, its text is.
func TestTextThatSpellsItsParent(t *testing.T) {
	text := func(id, name string) cdp.AXNode {
		n, _ := strconv.Atoi(id)
		return cdp.AXNode{NodeID: id, Role: axv(`"StaticText"`), Name: axv(strconv.Quote(name)), BackendDOMNodeID: n}
	}
	focusable := []cdp.AXProperty{{Name: "focusable", Value: cdp.AXValue{Value: json.RawMessage("true")}}}
	f := &Frame{Scope: "s", Nodes: []cdp.AXNode{
		{NodeID: "1", Role: axv(`"RootWebArea"`), Name: axv(`"9.4. String Functions"`), ChildIDs: []string{"2", "3", "4", "5", "6", "8", "11", "13"}, BackendDOMNodeID: 1, Properties: focusable},
		text("2", "9.4. String Functions"),
		{NodeID: "3", Role: axv(`"link"`), Name: axv(`"Prev"`), ChildIDs: []string{"30"}, BackendDOMNodeID: 3, Properties: focusable},
		text("4", " "),
		{NodeID: "5", Role: axv(`"link"`), Name: axv(`"Next"`), ChildIDs: []string{"50"}, BackendDOMNodeID: 5, Properties: focusable},
		text("6", "String"),
		{NodeID: "8", Role: axv(`"link"`), Name: axv(`"Read more  about it"`), ChildIDs: []string{"9", "10"}, BackendDOMNodeID: 8, Properties: focusable},
		text("9", "Read more"),
		text("10", " about\nit"),
		{NodeID: "11", Role: axv(`"link"`), Name: axv(`"Go home"`), ChildIDs: []string{"12"}, BackendDOMNodeID: 11, Properties: focusable},
		text("12", "Go"),
		{NodeID: "13", Role: axv(`"cell"`), Name: axv(`"42"`), ChildIDs: []string{"14"}, BackendDOMNodeID: 13},
		text("14", "42"),
		text("30", "Prev"),
		text("50", "Next"),
	}}
	out := format(t, NewTracker().Take(f, false), Options{})
	want := `uid=1_0 RootWebArea "9.4. String Functions"
  uid=1_1 "9.4. String Functions"
  uid=1_2 link "Prev"
  uid=1_4 " "
  uid=1_5 link "Next"
  uid=1_7 "String"
  uid=1_8 link "Read more  about it"
  uid=1_11 link "Go home"
    uid=1_12 "Go"
  uid=1_14 "42"
`
	if normalizeUIDs(out) != normalizeUIDs(want) {
		t.Errorf("got:\n%s\nwant (uids aside):\n%s", out, want)
	}
}

// normalizeUIDs drops the uids of a snapshot text.
func normalizeUIDs(s string) string {
	return regexp.MustCompile(`uid=\S+`).ReplaceAllString(s, "uid")
}

// TestUIDForFindsFramedNodes: a key made for an element a script returned
// does not know the element's frame; it names the node the snapshot
// numbered all the same, and Lookup keeps the frame the snapshot saw.
func TestUIDForFindsFramedNodes(t *testing.T) {
	tr := NewTracker()
	root := &Frame{Scope: "s", ID: "F", Nodes: []cdp.AXNode{
		{NodeID: "1", Role: axv(`"RootWebArea"`), ChildIDs: []string{"2"}, BackendDOMNodeID: 1},
		{NodeID: "2", Role: axv(`"button"`), Name: axv(`"Go"`), BackendDOMNodeID: 7},
	}}
	snap := tr.Take(root, false)
	want := find(snap, "button", "Go").UID
	if got := tr.UIDFor(Key{Scope: "s", BackendNodeID: 7}); got != want {
		t.Fatalf("UIDFor named the button %s, the snapshot %s", got, want)
	}
	if k, err := tr.Lookup(want); err != nil || k.Frame != "F" {
		t.Fatalf("Lookup = %+v, %v; want frame F", k, err)
	}
	// Seen by a script first, then by a snapshot: the frame is learnt.
	tr = NewTracker()
	uid := tr.UIDFor(Key{Scope: "s", BackendNodeID: 7})
	if got := find(tr.Take(root, false), "button", "Go").UID; got != uid {
		t.Fatalf("the snapshot named the button %s, UIDFor %s", got, uid)
	}
	if k, _ := tr.Lookup(uid); k.Frame != "F" {
		t.Fatalf("Lookup = %+v; want frame F", k)
	}
}

// TestLookupAcrossReset checks that Lookup finds every uid issued since the
// last Reset, and only those, also when a Reset came in the middle of a
// snapshot's numbering (UIDFor then goes on counting).
func TestLookupAcrossReset(t *testing.T) {
	tr := NewTracker()
	a := tr.UIDFor(Key{Scope: "s", BackendNodeID: 1})
	b := tr.UIDFor(Key{Scope: "s", BackendNodeID: 2})
	tr.Reset()
	c := tr.UIDFor(Key{Scope: "s", BackendNodeID: 1})
	if a != "1_0" || b != "1_1" || c != "1_2" {
		t.Fatalf("uids %s %s %s; want 1_0 1_1 1_2", a, b, c)
	}
	s := tr.Take(load(t, "form.json"), false)
	d := tr.UIDFor(Key{Scope: "s", BackendNodeID: 3})
	for _, uid := range []string{a, b} {
		if _, err := tr.Lookup(uid); err == nil {
			t.Errorf("Lookup(%s) found a uid issued before Reset", uid)
		}
	}
	if k, err := tr.Lookup(c); err != nil || k.BackendNodeID != 1 {
		t.Errorf("Lookup(%s) = %v, %v", c, k, err)
	}
	if k, err := tr.Lookup(d); err != nil || k.BackendNodeID != 3 {
		t.Errorf("Lookup(%s) = %v, %v", d, k, err)
	}
	walk(s.Root, func(n *Node) {
		if k, err := tr.Lookup(n.UID); err != nil || k != n.Key {
			t.Errorf("Lookup(%s) = %v, %v; want %v", n.UID, k, err, n.Key)
		}
	})
	if got, want := tr.Len(), s.Count()+2; got != want {
		t.Errorf("tracker holds %d uids; want %d", got, want)
	}
}
