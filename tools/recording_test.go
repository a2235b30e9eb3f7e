package tools

import (
	"strings"
	"testing"

	"github.com/devtools-mcp/devtools-mcp/internal/recorder"
)

// TestScrubHidesPasswordsEverywhere checks that a typed password is
// replaced in every text of a step, as typed and URL-encoded, without
// changing the recorded steps themselves.
func TestScrubHidesPasswordsEverywhere(t *testing.T) {
	f := &flows{}
	f.secret("p@ss word")
	stored := []recorder.Step{
		{Type: recorder.Navigate, URL: "http://h/?pw=p%40ss+word",
			AssertedEvents: []recorder.AssertedEvent{{Type: "navigation", URL: "http://h/p%40ss%20word", Title: "p@ss word"}}},
		recorder.NewChange([]recorder.Selector{{"text/p@ss word"}}, nil, "p@ss word"),
	}
	got := scrub(append([]recorder.Step(nil), stored...), f.scrubber())
	for _, s := range got {
		text := s.URL + *ptrOr(s.Value)
		for _, e := range s.AssertedEvents {
			text += e.URL + e.Title
		}
		for _, sel := range s.Selectors {
			text += strings.Join(sel, "")
		}
		if strings.Contains(text, "p@ss") || strings.Contains(text, "p%40ss") {
			t.Errorf("step %s keeps the password: %+v", s.Type, s)
		}
	}
	if stored[0].AssertedEvents[0].Title != "p@ss word" || *stored[1].Value != "p@ss word" {
		t.Error("scrub changed the recorded steps, not only the exported copy")
	}
}

// ptrOr returns p, or a pointer to "" when p is nil.
func ptrOr(p *string) *string {
	if p == nil {
		return new(string)
	}
	return p
}

// TestAssertionSteps checks the agent's assertions and their errors.
func TestAssertionSteps(t *testing.T) {
	s, err := assertionStep(FlowAssertion{Type: "waitForElement", Selector: "#a", Count: recorder.Ptr(2), Operator: ">="})
	if err != nil || s.Operator != ">=" || *s.Count != 2 || s.Selectors[0][0] != "#a" {
		t.Errorf("waitForElement = %+v, %v", s, err)
	}
	for _, bad := range []FlowAssertion{{Type: "waitForElement"}, {Type: "waitForExpression"}, {Type: "click"}} {
		if _, err := assertionStep(bad); err == nil {
			t.Errorf("%+v was accepted", bad)
		}
	}
	if w := waitForTextStep([]string{"a", `b"c`}); w.Type != recorder.WaitForExpression || !strings.Contains(w.Expression, `"b\"c"`) {
		t.Errorf("several texts = %+v", w)
	}
}
