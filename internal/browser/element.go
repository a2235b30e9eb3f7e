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

// point returns where to click the element in the page's viewport. It
// scrolls the element into view, and fails when another element covers it.
func (in Input) point(ctx context.Context, e *Element) (x, y float64, err error) {
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
	ox, oy, err := in.frameOffset(ctx, e)
	return local.X + ox, local.Y + oy, err
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
	}
	_ = json.Unmarshal(v.Value, &off)
	if !off.CrossOrigin {
		return off.X, off.Y, nil
	}
	// A cross-origin frame: ask its owner element in the parent frame.
	owner, err := in.frameOwner(ctx, e.session)
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
	return o.X + px, o.Y + py, err
}

// frameOwner returns the <iframe> element hosting the document of session
// s (a cross-process iframe), in its parent's session.
func (in Input) frameOwner(ctx context.Context, s *cdp.Session) (*Element, error) {
	in.page.sessions().synced()
	frameID, parent := in.page.events.frameOf(s)
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
		FunctionDeclaration: elementOfNodeJS,
		ObjectID:            res.Object.ObjectID,
	})
	if err != nil || el.Result.ObjectID == "" {
		return nil, gone
	}
	return &Element{UID: uid, session: s, backendID: backendID, objectID: el.Result.ObjectID}, nil
}
