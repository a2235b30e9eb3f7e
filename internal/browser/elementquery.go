package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// Evaluate runs the function declaration fn with the element as this and
// decodes the JSON value it returns into out.
func (e *Element) Evaluate(ctx context.Context, fn string, out any) error {
	v, err := e.call(ctx, fn)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(v.Value, out); err != nil {
		return fmt.Errorf("uid=%s: decoding the function's value: %w", e.UID, err)
	}
	return nil
}

// AccessibleName returns the element's computed accessible name and role
// as Chrome's accessibility tree has them, and how many nodes of its
// document (shadow trees included) share both: an aria/ selector finds
// the element alone when that count is 1.
func (e *Element) AccessibleName(ctx context.Context) (name, role string, same int, _ error) {
	res, err := cdp.AccessibilityGetPartialAXTree.Call(ctx, e.session, cdp.GetPartialAXTreeParams{ObjectID: e.objectID})
	if err != nil {
		return "", "", 0, fmt.Errorf("uid=%s: reading its accessibility node: %w", e.UID, err)
	}
	for _, n := range res.Nodes {
		if n.BackendDOMNodeID == e.backendID || len(res.Nodes) == 1 {
			name, role = n.Name.String(), n.Role.String()
			break
		}
	}
	if name == "" || role == "" {
		return name, role, 0, nil
	}
	doc, err := cdp.RuntimeCallFunctionOn.Call(ctx, e.session, cdp.CallFunctionOnParams{
		FunctionDeclaration: "function() { return this.ownerDocument; }", ObjectID: e.objectID,
	})
	if err != nil {
		return name, role, 0, fmt.Errorf("uid=%s: finding its document: %w", e.UID, err)
	}
	if doc.ExceptionDetails != nil || doc.Result.ObjectID == "" {
		return name, role, 0, fmt.Errorf("uid=%s: the element has no document", e.UID)
	}
	// Chromium 150 and older keep the spaces a <label> gives a name
	// ("Name "); a selector names it as newer versions do, trimmed, when
	// that finds it too.
	names := []string{name}
	if trimmed := strings.Trim(name, " \t\n\f\r"); trimmed != name && trimmed != "" {
		names = []string{trimmed, name}
	}
	for _, try := range names {
		q, err := cdp.AccessibilityQueryAXTree.Call(ctx, e.session, cdp.QueryAXTreeParams{ObjectID: doc.Result.ObjectID, AccessibleName: try, Role: role})
		if err != nil {
			return name, role, 0, fmt.Errorf("uid=%s: querying its name: %w", e.UID, err)
		}
		same = 0
		for _, n := range q.Nodes {
			if !n.Ignored {
				same++
			}
		}
		if same > 0 {
			return try, role, same, nil
		}
	}
	return name, role, same, nil
}
