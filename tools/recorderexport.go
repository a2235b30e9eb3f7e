package tools

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/devtools-mcp/devtools-mcp/internal/browser"
	"github.com/devtools-mcp/devtools-mcp/internal/recorder"
)

// recorderTools are the tools of the experimentalRecorder category.
func recorderTools() []*Tool {
	return []*Tool{
		define(Tool{
			Name: "export_recorder_flow", Description: "Writes what this session's calls did on a page (navigations, clicks, fills, keys, waits) as a Chrome DevTools Recorder flow (JSON) that the Recorder panel imports and `npx @puppeteer/replay` plays, with optional assertions at its end. Password fields' values are placeholders.",
			Category: CategoryExperimentalRecorder, Scope: ScopeBrowser,
		}, exportRecorderFlow),
	}
}

// FlowAssertion is an assertion export_recorder_flow appends to a flow.
type FlowAssertion struct {
	Type       string `json:"type" enum:"waitForElement,waitForExpression" jsonschema:"waitForElement (selector, optional visible and count) or waitForExpression (expression)."`
	Selector   string `json:"selector,omitempty" jsonschema:"For waitForElement: a Puppeteer selector: CSS, aria/Name[role=\"button\"], text/..., xpath/..., pierce/...."`
	Visible    *bool  `json:"visible,omitempty" jsonschema:"For waitForElement: true waits until it is visible, false until it is hidden."`
	Count      *int   `json:"count,omitempty" jsonschema:"For waitForElement: how many elements must match (default at least 1)."`
	Operator   string `json:"operator,omitempty" enum:">=,==,<=" jsonschema:"For waitForElement with count: how the count compares; default ==."`
	Expression string `json:"expression,omitempty" jsonschema:"For waitForExpression: JavaScript that becomes truthy on the page."`
}

// exportRecorderFlowArgs are export_recorder_flow's arguments.
type exportRecorderFlowArgs struct {
	PageID     *int            `json:"pageId,omitempty" jsonschema:"The page whose steps to export (see list_pages); default the selected page."`
	FilePath   string          `json:"filePath" path:"" jsonschema:"File to write the flow to, e.g. flow.json."`
	Title      string          `json:"title,omitempty" jsonschema:"The flow's title; default the page's title or URL."`
	Assertions []FlowAssertion `json:"assertions,omitempty" jsonschema:"Checks appended after the recorded steps."`
}

// exportRecorderFlow runs export_recorder_flow.
func exportRecorderFlow(ctx context.Context, c *Call, args *exportRecorderFlowArgs) error {
	p := c.Browser.Selected()
	if args.PageID != nil {
		var err error
		if p, err = c.Browser.Page(*args.PageID); err != nil {
			p = c.sess.flows.closed(c.Browser, *args.PageID)
			if p == nil {
				return err
			}
		}
	}
	if p == nil {
		return errors.New("no page is selected; pass pageId")
	}
	steps := scrub(c.sess.flows.steps(p), c.sess.flows.scrubber())
	if len(steps) == 0 {
		return fmt.Errorf("page %d has no recorded steps in this session: only navigations, clicks, hovers, fills, keys, waits, resizes and closes made through this server are recorded", p.ID)
	}
	for i, a := range args.Assertions {
		s, err := assertionStep(a)
		if err != nil {
			return fmt.Errorf("assertions[%d]: %w", i, err)
		}
		steps = append(steps, s)
	}
	flow := recorder.Flow{Title: args.Title, Steps: steps}
	if flow.Title == "" {
		flow.Title = flowTitle(p)
	}
	data, err := flow.JSON()
	if err != nil {
		return err
	}
	if err := c.writeFile(ctx, "filePath", args.FilePath, data); err != nil {
		return err
	}
	c.Resp.Linef("Wrote the Recorder flow of page %d (%d steps) to %s. Replay it with: npx @puppeteer/replay %s", p.ID, len(steps), args.FilePath, args.FilePath)
	return nil
}

// flowTitle is a flow's default title: the page's title, else its URL.
func flowTitle(p *browser.Page) string {
	info := p.Info()
	if t := strings.TrimSpace(info.Title); t != "" {
		return t
	}
	if info.URL != "" {
		return info.URL
	}
	return fmt.Sprintf("page %d", p.ID)
}

// assertionStep turns an agent's assertion into its Recorder step.
func assertionStep(a FlowAssertion) (recorder.Step, error) {
	switch a.Type {
	case "waitForElement":
		if a.Selector == "" {
			return recorder.Step{}, errors.New("waitForElement needs a selector")
		}
		s := recorder.Step{Type: recorder.WaitForElement, Target: "main", Selectors: []recorder.Selector{{a.Selector}}, Visible: a.Visible, Count: a.Count}
		if a.Count != nil {
			s.Operator = a.Operator
		}
		return s, nil
	case "waitForExpression":
		if a.Expression == "" {
			return recorder.Step{}, errors.New("waitForExpression needs an expression")
		}
		return recorder.Step{Type: recorder.WaitForExpression, Target: "main", Expression: a.Expression}, nil
	}
	return recorder.Step{}, fmt.Errorf("type %q is neither waitForElement nor waitForExpression", a.Type)
}

// scrub replaces the session's passwords in the text of steps.
func scrub(steps []recorder.Step, r *strings.Replacer) []recorder.Step {
	for i := range steps {
		s := &steps[i]
		s.URL, s.Expression = r.Replace(s.URL), r.Replace(s.Expression)
		if s.Value != nil {
			s.Value = recorder.Ptr(r.Replace(*s.Value))
		}
		evs := make([]recorder.AssertedEvent, len(s.AssertedEvents))
		for j, e := range s.AssertedEvents {
			evs[j] = recorder.AssertedEvent{Type: e.Type, URL: r.Replace(e.URL), Title: r.Replace(e.Title)}
		}
		s.AssertedEvents = evs
		sels := make([]recorder.Selector, len(s.Selectors))
		for j, sel := range s.Selectors {
			for _, part := range sel {
				sels[j] = append(sels[j], r.Replace(part))
			}
		}
		s.Selectors = sels
	}
	return steps
}
