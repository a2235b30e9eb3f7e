package browser

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// clickStep tells apart a command a click sent the way the click tests
// need: a mouse event by its type, a function call by what its source
// says it does ("steady point" for a point that waits for the element to
// stop moving).
func clickStep(t *testing.T, msg []byte) (step string, c sessionCommand) {
	t.Helper()
	var p struct {
		Params struct {
			Type                string                `json:"type"`
			FunctionDeclaration string                `json:"functionDeclaration"`
			Arguments           []struct{ Value any } `json:"arguments"`
		} `json:"params"`
	}
	if err := json.Unmarshal(msg, &c); err != nil {
		t.Fatal(err)
	}
	_ = json.Unmarshal(msg, &p)
	fn := p.Params.FunctionDeclaration
	switch {
	case c.Method == "Input.dispatchMouseEvent":
		return p.Params.Type, c
	case strings.Contains(fn, "Finds the point where a user would click"):
		if a := p.Params.Arguments; len(a) == 3 && a[2].Value == true {
			return "steady point", c
		}
		return "point", c
	case strings.Contains(fn, "Tells whether the mouse has moved into"):
		return "moved?", c
	case strings.Contains(fn, "Tells where the presses"):
		return "landed?", c
	}
	t.Fatalf("sent %s", msg)
	return "", c
}

// clickSteps runs a click on an element in session es, answers each
// command with answer's result for its step, and returns the steps in
// order ("step@session") and the click's error.
func clickSteps(t *testing.T, p *Page, ft *fakeTransport, es string, answer func(step string) string) ([]string, error) {
	t.Helper()
	e := &Element{UID: "1_8", session: p.browser.conn.Session(es), objectID: "O"}
	done := make(chan error, 1)
	go func() { done <- p.Input().Click(t.Context(), e, false) }()
	var steps []string
	for {
		select {
		case err := <-done:
			return steps, err
		case msg := <-ft.out:
			step, c := clickStep(t, msg)
			steps = append(steps, step+"@"+c.SessionID)
			ft.send(t, `{"id":%d,"sessionId":%q,"result":%s}`, c.ID, c.SessionID, answer(step))
		case <-time.After(10 * time.Second):
			t.Fatalf("the click hangs after %v", steps)
		}
	}
}

// Answers of the fake page to a click's function calls.
const (
	pointAt10x20 = `{"result":{"type":"object","value":{"X":10,"Y":20}}}`
	landedOnIt   = `{"result":{"type":"string","value":""}}`
	landedOnP    = `{"result":{"type":"string","value":"<p> \"Text\""}}`
)

func boolResult(b bool) string {
	if b {
		return `{"result":{"type":"boolean","value":true}}`
	}
	return `{"result":{"type":"boolean","value":false}}`
}

// TestClicksInCrossProcessFramesWaitForTheMouseToArrive checks that a
// click on an element of a cross-process frame presses only once the
// mouse's move reached the frame: Chrome, just after redrawing the page,
// sends input meant for such a frame to its parent for a moment, and a
// press there clicks the <iframe>, not the element. In the page's own
// process, whose renderer places input itself, it presses right away.
func TestClicksInCrossProcessFramesWaitForTheMouseToArrive(t *testing.T) {
	for _, tc := range []struct{ session, want string }{
		{"FS", "point@FS mouseMoved@S moved?@FS mouseMoved@S moved?@FS mousePressed@S mouseReleased@S landed?@FS"},
		{"S", "point@S mouseMoved@S mousePressed@S mouseReleased@S landed?@S"},
	} {
		t.Run(tc.session, func(t *testing.T) {
			p, ft := fakePageWithFrame(t)
			checks := 0
			steps, err := clickSteps(t, p, ft, tc.session, func(step string) string {
				switch step {
				case "point":
					return pointAt10x20
				case "moved?":
					checks++
					return boolResult(checks > 1)
				case "landed?":
					return landedOnIt
				}
				return `{}`
			})
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(steps, " "); got != tc.want {
				t.Fatalf("the click went\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// TestClicksThatLandElsewhereAreTriedAgainOnceTheElementStops checks that
// a click whose press landed on another element, because the page moved
// between the check and the press (and was kept from the page), is tried
// once more once the element has stopped moving, and that a second stray
// press is reported, not tried again.
func TestClicksThatLandElsewhereAreTriedAgainOnceTheElementStops(t *testing.T) {
	once := "point@S mouseMoved@S mousePressed@S mouseReleased@S landed?@S"
	again := "steady point@S mouseMoved@S mousePressed@S mouseReleased@S landed?@S"
	for _, tc := range []struct {
		name   string
		stray  int // how many tries land elsewhere
		want   string
		errSay string
	}{
		{"the second try lands", 1, once + " " + again, ""},
		{"both tries land elsewhere", 2, once + " " + again, `uid=1_8: the click landed on <p> "Text" instead`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, ft := fakePage(t)
			tries := 0
			steps, err := clickSteps(t, p, ft, "S", func(step string) string {
				switch step {
				case "point", "steady point":
					return pointAt10x20
				case "landed?":
					tries++
					if tries <= tc.stray {
						return landedOnP
					}
					return landedOnIt
				}
				return `{}`
			})
			if got := strings.Join(steps, " "); got != tc.want {
				t.Fatalf("the click went\n%s\nwant\n%s", got, tc.want)
			}
			switch {
			case tc.errSay == "" && err != nil:
				t.Fatalf("the second try landed, yet the click failed: %v", err)
			case tc.errSay != "" && (err == nil || !strings.Contains(err.Error(), tc.errSay)):
				t.Fatalf("the click answered %v, want an error saying %q", err, tc.errSay)
			}
		})
	}
}
