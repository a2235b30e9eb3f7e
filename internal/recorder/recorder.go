// Package recorder holds the steps of a Chrome DevTools Recorder flow (the
// JSON the Recorder panel imports and exports and @puppeteer/replay plays)
// and encodes them in that schema. It knows nothing of browsers: the tools
// record the steps an agent's calls performed and export them with it.
package recorder

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// StepType is a Recorder step's "type".
type StepType string

// The step types the tools record or an agent adds as assertions.
const (
	SetViewport       StepType = "setViewport"
	Navigate          StepType = "navigate"
	Click             StepType = "click"
	DoubleClick       StepType = "doubleClick"
	Hover             StepType = "hover"
	Change            StepType = "change"
	KeyDown           StepType = "keyDown"
	KeyUp             StepType = "keyUp"
	Scroll            StepType = "scroll"
	WaitForElement    StepType = "waitForElement"
	WaitForExpression StepType = "waitForExpression"
	Close             StepType = "close"
)

// Selector is one way to find an element: a chain of selectors, each
// applied inside the shadow root or document the previous one found
// (Recorder writes it as an array of strings). The first string carries
// its kind as a prefix: "aria/", "xpath/", "pierce/", "text/" or none
// for CSS.
type Selector []string

// AssertedEvent is an event a step is expected to cause; Recorder asserts
// the navigations a click or a navigate step leads to.
type AssertedEvent struct {
	Type  string `json:"type"` // always "navigation"
	URL   string `json:"url,omitempty"`
	Title string `json:"title,omitempty"`
}

// Step is one Recorder step. Only the fields of its Type are set; the
// others stay zero and are left out of the JSON.
type Step struct {
	Type           StepType        `json:"type"`
	Target         string          `json:"target,omitempty"` // "main" unless a popup
	Frame          []int           `json:"frame,omitempty"`  // frame indexes from the main frame
	Selectors      []Selector      `json:"selectors,omitempty"`
	OffsetX        *float64        `json:"offsetX,omitempty"`
	OffsetY        *float64        `json:"offsetY,omitempty"`
	Value          *string         `json:"value,omitempty"`
	Key            string          `json:"key,omitempty"`
	URL            string          `json:"url,omitempty"`
	X              *float64        `json:"x,omitempty"`
	Y              *float64        `json:"y,omitempty"`
	Expression     string          `json:"expression,omitempty"`
	Visible        *bool           `json:"visible,omitempty"`
	Count          *int            `json:"count,omitempty"`
	Operator       string          `json:"operator,omitempty"`
	Timeout        int             `json:"timeout,omitempty"`
	AssertedEvents []AssertedEvent `json:"assertedEvents,omitempty"`

	Width             int     `json:"width,omitempty"`
	Height            int     `json:"height,omitempty"`
	DeviceScaleFactor float64 `json:"deviceScaleFactor,omitempty"`
	IsMobile          *bool   `json:"isMobile,omitempty"`
	HasTouch          *bool   `json:"hasTouch,omitempty"`
	IsLandscape       *bool   `json:"isLandscape,omitempty"`
}

// Flow is a Recorder user flow.
type Flow struct {
	Title string `json:"title"`
	Steps []Step `json:"steps"`
}

// Ptr returns a pointer to v, for the optional fields of a Step.
func Ptr[T any](v T) *T { return &v }

// NewClick returns a click (or double click, when double) on the element
// the selectors find, at offset (x, y) from its top left corner.
func NewClick(sel []Selector, frame []int, x, y float64, double bool) Step {
	t := Click
	if double {
		t = DoubleClick
	}
	return Step{Type: t, Target: "main", Frame: frame, Selectors: sel, OffsetX: &x, OffsetY: &y}
}

// NewChange returns a change of the element's value to value (text
// fields, selects).
func NewChange(sel []Selector, frame []int, value string) Step {
	return Step{Type: Change, Target: "main", Frame: frame, Selectors: sel, Value: &value}
}

// NewNavigate returns a navigation to url that asserts the page lands
// there, with the title it had.
func NewNavigate(url, title string) Step {
	return Step{Type: Navigate, Target: "main", URL: url,
		AssertedEvents: []AssertedEvent{{Type: "navigation", URL: url, Title: title}}}
}

// NewViewport returns a setViewport step.
func NewViewport(width, height int, scale float64, mobile, touch, landscape bool) Step {
	if scale == 0 {
		scale = 1
	}
	return Step{Type: SetViewport, Width: width, Height: height, DeviceScaleFactor: scale,
		IsMobile: &mobile, HasTouch: &touch, IsLandscape: &landscape}
}

// Keys returns the keyDown and keyUp steps of a press of combo, a key or
// modifiers joined by "+" with the key last ("Control+A", "Control++"):
// modifiers go down in order and come up in reverse.
func Keys(combo string) []Step {
	parts := splitCombo(combo)
	steps := make([]Step, 0, 2*len(parts))
	for _, k := range parts {
		steps = append(steps, Step{Type: KeyDown, Target: "main", Key: k})
	}
	for i := len(parts) - 1; i >= 0; i-- {
		steps = append(steps, Step{Type: KeyUp, Target: "main", Key: parts[i]})
	}
	return steps
}

// splitCombo splits "Control+Shift+R" into its keys; a "+" as the last key
// ("Control++", "+") stays a key.
func splitCombo(combo string) []string {
	var keys []string
	start := 0
	for i := 0; i < len(combo); i++ {
		if combo[i] == '+' && i > start {
			keys = append(keys, combo[start:i])
			start = i + 1
		}
	}
	if start < len(combo) {
		keys = append(keys, combo[start:])
	}
	return keys
}

// Validate reports the first step that does not have what its type needs,
// as @puppeteer/replay's parser would refuse it.
func (f *Flow) Validate() error {
	if f.Title == "" {
		return errors.New("the flow has no title")
	}
	for i, s := range f.Steps {
		if err := s.validate(); err != nil {
			return fmt.Errorf("step %d (%s): %w", i, s.Type, err)
		}
	}
	return nil
}

// validate checks the fields step s's type requires.
func (s *Step) validate() error {
	if s.Operator != "" && s.Operator != ">=" && s.Operator != "==" && s.Operator != "<=" {
		return fmt.Errorf("operator %q is none of >=, ==, <=", s.Operator)
	}
	switch s.Type {
	case Click, DoubleClick:
		if s.OffsetX == nil || s.OffsetY == nil {
			return errors.New("needs offsetX and offsetY")
		}
		return s.needSelectors()
	case Hover, WaitForElement:
		return s.needSelectors()
	case Change:
		if s.Value == nil {
			return errors.New("needs a value")
		}
		return s.needSelectors()
	case KeyDown, KeyUp:
		if s.Key == "" {
			return errors.New("needs a key")
		}
	case Navigate:
		if s.URL == "" {
			return errors.New("needs a url")
		}
	case WaitForExpression:
		if s.Expression == "" {
			return errors.New("needs an expression")
		}
	case SetViewport:
		if s.Width <= 0 || s.Height <= 0 {
			return errors.New("needs a positive width and height")
		}
	case Scroll, Close:
	default:
		return errors.New("unknown step type")
	}
	return nil
}

// needSelectors checks that s has at least one non-empty selector.
func (s *Step) needSelectors() error {
	if len(s.Selectors) == 0 {
		return errors.New("needs selectors")
	}
	for _, sel := range s.Selectors {
		if len(sel) == 0 {
			return errors.New("has an empty selector")
		}
	}
	return nil
}

// JSON returns the flow as Recorder writes it: indented, two spaces.
func (f *Flow) JSON() ([]byte, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	if f.Steps == nil {
		f.Steps = []Step{}
	}
	// Written as Recorder writes it: "div > a", not "div \u003e a".
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		return nil, fmt.Errorf("encoding the flow: %w", err)
	}
	return b.Bytes(), nil
}
