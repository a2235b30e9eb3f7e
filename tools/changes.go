package tools

import (
	"cmp"
	"context"
	"strings"

	"github.com/devtools-mcp/devtools-mcp/internal/browser"
	"github.com/devtools-mcp/devtools-mcp/snapshot"
)

// An action without includeSnapshot tells what it changed on the page, in
// the lines of a snapshot (uids the agent can act on next): the popup it
// opened (a dialog with its fields, a menu, a listbox, a tree item's
// children), what changed state, live regions' new messages, the popups it
// closed. It is told against the latest snapshot of the page, whichever
// tool took it, and only when the page said its DOM changed or its focus
// moved: an action that changed nothing costs no snapshot.
const (
	// changesMaxChars bounds the lines told; more says to take a snapshot.
	changesMaxChars = 4000
	// changesMaxNodes is the largest snapshot changes are told against:
	// beyond it the snapshot taken after each action would cost more
	// time than the agent saves.
	changesMaxNodes = 3000
)

// acting is what an action acts on, for telling its changes: the uids of
// the elements, and whether it sets their values (fill), which are then
// not told back.
type acting struct {
	uids      []string
	setsValue bool
}

// changes returns what the action changed, as a sentence on the elements
// acted on ("It is now expanded.") and the lines of the rest, "" for
// nothing. A failure to tell is logged, not the action's.
func changes(ctx context.Context, c *Call, on acting, rep browser.ActionReport) (own, rest string) {
	if rep.Unchanged || rep.Navigated != "" || rep.Dialog != nil {
		return "", ""
	}
	before := c.Page.Snapshots().Last()
	if before == nil || before.Root == nil || before.Count() > changesMaxNodes {
		return "", ""
	}
	after, err := c.Page.Snapshots().Snapshot(ctx, false)
	if err != nil {
		if c.Server != nil {
			c.Server.log.Debug("tell an action's changes", "page", c.Page.ID, "err", err)
		}
		return "", ""
	}
	if after.Root == nil || after.Root.UID != before.Root.UID {
		return "", "" // another document
	}
	ch := snapshot.Diff(before, after, on.uids, !on.setsValue)
	if len(ch.Own) > 0 {
		own = " It is now " + strings.Join(ch.Own, ", ") + "."
	}
	return own, strings.TrimSuffix(ch.Format(changesMaxChars), "\n")
}

// pageIDs returns the ids of the pages open now, nil without a browser.
func pageIDs(c *Call) map[int]bool {
	if c.Browser == nil {
		return nil
	}
	ids := map[int]bool{}
	for _, p := range c.Browser.Pages() {
		ids[p.ID] = true
	}
	return ids
}

// reportNewPages tells the pages that opened since had was read (a popup,
// a link to a new tab), which the agent selects with select_page.
func reportNewPages(c *Call, had map[int]bool) {
	if had == nil {
		return
	}
	for _, p := range c.Browser.Pages() {
		if !had[p.ID] {
			// Chrome announces a new tab before its URL, which follows
			// in a later event: an action that settles at once can
			// come first.
			url := cmp.Or(p.State().Info.URL, "its URL not known yet")
			c.Resp.Linef("The action opened page %d (%s); select_page with pageId %d acts in it.", p.ID, url, p.ID)
		}
	}
}
