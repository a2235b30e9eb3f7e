package browser

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/devtools-mcp/devtools-mcp/cdp"
	"github.com/devtools-mcp/devtools-mcp/internal/jsonscan"
	"github.com/devtools-mcp/devtools-mcp/snapshot"
)

// Chromium computes Accessibility.getFullAXTree at roughly 60 µs per node
// (names with all their sources, every property) and sends about 600 bytes
// per node, so a page of 3,000 form rows takes it close to two seconds. A
// document that big is read instead by pagewalk.js, in an isolated world of
// its frame: it computes the same roles, names and properties from the DOM
// for the nodes a snapshot can show, an order of magnitude faster. The
// differences (internal parts of date and media controls, closed shadow
// roots) are documented in the README; verbose snapshots always use
// Chromium's tree.

// pagewalkJS is pagewalk.js with pagewalk_text.js (how text renders and
// joins into names) and pagewalk_roles.js (its tables of roles and widget
// states), kept apart to keep each file readable, in place of their marker
// lines.
var pagewalkJS = strings.NewReplacer(pagewalkTextMarker, pagewalkText, pagewalkRolesMarker, pagewalkRoles).Replace(pagewalkMain)

// pagewalkTextMarker and pagewalkRolesMarker are the lines of pagewalk.js
// that pagewalk_text.js and pagewalk_roles.js replace.
const (
	pagewalkTextMarker  = "  // pagewalk_text.js: how text renders and joins into names (inserted by pagewalk.go).\n"
	pagewalkRolesMarker = "  // pagewalk_roles.js: roles and widget states (inserted by pagewalk.go).\n"
)

//go:embed pagewalk.js
var pagewalkMain string

//go:embed pagewalk_text.js
var pagewalkText string

//go:embed pagewalk_roles.js
var pagewalkRoles string

// scriptedFrom is the element count from which a frame's document is read
// by pagewalk.js rather than Chromium's accessibility tree. Below it
// Chromium's tree is quick enough (tens of ms) that the exact tree is worth
// it; above, the script is several times faster: Python's json.html
// (2,500 elements) took Chromium 150-200 ms against 40-50 ms read by the
// script, transfer and formatting included.
const scriptedFrom = 1000

// worldName names the isolated world the page-side helpers live in; page
// scripts cannot see or change it.
const worldName = "devtools-mcp"

// world returns the execution context of our isolated world in a frame of
// session s, creating it the first time (Chromium then returns the same
// world for the same name).
func world(ctx context.Context, s *cdp.Session, frameID string) (int, error) {
	w, err := cdp.PageCreateIsolatedWorld.Call(ctx, s, cdp.CreateIsolatedWorldParams{FrameID: frameID, WorldName: worldName})
	if err != nil {
		return 0, fmt.Errorf("isolated world in frame %s: %w", frameID, err)
	}
	return w.ExecutionContextID, nil
}

// readByScript returns the accessibility nodes of frame frameID computed by
// pagewalk.js, or nil when the document has fewer than threshold elements
// (and was never read this way before).
func (sn Snapshots) readByScript(ctx context.Context, s *cdp.Session, frameID string, threshold int) ([]cdp.AXNode, error) {
	res, err := sn.page.callInWorld(ctx, s, frameID, cdp.CallFunctionOnParams{
		FunctionDeclaration: pagewalkJS,
		Arguments:           []cdp.CallArgument{{Value: threshold}},
		ReturnByValue:       true,
	})
	if err == nil && res.ExceptionDetails != nil {
		err = fmt.Errorf("%s", res.ExceptionDetails.Text)
	}
	if err != nil {
		return nil, fmt.Errorf("read frame %s in the page: %w", frameID, err)
	}
	// The rows come as one JSON string, every quote in them escaped.
	text, err := jsonscan.NewBytes(res.Result.Value).AppendString(make([]byte, 0, len(res.Result.Value)))
	if err != nil || len(text) == 0 {
		return nil, err
	}
	nodes, err := axNodes(text)
	if err != nil {
		return nil, fmt.Errorf("read frame %s in the page: %w", frameID, err)
	}
	return nodes, nil
}

// scriptRef returns pagewalk.js's reference number for the DOM node with
// backendID, numbering it if it has none, in the frame whose isolated world
// is the execution context ec; 0 when that frame's document is not read by
// the script.
func scriptRef(ctx context.Context, s *cdp.Session, ec, backendID int) (int, error) {
	obj, err := cdp.DOMResolveNode.Call(ctx, s, cdp.NodeRef{BackendNodeID: backendID, ExecutionContextID: ec})
	if err != nil {
		return 0, fmt.Errorf("find node %d: %w", backendID, err)
	}
	res, err := cdp.RuntimeCallFunctionOn.Call(ctx, s, cdp.CallFunctionOnParams{
		FunctionDeclaration: pagewalkRefJS,
		ObjectID:            obj.Object.ObjectID,
		ReturnByValue:       true,
	})
	if err != nil {
		return 0, fmt.Errorf("number node %d: %w", backendID, err)
	}
	var ref int
	_ = json.Unmarshal(res.Result.Value, &ref)
	return ref, nil
}

// keyer returns how to key the DOM nodes of session s's main frame for the
// tracker, so that they match their snapshot lines: by pagewalk.js's number
// when the script reads that document, by backend node id otherwise. The
// page is asked once, not for every node.
func (sn Snapshots) keyer(ctx context.Context, s *cdp.Session) func(backendID int) snapshot.Key {
	sn.page.sessions().synced() // a navigation received so far resets the uids before new ones are given
	byBackend := func(id int) snapshot.Key { return snapshot.Key{Scope: s.ID, BackendNodeID: id} }
	frameID := sn.page.sessions().sessionFrame(s)
	ec, err := world(ctx, s, frameID)
	if err != nil {
		return byBackend
	}
	res, err := cdp.RuntimeCallFunctionOn.Call(ctx, s, cdp.CallFunctionOnParams{
		FunctionDeclaration: pagewalkScriptedJS,
		ExecutionContextID:  ec,
		ReturnByValue:       true,
	})
	if err != nil || string(res.Result.Value) != "true" {
		return byBackend
	}
	return func(id int) snapshot.Key {
		if ref, err := scriptRef(ctx, s, ec, id); err == nil && ref > 0 {
			return snapshot.Key{Scope: s.ID, BackendNodeID: ref, World: frameID}
		}
		return byBackend(id)
	}
}

// backendOf turns a key numbered by pagewalk.js back into the backend DOM
// node id, or fails when the node is gone.
func backendOf(ctx context.Context, s *cdp.Session, key snapshot.Key, uid string) (int, error) {
	gone := fmt.Errorf("element uid=%s no longer exists; take a new snapshot", uid)
	ec, err := world(ctx, s, key.World)
	if err != nil {
		return 0, gone
	}
	res, err := cdp.RuntimeCallFunctionOn.Call(ctx, s, cdp.CallFunctionOnParams{
		FunctionDeclaration: pagewalkNodeJS,
		ExecutionContextID:  ec,
		Arguments:           []cdp.CallArgument{{Value: key.BackendNodeID}},
	})
	if err != nil || res.Result.ObjectID == "" {
		return 0, gone
	}
	d, err := cdp.DOMDescribeNode.Call(ctx, s, cdp.NodeRef{ObjectID: res.Result.ObjectID})
	if err != nil {
		return 0, gone
	}
	return d.Node.BackendNodeID, nil
}
