package tools

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/devtools-mcp/devtools-mcp/internal/recorder"
	"github.com/devtools-mcp/devtools-mcp/internal/redact"
)

// commit adds to the page's flow the steps of a call that succeeded.
func (pr *pendingRecord) commit(ctx context.Context, c *Call) {
	if pr == nil {
		return
	}
	p, f := pr.page, c.sess.flows
	if p == nil {
		p = c.Page // new_page's, opened by the call
	}
	if p == nil {
		return
	}
	if len(pr.targets) > 0 && len(pr.targets[0].Frame) == 0 {
		// The viewport the agent's page had, read with its first element.
		t := pr.targets[0]
		f.viewport(c.Browser, p, recorder.NewViewport(t.Width, t.Height, t.Scale, false, false, false))
	}
	var steps []recorder.Step
	switch pr.tool {
	case "click":
		var a clickArgs
		_ = decodeArgs(pr.args, &a)
		t := pr.targets[0]
		steps = append(steps, recorder.NewClick(t.selectors, t.Frame, t.OffsetX, t.OffsetY, a.DblClick))
	case "hover":
		t := pr.targets[0]
		steps = append(steps, recorder.Step{Type: recorder.Hover, Target: "main", Frame: t.Frame, Selectors: t.selectors})
	case "fill":
		var a fillArgs
		_ = decodeArgs(pr.args, &a)
		steps = append(steps, changeStep(ctx, f, pr.targets[0], a.Value))
	case "fill_form":
		var a fillFormArgs
		_ = decodeArgs(pr.args, &a)
		for i, t := range pr.targets {
			steps = append(steps, changeStep(ctx, f, t, a.Elements[i].Value))
		}
	case "press_key":
		var a pressKeyArgs
		_ = decodeArgs(pr.args, &a)
		steps = recorder.Keys(a.Key)
	case "type_text":
		steps = typedSteps(f, pr)
	case "wait_for":
		var a waitForArgs
		_ = decodeArgs(pr.args, &a)
		steps = append(steps, waitForTextStep(a.Text))
	case "resize_page":
		var a resizePageArgs
		_ = decodeArgs(pr.args, &a)
		steps = append(steps, recorder.NewViewport(a.Width, a.Height, 1, false, false, false))
	case "close_page":
		steps = append(steps, recorder.Step{Type: recorder.Close, Target: "main"})
	case "navigate_page", "new_page":
		info := p.Info()
		steps = append(steps, recorder.NewNavigate(redact.URL(info.URL), info.Title))
	}
	if n := len(steps); n > 0 && pr.urlWas != "" && pr.tool != "navigate_page" && pr.tool != "new_page" {
		// An action that led the page elsewhere asserts it, so that a
		// replay waits for the new document before the next step.
		if info := p.Info(); info.URL != pr.urlWas {
			steps[n-1].AssertedEvents = []recorder.AssertedEvent{{Type: "navigation", URL: redact.URL(info.URL), Title: info.Title}}
		}
	}
	f.add(c.Browser, p, steps...)
}

// changeStep is fill's step: a change to the value the element ended
// with (a select's option value), a click for a checkbox or radio whose
// state the fill flipped, and a placeholder for a password.
func changeStep(ctx context.Context, f *flows, t *target, typed string) recorder.Step {
	var after struct {
		Value   string `json:"value"`
		Checked bool   `json:"checked"`
	}
	if err := t.el.Evaluate(ctx, recordValueJS, &after); err != nil {
		after.Value = typed
	}
	switch {
	case t.Type == "checkbox" || t.Type == "radio":
		return recorder.NewClick(t.selectors, t.Frame, t.OffsetX, t.OffsetY, false)
	case t.Type == "password":
		f.secret(typed)
		after.Value = passwordPlaceholder
	default:
		after.Value = redact.Text(after.Value)
	}
	return recorder.NewChange(t.selectors, t.Frame, after.Value)
}

// typedSteps are type_text's steps: a key press per character (and the
// submit key), with the text replaced by a placeholder when it went into
// a password field.
func typedSteps(f *flows, pr *pendingRecord) []recorder.Step {
	var a typeTextArgs
	_ = decodeArgs(pr.args, &a)
	text := redact.Text(a.Text)
	if pr.password {
		f.secret(a.Text)
		text = passwordPlaceholder
	}
	var steps []recorder.Step
	for _, r := range text {
		steps = append(steps, recorder.Keys(string(r))...)
	}
	if a.SubmitKey != "" {
		steps = append(steps, recorder.Keys(a.SubmitKey)...)
	}
	return steps
}

// waitForTextStep is wait_for's step: a text/ selector for one text, an
// expression for any of several.
func waitForTextStep(texts []string) recorder.Step {
	if len(texts) == 1 {
		return recorder.Step{Type: recorder.WaitForElement, Target: "main", Selectors: []recorder.Selector{{"text/" + texts[0]}}}
	}
	quoted := make([]string, len(texts))
	for i, t := range texts {
		b, _ := json.Marshal(t)
		quoted[i] = string(b)
	}
	return recorder.Step{Type: recorder.WaitForExpression, Target: "main",
		Expression: "[" + strings.Join(quoted, ", ") + "].some((t) => document.body.innerText.includes(t))"}
}
