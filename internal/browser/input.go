package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// mouse sends one mouse event to the page, a press or release only once
// the call's press check (if any) let it.
func (in Input) mouse(ctx context.Context, ev cdp.MouseEvent) error {
	s, err := in.page.Session(ctx)
	if err != nil {
		return err
	}
	if ev.Type == "mousePressed" || ev.Type == "mouseReleased" {
		in.page.mu.Lock()
		check := in.page.pressCheck
		in.page.mu.Unlock()
		if check != nil {
			if err := check(ctx, ev.X, ev.Y); err != nil {
				return err
			}
		}
	}
	in.handledBy(false)
	if err := cdp.InputDispatchMouseEvent.Do(ctx, s, ev); err != nil {
		return fmt.Errorf("mouse %s: %w", ev.Type, err)
	}
	in.handledBy(ev.Type != "mouseMoved")
	return nil
}

// handledBy records whether the page had handled the input an action
// just sent by the time its last event was answered. Key events, and mouse
// presses and releases, are answered once the page's handlers ran; a mouse
// move is answered before, the page getting it at its next frame, unless
// a press sent after it in the same burst makes Chrome hand it over first
// (it goes to the page in order, and the move's handlers run first).
func (in Input) handledBy(handled bool) {
	in.page.handled.Store(handled)
}

// CheckPresses makes every mouse press and release of the tool call that
// holds the page ask check first, with the point, and fail with its error;
// nil ends it. A page can move what is under the pointer when the mouse
// moves onto it, between a check made before the call and the press.
func (in Input) CheckPresses(check func(ctx context.Context, x, y float64) error) {
	in.page.mu.Lock()
	in.page.pressCheck = check
	in.page.mu.Unlock()
}

// ClickAt clicks (or double-clicks) at x, y of the page's viewport.
func (in Input) ClickAt(ctx context.Context, x, y float64, double bool) error {
	return in.send(ctx, append([]cdp.MouseEvent{{Type: "mouseMoved", X: x, Y: y}}, clickEvents(x, y, double)...))
}

// press presses and releases the left button at x, y, twice when double.
func (in Input) press(ctx context.Context, x, y float64, double bool) error {
	return in.send(ctx, clickEvents(x, y, double))
}

// clickEvents are the presses and releases of a click at x, y, two of
// each when double.
func clickEvents(x, y float64, double bool) []cdp.MouseEvent {
	clicks := 1
	if double {
		clicks = 2
	}
	var events []cdp.MouseEvent
	for n := 1; n <= clicks; n++ {
		events = append(events, cdp.MouseEvent{Type: "mousePressed", X: x, Y: y, Button: "left", Buttons: 1, ClickCount: n},
			cdp.MouseEvent{Type: "mouseReleased", X: x, Y: y, Button: "left", ClickCount: n})
	}
	return events
}

// send sends mouse events in turn. With no press check to ask between
// them, they go as one burst, which Chrome handles in order, at the cost
// of one round trip: a click's move, press and release took three, the
// move's being the longest (Chrome answers it at the page's next frame).
func (in Input) send(ctx context.Context, events []cdp.MouseEvent) error {
	in.page.mu.Lock()
	checked := in.page.pressCheck != nil
	in.page.mu.Unlock()
	if checked {
		for _, ev := range events {
			if err := in.mouse(ctx, ev); err != nil {
				return err
			}
		}
		return nil
	}
	s, err := in.page.Session(ctx)
	if err != nil {
		return err
	}
	reqs := make([]cdp.Request, len(events))
	for i, ev := range events {
		reqs[i] = cdp.InputDispatchMouseEvent.With(ev)
	}
	in.handledBy(false)
	if err := s.Pipeline(ctx, reqs...); err != nil {
		return fmt.Errorf("mouse click: %w", err)
	}
	in.handledBy(events[len(events)-1].Type != "mouseMoved")
	return nil
}

// Target describes the element a click at x, y of the page's viewport
// would reach, and fails when the point is outside the viewport, where a
// click reaches nothing.
func (in Input) Target(ctx context.Context, x, y float64) (string, error) {
	v, err := in.page.Evaluate(ctx, fmt.Sprintf("(%s)(%s, %s)", pointTargetJS, strconv.FormatFloat(x, 'g', -1, 64), strconv.FormatFloat(y, 'g', -1, 64)))
	if err != nil {
		return "", err
	}
	var t struct {
		What          string
		Width, Height float64
	}
	if err := json.Unmarshal(v.Value, &t); err != nil {
		return "", fmt.Errorf("what is at (%g, %g): %w", x, y, err)
	}
	if t.What == "" {
		return "", fmt.Errorf("(%g, %g) is outside the page's viewport (%g×%g CSS pixels), where a click reaches nothing; give coordinates inside it, as seen on a screenshot of the viewport", x, y, t.Width, t.Height)
	}
	return t.What, nil
}

// Click clicks the element where a click reaches it (the centre of its
// visible box unless something covers that), and fails when the click
// landed on another element after all. A click that landed elsewhere
// because the page moved under it was kept from the page, so it is tried
// once more, from where the element is once it has stopped moving.
func (in Input) Click(ctx context.Context, e *Element, double bool) error {
	err := in.clickOnce(ctx, e, double, false)
	if _, moved := errors.AsType[strayClick](err); moved {
		err = in.clickOnce(ctx, e, double, true)
	}
	return err
}

// clickOnce is one try of Click; with steady, the element is first given
// time to stop moving.
func (in Input) clickOnce(ctx context.Context, e *Element, double, steady bool) error {
	how := pointWatch
	if steady {
		how |= pointSteady
	}
	x, y, err := in.point(ctx, e, how)
	if err != nil {
		return err
	}
	if s, err := in.page.Session(ctx); err == nil && s.ID == e.session.ID {
		// In the page's own process the move needs no check: it goes
		// with the click.
		if err := in.ClickAt(ctx, x, y, double); err != nil {
			return err
		}
	} else {
		if err := in.moveOnto(ctx, e, x, y); err != nil {
			return err // the watch ends by itself
		}
		if err := in.press(ctx, x, y, double); err != nil {
			return err
		}
	}
	if in.page.Dialog() != nil {
		return nil // the page is blocked until the dialog is answered; so is the watch
	}
	return in.landed(ctx, e)
}

// moveOnto moves the mouse to x, y, where e is. When e is in a
// cross-process frame, it checks that the move reached e's window, and
// moves again until it does, for up to a second: Chrome sends input into
// such a frame by where it last drew the frame, and just after the page
// is redrawn (a screenshot, a resize) it sends it to the frame's parent
// for a moment, where a press would reach the <iframe> instead.
func (in Input) moveOnto(ctx context.Context, e *Element, x, y float64) error {
	move := cdp.MouseEvent{Type: "mouseMoved", X: x, Y: y}
	if err := in.mouse(ctx, move); err != nil {
		return err
	}
	if s, err := in.page.Session(ctx); err != nil || s.ID == e.session.ID {
		return err
	}
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); {
		v, err := e.call(ctx, clickMovedJS)
		var moved bool
		if err != nil || json.Unmarshal(v.Value, &moved) != nil || moved {
			return nil // what cannot be asked is left to landed
		}
		if err := in.mouse(ctx, move); err != nil {
			return err
		}
	}
	return nil
}

// Hover moves the mouse over the element.
func (in Input) Hover(ctx context.Context, e *Element) error {
	x, y, err := in.point(ctx, e, 0)
	if err != nil {
		return err
	}
	return in.mouse(ctx, cdp.MouseEvent{Type: "mouseMoved", X: x, Y: y})
}

// Drag drags from onto to: with the mouse, and as an HTML5 drag and drop
// when the page starts one.
func (in Input) Drag(ctx context.Context, from, to *Element) error {
	s, err := in.page.Session(ctx)
	if err != nil {
		return err
	}
	// Bring the source into view, then the target; measure the source
	// again in case showing the target moved it.
	if _, _, err := in.point(ctx, from, 0); err != nil {
		return err
	}
	tx, ty, err := in.point(ctx, to, 0)
	if err != nil {
		return err
	}
	fx, fy, err := in.point(ctx, from, 0)
	if err != nil {
		return err
	}
	// The drag events come before the reply to the mouse move that
	// started the drag: once the moves are answered and the watch synced,
	// dragged tells whether the page started an HTML5 drag.
	var mu sync.Mutex
	var dragged json.RawMessage
	var decodeErr error
	sub, stop := in.page.sessions().watchFunc(s, func(ev Event) {
		d, err := cdp.InputDragIntercepted.Decode(ev.Params)
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			decodeErr = fmt.Errorf("drag: %s: %w", ev.Method, err)
			return
		}
		if dragged == nil {
			dragged = d.Data
		}
	}, cdp.InputDragIntercepted)
	defer stop()
	if err := cdp.InputSetInterceptDrags.Do(ctx, s, cdp.SetInterceptParams{Enabled: true}); err != nil {
		return fmt.Errorf("drag: %w", err)
	}
	defer in.page.cleanUp(ctx, s, cdp.InputSetInterceptDrags.With(cdp.SetInterceptParams{Enabled: false}), cdp.InputSetInterceptDrags.Method)
	steps := []cdp.MouseEvent{
		{Type: "mouseMoved", X: fx, Y: fy},
		{Type: "mousePressed", X: fx, Y: fy, Button: "left", Buttons: 1, ClickCount: 1},
	}
	for i := 1; i <= 5; i++ {
		f := float64(i) / 5
		steps = append(steps, cdp.MouseEvent{Type: "mouseMoved", X: fx + (tx-fx)*f, Y: fy + (ty-fy)*f, Button: "left", Buttons: 1})
	}
	for _, ev := range steps {
		if err := in.mouse(ctx, ev); err != nil {
			return err
		}
	}
	if err := sub.Sync(ctx); err != nil {
		return fmt.Errorf("drag: %w", err)
	}
	mu.Lock()
	data, err := dragged, decodeErr
	mu.Unlock()
	if err != nil {
		return err
	}
	if data != nil { // else no HTML5 drag started: a plain mouse drag
		for _, typ := range []string{"dragEnter", "dragOver", "drop"} {
			if err := cdp.InputDispatchDragEvent.Do(ctx, s, cdp.DragEvent{Type: typ, X: tx, Y: ty, Data: data}); err != nil {
				return fmt.Errorf("drag %s: %w", typ, err)
			}
		}
	}
	return in.mouse(ctx, cdp.MouseEvent{Type: "mouseReleased", X: tx, Y: ty, Button: "left", ClickCount: 1})
}

// Fill sets the element's value the way a user would: typing into text
// fields (input and change events fire), picking an option of a select by
// label or value, ticking checkboxes and radios ("true"/"false"), and
// choosing in ARIA comboboxes, listboxes, sliders and spinbuttons (see
// ariafill.go).
func (in Input) Fill(ctx context.Context, e *Element, value string) error {
	kind, err := e.callString(ctx, fillKindSelectingJS)
	if err != nil {
		return err
	}
	switch {
	case kind == "select":
		msg, err := e.callString(ctx, selectOptionJS, cdp.CallArgument{Value: value})
		if err == nil && msg != "" {
			err = fmt.Errorf("uid=%s: %s", e.UID, msg)
		}
		return err
	case kind == "checkbox" || kind == "radio" || kind == "ariacheck":
		want, ok := map[string]bool{"true": true, "false": false, "on": true, "off": false, "checked": true, "unchecked": false}[strings.ToLower(value)]
		if !ok {
			return fmt.Errorf("uid=%s is a %s: fill it with \"true\" or \"false\", not %q", e.UID, kind, value)
		}
		v, err := e.call(ctx, isCheckedJS)
		if err != nil {
			return err
		}
		if checked := string(v.Value) == "true"; checked == want {
			return nil
		}
		if kind == "radio" && !want {
			return fmt.Errorf("uid=%s is a radio button: it cannot be unchecked by itself; fill another option of its group with \"true\"", e.UID)
		}
		return in.Click(ctx, e, false)
	case kind == "value":
		msg, err := e.callString(ctx, setValueJS, cdp.CallArgument{Value: value})
		if err == nil && msg != "" {
			err = fmt.Errorf("uid=%s: %s", e.UID, msg)
		}
		return err
	case kind == "text" || kind == "editable":
		return in.typeSelected(ctx, e, value)
	case kind == "editcombobox":
		return in.fillEditableCombobox(ctx, e, value)
	case kind == "ariacombobox":
		return in.fillCombobox(ctx, e, value)
	case kind == "arialistbox":
		return in.fillListbox(ctx, e, value)
	case kind == "ariaslider" || kind == "ariaspinbutton":
		return in.fillRange(ctx, e, strings.TrimPrefix(kind, "aria"), value)
	case kind == "file":
		return fmt.Errorf("uid=%s is a file input: use upload_file with filePaths", e.UID)
	default:
		return fmt.Errorf("uid=%s is a %s, which takes no value; fill works on text inputs, textareas, selects, checkboxes, radios, contenteditable elements and ARIA comboboxes, listboxes, sliders and spinbuttons", e.UID, strings.TrimPrefix(kind, "none:"))
	}
}

// typedTail is how many characters at the end of a long fill value are
// typed key by key; the rest is inserted at once. Autocomplete widgets
// react to the last keystrokes, and a long value typed whole would cost
// two round trips per character.
const typedTail = 32

// typeInto focuses a text field, selects what it holds and replaces it
// with text, as typing would: each character's keydown, keypress,
// beforeinput, input and keyup fire, then change. Of a value longer than
// typedTail characters, the start is inserted as one input.
func (in Input) typeInto(ctx context.Context, e *Element, text string) error {
	if _, err := e.call(ctx, selectContentsJS); err != nil {
		return err
	}
	return in.typeSelected(ctx, e, text)
}

// fillKindSelectingJS is fill-kind.js that, for a text field, also does
// what select-contents.js does: a fill types into it after one call.
var fillKindSelectingJS = fmt.Sprintf("function() {\n  const kind = (%s).call(this);\n  if (kind === 'text' || kind === 'editable') (%s).call(this);\n  return kind;\n}", fillKindJS, selectContentsJS)

// typeSelected is typeInto for a field already focused, its contents
// selected.
func (in Input) typeSelected(ctx context.Context, e *Element, text string) error {
	if text == "" {
		if err := in.PressKey(ctx, "Delete"); err != nil {
			return err
		}
	} else {
		typed := []rune(text)
		if n := len(typed) - typedTail; n > 0 {
			if err := in.insertText(ctx, string(typed[:n])); err != nil {
				return err
			}
			typed = typed[n:]
		}
		if err := in.TypeText(ctx, string(typed)); err != nil {
			return err
		}
	}
	_, err := e.call(ctx, fireChangeJS)
	return err
}

// insertText types text into the focused element at once.
func (in Input) insertText(ctx context.Context, text string) error {
	s, err := in.page.Session(ctx)
	if err != nil {
		return err
	}
	in.handledBy(false)
	if err := cdp.InputInsertText.Do(ctx, s, cdp.InsertTextParams{Text: text}); err != nil {
		return fmt.Errorf("type: %w", err)
	}
	return nil
}

// key sends one key event.
func (in Input) key(ctx context.Context, ev cdp.KeyEvent) error {
	s, err := in.page.Session(ctx)
	if err != nil {
		return err
	}
	if err := cdp.InputDispatchKeyEvent.Do(ctx, s, ev); err != nil {
		return fmt.Errorf("key %s: %w", ev.Key, err)
	}
	in.handledBy(true)
	return nil
}

// pressDef presses and releases one key with modifier bits held, running
// the given editing commands with it.
func (in Input) pressDef(ctx context.Context, d keyDef, bits int, commands ...string) error {
	down, up := pressEvents(d, bits, commands...)
	if err := in.key(ctx, down); err != nil {
		return err
	}
	return in.key(ctx, up)
}

// pressEvents returns the events that press and release key d with modifier
// bits held, running the given editing commands with it.
func pressEvents(d keyDef, bits int, commands ...string) (down, up cdp.KeyEvent) {
	down = cdp.KeyEvent{Type: "rawKeyDown", Modifiers: bits, Key: d.key, Code: d.code, WindowsVirtualKeyCode: d.keyCode, Commands: commands}
	if d.text != "" {
		down.Type, down.Text, down.UnmodifiedText = "keyDown", d.text, d.text
	}
	return down, cdp.KeyEvent{Type: "keyUp", Modifiers: bits, Key: d.key, Code: d.code, WindowsVirtualKeyCode: d.keyCode}
}

// PressKey presses a key or combination such as Enter, Control+A or
// Control+Shift+R: modifiers go down in order, the key is pressed, and the
// modifiers come up in reverse.
func (in Input) PressKey(ctx context.Context, combo string) error {
	kp, err := parseKeys(combo)
	if err != nil {
		return err
	}
	bits := 0
	for _, m := range kp.modifiers {
		bits |= modifierBits[m.key]
		if err := in.key(ctx, cdp.KeyEvent{Type: "rawKeyDown", Modifiers: bits, Key: m.key, Code: m.code, WindowsVirtualKeyCode: m.keyCode}); err != nil {
			return err
		}
	}
	if err := in.pressDef(ctx, kp.key, kp.bits, kp.commands...); err != nil {
		return err
	}
	for i := len(kp.modifiers) - 1; i >= 0; i-- {
		m := kp.modifiers[i]
		bits &^= modifierBits[m.key]
		if err := in.key(ctx, cdp.KeyEvent{Type: "keyUp", Modifiers: bits, Key: m.key, Code: m.code, WindowsVirtualKeyCode: m.keyCode}); err != nil {
			return err
		}
	}
	return nil
}

// TypeText types text into the focused element key by key, so key handlers
// see every character: a US-keyboard character is its key (with Shift for
// capitals and shifted symbols such as '!'), any other character a key
// event that carries it as its key and text (keyCode 0), as an input
// method sends it.
func (in Input) TypeText(ctx context.Context, text string) error {
	s, err := in.page.Session(ctx)
	if err != nil {
		return err
	}
	// Sent at once, the replies awaited after: Chrome hands a session's
	// key events to the page in the order sent, so the page sees the same
	// keystrokes, and the fill costs one round trip instead of two a key.
	var events []cdp.Request
	for _, r := range text {
		d, shift := typedKey(r)
		bits := 0
		if shift {
			bits = modifierBits["Shift"]
		}
		down, up := pressEvents(d, bits)
		events = append(events, cdp.InputDispatchKeyEvent.With(down), cdp.InputDispatchKeyEvent.With(up))
	}
	if err := s.Pipeline(ctx, events...); err != nil {
		return fmt.Errorf("type: %w", err)
	}
	in.handledBy(true)
	return nil
}

// Upload puts files into a file input, or into the file chooser that
// clicking the element opens.
func (in Input) Upload(ctx context.Context, e *Element, files []string) error {
	abs := make([]string, len(files))
	for i, f := range files {
		a, err := filepath.Abs(f)
		if err != nil {
			return fmt.Errorf("file %s: %w", f, err)
		}
		if fi, err := os.Stat(a); err != nil {
			return fmt.Errorf("file %s: %w", f, err)
		} else if fi.IsDir() {
			return fmt.Errorf("file %s is a directory; give the files inside it", f)
		}
		abs[i] = a
	}
	kind, err := e.callString(ctx, fillKindJS)
	if err != nil {
		return err
	}
	if kind == "file" {
		if err := cdp.DOMSetFileInputFiles.Do(ctx, e.session, cdp.SetFileInputFilesParams{Files: abs, BackendNodeID: e.backendID}); err != nil {
			return fmt.Errorf("uid=%s: %w", e.UID, err)
		}
		return nil
	}
	s, err := in.page.Session(ctx)
	if err != nil {
		return err
	}
	chooser, stop := in.page.sessions().watch(s, cdp.PageFileChooserOpened)
	defer stop()
	if err := cdp.PageSetInterceptFileChooserDialog.Do(ctx, s, cdp.SetInterceptParams{Enabled: true}); err != nil {
		return fmt.Errorf("upload: %w", err)
	}
	defer in.page.cleanUp(ctx, s, cdp.PageSetInterceptFileChooserDialog.With(cdp.SetInterceptParams{Enabled: false}), cdp.PageSetInterceptFileChooserDialog.Method)
	if err := in.Click(ctx, e, false); err != nil {
		return err
	}
	select {
	case ev, ok := <-chooser.Events():
		if !ok {
			return fmt.Errorf("upload: %w", s.Conn.Err())
		}
		fc, err := cdp.PageFileChooserOpened.Decode(ev.Params)
		if err != nil {
			return err
		}
		fs := in.page.sessions().sessionByID(ev.SessionID)
		if fs == nil {
			fs = s
		}
		if err := cdp.DOMSetFileInputFiles.Do(ctx, fs, cdp.SetFileInputFilesParams{Files: abs, BackendNodeID: fc.BackendNodeID}); err != nil {
			return fmt.Errorf("upload: %w", err)
		}
		return nil
	case <-time.After(3 * time.Second):
		return fmt.Errorf("uid=%s is not a file input and clicking it opened no file chooser; give the uid of the <input type=file> or of the button that opens it", e.UID)
	case <-ctx.Done():
		return ctx.Err()
	}
}

// HandleDialog accepts or dismisses the open JavaScript dialog, typing
// promptText into a prompt.
func (in Input) HandleDialog(ctx context.Context, accept bool, promptText string) (*cdp.DialogOpeningEvent, error) {
	d := in.page.Dialog()
	if d == nil {
		return nil, errors.New("no dialog is open on this page")
	}
	s, err := in.page.Session(ctx)
	if err != nil {
		return nil, err
	}
	if err := cdp.PageHandleJavaScriptDialog.Do(ctx, s, cdp.HandleDialogParams{Accept: accept, PromptText: promptText}); err != nil {
		return nil, fmt.Errorf("handle the %s dialog: %w", d.Type, err)
	}
	in.page.events.setDialog(nil)
	return d, nil
}
