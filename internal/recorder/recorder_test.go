package recorder

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestFlowJSON checks the encoding against the shape Recorder exports:
// selectors as arrays of arrays, offsets on clicks, assertedEvents on
// navigations, and no fields of other step types.
func TestFlowJSON(t *testing.T) {
	f := Flow{Title: "checkout", Steps: []Step{
		NewViewport(800, 600, 0, false, false, false),
		NewNavigate("http://127.0.0.1/form", "Form"),
		NewChange([]Selector{{"aria/Name"}, {"form > #name"}}, nil, "<Ada & co>"),
		NewClick([]Selector{{"aria/Send[role=\"button\"]"}, {"#host", "button"}}, []int{0}, 12.5, 4, false),
	}}
	b, err := f.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"form > #name"`) || !strings.Contains(string(b), `"value": "<Ada & co>"`) {
		t.Errorf("the flow is not written as Recorder writes it (no HTML escapes):\n%s", b)
	}
	var got struct {
		Title string           `json:"title"`
		Steps []map[string]any `json:"steps"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.Title != "checkout" || len(got.Steps) != 4 {
		t.Fatalf("flow = %s", b)
	}
	vp := got.Steps[0]
	if vp["type"] != "setViewport" || vp["deviceScaleFactor"] != 1.0 || vp["isMobile"] != false || vp["width"] != 800.0 {
		t.Errorf("setViewport = %v", vp)
	}
	nav := got.Steps[1]
	ev, _ := nav["assertedEvents"].([]any)
	if nav["url"] != "http://127.0.0.1/form" || len(ev) != 1 || ev[0].(map[string]any)["type"] != "navigation" {
		t.Errorf("navigate = %v", nav)
	}
	click := got.Steps[3]
	sels := click["selectors"].([]any)
	if len(sels) != 2 || len(sels[1].([]any)) != 2 || click["offsetX"] != 12.5 || click["offsetY"] != 4.0 {
		t.Errorf("click = %v", click)
	}
	if fr := click["frame"].([]any); len(fr) != 1 || fr[0] != 0.0 {
		t.Errorf("click frame = %v", click["frame"])
	}
	for _, k := range []string{"value", "url", "width", "key", "expression"} {
		if _, ok := click[k]; ok {
			t.Errorf("click has %q: %v", k, click)
		}
	}
	if _, ok := got.Steps[2]["frame"]; ok {
		t.Errorf("a main-frame step has a frame: %v", got.Steps[2])
	}
}

// TestValidate checks that steps missing what their type needs are
// refused with the step named.
func TestValidate(t *testing.T) {
	bad := []Step{
		{Type: Click, Selectors: []Selector{{"#a"}}},
		{Type: Change, Selectors: []Selector{{"#a"}}},
		{Type: Hover},
		{Type: Hover, Selectors: []Selector{{}}},
		{Type: Navigate},
		{Type: WaitForExpression},
		{Type: WaitForElement, Selectors: []Selector{{"#a"}}, Operator: ">"},
		{Type: "drag"},
	}
	for _, s := range bad {
		f := Flow{Title: "t", Steps: []Step{s}}
		if err := f.Validate(); err == nil || !strings.Contains(err.Error(), "step 0") {
			t.Errorf("%+v: err = %v", s, err)
		}
	}
	if err := (&Flow{Steps: []Step{}}).Validate(); err == nil {
		t.Error("a flow without a title was accepted")
	}
	ok := Flow{Title: "t", Steps: []Step{{Type: WaitForElement, Selectors: []Selector{{"#a"}}, Count: Ptr(2), Operator: ">="}, {Type: Close, Target: "main"}}}
	if err := ok.Validate(); err != nil {
		t.Error(err)
	}
}

// TestKeys checks that combinations press modifiers first and release
// them last, with "+" usable as a key.
func TestKeys(t *testing.T) {
	for combo, want := range map[string][]string{
		"Enter":           {"down Enter", "up Enter"},
		"Control+A":       {"down Control", "down A", "up A", "up Control"},
		"Control++":       {"down Control", "down +", "up +", "up Control"},
		"+":               {"down +", "up +"},
		"Control+Shift+R": {"down Control", "down Shift", "down R", "up R", "up Shift", "up Control"},
	} {
		var got []string
		for _, s := range Keys(combo) {
			dir := "down"
			if s.Type == KeyUp {
				dir = "up"
			}
			got = append(got, dir+" "+s.Key)
		}
		if !slices.Equal(got, want) {
			t.Errorf("Keys(%q) = %v, want %v", combo, got, want)
		}
	}
}
