package tools

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/devtools-mcp/devtools-mcp/internal/browser"
)

// slimTools are the three tools of --slim mode: the smallest useful surface
// for agents with tight context budgets.
func slimTools() []*Tool {
	return []*Tool{
		define(Tool{
			Name: "navigate", Description: "Loads a URL in the selected page and waits for it to load.",
			Category: CategoryNavigation, Scope: ScopeSelectedPage, Busy: browser.BusyInterrupts, Slim: true,
		}, slimNavigate),
		define(Tool{
			Name: "evaluate", Description: "Runs JavaScript in the selected page and returns its value as JSON. Promises are awaited.",
			Category: CategoryDebugging, Scope: ScopeSelectedPage, Busy: browser.BusyWaits, Slim: true, Guarded: true, RunsCallerCode: true,
		}, slimEvaluate),
		define(Tool{
			Name: "screenshot", Description: "Takes a PNG screenshot of the selected page's viewport.",
			Category: CategoryDebugging, Scope: ScopeSelectedPage, Slim: true,
		}, slimScreenshot),
	}
}

// slimNavigateArgs are navigate's arguments.
type slimNavigateArgs struct {
	URL string `json:"url" jsonschema:"URL to load"`
}

// slimNavigate runs navigate.
func slimNavigate(ctx context.Context, c *Call, args *slimNavigateArgs) error {
	if err := c.checkNavigation(ctx, args.URL); err != nil {
		return err
	}
	nav := browser.Navigation{URL: args.URL}
	blank, err := leavesUserTab(ctx, c, nav)
	if err != nil {
		return err
	}
	if err := c.Server.guardNavigation(ctx, "navigate", c.Page, nav); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	res, err := c.Page.Navigate(ctx, nav)
	adoptMoved(c, blank, err)
	return reportNavigation(c, res, err, fmt.Sprintf("Navigated to %s.", c.Page.Info().URL))
}

// slimEvaluateArgs are evaluate's arguments.
type slimEvaluateArgs struct {
	Script string `json:"script" jsonschema:"JavaScript expression or script to run"`
}

// slimEvaluate runs evaluate.
func slimEvaluate(ctx context.Context, c *Call, args *slimEvaluateArgs) error {
	limit := cmp.Or(c.Server.opts.ScriptTimeout, time.Minute)
	ectx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	v, err := c.Page.Evaluate(ectx, args.Script)
	if err != nil && errors.Is(ectx.Err(), context.DeadlineExceeded) && c.Page.StopIfBusy(ctx) {
		return fmt.Errorf("the script did not finish within --scriptTimeout (%d ms) and was stopped; the page is usable again", limit.Milliseconds())
	}
	if err != nil {
		return err
	}
	c.Resp.Linef("%s", valueJSON(v))
	return nil
}

// slimScreenshot runs screenshot.
func slimScreenshot(ctx context.Context, c *Call, _ *noArgs) error {
	png, err := c.Page.Screenshots().Screenshot(ctx, browser.ScreenshotParams{Format: "png", OptimizeForSpeed: true})
	if err != nil {
		return err
	}
	c.Resp.Image(png, "image/png")
	return nil
}

// valueJSON renders a value returned by value as JSON text, with JavaScript's
// own spelling for values JSON cannot hold (undefined, NaN, Infinity, 1n).
func valueJSON(v browser.RemoteObject) string {
	switch {
	case v.UnserializableValue != "":
		return v.UnserializableValue
	case len(v.Value) > 0:
		return string(v.Value)
	case v.Type == "undefined":
		return "undefined"
	case v.Subtype == "null":
		return "null"
	default:
		return v.Description
	}
}
