package snapshot

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// fuzzInput turns arbitrary bytes into a Frame tree: up to 4 frames with
// random node ids (repeated, negative, missing), childIds and parentIds that
// point anywhere (cycles, self-loops, unknown ids), random roles, names,
// properties and raw JSON values, and frames hosted by random owners,
// including frames that host themselves or their ancestors.
type fuzzInput struct {
	data []byte
	pos  int
}

func (in *fuzzInput) next() int {
	if in.pos >= len(in.data) {
		return 0
	}
	b := in.data[in.pos]
	in.pos++
	return int(b)
}

var (
	fuzzRoles = []string{"RootWebArea", "generic", "none", "StaticText", "InlineTextBox", "button", "link",
		"textbox", "combobox", "option", "heading", "Iframe", "Ignored", "img", "main", "", "slider", "LineBreak"}
	fuzzNames = []string{"", "a", "Go", "line\nbreak", "••••", " ", `quo"te`, "ünï", "a b c"}
	fuzzProps = []string{"focusable", "focused", "hidden", "editable", "checked", "pressed", "level", "url",
		"disabled", "expanded", "selected", "hasPopup", "live", "busy", "modal", "roledescription",
		"errormessage", "details", "invalid", "valuemin"}
	fuzzValues = []string{`true`, `false`, `"true"`, `"false"`, `"mixed"`, `1`, `0`, `""`, `"richtext"`,
		`"polite"`, `null`, `"\u2022\u2022"`, `"x\\ny"`, `{"a":1}`, `[1]`, `"unterminated`, `1e400`}
)

func (in *fuzzInput) value() *cdp.AXValue {
	switch in.next() % 4 {
	case 0:
		return nil
	case 1:
		return &cdp.AXValue{Type: "string", Value: json.RawMessage(fuzzValues[in.next()%len(fuzzValues)])}
	default:
		b, _ := json.Marshal(fuzzNames[in.next()%len(fuzzNames)])
		return &cdp.AXValue{Type: "computedString", Value: b}
	}
}

func (in *fuzzInput) id() string { return strconv.Itoa(in.next()%24 - 3) }

func (in *fuzzInput) frame(scope string) *Frame {
	f := &Frame{Scope: scope}
	n := in.next() % 20
	for range n {
		ax := cdp.AXNode{NodeID: in.id(), Ignored: in.next()%4 == 0}
		if r := in.next() % (len(fuzzRoles) + 1); r < len(fuzzRoles) {
			b, _ := json.Marshal(fuzzRoles[r])
			ax.Role = &cdp.AXValue{Type: "role", Value: b}
		}
		ax.Name = in.value()
		if in.next()%3 == 0 {
			ax.Value = in.value()
		}
		if in.next()%5 == 0 {
			ax.Description = in.value()
		}
		for range in.next() % 4 {
			p := cdp.AXProperty{Name: fuzzProps[in.next()%len(fuzzProps)]}
			if v := in.value(); v != nil {
				p.Value = *v
			}
			ax.Properties = append(ax.Properties, p)
		}
		for range in.next() % 5 {
			ax.ChildIDs = append(ax.ChildIDs, in.id())
		}
		if in.next()%2 == 0 {
			ax.ParentID = in.id()
		}
		ax.BackendDOMNodeID = in.next()%30 - 4
		f.Nodes = append(f.Nodes, ax)
	}
	if in.next()%3 == 0 {
		f.Passwords = map[int]bool{in.next() % 26: true}
	}
	return f
}

func (in *fuzzInput) frames() *Frame {
	var all []*Frame
	count := 1 + in.next()%4
	for i := range count {
		all = append(all, in.frame("s"+strconv.Itoa(in.next()%2+i%2)))
	}
	for i := range all {
		// Host each frame (the root too, making cycles) under a random one.
		if i == 0 && in.next()%3 != 0 {
			continue
		}
		host := all[in.next()%len(all)]
		all[i].Owner = in.next()%30 - 4
		host.Children = append(host.Children, all[i])
		if in.next()%4 == 0 {
			host.Children = append(host.Children, nil)
		}
	}
	return all[0]
}

// checkSnapshot verifies what must hold for any input.
func checkSnapshot(tr *Tracker, s *Snapshot, maxChars int) error {
	out, err := s.Format(Options{})
	if err != nil {
		return err
	}
	// One line per node, plus the line breaks that names and values keep
	// (printed as they are, as the reference prints them).
	want := s.Count()
	walk(s.Root, func(n *Node) {
		want += strings.Count(n.Name, "\n")
		for _, p := range n.Props {
			if !p.Bool {
				want += strings.Count(p.Value, "\n")
			}
		}
	})
	if got := strings.Count(out, "\n"); got != want {
		return fmt.Errorf("%d lines for %d nodes (%d with the line breaks in names and values):\n%s", got, s.Count(), want, out)
	}
	seen := map[string]bool{}
	var bad error
	walk(s.Root, func(n *Node) {
		if bad != nil {
			return
		}
		if seen[n.UID] {
			bad = fmt.Errorf("uid %s twice in one snapshot:\n%s", n.UID, out)
		}
		seen[n.UID] = true
		if k, err := tr.Lookup(n.UID); err != nil || k != n.Key {
			bad = fmt.Errorf("Lookup(%s) = %v, %v; node key %v", n.UID, k, err, n.Key)
		}
	})
	if bad != nil || s.Root == nil {
		return bad
	}
	cut, err := s.Format(Options{MaxChars: maxChars})
	if err != nil {
		return err
	}
	if n := utf8.RuneCountInString(cut); cut != out && n > maxChars && strings.Count(cut, "\n") > 1 {
		return fmt.Errorf("MaxChars=%d gave %d characters:\n%s", maxChars, n, cut)
	}
	if !strings.HasPrefix(out, cut[:strings.LastIndex(cut[:len(cut)-1], "\n")+1]) {
		return fmt.Errorf("MaxChars=%d: cut text is not a prefix of the full text", maxChars)
	}
	_, err = s.Format(Options{UID: s.Root.UID, MaxChars: maxChars})
	return err
}

func FuzzTake(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x01\x05\x03\x00\x01\x02\x00\x01\x03\x04\x05\x06\x07\x08"))
	f.Add([]byte("\x03\x00\x10\x04\x00\x02\x01\x02\x03\x00\x00\x03\x04\x05\x06\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c"))
	f.Add([]byte(strings.Repeat("\x02\x07\x01\x03\x05\x04\x03\x02\x01\x00", 30)))
	f.Add([]byte(strings.Repeat("\xff\x13\x00\x09\x01\x04\x03\x03\x03\x03", 40)))
	f.Fuzz(func(t *testing.T, data []byte) {
		in := &fuzzInput{data: data}
		root := in.frames()
		maxChars := in.next() * 3
		tr := NewTracker()
		done := make(chan error, 1)
		go func() {
			for _, verbose := range []bool{false, true, false} {
				if err := checkSnapshot(tr, tr.Take(root, verbose), maxChars); err != nil {
					done <- err
					return
				}
			}
			tr.UIDFor(Key{Scope: "s0", BackendNodeID: 3})
			tr.Reset()
			done <- checkSnapshot(tr, tr.Take(root, true), maxChars)
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("Take did not return within 10s (infinite loop?)")
		}
	})
}
