package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// This file fills the custom widgets of the WAI-ARIA Authoring Practices
// (combobox, listbox, slider, spinbutton) the way a user would: clicking a
// combobox open and its option, typing into an editable one, clicking a
// listbox's options, pressing the keys of a slider or spinbutton. Nothing
// is set behind the page's back: the page's own handlers decide.

// How long the page has to show a popup's options after the combobox was
// clicked or typed into: an editable combobox may take free text, so it
// waits less.
const (
	popupWait    = 1500 // milliseconds
	suggestWait  = 800
	maxRangeKeys = 400 // presses of a slider or spinbutton before giving up
)

// option finds the option named value in e's popup (or, for a listbox, in
// e), waiting up to wait milliseconds for it, and returns it as an
// Element, or the page's account of why there is none.
func (e *Element) option(ctx context.Context, value string, wait int) (*Element, string, error) {
	res, err := cdp.RuntimeCallFunctionOn.Call(ctx, e.session, cdp.CallFunctionOnParams{
		FunctionDeclaration: ariaOptionJS, ObjectID: e.objectID,
		Arguments:    []cdp.CallArgument{{Value: value}, {Value: wait}},
		AwaitPromise: true, UserGesture: true,
	})
	if err != nil {
		return nil, "", fmt.Errorf("uid=%s: find option %q: %w", e.UID, value, err)
	}
	if res.ExceptionDetails != nil {
		return nil, "", fmt.Errorf("uid=%s: find option %q: %s", e.UID, value, firstLine(res.ExceptionDetails.Message()))
	}
	if res.Result.ObjectID == "" {
		var why string
		_ = json.Unmarshal(res.Result.Value, &why)
		return nil, why, nil
	}
	return &Element{UID: e.UID, session: e.session, objectID: res.Result.ObjectID, frame: e.frame}, "", nil
}

// fillCombobox opens a combobox that is not a text field (unless it is
// open) and clicks the option named value; a combobox holding a text
// field is typed into instead, as fillEditableCombobox does.
func (in Input) fillCombobox(ctx context.Context, e *Element, value string) error {
	if box, err := e.innerTextbox(ctx); err != nil {
		return err
	} else if box != nil {
		if err := in.typeInto(ctx, box, value); err != nil || value == "" {
			return err
		}
		o, _, err := e.option(ctx, value, suggestWait)
		if err == nil && o == nil { // the popup may be the text field's own
			o, _, err = box.option(ctx, value, 0)
		}
		if err != nil || o == nil {
			return err
		}
		return in.Click(ctx, o, false)
	}
	if o, _, err := e.option(ctx, value, 0); err != nil {
		return err
	} else if o != nil {
		return in.Click(ctx, o, false)
	}
	if err := in.Click(ctx, e, false); err != nil {
		return fmt.Errorf("open the combobox: %w", err)
	}
	o, why, err := e.option(ctx, value, popupWait)
	if err != nil {
		return err
	}
	if o == nil {
		// Leave the popup as a user would who found nothing to pick.
		_ = in.PressKey(ctx, "Escape")
		return fmt.Errorf("uid=%s is a combobox with %s", e.UID, why)
	}
	return in.Click(ctx, o, false)
}

// innerTextbox returns the text field inside combobox e, or nil.
func (e *Element) innerTextbox(ctx context.Context) (*Element, error) {
	res, err := cdp.RuntimeCallFunctionOn.Call(ctx, e.session, cdp.CallFunctionOnParams{FunctionDeclaration: innerTextboxJS, ObjectID: e.objectID})
	if err != nil {
		return nil, fmt.Errorf("uid=%s: find its text field: %w", e.UID, err)
	}
	if res.Result.ObjectID == "" {
		return nil, nil
	}
	return &Element{UID: e.UID, session: e.session, objectID: res.Result.ObjectID, frame: e.frame}, nil
}

// fillEditableCombobox types value into an editable combobox and, when
// its popup then shows an option of that name, clicks it. Without such an
// option the typed text stays, as in any text field: comboboxes such as
// search boxes take free text and only suggest.
func (in Input) fillEditableCombobox(ctx context.Context, e *Element, value string) error {
	if err := in.typeInto(ctx, e, value); err != nil {
		return err
	}
	if value == "" {
		return nil
	}
	o, _, err := e.option(ctx, value, suggestWait)
	if err != nil || o == nil {
		return err
	}
	return in.Click(ctx, o, false)
}

// fillListbox selects the option named value, or, in a multi-select
// listbox, the options of a comma-separated list when no option has the
// whole value as its name, clicking each one not yet selected.
func (in Input) fillListbox(ctx context.Context, e *Element, value string) error {
	names := []string{value}
	if o, _, err := e.option(ctx, value, 0); err != nil {
		return err
	} else if o == nil && strings.Contains(value, ",") {
		names = strings.Split(value, ",")
	}
	for _, name := range names {
		name = strings.TrimSpace(name)
		o, why, err := e.option(ctx, name, 0)
		if err != nil {
			return err
		}
		if o == nil {
			return fmt.Errorf("uid=%s is a listbox with %s", e.UID, why)
		}
		if sel, _ := o.selected(ctx); sel != nil && *sel {
			continue
		}
		if err := in.Click(ctx, o, false); err != nil {
			return fmt.Errorf("select option %q: %w", name, err)
		}
		if sel, err := o.selected(ctx); err != nil {
			return err
		} else if sel != nil && !*sel {
			return fmt.Errorf("uid=%s: option %q was clicked but the listbox did not select it (aria-selected is still false)", e.UID, name)
		}
	}
	return nil
}

// selected tells whether an option says it is selected; nil when it has
// no aria-selected (or aria-checked) to say.
func (e *Element) selected(ctx context.Context) (*bool, error) {
	v, err := e.call(ctx, ariaSelectedJS)
	if err != nil {
		return nil, err
	}
	var b *bool
	_ = json.Unmarshal(v.Value, &b)
	return b, nil
}

// ariaRange is a slider's or spinbutton's state, as aria-range.js reads it.
type ariaRange struct {
	Now, Min, Max *float64
	Text          *string
	Vertical      bool
	Focused       bool
}

// readRange reads e's range, focusing it first with focus.
func (e *Element) readRange(ctx context.Context, focus bool) (ariaRange, error) {
	var r ariaRange
	v, err := e.call(ctx, ariaRangeJS, cdp.CallArgument{Value: focus})
	if err != nil {
		return r, err
	}
	if err := json.Unmarshal(v.Value, &r); err != nil {
		return r, fmt.Errorf("uid=%s: read its range: %w", e.UID, err)
	}
	return r, nil
}

// describe is the range for errors: "1 to 12 (now 2)".
func (r ariaRange) describe() string {
	f := func(p *float64) string {
		if p == nil {
			return "?"
		}
		return strconv.FormatFloat(*p, 'f', -1, 64)
	}
	s := f(r.Min) + " to " + f(r.Max) + " (now " + f(r.Now)
	if r.Text != nil && *r.Text != "" {
		s += ", " + strconv.Quote(*r.Text)
	}
	return s + ")"
}

// fillRange sets a slider or spinbutton to value with the keys a user
// would press: Home or End for its ends, otherwise Page Up/Down while a
// page's move does not pass the value, then the arrows, checking after
// each press where aria-valuenow went.
func (in Input) fillRange(ctx context.Context, e *Element, role, value string) error {
	r, err := e.readRange(ctx, true)
	if err != nil {
		return err
	}
	target, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
	if err != nil {
		if r.Text != nil && strings.EqualFold(strings.TrimSpace(*r.Text), strings.TrimSpace(value)) {
			return nil
		}
		return fmt.Errorf("uid=%s is a %s: fill it with a number from %s, not %q", e.UID, role, r.describe(), value)
	}
	if r.Now == nil {
		return fmt.Errorf("uid=%s is a %s without aria-valuenow: its value cannot be read, so it cannot be set", e.UID, role)
	}
	if (r.Min != nil && target < *r.Min) || (r.Max != nil && target > *r.Max) {
		return fmt.Errorf("uid=%s is a %s from %s: %s is out of its range", e.UID, role, r.describe(), value)
	}
	if !r.Focused {
		return fmt.Errorf("uid=%s is a %s that does not take the focus, so it does not take keys", e.UID, role)
	}
	up, down := "ArrowRight", "ArrowLeft"
	if role == "spinbutton" || r.Vertical {
		up, down = "ArrowUp", "ArrowDown"
	}
	now := *r.Now
	press := func(key string) error {
		if err := in.PressKey(ctx, key); err != nil {
			return err
		}
		nr, err := e.readRange(ctx, false)
		if err != nil {
			return err
		}
		if nr.Now != nil {
			now = *nr.Now
		}
		return nil
	}
	const eps = 1e-9
	switch {
	case r.Min != nil && math.Abs(target-*r.Min) < eps && math.Abs(now-target) > eps:
		if err := press("Home"); err != nil {
			return err
		}
	case r.Max != nil && math.Abs(target-*r.Max) < eps && math.Abs(now-target) > eps:
		if err := press("End"); err != nil {
			return err
		}
	}
	// Page keys while a page's move stays on this side of the target.
	pageOK := true
	for n := 0; n < maxRangeKeys && pageOK && math.Abs(now-target) > eps; n++ {
		before := now
		key := "PageUp"
		if target < now {
			key = "PageDown"
		}
		if err := press(key); err != nil {
			return err
		}
		switch {
		case math.Abs(now-before) < eps:
			pageOK = false // no page keys here
		case (before < target) != (now < target) && math.Abs(now-target) > eps:
			// Passed it: step back with the arrows from here.
			pageOK = false
		}
	}
	for n := 0; n < maxRangeKeys && math.Abs(now-target) > eps; n++ {
		before := now
		key := up
		if target < now {
			key = down
		}
		if err := press(key); err != nil {
			return err
		}
		if math.Abs(now-before) < eps {
			return fmt.Errorf("uid=%s is a %s from %s: pressing %s did not change aria-valuenow, so %s cannot be reached", e.UID, role, r.describe(), key, value)
		}
		if (before < target) != (now < target) && math.Abs(now-target) > eps {
			return fmt.Errorf("uid=%s is a %s from %s that moves in steps of %s: %s is between two steps; it is now %s", e.UID, role, r.describe(),
				strconv.FormatFloat(math.Abs(now-before), 'f', -1, 64), value, strconv.FormatFloat(now, 'f', -1, 64))
		}
	}
	if math.Abs(now-target) > eps {
		return fmt.Errorf("uid=%s is a %s from %s: %d key presses did not reach %s; it is now %s", e.UID, role, r.describe(), maxRangeKeys, value, strconv.FormatFloat(now, 'f', -1, 64))
	}
	return nil
}
