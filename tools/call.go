package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/devtools-mcp/devtools-mcp/internal/browser"
	"github.com/devtools-mcp/devtools-mcp/jsonrpc"
)

// A tool call goes through these steps, each a function below:
//
//  1. find: the tool by name (an unknown one is a protocol error);
//  2. check: the arguments against the schema, their bounds, and the
//     file paths among them against the roots;
//  3. prepare: the browser the session uses (launched or attached on
//     first use), and the notes of its first call or ended recordings;
//  4. hold: for page tools, the page acted on, usable, locked, watched
//     for a busy page or a dialog, and guarded when it is sensitive or
//     the user's;
//  5. the handler, filling the Response;
//  6. finish: the error named for the agent, the notes of downloads and
//     of refused tab closes, and the answer rendered;
//  7. the call's cleanups, last added first, once the answer is rendered
//     (a snapshot in it is CDP work on the page, under its lock).

// Call is what a handler gets besides its arguments: where to act and where
// to write the answer.
type Call struct {
	Server  *Server
	Browser *browser.Browser // nil for tools that need no browser
	Page    *browser.Page    // the page acted on, for page tools
	Resp    *Response

	// held is the page whose lock the call holds until its answer is
	// rendered (Page for page tools), nil when none.
	held *browser.Page
	// sess is the state of the MCP session the call runs in.
	sess *session
	// watched is the call's context once a page watch guards it: it ends
	// when the page turns busy or a dialog blocks it.
	watched context.Context
	// cleanup is what the call undoes once its answer is rendered.
	cleanup cleanups
}

// cleanups are the undo steps of a call (release the page's lock, end its
// watch, lift the user-tab guard), run last added first, so that each
// step's undo runs while what it built on still holds.
type cleanups []func()

// add appends an undo step.
func (c *cleanups) add(undo func()) { *c = append(*c, undo) }

// run runs the undo steps, last added first, and forgets them.
func (c *cleanups) run() {
	for _, undo := range slices.Backward(*c) {
		undo()
	}
	*c = nil
}

// CallTool validates the arguments, finds the browser and page the tool acts
// on, runs it, and renders its Response.
func (s *Server) CallTool(ctx context.Context, name string, args json.RawMessage) (res *jsonrpc.CallToolResult, _ error) {
	var c *Call
	defer func(began time.Time) { s.logCall(name, args, c, began, res) }(time.Now())
	t, err := s.find(name)
	if err != nil {
		return nil, err
	}
	parsed, err := s.check(ctx, t, args)
	if err != nil {
		return errorResult(fmt.Errorf("%s: %w", name, err)), nil
	}
	c = &Call{Server: s, Resp: &Response{}, sess: s.sessionFor(ctx)}
	defer c.cleanup.run()
	err = s.run(ctx, t, c, parsed)
	return s.finish(ctx, c, err)
}

// find returns the enabled tool called name.
func (s *Server) find(name string) (*Tool, error) {
	if t := s.byName[name]; t != nil {
		return t, nil
	}
	names := make([]string, len(s.tools))
	for i, t := range s.tools {
		names[i] = t.Name
	}
	return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown tool %q; available tools: %s", name, strings.Join(names, ", "))}
}

// check validates args against t's schema and bounds and confines the
// file paths among them, returning them decoded by name.
func (s *Server) check(ctx context.Context, t *Tool, args json.RawMessage) (map[string]json.RawMessage, error) {
	parsed, err := t.validate(args)
	if err != nil {
		return nil, err
	}
	if err := checkPathArgs(ctx, s.paths, t, parsed); err != nil {
		s.log.WarnContext(ctx, "refused a file path", "tool", t.Name, "err", err)
		return nil, err
	}
	return parsed, nil
}

// run prepares what t acts on and calls its handler.
func (s *Server) run(ctx context.Context, t *Tool, c *Call, args map[string]json.RawMessage) error {
	if t.Scope == ScopeNone {
		return t.run(ctx, c, encode(args))
	}
	if err := s.prepare(ctx, c); err != nil {
		return err
	}
	if t.Scope != ScopeBrowser {
		var err error
		ctx, err = s.hold(ctx, t, c, args)
		if c.Page != nil {
			defer c.Page.Input().CheckPresses(nil) // the guard's, if it set one
		}
		if err != nil {
			return err
		}
	}
	rec := s.prerecord(ctx, c, t.Name, args)
	err := t.run(ctx, c, encode(args))
	if err == nil {
		rec.commit(ctx, c)
	}
	return err
}

// prepare gets the browser of the call's session and adds the notes its
// first call on it, and recordings that ended, owe the agent.
func (s *Server) prepare(ctx context.Context, c *Call) error {
	b, err := c.sess.browsers.Get(ctx)
	if err != nil {
		return err
	}
	c.Browser = b
	if c.sess.lastBrowser.Swap(b) != b {
		// The first call on a browser says when it is older than the
		// supported versions; the server works with it all the same.
		if w := b.VersionWarning(); w != "" {
			c.Resp.Linef("%s", w)
		}
		if b.FirstPageID() > 1 {
			c.Resp.Linef("Note: the browser was restarted or reconnected since the last call, so page ids changed. Call list_pages to see the open pages.")
		}
	}
	endedRecordingNotes(c, b.EndedRecordings())
	return nil
}

// hold resolves the page a page tool acts on, takes its lock and watches
// it until the answer is rendered, and applies the guards. It returns the
// watched context the handler runs under.
func (s *Server) hold(ctx context.Context, t *Tool, c *Call, args map[string]json.RawMessage) (context.Context, error) {
	p, err := s.page(ctx, c.Browser, args)
	if err != nil {
		return ctx, err
	}
	if !t.AllowCrashed {
		if err := p.State().Usable(); err != nil {
			return ctx, err
		}
	}
	release, err := p.Lock(ctx)
	if err != nil {
		return ctx, err
	}
	c.cleanup.add(release)
	// The watch ends with the answer, which may take a snapshot.
	wctx, stop := p.Watch(ctx, t.Busy, !t.IgnoresDialog)
	c.cleanup.add(stop)
	c.watched = wctx
	c.Page, c.held = p, p
	if d := p.Dialog(); d != nil && !t.IgnoresDialog {
		return wctx, fmt.Errorf("a %s dialog is open on the page (%q) and blocks it; call handle_dialog to accept or dismiss it first", d.Type, c.pageText(d.Message))
	}
	if err := s.guard(wctx, t, p, args); err != nil {
		return wctx, err
	}
	return wctx, guardUserTab(wctx, c, t)
}

// finish names the call's error for the agent, adds the notes every
// answer carries, and renders the answer.
func (s *Server) finish(ctx context.Context, c *Call, err error) (*jsonrpc.CallToolResult, error) {
	callCtx := ctx
	if c.watched != nil {
		ctx = c.watched
		err = c.redactDialog(stoppedBy(ctx, err))
	}
	err = browserGone(callCtx, c, err)
	if err != nil {
		// An MCP 2026-07-28 confirmation still unanswered (input_required),
		// or one the client cannot show, is the protocol's answer, not
		// the tool's: the call has not acted.
		if jsonrpc.PassUp(err) {
			return nil, err
		}
		if errors.Is(err, browser.ErrBrowserGone) {
			err = fmt.Errorf("%w. %s", err, relaunchHint(c.attached()))
		}
		c.Resp.Error(err)
	}
	if c.Browser != nil {
		downloadNotes(c, c.Browser.FinishedDownloads())
	}
	leaveRefusals(c)
	return c.Resp.result(ctx, c), nil
}

// stoppedBy returns why ctx, a watched call's context, was cancelled when
// the page turned busy or a dialog blocked it: the reason to give instead
// of the interrupted command's err. Otherwise it returns err.
func stoppedBy(ctx context.Context, err error) error {
	var busy *browser.BusyError
	var dialog *browser.DialogError
	if cause := context.Cause(ctx); errors.As(cause, &busy) || errors.As(cause, &dialog) {
		return cause
	}
	return err
}

// browserGone names the cause of a call's failure when the browser's
// connection died during it: the commands waiting for Chrome then end with
// whatever came first, their context's cancellation as often as the closed
// connection, and "context canceled" would tell the agent nothing.
func browserGone(ctx context.Context, c *Call, err error) error {
	if err == nil || c.Browser == nil || c.Browser.Alive() || ctx.Err() != nil || errors.Is(err, browser.ErrBrowserGone) {
		return err
	}
	return fmt.Errorf("%w (%v)", browser.ErrBrowserGone, err)
}

// page resolves the pageId argument, or the selected page when it is absent.
func (s *Server) page(ctx context.Context, b *browser.Browser, args map[string]json.RawMessage) (*browser.Page, error) {
	raw, ok := args["pageId"]
	if !ok {
		return b.SelectedOrNew(ctx)
	}
	delete(args, "pageId")
	var id float64
	if err := json.Unmarshal(raw, &id); err != nil {
		return nil, fmt.Errorf("pageId must be a number from list_pages, got %s", raw)
	}
	return pageByID(b, id)
}

// pageByID finds the page an agent named by id.
func pageByID(b *browser.Browser, id float64) (*browser.Page, error) {
	if id != float64(int(id)) {
		return nil, fmt.Errorf("pageId must be a whole number from list_pages, got %v", id)
	}
	return b.Page(int(id))
}

// encode is the arguments as the handler decodes them.
func encode(args map[string]json.RawMessage) json.RawMessage {
	b, _ := json.Marshal(args)
	return b
}

// relaunchHint tells the agent what the next call will do after the browser
// went away.
func relaunchHint(attached bool) string {
	if attached {
		return "The next call reconnects; make sure Chrome is still running with remote debugging on"
	}
	return "The next call launches a new browser"
}

// errorResult is a tool error result carrying err's text.
func errorResult(err error) *jsonrpc.CallToolResult {
	return &jsonrpc.CallToolResult{IsError: true, Content: []jsonrpc.Content{jsonrpc.TextContent(err.Error())}}
}
