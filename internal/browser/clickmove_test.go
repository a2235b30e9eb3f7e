package browser

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// clickStep reads the next command the fake browser got and tells it
// apart the way the click tests need: a mouse event by its type, a
// function call by what its source says it does.
func clickStep(t *testing.T, ft *fakeTransport) (step string, c sessionCommand) {
	t.Helper()
	select {
	case msg := <-ft.out:
		var p struct {
			Type                string `json:"type"`
			FunctionDeclaration string `json:"functionDeclaration"`
		}
		if err := json.Unmarshal(msg, &c); err != nil {
			t.Fatal(err)
		}
		var raw struct {
			Params json.RawMessage `json:"params"`
		}
		_ = json.Unmarshal(msg, &raw)
		_ = json.Unmarshal(raw.Params, &p)
		switch {
		case c.Method == "Input.dispatchMouseEvent":
			return p.Type, c
		case strings.Contains(p.FunctionDeclaration, "Finds the point where a user would click"):
			return "point", c
		case strings.Contains(p.FunctionDeclaration, "Tells whether the mouse has moved into"):
			return "moved?", c
		case strings.Contains(p.FunctionDeclaration, "Tells where the presses"):
			return "landed?", c
		}
		t.Fatalf("sent %s", msg)
	case <-time.After(10 * time.Second):
		t.Fatal("the click sent nothing more")
	}
	return "", c
}

// clickSteps runs a click on e (in session es) and answers each step with
// answer's result, recording the steps in order until the click returns.
func clickSteps(t *testing.T, p *Page, ft *fakeTransport, es string, answer func(step string) string) []string {
	t.Helper()
	e := &Element{UID: "1_8", session: p.browser.conn.Session(es), objectID: "O"}
	done := make(chan error, 1)
	go func() { done <- p.Input().Click(t.Context(), e, false) }()
	var steps []string
	for {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			return steps
		default:
		}
		step, c := clickStep(t, ft)
		steps = append(steps, step+"@"+c.SessionID)
		ft.send(t, `{"id":%d,"sessionId":%q,"result":%s}`, c.ID, c.SessionID, answer(step))
		if step == "landed?" {
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			return steps
		}
	}
}

// TestClicksInCrossProcessFramesWaitForTheMouseToArrive checks that a
// click on an element of a cross-process frame presses only once the
// mouse's move reached the frame: Chrome, just after redrawing the page,
// sends input meant for such a frame to its parent for a moment, and a
// press there clicks the <iframe>, not the element.
func TestClicksInCrossProcessFramesWaitForTheMouseToArrive(t *testing.T) {
	p, ft := fakePageWithFrame(t)
	checks := 0
	steps := clickSteps(t, p, ft, "FS", func(step string) string {
		switch step {
		case "point":
			return `{"result":{"type":"object","value":{"X":10,"Y":20}}}`
		case "moved?":
			checks++
			return `{"result":{"type":"boolean","value":` + map[bool]string{true: "true", false: "false"}[checks > 1] + `}}`
		case "landed?":
			return `{"result":{"type":"string","value":""}}`
		}
		return `{}`
	})
	want := "point@FS mouseMoved@S moved?@FS mouseMoved@S moved?@FS mousePressed@S mouseReleased@S landed?@FS"
	if got := strings.Join(steps, " "); got != want {
		t.Fatalf("the click went\n%s\nwant\n%s", got, want)
	}
}

// TestClicksInThePageDoNotWaitForTheMouse checks that a click on an
// element of the page's own process presses right after the move: the
// page's renderer places input itself, so the move cannot go astray.
func TestClicksInThePageDoNotWaitForTheMouse(t *testing.T) {
	p, ft := fakePage(t)
	steps := clickSteps(t, p, ft, "S", func(step string) string {
		switch step {
		case "point":
			return `{"result":{"type":"object","value":{"X":10,"Y":20}}}`
		case "landed?":
			return `{"result":{"type":"string","value":""}}`
		}
		return `{}`
	})
	want := "point@S mouseMoved@S mousePressed@S mouseReleased@S landed?@S"
	if got := strings.Join(steps, " "); got != want {
		t.Fatalf("the click went\n%s\nwant\n%s", got, want)
	}
}
