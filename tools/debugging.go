package tools

import (
	"context"
	"errors"
)

func debuggingTools() []*Tool {
	return []*Tool{
		define(Tool{
			Name: "evaluate_script", Description: "Calls a JavaScript function in the page and returns its result as JSON. Promises are awaited.",
			Category: CategoryDebugging, Scope: ScopePage,
		}, func(ctx context.Context, c *Call, args *struct {
			Function string `json:"function,omitempty" jsonschema:"A function declaration, e.g. () => document.title or async () => (await fetch('/api')).status."`
		}) error {
			if args.Function == "" {
				return errors.New("evaluate_script needs a function, e.g. () => document.title")
			}
			v, err := c.Page.Evaluate(ctx, "("+args.Function+"\n)()")
			if err != nil {
				return err
			}
			c.Resp.Linef("Script ran on page and returned:\n```json\n%s\n```", valueJSON(v))
			return nil
		}),
	}
}
