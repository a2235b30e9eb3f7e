package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/devtools-mcp/devtools-mcp/cdp"
	"github.com/devtools-mcp/devtools-mcp/snapshot"
)

// WebMCP: pages register tools with document.modelContext.registerTool, or
// declare them on <form> elements; Chrome started with
// --enable-features=WebMCP reports them in the WebMCP CDP domain.

// ErrWebMCPUnsupported is wrapped by errors about a browser that does not
// have WebMCP turned on.
var ErrWebMCPUnsupported = errors.New("WebMCP is not available in this browser")

// WebMCPTool is a WebMCP tool registered in the page.
type WebMCPTool struct {
	cdp.WebMCPTool
	// FormUID is the snapshot uid of a declarative tool's <form>, else "".
	FormUID string
}

// WebMCPTools lists the WebMCP tools registered in the page. It turns the
// WebMCP domain off and on, which makes Chrome report every registered tool
// again, so nothing needs to be tracked between calls. With no tools, it
// checks that the page has document.modelContext at all, and wraps
// ErrWebMCPUnsupported when it does not.
func (ipt InPageTools) WebMCPTools(ctx context.Context) ([]WebMCPTool, error) {
	if err := ipt.page.browser.Require(FeatureWebMCP); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrWebMCPUnsupported, err)
	}
	s, err := ipt.page.Session(ctx)
	if err != nil {
		return nil, err
	}
	var mu sync.Mutex
	var added []cdp.WebMCPTool
	sub := s.SubscribeFunc(func(ev Event) {
		if e, err := cdp.WebMCPToolsAdded.Decode(ev.Params); err == nil {
			mu.Lock()
			added = append(added, e.Tools...)
			mu.Unlock()
		}
	}, cdp.WebMCPToolsAdded)
	defer sub.Close()
	for _, a := range []cdp.Action{cdp.WebMCPDisable, cdp.WebMCPEnable} {
		if err := a.Do(ctx, s); err != nil {
			if ce := (*cdp.Error)(nil); errors.As(err, &ce) && ce.Code == -32601 {
				return nil, fmt.Errorf("%w: this Chrome has no WebMCP protocol domain", ErrWebMCPUnsupported)
			}
			return nil, fmt.Errorf("list WebMCP tools: %w", err)
		}
	}
	// The events came before enable's reply.
	if err := sub.Sync(ctx); err != nil {
		return nil, fmt.Errorf("list WebMCP tools: %w", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(added) == 0 {
		v, err := ipt.page.Evaluate(ctx, "'modelContext' in document")
		if err != nil {
			return nil, fmt.Errorf("list WebMCP tools: %w", err)
		}
		if string(v.Value) != "true" {
			return nil, fmt.Errorf("%w: the page has no document.modelContext", ErrWebMCPUnsupported)
		}
	}
	tools := make([]WebMCPTool, len(added))
	var keyOf func(int) snapshot.Key
	for i, t := range added {
		tools[i].WebMCPTool = t
		if t.BackendNodeID != 0 {
			if keyOf == nil {
				keyOf = ipt.page.Snapshots().keyer(ctx, s)
			}
			tools[i].FormUID = ipt.page.tracker.UIDFor(keyOf(t.BackendNodeID))
		}
	}
	return tools, nil
}

// WebMCPResult is how a WebMCP tool invocation ended: Status is Completed,
// Canceled or Error; Output is the tool's output when Completed.
type WebMCPResult struct {
	Status    string          `json:"status"`
	Output    json.RawMessage `json:"output,omitempty"`
	ErrorText string          `json:"errorText,omitempty"`
}

// InvokeWebMCPTool runs t (from WebMCPTools) with input, a JSON object, and
// waits for its answer. When ctx ends first, the invocation is canceled.
func (ipt InPageTools) InvokeWebMCPTool(ctx context.Context, t WebMCPTool, input json.RawMessage) (WebMCPResult, error) {
	s, err := ipt.page.Session(ctx)
	if err != nil {
		return WebMCPResult{}, err
	}
	responded := s.Subscribe(cdp.WebMCPToolResponded)
	defer responded.Close()
	inv, err := cdp.WebMCPInvokeTool.Call(ctx, s, cdp.WebMCPInvokeToolParams{FrameID: t.FrameID, ToolName: t.Name, Input: input})
	if err != nil {
		return WebMCPResult{}, fmt.Errorf("invoke WebMCP tool %q: %w", t.Name, err)
	}
	for {
		select {
		case ev, ok := <-responded.Events():
			if !ok {
				return WebMCPResult{}, fmt.Errorf("invoke WebMCP tool %q: %w", t.Name, s.Conn.Err())
			}
			e, err := cdp.WebMCPToolResponded.Decode(ev.Params)
			if err != nil {
				return WebMCPResult{}, fmt.Errorf("invoke WebMCP tool %q: %s: %w", t.Name, ev.Method, err)
			}
			if e.InvocationID != inv.InvocationID {
				continue // an answer to another invocation
			}
			res := WebMCPResult{Status: e.Status, Output: e.Output, ErrorText: e.ErrorText}
			if res.ErrorText == "" && e.Exception != nil {
				res.ErrorText = firstLine(FormatValue(*e.Exception))
			}
			return res, nil
		case <-ctx.Done():
			ipt.page.cleanUp(ctx, s, cdp.WebMCPCancelInvocation.With(cdp.WebMCPCancelInvocationParams(inv)), cdp.WebMCPCancelInvocation.Method)
			return WebMCPResult{}, fmt.Errorf("WebMCP tool %q did not answer in time, so its invocation was canceled: %w", t.Name, ctx.Err())
		}
	}
}
