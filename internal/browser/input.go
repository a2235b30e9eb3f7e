package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// Element is a DOM node named by a snapshot uid, in the session (page or
// cross-process iframe) that owns it.
type Element struct {
	UID       string
	session   *cdp.Session
	backendID int
	objectID  string
}

// call runs the function declaration fn with the element as this and
// returns its value.
func (e *Element) call(ctx context.Context, fn string, args ...cdp.CallArgument) (cdp.RemoteObject, error) {
	res, err := cdp.RuntimeCallFunctionOn.Call(ctx, e.session, cdp.CallFunctionOnParams{
		FunctionDeclaration: fn, ObjectID: e.objectID, Arguments: args, ReturnByValue: true, AwaitPromise: true, UserGesture: true,
	})
	if err != nil {
		return cdp.RemoteObject{}, fmt.Errorf("uid=%s: %w", e.UID, err)
	}
	if res.ExceptionDetails != nil {
		return cdp.RemoteObject{}, fmt.Errorf("uid=%s: %s", e.UID, firstLine(res.ExceptionDetails.Message()))
	}
	return res.Result, nil
}

// callString is call for functions returning a string ("" for null).
func (e *Element) callString(ctx context.Context, fn string, args ...cdp.CallArgument) (string, error) {
	v, err := e.call(ctx, fn, args...)
	if err != nil {
		return "", err
	}
	var s string
	_ = json.Unmarshal(v.Value, &s)
	return s, nil
}

// describeJS names an element the way an agent can recognize it:
// tag, id or first class, and the start of its text.
const describeJS = `function describe(n) {
  if (!n || n.nodeType !== 1) return 'nothing';
  let d = '<' + n.localName + (n.id ? '#' + n.id : (n.classList[0] ? '.' + n.classList[0] : '')) + '>';
  const t = (n.innerText || n.getAttribute('aria-label') || '').trim().replace(/\s+/g, ' ');
  return t ? d + ' "' + t.slice(0, 40) + '"' : d;
}`

// hitTestJS returns "" when a click at the element's centre reaches it (or
// its label), else a description of the element that would get the click.
const hitTestJS = `function(x, y) {
  ` + describeJS + `
  const root = this.getRootNode();
  const hit = (root.elementFromPoint ? root : this.ownerDocument).elementFromPoint(x, y);
  for (let n = hit; n; n = n.parentNode || n.host) if (n === this) return '';
  if (hit && hit.closest && hit.closest('label') && hit.closest('label').control === this) return '';
  return describe(hit);
}`

// visibleCenterJS scrolls the element into view and returns the centre of
// its part inside the viewport, in the frame's CSS pixels, or null.
const visibleCenterJS = `function() {
  const v = this.ownerDocument.defaultView;
  let r = this.getBoundingClientRect();
  if (r.top < 0 || r.left < 0 || r.bottom > v.innerHeight || r.right > v.innerWidth) {
    this.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
    r = this.getBoundingClientRect();
  }
  const left = Math.max(r.left, 0), top = Math.max(r.top, 0);
  const right = Math.min(r.right, v.innerWidth), bottom = Math.min(r.bottom, v.innerHeight);
  if (right <= left || bottom <= top) return null;
  return {x: (left + right) / 2, y: (top + bottom) / 2};
}`

// point returns where to click the element in the page's viewport. It
// scrolls the element into view, and fails when another element covers it.
func (p *Page) point(ctx context.Context, e *Element) (x, y float64, err error) {
	v, err := e.call(ctx, visibleCenterJS)
	if err != nil {
		return 0, 0, err
	}
	var local *struct{ X, Y float64 }
	if err := json.Unmarshal(v.Value, &local); err != nil || local == nil {
		return 0, 0, fmt.Errorf("uid=%s is not visible (it has no size or is outside the page); take a new snapshot or scroll to it", e.UID)
	}
	hit, err := e.callString(ctx, hitTestJS, cdp.CallArgument{Value: local.X}, cdp.CallArgument{Value: local.Y})
	if err != nil {
		return 0, 0, err
	}
	if hit != "" {
		return 0, 0, fmt.Errorf("uid=%s is covered by %s, which would receive the click instead; close or remove it first", e.UID, hit)
	}
	// The element's frame may be offset inside the page: add the position
	// of each frame's content box in its parent up to the page.
	ox, oy, err := p.frameOffset(ctx, e)
	return local.X + ox, local.Y + oy, err
}

// scrollFrameJS scrolls the <iframe> element fe into view in its frame
// (the element to click may sit in a part of the iframe that its parent
// has scrolled away). When that moved it, it waits for the frame to be
// drawn (at most 100 ms, for a tab in the background): the browser sends
// clicks into a cross-process iframe by where it was last drawn.
const scrollFrameJS = `async function scrollFrame(fe) {
  const before = fe.getBoundingClientRect();
  fe.scrollIntoView({block: 'nearest', inline: 'nearest', behavior: 'instant'});
  const after = fe.getBoundingClientRect();
  if (after.top !== before.top || after.left !== before.left) {
    const w = fe.ownerDocument.defaultView;
    await new Promise(done => { w.requestAnimationFrame(() => w.requestAnimationFrame(done)); setTimeout(done, 100); });
  }
}`

// frameOffsetJS scrolls this <iframe> element into view in its own frame
// and returns its content-box origin there.
const frameOffsetJS = `async function() {
  ` + scrollFrameJS + `
  await scrollFrame(this);
  const r = this.getBoundingClientRect(), s = getComputedStyle(this);
  return {x: r.left + this.clientLeft + parseFloat(s.paddingLeft), y: r.top + this.clientTop + parseFloat(s.paddingTop)};
}`

// frameOffset sums the offsets of the frames between e's document and the
// page's viewport.
func (p *Page) frameOffset(ctx context.Context, e *Element) (x, y float64, err error) {
	v, err := e.call(ctx, `async function() {
  `+scrollFrameJS+`
  const out = [];
  for (let w = this.ownerDocument.defaultView; w !== w.top; w = w.parent) {
    let fe = null;
    try { fe = w.frameElement; } catch (_) {}
    if (!fe) return {x: 0, y: 0, crossOrigin: true};
    await scrollFrame(fe);
    const r = fe.getBoundingClientRect(), s = getComputedStyle(fe);
    out.push({x: r.left + fe.clientLeft + parseFloat(s.paddingLeft), y: r.top + fe.clientTop + parseFloat(s.paddingTop)});
  }
  return {x: out.reduce((a, f) => a + f.x, 0), y: out.reduce((a, f) => a + f.y, 0), crossOrigin: false};
}`)
	if err != nil {
		return 0, 0, err
	}
	var off struct {
		X, Y        float64
		CrossOrigin bool
	}
	_ = json.Unmarshal(v.Value, &off)
	if !off.CrossOrigin {
		return off.X, off.Y, nil
	}
	// A cross-origin frame: ask its owner element in the parent frame.
	owner, err := p.frameOwner(ctx, e.session)
	if err != nil {
		return 0, 0, err
	}
	ov, err := owner.call(ctx, frameOffsetJS)
	if err != nil {
		return 0, 0, err
	}
	var o struct{ X, Y float64 }
	_ = json.Unmarshal(ov.Value, &o)
	px, py, err := p.frameOffset(ctx, owner)
	return o.X + px, o.Y + py, err
}

// frameOwner returns the <iframe> element hosting the document of session
// s (a cross-process iframe), in its parent's session.
func (p *Page) frameOwner(ctx context.Context, s *cdp.Session) (*Element, error) {
	p.mu.Lock()
	var frameID string
	var parent *cdp.Session
	for id, f := range p.events.frames {
		if f.ID == s.ID {
			frameID, parent = id, p.events.parents[id]
		}
	}
	p.mu.Unlock()
	if parent == nil {
		return nil, errors.New("the element is in a frame of another origin that is no longer attached; take a new snapshot")
	}
	owner, err := cdp.DOMGetFrameOwner.Call(ctx, parent, cdp.GetFrameOwnerParams{FrameID: frameID})
	if err != nil {
		return nil, fmt.Errorf("find the frame's <iframe>: %w", err)
	}
	return resolve(ctx, parent, owner.BackendNodeID, "")
}

// resolve makes an Element from a backend node id in session s. A text
// node stands for the element that holds it; a node no longer in its
// document does not exist for the agent.
func resolve(ctx context.Context, s *cdp.Session, backendID int, uid string) (*Element, error) {
	gone := fmt.Errorf("element uid=%s no longer exists; take a new snapshot", uid)
	res, err := cdp.DOMResolveNode.Call(ctx, s, cdp.NodeRef{BackendNodeID: backendID})
	if err != nil {
		return nil, gone
	}
	el, err := cdp.RuntimeCallFunctionOn.Call(ctx, s, cdp.CallFunctionOnParams{
		FunctionDeclaration: `function() { return !this.isConnected ? null : this.nodeType === 1 ? this : this.parentElement; }`,
		ObjectID:            res.Object.ObjectID,
	})
	if err != nil || el.Result.ObjectID == "" {
		return nil, gone
	}
	return &Element{UID: uid, session: s, backendID: backendID, objectID: el.Result.ObjectID}, nil
}

// mouse sends one mouse event to the page.
func (p *Page) mouse(ctx context.Context, ev cdp.MouseEvent) error {
	s, err := p.Session(ctx)
	if err != nil {
		return err
	}
	if err := cdp.InputDispatchMouseEvent.Do(ctx, s, ev); err != nil {
		return fmt.Errorf("mouse %s: %w", ev.Type, err)
	}
	return nil
}

// ClickAt clicks (or double-clicks) at x, y of the page's viewport.
func (p *Page) ClickAt(ctx context.Context, x, y float64, double bool) error {
	if err := p.mouse(ctx, cdp.MouseEvent{Type: "mouseMoved", X: x, Y: y}); err != nil {
		return err
	}
	clicks := 1
	if double {
		clicks = 2
	}
	for n := 1; n <= clicks; n++ {
		if err := p.mouse(ctx, cdp.MouseEvent{Type: "mousePressed", X: x, Y: y, Button: "left", Buttons: 1, ClickCount: n}); err != nil {
			return err
		}
		if err := p.mouse(ctx, cdp.MouseEvent{Type: "mouseReleased", X: x, Y: y, Button: "left", ClickCount: n}); err != nil {
			return err
		}
	}
	return nil
}

// Click clicks the centre of the element's visible box.
func (p *Page) Click(ctx context.Context, e *Element, double bool) error {
	x, y, err := p.point(ctx, e)
	if err != nil {
		return err
	}
	return p.ClickAt(ctx, x, y, double)
}

// Hover moves the mouse over the element.
func (p *Page) Hover(ctx context.Context, e *Element) error {
	x, y, err := p.point(ctx, e)
	if err != nil {
		return err
	}
	return p.mouse(ctx, cdp.MouseEvent{Type: "mouseMoved", X: x, Y: y})
}

// Drag drags from onto to: with the mouse, and as an HTML5 drag and drop
// when the page starts one.
func (p *Page) Drag(ctx context.Context, from, to *Element) error {
	s, err := p.Session(ctx)
	if err != nil {
		return err
	}
	// Bring the source into view, then the target; measure the source
	// again in case showing the target moved it.
	if _, _, err := p.point(ctx, from); err != nil {
		return err
	}
	tx, ty, err := p.point(ctx, to)
	if err != nil {
		return err
	}
	fx, fy, err := p.point(ctx, from)
	if err != nil {
		return err
	}
	// The drag events come before the reply to the mouse move that
	// started the drag: once the moves are answered and the watch synced,
	// dragged tells whether the page started an HTML5 drag.
	var mu sync.Mutex
	var dragged json.RawMessage
	var decodeErr error
	sub, stop := p.watchFunc(s, func(ev Event) {
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
	defer p.undo(ctx, s, cdp.InputSetInterceptDrags.With(cdp.SetInterceptParams{Enabled: false}), cdp.InputSetInterceptDrags.Method)
	steps := []cdp.MouseEvent{
		{Type: "mouseMoved", X: fx, Y: fy},
		{Type: "mousePressed", X: fx, Y: fy, Button: "left", Buttons: 1, ClickCount: 1},
	}
	for i := 1; i <= 5; i++ {
		f := float64(i) / 5
		steps = append(steps, cdp.MouseEvent{Type: "mouseMoved", X: fx + (tx-fx)*f, Y: fy + (ty-fy)*f, Button: "left", Buttons: 1})
	}
	for _, ev := range steps {
		if err := p.mouse(ctx, ev); err != nil {
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
	return p.mouse(ctx, cdp.MouseEvent{Type: "mouseReleased", X: tx, Y: ty, Button: "left", ClickCount: 1})
}

// fillKindJS tells how the element takes a value.
const fillKindJS = `function() {
  const t = this.localName, type = (this.type || '').toLowerCase();
  if (t === 'select') return 'select';
  if (t === 'textarea') return 'text';
  if (t === 'input') {
    if (type === 'checkbox' || type === 'radio') return type;
    if (type === 'file') return 'file';
    if (['date', 'datetime-local', 'month', 'week', 'time', 'color', 'range'].includes(type)) return 'value';
    if (['button', 'submit', 'reset', 'image', 'hidden'].includes(type)) return 'none:<input type=' + type + '>';
    return 'text';
  }
  if (this.isContentEditable) return 'editable';
  if (this.getAttribute('role') === 'checkbox' || this.getAttribute('role') === 'switch') return 'ariacheck';
  return 'none:<' + t + '>';
}`

// Fill sets the element's value the way a user would: typing into text
// fields (input and change events fire), picking an option of a select by
// label or value, ticking checkboxes and radios ("true"/"false").
func (p *Page) Fill(ctx context.Context, e *Element, value string) error {
	kind, err := e.callString(ctx, fillKindJS)
	if err != nil {
		return err
	}
	switch {
	case kind == "select":
		msg, err := e.callString(ctx, `function(v) {
  const opts = Array.from(this.options);
  const o = opts.find(o => o.value === v) || opts.find(o => o.label.trim() === v.trim()) || opts.find(o => o.text.trim().toLowerCase() === v.trim().toLowerCase());
  if (!o) return 'no option "' + v + '"; the options are: ' + opts.map(o => JSON.stringify(o.label.trim())).join(', ');
  this.focus();
  o.selected = true;
  this.dispatchEvent(new Event('input', {bubbles: true}));
  this.dispatchEvent(new Event('change', {bubbles: true}));
  return '';
}`, cdp.CallArgument{Value: value})
		if err == nil && msg != "" {
			err = fmt.Errorf("uid=%s: %s", e.UID, msg)
		}
		return err
	case kind == "checkbox" || kind == "radio" || kind == "ariacheck":
		want, ok := map[string]bool{"true": true, "false": false, "on": true, "off": false, "checked": true, "unchecked": false}[strings.ToLower(value)]
		if !ok {
			return fmt.Errorf("uid=%s is a %s: fill it with \"true\" or \"false\", not %q", e.UID, kind, value)
		}
		v, err := e.call(ctx, `function() { return this.localName === 'input' ? this.checked : this.getAttribute('aria-checked') === 'true'; }`)
		if err != nil {
			return err
		}
		if checked := string(v.Value) == "true"; checked == want {
			return nil
		}
		if kind == "radio" && !want {
			return fmt.Errorf("uid=%s is a radio button: it cannot be unchecked by itself; fill another option of its group with \"true\"", e.UID)
		}
		return p.Click(ctx, e, false)
	case kind == "value":
		msg, err := e.callString(ctx, `function(v) {
  const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
  this.focus();
  set.call(this, v);
  if (this.value !== v && !(this.type === 'range' && v !== '')) return 'the ' + this.type + ' input rejected ' + JSON.stringify(v) + (this.type === 'date' ? '; use the form YYYY-MM-DD' : this.type === 'time' ? '; use the form HH:MM' : this.type === 'color' ? '; use the form #rrggbb' : '');
  this.dispatchEvent(new Event('input', {bubbles: true}));
  this.dispatchEvent(new Event('change', {bubbles: true}));
  return '';
}`, cdp.CallArgument{Value: value})
		if err == nil && msg != "" {
			err = fmt.Errorf("uid=%s: %s", e.UID, msg)
		}
		return err
	case kind == "text" || kind == "editable":
		return p.typeInto(ctx, e, value)
	case kind == "file":
		return fmt.Errorf("uid=%s is a file input: use upload_file with filePaths", e.UID)
	default:
		return fmt.Errorf("uid=%s is a %s, which takes no value; fill works on text inputs, textareas, selects, checkboxes, radios and contenteditable elements", e.UID, strings.TrimPrefix(kind, "none:"))
	}
}

// typeInto focuses a text field, selects what it holds and replaces it
// with text, as typing would: beforeinput and input fire, then change.
func (p *Page) typeInto(ctx context.Context, e *Element, text string) error {
	if _, err := e.call(ctx, `function() {
  this.focus();
  if (this.select) { this.select(); return; }
  const r = document.createRange();
  r.selectNodeContents(this);
  const sel = this.ownerDocument.getSelection();
  sel.removeAllRanges();
  sel.addRange(r);
}`); err != nil {
		return err
	}
	if text == "" {
		if err := p.PressKey(ctx, "Delete"); err != nil {
			return err
		}
	} else if err := p.insertText(ctx, text); err != nil {
		return err
	}
	_, err := e.call(ctx, `function() { if (this.localName !== 'div') this.dispatchEvent(new Event('change', {bubbles: true})); }`)
	return err
}

// insertText types text into the focused element at once.
func (p *Page) insertText(ctx context.Context, text string) error {
	s, err := p.Session(ctx)
	if err != nil {
		return err
	}
	if err := cdp.InputInsertText.Do(ctx, s, cdp.InsertTextParams{Text: text}); err != nil {
		return fmt.Errorf("type: %w", err)
	}
	return nil
}

// key sends one key event.
func (p *Page) key(ctx context.Context, ev cdp.KeyEvent) error {
	s, err := p.Session(ctx)
	if err != nil {
		return err
	}
	if err := cdp.InputDispatchKeyEvent.Do(ctx, s, ev); err != nil {
		return fmt.Errorf("key %s: %w", ev.Key, err)
	}
	return nil
}

// pressDef presses and releases one key with modifier bits held, running
// the given editing commands with it.
func (p *Page) pressDef(ctx context.Context, d keyDef, bits int, commands ...string) error {
	down := cdp.KeyEvent{Type: "rawKeyDown", Modifiers: bits, Key: d.key, Code: d.code, WindowsVirtualKeyCode: d.keyCode, Commands: commands}
	if d.text != "" {
		down.Type, down.Text, down.UnmodifiedText = "keyDown", d.text, d.text
	}
	if err := p.key(ctx, down); err != nil {
		return err
	}
	return p.key(ctx, cdp.KeyEvent{Type: "keyUp", Modifiers: bits, Key: d.key, Code: d.code, WindowsVirtualKeyCode: d.keyCode})
}

// PressKey presses a key or combination such as Enter, Control+A or
// Control+Shift+R: modifiers go down in order, the key is pressed, and the
// modifiers come up in reverse.
func (p *Page) PressKey(ctx context.Context, combo string) error {
	kp, err := parseKeys(combo)
	if err != nil {
		return err
	}
	bits := 0
	for _, m := range kp.modifiers {
		bits |= modifierBits[m.key]
		if err := p.key(ctx, cdp.KeyEvent{Type: "rawKeyDown", Modifiers: bits, Key: m.key, Code: m.code, WindowsVirtualKeyCode: m.keyCode}); err != nil {
			return err
		}
	}
	if err := p.pressDef(ctx, kp.key, kp.bits, kp.commands...); err != nil {
		return err
	}
	for i := len(kp.modifiers) - 1; i >= 0; i-- {
		m := kp.modifiers[i]
		bits &^= modifierBits[m.key]
		if err := p.key(ctx, cdp.KeyEvent{Type: "keyUp", Modifiers: bits, Key: m.key, Code: m.code, WindowsVirtualKeyCode: m.keyCode}); err != nil {
			return err
		}
	}
	return nil
}

// TypeText types text into the focused element key by key, so key handlers
// see every character; characters without a key are inserted as text.
func (p *Page) TypeText(ctx context.Context, text string) error {
	for _, r := range text {
		d, ok := charKey(r)
		if !ok {
			if err := p.insertText(ctx, string(r)); err != nil {
				return err
			}
			continue
		}
		bits := 0
		if r >= 'A' && r <= 'Z' {
			bits = modifierBits["Shift"]
			d.key, d.text = string(r), string(r)
		}
		if err := p.pressDef(ctx, d, bits); err != nil {
			return err
		}
	}
	return nil
}

// Upload puts files into a file input, or into the file chooser that
// clicking the element opens.
func (p *Page) Upload(ctx context.Context, e *Element, files []string) error {
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
	s, err := p.Session(ctx)
	if err != nil {
		return err
	}
	chooser, stop := p.watch(s, cdp.PageFileChooserOpened)
	defer stop()
	if err := cdp.PageSetInterceptFileChooserDialog.Do(ctx, s, cdp.SetInterceptParams{Enabled: true}); err != nil {
		return fmt.Errorf("upload: %w", err)
	}
	defer p.undo(ctx, s, cdp.PageSetInterceptFileChooserDialog.With(cdp.SetInterceptParams{Enabled: false}), cdp.PageSetInterceptFileChooserDialog.Method)
	if err := p.Click(ctx, e, false); err != nil {
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
		fs := p.sessionByID(ev.SessionID)
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
func (p *Page) HandleDialog(ctx context.Context, accept bool, promptText string) (*cdp.DialogOpeningEvent, error) {
	d := p.Dialog()
	if d == nil {
		return nil, errors.New("no dialog is open on this page")
	}
	s, err := p.Session(ctx)
	if err != nil {
		return nil, err
	}
	if err := cdp.PageHandleJavaScriptDialog.Do(ctx, s, cdp.HandleDialogParams{Accept: accept, PromptText: promptText}); err != nil {
		return nil, fmt.Errorf("handle the %s dialog: %w", d.Type, err)
	}
	p.mu.Lock()
	p.events.dialog = nil
	p.mu.Unlock()
	return d, nil
}
