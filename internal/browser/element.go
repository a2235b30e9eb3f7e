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
	frame     string // the id of its document's frame; "" when not known
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

// clickPoint is what click-point.js answers: a point, or why there is none.
type clickPoint struct {
	X, Y        float64
	CrossOrigin bool
	Hops        int    // with CrossOrigin: frames walked up before the unreadable one
	Fail        string // nosize, hidden, option, outside, covered, around, nopointer
	What        string // the element a click there would reach
}

// pointHow says what point does besides finding the point.
type pointHow int

const (
	// pointWatch has the element's window watch where the presses that
	// follow land, for landed.
	pointWatch pointHow = 1 << iota
	// pointSteady waits for the element to stop moving first.
	pointSteady
)

// point returns where to click the element in the page's viewport. It
// brings the element into view as a user's scroll would (waiting for what
// that scroll renders), and fails, saying why and what to do, when a click
// there would reach another element.
func (in Input) point(ctx context.Context, e *Element, how pointHow) (x, y float64, err error) {
	v, err := e.call(ctx, clickPointJS, cdp.CallArgument{Value: nil}, cdp.CallArgument{Value: how&pointWatch != 0}, cdp.CallArgument{Value: how&pointSteady != 0})
	if err != nil {
		return 0, 0, err
	}
	var p clickPoint
	if err := json.Unmarshal(v.Value, &p); err != nil {
		return 0, 0, fmt.Errorf("uid=%s: where to click it: %w", e.UID, err)
	}
	if p.Fail != "" {
		return 0, 0, unclickable(e.UID, p)
	}
	if !p.CrossOrigin {
		return p.X, p.Y, nil
	}
	return in.throughOwner(ctx, e, p.X, p.Y, p.Hops)
}

// throughOwner turns x, y in the viewport of the frame hops frames up
// from e's, whose parent e's document cannot read, into the page's
// viewport, through the <iframe> elements that hold it, checking that
// nothing in a parent covers the point.
func (in Input) throughOwner(ctx context.Context, e *Element, x, y float64, hops int) (float64, float64, error) {
	uid := e.UID
	for range 16 { // frames nest a few deep; a cycle must not spin
		owner, err := in.frameOwner(ctx, e, hops)
		if err != nil {
			return 0, 0, err
		}
		v, err := owner.call(ctx, clickPointJS, cdp.CallArgument{Value: map[string]float64{"x": x, "y": y}}, cdp.CallArgument{Value: false})
		if err != nil {
			return 0, 0, err
		}
		var p clickPoint
		if err := json.Unmarshal(v.Value, &p); err != nil {
			return 0, 0, fmt.Errorf("uid=%s: where its frame is: %w", uid, err)
		}
		if p.Fail != "" {
			return 0, 0, unclickable(uid, p)
		}
		if !p.CrossOrigin {
			return p.X, p.Y, nil
		}
		x, y, e, hops = p.X, p.Y, owner, p.Hops
	}
	return 0, 0, fmt.Errorf("uid=%s is in frames nested too deep to click", uid)
}

// unclickable says why a click on uid cannot land on it, and what to do.
func unclickable(uid string, p clickPoint) error {
	switch p.Fail {
	case "nosize":
		return fmt.Errorf("uid=%s has no size on the page (it is empty, collapsed or not displayed), so there is nothing to click; if it sits in a closed menu or panel, open that first, or call its click() with evaluate_script", uid)
	case "hidden":
		return fmt.Errorf("uid=%s is hidden (visibility: hidden), so a click cannot reach it; do what shows it first (hover or open what holds it), then take a new snapshot", uid)
	case "option":
		return fmt.Errorf("uid=%s is an option of a drop-down list, which shows no box to click; use fill on the list with the option's label", uid)
	case "outside":
		return fmt.Errorf("uid=%s is outside the visible part of the page and scrolling does not bring it into view (it is clipped or placed off-screen); take a screenshot to see where it is", uid)
	case "nopointer":
		return fmt.Errorf("uid=%s does not take clicks (pointer-events: none): a click on it would reach %s instead; click that, or what the page offers in its place", uid, p.What)
	case "around":
		return fmt.Errorf("uid=%s is not drawn where it sits: a click there would reach %s, which holds it; take a new snapshot and try again once the page has rendered it", uid, p.What)
	default:
		return fmt.Errorf("uid=%s is covered by %s, which would receive the click instead; close or remove it first (or click it, if it is what you meant)", uid, p.What)
	}
}

// landed checks, after a click, where the presses that point watched
// went: when one reached another element (the page moved between
// the check and the click), the page's listeners were kept from it, and
// the error names that element. A click that took the element's document
// away (a navigation) cannot be asked and counts as landed.
func (in Input) landed(ctx context.Context, e *Element) error {
	res, err := cdp.RuntimeCallFunctionOn.Call(ctx, e.session, cdp.CallFunctionOnParams{
		FunctionDeclaration: clickLandedJS, ObjectID: e.objectID, ReturnByValue: true,
	})
	if err != nil || res.ExceptionDetails != nil {
		return nil
	}
	var other string
	_ = json.Unmarshal(res.Result.Value, &other)
	if other == "" {
		return nil
	}
	return strayClick{uid: e.UID, other: other}
}

// strayClick is landed's error: the press reached other, not uid, and was
// kept from the page's listeners.
type strayClick struct{ uid, other string }

func (s strayClick) Error() string {
	return fmt.Sprintf("uid=%s: the click landed on %s instead (the page moved while it was clicked), so it was held back from the page; take a new snapshot and try again", s.uid, s.other)
}

// frameOffset sums the offsets of the frames between e's document and the
// page's viewport.
func (in Input) frameOffset(ctx context.Context, e *Element) (x, y float64, err error) {
	v, err := e.call(ctx, frameOffsetsJS)
	if err != nil {
		return 0, 0, err
	}
	var off struct {
		X, Y        float64
		CrossOrigin bool
		Hops        int
	}
	_ = json.Unmarshal(v.Value, &off)
	if !off.CrossOrigin {
		return off.X, off.Y, nil
	}
	// A frame of another origin: ask its owner element in the parent frame.
	owner, err := in.frameOwner(ctx, e, off.Hops)
	if err != nil {
		return 0, 0, err
	}
	ov, err := owner.call(ctx, frameOffsetJS)
	if err != nil {
		return 0, 0, err
	}
	var o struct{ X, Y float64 }
	_ = json.Unmarshal(ov.Value, &o)
	px, py, err := in.frameOffset(ctx, owner)
	return off.X + o.X + px, off.Y + o.Y + py, err
}

// frameOwner returns the <iframe> element, in its parent's document, of
// the frame hops frames up from e's. That frame is in e's process (a
// frame of another origin but the same site shares its parent's) unless
// it is the root of e's session, a cross-process iframe whose <iframe> is
// in its parent's session.
func (in Input) frameOwner(ctx context.Context, e *Element, hops int) (*Element, error) {
	if e.frame != "" {
		if tree, err := cdp.PageGetFrameTree.Call(ctx, e.session); err == nil {
			parents := frameParents(&tree.FrameTree, map[string]string{})
			f := e.frame
			for range hops {
				f = parents[f]
			}
			if parent, ok := parents[f]; ok && parent != "" {
				return in.ownerIn(ctx, e.session, f, parent)
			}
		}
	}
	in.page.sessions().synced()
	frameID, parent := in.page.events.frameOf(e.session)
	if parent == nil {
		return nil, errors.New("the element is in a frame of another origin that is no longer attached; take a new snapshot")
	}
	return in.ownerIn(ctx, parent, frameID, "")
}

// ownerIn resolves the <iframe> of frame id in session s, whose document
// is that of frame parent ("" when not known).
func (in Input) ownerIn(ctx context.Context, s *cdp.Session, id, parent string) (*Element, error) {
	owner, err := cdp.DOMGetFrameOwner.Call(ctx, s, cdp.GetFrameOwnerParams{FrameID: id})
	if err != nil {
		return nil, fmt.Errorf("find the frame's <iframe>: %w", err)
	}
	el, err := resolve(ctx, s, owner.BackendNodeID, "")
	if err != nil {
		return nil, err
	}
	el.frame = parent
	if parent == "" {
		// A cross-process iframe's <iframe>: its document's frame is the
		// parent, in that session's tree, of the frame it holds.
		if tree, err := cdp.PageGetFrameTree.Call(ctx, s); err == nil {
			el.frame = frameParents(&tree.FrameTree, map[string]string{})[id]
		}
	}
	return el, nil
}

// frameParents maps each frame of tree to its parent's id ("" for the
// root), into m.
func frameParents(tree *cdp.FrameTree, m map[string]string) map[string]string {
	if _, ok := m[tree.Frame.ID]; !ok {
		m[tree.Frame.ID] = ""
	}
	for i := range tree.ChildFrames {
		m[tree.ChildFrames[i].Frame.ID] = tree.Frame.ID
		frameParents(&tree.ChildFrames[i], m)
	}
	return m
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
		FunctionDeclaration: elementOfNodeJS,
		ObjectID:            res.Object.ObjectID,
	})
	if err != nil || el.Result.ObjectID == "" {
		return nil, gone
	}
	return &Element{UID: uid, session: s, backendID: backendID, objectID: el.Result.ObjectID}, nil
}
