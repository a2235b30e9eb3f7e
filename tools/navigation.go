package tools

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/devtools-mcp/devtools-mcp/internal/browser"
)

// defaultTimeout bounds navigations and waits when the agent gives no
// timeout; maxTimeout is the longest an agent may ask for.
const (
	defaultTimeout = 10 * time.Second
	maxTimeout     = 10 * time.Minute
)

// withTimeout bounds ctx by ms milliseconds, or when ms <= 0 by
// defaultTimeout times slowdown (loads take longer under emulated
// throttling).
func withTimeout(ctx context.Context, ms int, slowdown float64) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, timeoutFor(ms, slowdown))
}

// timeoutFor is the bound withTimeout applies.
func timeoutFor(ms int, slowdown float64) time.Duration {
	if ms > 0 {
		return time.Duration(ms) * time.Millisecond
	}
	return time.Duration(float64(defaultTimeout) * slowdown)
}

// loadSlowdown is how many times longer than normal loads take on p under
// its emulated network and CPU throttling.
func loadSlowdown(p *browser.Page) float64 {
	load, _ := p.Emulator().Current().Slowdown()
	return load
}

// reportNavigation says how a navigation ended, as reportLoad does, and
// then what the page emulates, which the new document got.
func reportNavigation(c *Call, res browser.NavigationResult, err error, done string) error {
	loaded, err := reportLoad(c, res, err, done)
	if loaded {
		if emu := c.Page.Emulator().Summary(); emu != "" {
			c.Resp.Linef("%s", emu)
		}
	}
	return err
}

// reportLoad says how a navigation ended: a beforeunload dialog handled on
// the way, and a timeout as a plain statement rather than a failure, since
// the page keeps what it loaded. loaded reports that done was said.
func reportLoad(c *Call, res browser.NavigationResult, err error, done string) (loaded bool, _ error) {
	switch res.BeforeUnload {
	case "accepted":
		c.Resp.Linef("Accepted a beforeunload dialog.")
	case "dismissed":
		c.Resp.Linef("Dismissed a beforeunload dialog; the page stayed at %s.", c.Page.Info().URL)
		return false, nil
	}
	if errors.Is(err, browser.ErrNavigationTimeout) {
		c.Resp.Linef("Navigation timed out: the page did not finish loading in time and keeps what it loaded so far (now at %s); pass a longer timeout (in milliseconds) to wait longer.", c.Page.Info().URL)
		return false, nil
	}
	if err != nil {
		return false, err
	}
	c.Resp.Linef("%s", done)
	return true, nil
}

func navigationTools() []*Tool {
	return []*Tool{
		define(Tool{
			Name: "list_pages", Description: "Lists the pages open in the browser; the selected one is marked.",
			Category: CategoryNavigation, ReadOnly: true, Scope: ScopeBrowser,
		}, listPages),
		define(Tool{
			Name: "select_page", Description: "Selects the page that later tool calls act on by default.",
			Category: CategoryNavigation, ReadOnly: true, Scope: ScopeBrowser,
		}, selectPage),
		define(Tool{
			Name: "close_page", Description: "Closes a page. The last open page cannot be closed.",
			Category: CategoryNavigation, Scope: ScopeBrowser,
		}, closePage),
		define(Tool{
			Name: "new_page", Description: "Opens a new tab, loads a URL in it and selects it.",
			Category: CategoryNavigation, Scope: ScopeBrowser,
		}, newPage),
		define(Tool{
			Name: "navigate_page", Description: "Loads a URL in the page, or goes back, forward, or reloads; waits for the load.",
			Category: CategoryNavigation, Scope: ScopePage, Busy: browser.BusyInterrupts, AllowCrashed: true,
		}, navigatePage),
		define(Tool{
			Name: "wait_for", Description: "Waits until any of the given texts appears on the page.",
			Category: CategoryNavigation, ReadOnly: true, Scope: ScopePage,
		}, waitFor),
		define(Tool{
			Name: "get_tab_id", Description: "Tells the Chrome tab id of a page (the tab target that holds it), for extensions and other tools that drive the same browser.",
			Category: CategoryNavigation, ReadOnly: true, Scope: ScopePage, IgnoresDialog: true, Condition: ConditionInteropTools,
		}, getTabID),
	}
}

// getTabID runs get_tab_id.
func getTabID(ctx context.Context, c *Call, _ *noArgs) error {
	tab, err := c.Browser.TabOf(ctx, c.Page)
	if err != nil {
		return fmt.Errorf("find the tab of page %d: %w", c.Page.ID, err)
	}
	c.Resp.Linef("Tab ID: %s", tab)
	c.Resp.Set("tabId", tab)
	return nil
}

// listPages runs list_pages.
func listPages(ctx context.Context, c *Call, _ *noArgs) error {
	c.Resp.IncludePages()
	c.Resp.IncludePageTools()
	if !c.Server.opts.categoryOn(CategoryExtensions) {
		return nil
	}
	// With the extensions category, the workers evaluate_script's
	// serviceWorkerId names, as the reference lists them.
	workers, err := c.Browser.ExtensionServiceWorkers(ctx)
	if err != nil {
		return err
	}
	if len(workers) > 0 {
		c.Resp.Linef("## Extension Service Workers")
		for _, w := range workers {
			c.Resp.Linef("%s: %s", w.ID, w.URL)
		}
	}
	return nil
}

// selectPageArgs are select_page's arguments.
type selectPageArgs struct {
	PageID       float64 `json:"pageId" bound:"pageId" jsonschema:"The page to select (see list_pages)."`
	BringToFront bool    `json:"bringToFront,omitempty" jsonschema:"Also focus the page and bring it to the top."`
}

// selectPage runs select_page.
func selectPage(ctx context.Context, c *Call, args *selectPageArgs) error {
	p, err := pageByID(c.Browser, args.PageID)
	if err != nil {
		return err
	}
	c.Browser.Select(p)
	c.Resp.IncludePages()
	c.Resp.IncludePageTools()
	if args.BringToFront {
		return c.Browser.BringToFront(ctx, p)
	}
	return nil
}

// closePageArgs are close_page's arguments.
type closePageArgs struct {
	PageID float64 `json:"pageId" bound:"pageId" jsonschema:"The page to close (see list_pages)."`
}

// closePage runs close_page.
func closePage(ctx context.Context, c *Call, args *closePageArgs) error {
	c.Resp.IncludePages()
	c.Resp.IncludePageTools()
	p, err := pageByID(c.Browser, args.PageID)
	if err != nil {
		return err
	}
	if userTab(c, p) {
		return fmt.Errorf("page %d is one of your own tabs, not opened by the agent; close it yourself, or start the server with --allowCloseUserTabs", p.ID)
	}
	wasSelected := c.Browser.Selected() == p
	if err := c.Browser.ClosePage(ctx, p); err != nil {
		return err
	}
	if now := c.Browser.Selected(); wasSelected && now != nil {
		c.Resp.Linef("Note: the closed page was the selected one; page %d is now selected.", now.ID)
	}
	return nil
}

// userTab reports whether p is a tab of an attached browser that the agent
// did not open and may not close or lead away (--allowCloseUserTabs lifts
// it).
func userTab(c *Call, p *browser.Page) bool {
	return c.attached() && !p.State().Owned && !c.Server.opts.Guard.CloseUserTabs
}

// leavesUserTab refuses a navigation that takes one of the user's tabs away
// from what it shows; a reload stays, without an initScript. A blank tab (browser.Page.Blank) may
// be navigated: blank reports it, and the caller adopts the tab once the
// navigation reached it (adoptMoved), not before the other guards ran.
func leavesUserTab(ctx context.Context, c *Call, nav browser.Navigation) (blank bool, err error) {
	if !userTab(c, c.Page) {
		return false, nil
	}
	if nav.Type == "reload" {
		if nav.InitScript != "" {
			// It would run before the page's scripts in the reloaded
			// document, where the leave guard (guardUserTab) is not.
			return false, fmt.Errorf("page %d is one of your own tabs, not opened by the agent, and an initScript would run in it unguarded; reload without one, open a page of the agent's with new_page, or start the server with --allowCloseUserTabs", c.Page.ID)
		}
		return false, nil
	}
	if nav.Type == "" || nav.Type == "url" {
		blank, err := c.Page.Blank(ctx)
		if err != nil {
			return false, err
		}
		if blank {
			return true, nil
		}
	}
	return false, fmt.Errorf("page %d is one of your own tabs, not opened by the agent; navigate it yourself, open a page of the agent's with new_page, or start the server with --allowCloseUserTabs", c.Page.ID)
}

// adoptMoved makes the blank user tab the agent's when the navigation that
// leavesUserTab let through left it: it loaded, timed out loading, or shows
// Chrome's error page (the tab is no longer blank, so the agent could not
// try again otherwise). A navigation refused before it reached Chrome
// leaves the tab the user's.
func adoptMoved(c *Call, blank bool, err error) {
	var failed *browser.NavigationError
	if blank && (err == nil || errors.As(err, &failed) || errors.Is(err, browser.ErrNavigationTimeout)) {
		c.Page.Adopt()
	}
}

// newPageArgs are new_page's arguments.
type newPageArgs struct {
	URL             string `json:"url" jsonschema:"URL to load in the new page."`
	Background      bool   `json:"background,omitempty" jsonschema:"Open without bringing it to the front."`
	IsolatedContext string `json:"isolatedContext,omitempty" jsonschema:"Name of an isolated browser context: pages with the same name share cookies and storage, different names share nothing."`
	Timeout         int    `json:"timeout,omitempty" bound:"timeout" jsonschema:"Maximum wait for the navigation in milliseconds; 0 or omitted means 10000."`
}

// newPage runs new_page.
func newPage(ctx context.Context, c *Call, args *newPageArgs) error {
	// Refused before a tab is opened for it.
	if err := c.checkNavigation(ctx, args.URL); err != nil {
		return err
	}
	c.Resp.IncludePages()
	c.Resp.IncludePageTools()
	// The timeout is the navigation's, as the reference's is: opening and
	// setting the page up queue behind other sessions' and have their own
	// bound (browser.PageSetupLimit).
	p, err := c.Browser.OpenPage(ctx, args.IsolatedContext, args.Background)
	if err != nil {
		return err
	}
	unlock, err := p.Lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	c.Page = p
	ctx, cancel := withTimeout(ctx, args.Timeout, 1)
	defer cancel()
	res, err := p.Navigate(ctx, browser.Navigation{URL: args.URL, Prepare: c.Server.prepares()})
	return reportNavigation(c, res, err, fmt.Sprintf("Opened page %d.", p.ID))
}

// navigatePageArgs are navigate_page's arguments.
type navigatePageArgs struct {
	Type               string `json:"type,omitempty" enum:"url,back,forward,reload" jsonschema:"url (default when url is given), back, forward or reload."`
	URL                string `json:"url,omitempty" jsonschema:"URL to load (type url)."`
	IgnoreCache        bool   `json:"ignoreCache,omitempty" jsonschema:"Reload without the HTTP cache."`
	HandleBeforeUnload string `json:"handleBeforeUnload,omitempty" enum:"accept,dismiss" jsonschema:"Answer to a 'leave site?' dialog; default accept."`
	InitScript         string `json:"initScript,omitempty" jsonschema:"JavaScript run before any page script, for the next document only."`
	Timeout            int    `json:"timeout,omitempty" bound:"timeout" jsonschema:"Maximum wait in milliseconds; 0 or omitted means 10000, longer when throttled."`
}

// navigatePage runs navigate_page.
func navigatePage(ctx context.Context, c *Call, args *navigatePageArgs) error {
	c.Resp.IncludePages()
	c.Resp.IncludePageTools()
	nav := browser.Navigation{Type: args.Type, URL: args.URL, IgnoreCache: args.IgnoreCache,
		DismissBeforeUnload: args.HandleBeforeUnload == "dismiss", InitScript: args.InitScript, Prepare: c.Server.prepares()}
	switch {
	case nav.Type == "" && nav.URL == "":
		return errors.New("navigate_page needs a url, or a type: back, forward or reload")
	case (nav.Type == "" || nav.Type == "url") && nav.URL == "":
		return errors.New("navigate_page type=url needs a url")
	}
	if nav.URL != "" {
		if err := c.checkNavigation(ctx, nav.URL); err != nil {
			return err
		}
	}
	blank, err := leavesUserTab(ctx, c, nav)
	if err != nil {
		return err
	}
	if err := c.Server.guardNavigation(ctx, "navigate_page", c.Page, nav); err != nil {
		return err
	}
	ctx, cancel := withTimeout(ctx, args.Timeout, loadSlowdown(c.Page))
	defer cancel()
	res, err := c.Page.Navigate(ctx, nav)
	adoptMoved(c, blank, err)
	if unable := navigationFailure(nav.Type, err); unable != "" {
		// A prompt written for the reference expects the failure as
		// the answer's text, not as a tool error: the page is still
		// there, showing Chrome's error page.
		c.Resp.Linef("%s", unable)
		return nil
	}
	done := map[string]string{
		"": "Navigated to %s.", "url": "Navigated to %s.", "back": "Went back to %s.",
		"forward": "Went forward to %s.", "reload": "Reloaded %s.",
	}[nav.Type]
	return reportNavigation(c, res, err, fmt.Sprintf(done, c.Page.Info().URL))
}

// navigationFailure is what navigate_page says, in the reference's words,
// when err is a navigation Chrome refused or a history move with nowhere
// to go; "" for other errors.
func navigationFailure(typ string, err error) string {
	var failed *browser.NavigationError
	switch {
	case errors.As(err, &failed):
		return fmt.Sprintf("Unable to navigate in the selected page: %s at %s.", failed.Reason, failed.URL)
	case errors.Is(err, browser.ErrNoHistory):
		return fmt.Sprintf("Unable to navigate %s in the selected page: %s.", typ, strings.TrimPrefix(err.Error(), browser.ErrNoHistory.Error()+": "))
	}
	return ""
}

// waitForArgs are wait_for's arguments.
type waitForArgs struct {
	Text    []string `json:"text" jsonschema:"Texts to wait for; resolves when any one appears."`
	Timeout int      `json:"timeout,omitempty" bound:"timeout" jsonschema:"Maximum wait in milliseconds; 0 or omitted means 10000, longer when throttled."`
}

// waitFor runs wait_for.
func waitFor(ctx context.Context, c *Call, args *waitForArgs) error {
	if len(args.Text) == 0 {
		return errors.New("wait_for needs at least one text")
	}
	limit := timeoutFor(args.Timeout, loadSlowdown(c.Page))
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	found, err := c.Page.WaitForText(ctx, args.Text)
	if errors.Is(err, browser.ErrTextNotFound) {
		return waitTimeoutError{after: limit, texts: args.Text}
	}
	if err != nil {
		return err
	}
	c.Resp.Linef("Found %q on the page.", found)
	// The agent's next step is usually to act on what appeared: the
	// snapshot gives it the uids, as the reference's answer does.
	c.Resp.IncludeSnapshot(false)
	return nil
}

// waitTimeoutError is wait_for's failure when none of the texts appeared.
// It opens with the words the reference's timeout has ("Timed out after
// waiting 1000ms"), which prompts written for it look for.
type waitTimeoutError struct {
	after time.Duration
	texts []string
}

func (e waitTimeoutError) Error() string {
	return fmt.Sprintf("Timed out after waiting %dms: none of %q appeared on the page.", e.after.Milliseconds(), e.texts)
}

// guardUserTab keeps one of the user's tabs from being closed or led away
// by a tool that changes it (a Guarded one: scripts, clicks, keys), until
// the call's cleanups run, once the answer is rendered, and a grace period
// after (see browser.Page.GuardLeaving). navigate_page and navigate are
// not Guarded: they refuse leading a user's tab away themselves. A tool
// that answers an open dialog cannot arm it (the page waits for the
// answer): handle_dialog refuses accepting a "leave site?" one instead.
//
// The user's tabs related to the page by openers are guarded too, whoever's
// the page is, by every tool that is not read-only (navigate_page's
// initScript runs in the page it loads): a popup the agent opened from a
// user's tab, and that tab itself, can lead the other's tabs away through
// window.opener or window.open with a window's name.
func guardUserTab(ctx context.Context, c *Call, t *Tool) error {
	if t.ReadOnly || !c.attached() || c.Server.opts.Guard.CloseUserTabs {
		return nil
	}
	for _, p := range c.Browser.Related(c.Page) {
		if !userTab(c, p) || p.Dialog() != nil || (p == c.Page && !t.Guarded) {
			continue
		}
		stop, err := p.GuardLeaving(ctx)
		if err != nil {
			return err // the guards armed so far are the call's cleanups
		}
		c.cleanup.add(stop)
	}
	return nil
}

// leaveRefusals adds to the answer the closes and navigations of the
// user's tabs the guard refused, during this call or after the last one.
func leaveRefusals(c *Call) {
	if c.Browser == nil || !c.attached() {
		return
	}
	for _, p := range c.Browser.Pages() {
		for _, r := range p.LeaveRefusals() {
			c.Resp.Linef("%s", r)
		}
	}
}

// prepares reports whether navigations get the new document ready for a
// snapshot (browser.Navigation.Prepare), which makes our isolated world
// in it: not when the heap snapshot analysis tools are on, so that a heap
// snapshot taken after a navigation shows the page's own contexts only.
func (s *Server) prepares() bool {
	return !s.opts.Conditions[ConditionMemoryDebugging]
}
