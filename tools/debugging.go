package tools

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/devtools-mcp/devtools-mcp/internal/browser"
)

// dialogAnswer turns evaluate_script's dialogAction into answers: accept
// (the default), dismiss, or any other text to accept a prompt with.
func dialogAnswer(action string) browser.DialogAnswer {
	return func(d browser.DialogOpening) (bool, string) {
		switch action {
		case "", "accept":
			return true, d.DefaultPrompt
		case "dismiss":
			return false, ""
		}
		return true, action
	}
}

func debuggingTools() []*Tool {
	return []*Tool{
		define(Tool{
			Name: "take_snapshot", Description: "Returns the page as an accessibility-tree text with a uid per element, to act on by uid. Prefer it to screenshots.",
			Category: CategoryDebugging, Scope: ScopePage,
		}, takeSnapshot),
		define(Tool{
			Name: "evaluate_script", Description: "Calls a JavaScript function in the page (elements from snapshot uids as arguments) and returns its result as JSON; DOM elements in it come back as uids. Promises are awaited.",
			Category: CategoryDebugging, Scope: ScopePage, Busy: browser.BusyWaits, Guarded: true, RunsCallerCode: true,
		}, evaluateScript),
	}
}

// takeSnapshotArgs are take_snapshot's arguments.
type takeSnapshotArgs struct {
	Verbose  bool   `json:"verbose,omitempty" jsonschema:"Keep every node, not only the interesting ones."`
	FilePath string `json:"filePath,omitempty" path:"" jsonschema:"Save the whole snapshot to this file instead of returning it."`
	UID      string `json:"uid,omitempty" jsonschema:"Only the subtree of this element."`
	MaxChars int    `json:"maxChars,omitempty" bound:"count" jsonschema:"Cut the snapshot at a node boundary after this many characters (default 60000)."`
}

// takeSnapshot runs take_snapshot.
func takeSnapshot(ctx context.Context, c *Call, args *takeSnapshotArgs) error {
	c.Resp.snapshot = &snapshotRequest{verbose: args.Verbose, uid: args.UID, maxChars: cmp.Or(args.MaxChars, defaultSnapshotChars), filePath: args.FilePath}
	return nil
}

// evaluateScriptArgs are evaluate_script's arguments.
type evaluateScriptArgs struct {
	Function         string   `json:"function,omitempty" jsonschema:"Function declaration, e.g. () => document.title or (el) => el.innerText."`
	SourcePath       string   `json:"sourcePath,omitempty" path:"" jsonschema:"Read the code from this file instead of function."`
	Format           string   `json:"format,omitempty" enum:"function,script" jsonschema:"function (default), or script: a plain script whose last expression is the result."`
	Args             []string `json:"args,omitempty" jsonschema:"uids of elements passed to the function as arguments."`
	FilePath         string   `json:"filePath,omitempty" path:"" jsonschema:"Save the result to this file instead of returning it."`
	DialogAction     string   `json:"dialogAction,omitempty" jsonschema:"For dialogs the script opens: accept (default), dismiss, or a prompt's answer."`
	WaitForStableDom optBool  `json:"waitForStableDom,omitempty" jsonschema:"Wait for the DOM to settle afterwards (default true); false for reads."`
	ServiceWorkerID  string   `json:"serviceWorkerId,omitempty" jsonschema:"Run the function in this extension service worker (its id from list_pages, e.g. sw-1) instead of the page; args cannot be used there."`
}

// evaluateScript runs evaluate_script.
func evaluateScript(ctx context.Context, c *Call, args *evaluateScriptArgs) error {
	code := args.Function
	if args.SourcePath != "" {
		data, err := c.readFile(ctx, "sourcePath", args.SourcePath)
		if err != nil {
			return fmt.Errorf("sourcePath: %w", err)
		}
		code = string(data)
	}
	if strings.TrimSpace(code) == "" {
		return errors.New("evaluate_script needs a function (e.g. () => document.title) or a sourcePath")
	}
	if args.ServiceWorkerID != "" {
		return evaluateInServiceWorker(ctx, c, args, code)
	}
	sc := browser.Script{Function: code}
	if args.Format == "script" {
		sc = browser.Script{Source: code}
	}
	for _, uid := range args.Args {
		e, err := c.Page.Snapshots().Element(ctx, uid)
		if err != nil {
			return err
		}
		sc.Args = append(sc.Args, e)
	}
	// --scriptTimeout bounds the script and the wait for its effects: a
	// timer it leaves looping keeps the page from answering too.
	limit := cmp.Or(c.Server.opts.ScriptTimeout, time.Minute)
	sctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	var out string
	var evalErr error
	ran := false
	rep, err := c.Page.ActAnswering(sctx, dialogAnswer(args.DialogAction), args.WaitForStableDom.or(true), func(ctx context.Context) error {
		out, evalErr = c.Page.EvaluateJSON(ctx, sc)
		ran = evalErr == nil
		return evalErr
	})
	if err != nil && evalErr != nil {
		// The script's own error says more than the deadline that ended
		// the wait for it (ActAnswering returns once its script has).
		err = evalErr
	}
	if err != nil && ran && errors.Is(sctx.Err(), context.DeadlineExceeded) && c.Page.StopIfBusy(ctx) {
		c.Resp.Linef("Script ran on page and returned:\n```json\n%s\n```", out)
		return fmt.Errorf("the script returned, but then the page was busy until --scriptTimeout (%d ms) ran out: a timer or handler it started does not yield. That script was stopped; the page is usable again", limit.Milliseconds())
	}
	if err != nil {
		report(c, rep)
		return err
	}
	if args.FilePath != "" {
		if err := c.writeFile(ctx, "filePath", args.FilePath, []byte(out)); err != nil {
			return err
		}
		c.Resp.Linef("Saved the script's result (%d bytes of JSON) to %s.", len(out), args.FilePath)
	} else {
		c.Resp.Linef("Script ran on page and returned:\n```json\n%s\n```", out)
	}
	report(c, rep)
	return nil
}

// evaluateInServiceWorker runs evaluate_script's function in the extension
// service worker args names. A worker has no DOM, so there is no element
// argument and nothing to settle afterwards.
func evaluateInServiceWorker(ctx context.Context, c *Call, args *evaluateScriptArgs, code string) error {
	switch {
	case len(args.Args) > 0:
		return errors.New("args (element uids) cannot be used in a service worker, which has no DOM")
	case args.Format == "script":
		return errors.New("format=script cannot be used in a service worker; pass a function")
	case c.attached() && !c.Server.opts.Guard.CloseUserTabs:
		// An attached browser's extensions are the user's (install_extension
		// is refused there), and a script in their worker has their
		// powers: chrome.tabs can close or navigate every tab.
		return fmt.Errorf("service worker %s belongs to one of your own extensions, not installed by the agent, and a script there has the extension's powers over every tab (chrome.tabs can close or navigate them); start the server with --allowCloseUserTabs to allow it", args.ServiceWorkerID)
	}
	ctx, cancel := context.WithTimeout(ctx, cmp.Or(c.Server.opts.ScriptTimeout, time.Minute))
	defer cancel()
	out, err := c.Browser.EvaluateInServiceWorker(ctx, args.ServiceWorkerID, code)
	if err != nil {
		return err
	}
	if args.FilePath != "" {
		if err := c.writeFile(ctx, "filePath", args.FilePath, []byte(out)); err != nil {
			return err
		}
		c.Resp.Linef("Saved the script's result (%d bytes of JSON) to %s.", len(out), args.FilePath)
		return nil
	}
	c.Resp.Linef("Script ran in service worker %s and returned:\n```json\n%s\n```", args.ServiceWorkerID, out)
	return nil
}
