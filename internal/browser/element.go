package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

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
	frameID, parent := p.events.frameOf(s)
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
