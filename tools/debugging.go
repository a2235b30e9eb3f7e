package tools

import (
	"cmp"
	"context"
	"errors"
)

func debuggingTools() []*Tool {
	return []*Tool{
		define(Tool{
			Name: "take_snapshot", Description: "Returns the page as an accessibility-tree text with a uid per element, to act on by uid. Prefer it to screenshots.",
			Category: CategoryDebugging, Scope: ScopePage,
		}, func(ctx context.Context, c *Call, args *struct {
			Verbose  bool   `json:"verbose,omitempty" jsonschema:"Keep every node, not only the interesting ones."`
			FilePath string `json:"filePath,omitempty" jsonschema:"Save the whole snapshot to this file instead of returning it."`
			UID      string `json:"uid,omitempty" jsonschema:"Only the subtree of this element."`
			MaxChars int    `json:"maxChars,omitempty" jsonschema:"Cut the snapshot at a node boundary after this many characters (default 60000)."`
		}) error {
			c.Resp.snapshot = &snapshotRequest{verbose: args.Verbose, uid: args.UID, maxChars: cmp.Or(args.MaxChars, defaultSnapshotChars), filePath: args.FilePath}
			return nil
		}),
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
