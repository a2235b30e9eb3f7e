package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"

	"github.com/devtools-mcp/devtools-mcp/cdp"
	"github.com/devtools-mcp/devtools-mcp/snapshot"
)

// Script is JavaScript for EvaluateJSON: a function declaration called with
// Args (DOM elements from snapshot uids), or a plain script.
type Script struct {
	Function string
	Source   string // a plain script, used when Function is empty
	Args     []*Element
	// ElementObjects names DOM elements in the result as {"uid": "..."}
	// objects, the shape third-party tools take them back in, rather
	// than as "uid=..." strings.
	ElementObjects bool
}

var nodeMarker = regexp.MustCompile(`"@@node:(\d+)@@"`)

// EvaluateJSON runs sc in the page (awaiting a promise) and returns its
// result as JSON text, with DOM elements replaced by their snapshot uids so
// the agent can act on them.
func (p *Page) EvaluateJSON(ctx context.Context, sc Script) (string, error) {
	s, err := p.Session(ctx)
	if err != nil {
		return "", err
	}
	var res cdp.EvaluateResult
	kept, target := newKeptResult(), ""
	if sc.Function == "" {
		res, err = cdp.RuntimeEvaluate.Call(ctx, s, cdp.EvaluateParams{Expression: sc.Source, AwaitPromise: true, UserGesture: true})
	} else {
		if s, target, err = p.callTarget(ctx, s, sc.Args); err != nil {
			return "", err
		}
		args := make([]cdp.CallArgument, len(sc.Args))
		for i, e := range sc.Args {
			args[i] = cdp.CallArgument{ObjectID: e.objectID}
		}
		res, err = cdp.RuntimeCallFunctionOn.Call(ctx, s, cdp.CallFunctionOnParams{
			FunctionDeclaration: kept.wrap(sc.Function), ObjectID: target, Arguments: args, AwaitPromise: true, UserGesture: true,
		})
	}
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			// The script may be stuck in a loop: stop it so the page answers again.
			p.cleanUp(ctx, s, cdp.RuntimeTerminateExecution, cdp.RuntimeTerminateExecution.Method)
			return "", fmt.Errorf("the script did not finish in time and was stopped; the page is usable again. Make it return sooner (await less, loop less)")
		}
		return "", fmt.Errorf("evaluate: %w", err)
	}
	if d := res.ExceptionDetails; d != nil {
		if d.Exception != nil && d.Exception.ClassName == "SyntaxError" && sc.Function != "" {
			return "", fmt.Errorf("the function does not parse: %s. Pass a function declaration such as () => document.title, or format=script for a plain script", firstLine(d.Message()))
		}
		return "", fmt.Errorf("the script threw: %s", d.Message())
	}
	if n := kept.length(res.Result); sc.Function != "" && n >= 0 {
		return kept.read(ctx, s, target, n)
	}
	return p.toJSON(ctx, s, res.Result, sc.ElementObjects)
}

// callTarget picks the global object to call a function on: the page's,
// or that of the frame the element arguments live in (which must be one).
func (p *Page) callTarget(ctx context.Context, s *cdp.Session, args []*Element) (*cdp.Session, string, error) {
	if len(args) == 0 {
		g, err := cdp.RuntimeEvaluate.Call(ctx, s, cdp.EvaluateParams{Expression: "globalThis"})
		if err != nil {
			return nil, "", fmt.Errorf("evaluate: %w", err)
		}
		return s, g.Result.ObjectID, nil
	}
	first := args[0]
	g, err := cdp.RuntimeCallFunctionOn.Call(ctx, first.session, cdp.CallFunctionOnParams{
		FunctionDeclaration: frameWindowJS, ObjectID: first.objectID,
	})
	if err != nil {
		return nil, "", fmt.Errorf("evaluate: %w", err)
	}
	for _, e := range args[1:] {
		if e.session != first.session {
			return nil, "", fmt.Errorf("uid=%s and uid=%s are in different frames; a script runs in one frame, so pass elements of one frame", first.UID, e.UID)
		}
	}
	return first.session, g.Result.ObjectID, nil
}

// toJSON serializes a result handle in the page; primitives need no trip.
// DOM nodes become "uid=..." strings, or {"uid": "..."} objects.
func (p *Page) toJSON(ctx context.Context, s *cdp.Session, v cdp.RemoteObject, objects bool) (string, error) {
	switch {
	case v.ObjectID == "" && v.UnserializableValue != "": // NaN, Infinity, -0, 1n
		return strconv.Quote(v.UnserializableValue), nil
	case v.ObjectID == "" && len(v.Value) > 0:
		return string(v.Value), nil
	case v.ObjectID == "" && v.Subtype == "null":
		return "null", nil
	case v.ObjectID == "":
		return "undefined", nil
	}
	kept := newKeptResult()
	serialize, args := kept.serialize()
	packed, err := cdp.RuntimeCallFunctionOn.Call(ctx, s, cdp.CallFunctionOnParams{FunctionDeclaration: serialize, ObjectID: v.ObjectID, Arguments: args})
	if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		// Serializing a huge value runs on in the page: stop it.
		p.cleanUp(ctx, s, cdp.RuntimeTerminateExecution, cdp.RuntimeTerminateExecution.Method)
		return "", errors.New("the result is too big to serialize before the time ran out, and its serialization was stopped; the page is usable again. Return less (a slice, a count, a summary)")
	}
	if err != nil {
		return "", fmt.Errorf("serialize the result: %w", err)
	}
	if packed.ExceptionDetails != nil {
		return "", fmt.Errorf("the result cannot be serialized to JSON: %s", firstLine(packed.ExceptionDetails.Message()))
	}
	props, err := cdp.RuntimeGetProperties.Call(ctx, s, cdp.GetPropertiesParams{ObjectID: packed.Result.ObjectID, OwnProperties: true})
	if err != nil {
		return "", fmt.Errorf("serialize the result: %w", err)
	}
	var text string
	nodes := map[string]string{} // index -> object id
	for _, pr := range props.Result {
		if pr.Name == "0" {
			_ = json.Unmarshal(pr.Value.Value, &text)
		} else if i, err := strconv.Atoi(pr.Name); err == nil && i > 0 {
			nodes[strconv.Itoa(i-1)] = pr.Value.ObjectID
		}
	}
	if n := kept.textLength(text); n >= 0 {
		if text, err = kept.readRaw(ctx, s, v.ObjectID, n); err != nil {
			return "", err
		}
	}
	var uidErr error
	var keyOf func(int) snapshot.Key
	out := nodeMarker.ReplaceAllStringFunc(text, func(m string) string {
		if keyOf == nil {
			keyOf = p.Snapshots().keyer(ctx, s)
		}
		idx := nodeMarker.FindStringSubmatch(m)[1]
		d, err := cdp.DOMDescribeNode.Call(ctx, s, cdp.NodeRef{ObjectID: nodes[idx]})
		if err != nil {
			uidErr = err
			return `"<node>"`
		}
		uid := p.tracker.UIDFor(keyOf(d.Node.BackendNodeID))
		if objects {
			return `{"uid":` + strconv.Quote(uid) + `}`
		}
		return strconv.Quote("uid=" + uid)
	})
	if uidErr != nil {
		return out, errors.Join(fmt.Errorf("some DOM nodes in the result could not be named"), uidErr)
	}
	return out, nil
}
