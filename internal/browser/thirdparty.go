package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// Third-party developer tools: a page (or a framework in it) exposes tools
// by listening for the devtoolstooldiscovery event on window and calling
// event.respondWith(toolGroup). The discovery runs in the page and keeps the
// groups it got in window.__dtmcp, whose executeTool(name, params) runs one;
// scripts of evaluate_script can call it too.

// ToolGroup is a set of tools a page exposed in answer to the discovery event.
type ToolGroup struct {
	Name        string     `json:"name"`
	Description string     `json:"description"`
	Tools       []PageTool `json:"tools"`
}

// PageTool is one tool of a ToolGroup. Its InputSchema is shown to the agent
// as the page declared it, except that a DOM element parameter (a schema
// with "x-mcp-type": "HTMLElement") is described as an object {uid}.
type PageTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
	// TakesElements is set when the page declared DOM element parameters,
	// which the agent passes as {"uid": "..."} objects.
	TakesElements bool `json:"takesElements,omitempty"`
}

// Discovery is what one discovery found.
type Discovery struct {
	Groups []ToolGroup `json:"groups"`
	// Problems describe tool groups and tools the page offered but that
	// were malformed and left out, for the page's authors to fix.
	Problems []string `json:"problems"`
}

// ErrNoPageTools is wrapped by errors about a page that exposes no
// developer tools.
var ErrNoPageTools = errors.New("the page exposes no third-party developer tools")

// DiscoverTools dispatches the discovery event in the page and returns the
// tool groups the page answered with. The first discovery on a session also
// installs window.__dtmcp in every later document of the page, so scripts
// can call window.__dtmcp.executeTool after any navigation.
func (ipt InPageTools) DiscoverTools(ctx context.Context) (Discovery, error) {
	var res struct {
		Discovery
		FromNewDocument bool `json:"fromNewDocument"`
	}
	expr := "(" + toolsJS + ")(false).discover().then(d => ({...d, fromNewDocument: window.__dtmcp.__fromNewDocument}))"
	if err := ipt.evaluateInto(ctx, expr, &res); err != nil {
		return Discovery{}, fmt.Errorf("discover the page's developer tools: %w", err)
	}
	if !res.FromNewDocument {
		s, err := ipt.page.Session(ctx)
		if err != nil {
			return Discovery{}, err
		}
		// runImmediately marks the current document too, so that the next
		// discovery here does not add the script again.
		params := cdp.AddScriptParams{Source: "(" + toolsJS + ")(true)", RunImmediately: true}
		if err := cdp.PageAddScriptToEvaluateOnNewDocument.Do(ctx, s, params); err != nil {
			return Discovery{}, fmt.Errorf("install window.__dtmcp for later documents: %w", err)
		}
	}
	return res.Discovery, nil
}

// FindTool returns the page's developer tool called name, discovering the
// tools first if this document was not asked yet. The error lists the
// tools there are, or wraps ErrNoPageTools.
func (ipt InPageTools) FindTool(ctx context.Context, name string) (*PageTool, error) {
	var res struct {
		Tool      *PageTool `json:"tool"`
		Available []string  `json:"available"`
	}
	expr := "(" + toolsJS + ")(false).find(" + jsString(name) + ")"
	if err := ipt.evaluateInto(ctx, expr, &res); err != nil {
		return nil, fmt.Errorf("look up developer tool %q: %w", name, err)
	}
	switch {
	case res.Tool != nil:
		return res.Tool, nil
	case len(res.Available) == 0:
		return nil, ErrNoPageTools
	}
	return nil, fmt.Errorf("the page has no developer tool named %q; it exposes: %s", name, strings.Join(res.Available, ", "))
}

// RunTool calls the page's developer tool t with params (a JSON object) and
// awaits it. The result comes back as JSON text, with DOM elements as
// {"uid": "..."} objects (the shape params pass them in) naming them in
// the page's snapshots; a tool that returns nothing
// gives "undefined", one that throws an error with its message. For a tool
// with element parameters, objects {"uid": "..."} in params are passed as
// those elements.
func (ipt InPageTools) RunTool(ctx context.Context, t *PageTool, params json.RawMessage) (string, error) {
	var elements []*Element
	if t.TakesElements {
		var v any
		if err := json.Unmarshal(params, &v); err != nil {
			return "", fmt.Errorf("params: %w", err)
		}
		var err error
		if v, err = ipt.elementParams(ctx, v, &elements); err != nil {
			return "", err
		}
		if params, err = json.Marshal(v); err != nil {
			return "", fmt.Errorf("params: %w", err)
		}
	}
	fn := "(" + executeToolJS + ")(" + jsString(t.Name) + ", " + jsString(string(params)) + ")"
	out, err := ipt.page.EvaluateJSON(ctx, Script{Function: fn, Args: elements, ElementObjects: true})
	if err != nil {
		return "", fmt.Errorf("tool %q: %w", t.Name, err)
	}
	var res struct {
		Value  json.RawMessage `json:"value"`
		Thrown *string         `json:"thrown"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		return "", fmt.Errorf("read the result of tool %q: %w", t.Name, err)
	}
	switch {
	case res.Thrown != nil:
		return "", fmt.Errorf("tool %q threw: %s", t.Name, *res.Thrown)
	case res.Value == nil:
		return "undefined", nil
	}
	return string(res.Value), nil
}

// elementParams replaces the {"uid": "..."} objects in v by markers for the
// elements, which it resolves and appends to elements.
func (ipt InPageTools) elementParams(ctx context.Context, v any, elements *[]*Element) (any, error) {
	switch v := v.(type) {
	case []any:
		for i := range v {
			var err error
			if v[i], err = ipt.elementParams(ctx, v[i], elements); err != nil {
				return nil, err
			}
		}
	case map[string]any:
		if uid, ok := v["uid"].(string); ok && len(v) == 1 {
			e, err := ipt.page.Snapshots().Element(ctx, strings.TrimPrefix(uid, "uid="))
			if err != nil {
				return nil, err
			}
			*elements = append(*elements, e)
			return map[string]any{"__dtmcpElement": len(*elements) - 1}, nil
		}
		for k, x := range v {
			var err error
			if v[k], err = ipt.elementParams(ctx, x, elements); err != nil {
				return nil, err
			}
		}
	}
	return v, nil
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s) // a string always marshals
	return string(b)
}

// evaluateInto evaluates expr in the page (awaiting a promise) and decodes
// its JSON value into out.
func (ipt InPageTools) evaluateInto(ctx context.Context, expr string, out any) error {
	v, err := ipt.page.Evaluate(ctx, expr)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(v.Value, out); err != nil {
		return fmt.Errorf("unexpected answer from the page (%s): %w", cdpValue(v), err)
	}
	return nil
}

// cdpValue describes a remote value for an error message.
func cdpValue(v cdp.RemoteObject) string {
	if len(v.Value) > 0 {
		return string(v.Value)
	}
	return v.Type
}
