package browser

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// ErrLastPage is returned when closing the only open page: a browser with
// no page would leave the agent nothing to act on.
var ErrLastPage = errors.New("the last open page cannot be closed; open another with new_page first")

// contextID returns the browser context for an isolated context name,
// creating it on first use. Pages created with the same name share cookies
// and storage; different names share nothing.
func (b *Browser) contextID(ctx context.Context, name string) (string, error) {
	b.mu.Lock()
	id, ok := b.contexts[name]
	b.mu.Unlock()
	if ok {
		return id, nil
	}
	res, err := cdp.TargetCreateBrowserContext.Call(ctx, b.rootSession(), cdp.CreateBrowserContextParams{DisposeOnDetach: true})
	if err != nil {
		return "", fmt.Errorf("create isolated context %q: %w", name, err)
	}
	if err := b.denyDownloads(ctx, res.BrowserContextID); err != nil {
		return "", fmt.Errorf("create isolated context %q: %w", name, err)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if id, ok := b.contexts[name]; ok { // another call created it meanwhile
		return id, nil
	}
	b.contexts[name] = res.BrowserContextID
	return res.BrowserContextID, nil
}

// seesLocked reports whether the browser tracks pages of the browser
// context id: every context, or in a Scope's view only its own and the
// isolated contexts it created. b.mu must be held.
func (b *Browser) seesLocked(id string) bool {
	if b.ownContext == "" || id == b.ownContext {
		return true
	}
	for _, cid := range b.contexts {
		if cid == id {
			return true
		}
	}
	return false
}

// ContextName returns the isolated context name of p, or "" for the
// browser's default context.
func (b *Browser) ContextName(p *Page) string {
	id := p.Info().BrowserContextID
	b.mu.Lock()
	defer b.mu.Unlock()
	for name, cid := range b.contexts {
		if cid == id {
			return name
		}
	}
	return ""
}

// Related returns the open pages linked to p by openers, directly or
// through others, p included: as far as Chrome's targets tell, the pages of
// its browsing context group, whose scripts can reach one another
// (window.opener, window.open with a window's name).
func (b *Browser) Related(p *Page) []*Page {
	b.synced()
	b.mu.Lock()
	defer b.mu.Unlock()
	openers := map[string]string{} // target -> its opener, among open pages
	for id, q := range b.pages {
		q.mu.Lock()
		if o := q.info.OpenerID; o != "" && b.pages[o] != nil {
			openers[id] = o
		}
		q.mu.Unlock()
	}
	group := openerGroup(openers, p.TargetID)
	var out []*Page
	for _, q := range b.sortedLocked() {
		if group[q.TargetID] {
			out = append(out, q)
		}
	}
	return out
}

// openerGroup returns the targets linked to start through openers (target
// -> its opener), in either direction, start included.
func openerGroup(openers map[string]string, start string) map[string]bool {
	group := map[string]bool{start: true}
	for grew := true; grew; {
		grew = false
		for id, o := range openers {
			if group[id] != group[o] {
				group[id], group[o], grew = true, true, true
			}
		}
	}
	return group
}

// NewPage opens a blank tab, in the isolated context named isolatedContext
// when it is not empty, and selects it. background keeps the current tab in
// front.
func (b *Browser) NewPage(ctx context.Context, isolatedContext string, background bool) (*Page, error) {
	params := cdp.CreateTargetParams{URL: "about:blank", Background: background, BrowserContextID: b.ownContext}
	if isolatedContext != "" {
		id, err := b.contextID(ctx, isolatedContext)
		if err != nil {
			return nil, err
		}
		params.BrowserContextID = id
	}
	sctx, done, err := b.m.setupTurn(ctx, "open a page")
	if err != nil {
		return nil, err
	}
	defer done()
	res, err := cdp.TargetCreateTarget.Call(sctx, b.rootSession(), params)
	if err != nil {
		return nil, setupErr(sctx, fmt.Errorf("open a page: %w", err))
	}
	// Chrome announces the target before it answers.
	if err := b.targets.Sync(sctx); err != nil {
		b.closeTarget(ctx, res.TargetID)
		return nil, setupErr(sctx, fmt.Errorf("open a page: %w", err))
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	p := b.pages[res.TargetID]
	if p == nil {
		return nil, errors.New("open a page: Chrome created a tab but did not report it; call list_pages")
	}
	b.selected = p
	if !background {
		b.front.broughtToFront(p)
	}
	p.mu.Lock()
	p.owned = true
	p.mu.Unlock()
	return p, nil
}

// OpenPage opens a page for the agent (new_page) as NewPage does and sets
// it up, so that what remains is the navigation. In a Scope's view the
// view's first blank page is taken over instead while no call has used
// it, so that a client costs one renderer for its one page. When the
// set-up fails, the half-made page is closed and the page selected before
// stays selected.
func (b *Browser) OpenPage(ctx context.Context, isolatedContext string, background bool) (*Page, error) {
	if isolatedContext == "" {
		if p := b.takeInitial(); p != nil {
			if _, err := p.Session(ctx); err != nil {
				return nil, err
			}
			return p, nil
		}
	}
	prev := b.Selected()
	p, err := b.NewPage(ctx, isolatedContext, background)
	if err != nil {
		return nil, err
	}
	if err := b.setUp(ctx, p, prev); err != nil {
		return nil, err
	}
	return p, nil
}

// setUp attaches to p, a page NewPage just opened; when that fails it
// closes p and selects prev again, so that nothing half-made is left.
func (b *Browser) setUp(ctx context.Context, p, prev *Page) error {
	if _, err := p.Session(ctx); err != nil {
		b.discard(ctx, p, prev)
		return fmt.Errorf("%w; the new page was closed", err)
	}
	return nil
}

// takeInitial returns the view's first blank page, selected and the
// agent's, when no call has used it and it is still blank; at most once.
func (b *Browser) takeInitial() *Page {
	b.synced()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range b.pages {
		p.mu.Lock()
		take := p.initial && !p.used && !p.closed && p.info.URL == "about:blank"
		if take {
			p.initial, p.owned = false, true
		}
		p.mu.Unlock()
		if take {
			b.selected = p
			return p
		}
	}
	return nil
}

// discard closes p, a page NewPage opened whose set-up failed, and
// selects prev again when it is still open.
func (b *Browser) discard(ctx context.Context, p, prev *Page) {
	b.mu.Lock()
	if prev != nil && b.pages[prev.TargetID] == prev {
		b.selected = prev
	}
	b.mu.Unlock()
	b.closeTarget(ctx, p.TargetID)
	select {
	case <-p.gone:
	case <-time.After(5 * time.Second):
	}
}

// closeTarget closes a target the server opened, even when ctx has
// ended, so that nothing half-made is left behind.
func (b *Browser) closeTarget(ctx context.Context, targetID string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := cdp.TargetCloseTarget.Do(ctx, b.rootSession(), cdp.CloseTargetParams{TargetID: targetID}); err != nil {
		b.log.Debug("close a page whose set-up failed", "target", targetID, "err", err)
	}
}

// ClosePage closes p and waits until Chrome reports it gone, so that the
// page list is right afterwards. The last open page cannot be closed,
// except in a Scope's view: its pages are in a browser context of its own,
// so the browser keeps its windows, and a client that closes the one page
// new_page gave it (see OpenPage) frees the renderer until its next call
// that needs a page opens a blank one.
func (b *Browser) ClosePage(ctx context.Context, p *Page) error {
	if !b.view && len(b.Pages()) <= 1 {
		return ErrLastPage
	}
	// Chrome's own recorder loses its video with the page: save it first.
	if rec := p.Recorder().Current(); rec != nil {
		rec.end(ctx, "the page was closed", nil)
	}
	if s := p.sessions().currentSession(); s != nil {
		p.stopIfBusy(ctx, s)
	}
	if err := cdp.TargetCloseTarget.Do(ctx, b.rootSession(), cdp.CloseTargetParams{TargetID: p.TargetID}); err != nil {
		return fmt.Errorf("close page %d: %w", p.ID, err)
	}
	defer cdp.WaitClockFrom(ctx).Wait()()
	select {
	case <-p.gone:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("close page %d: Chrome did not confirm: %w", p.ID, ctx.Err())
	case <-time.After(5 * time.Second):
		return fmt.Errorf("close page %d: Chrome did not confirm within 5 s; call list_pages", p.ID)
	}
}

// BringToFront activates p's tab (focuses its window).
func (b *Browser) BringToFront(ctx context.Context, p *Page) error {
	if err := cdp.TargetActivateTarget.Do(ctx, b.rootSession(), cdp.ActivateTargetParams{TargetID: p.TargetID}); err != nil {
		return fmt.Errorf("bring page %d to front: %w", p.ID, err)
	}
	b.front.broughtToFront(p)
	return nil
}

// Refresh re-reads every page's title and URL from Chrome in one round trip.
// Chrome does not announce title changes, so lists shown to the agent are
// refreshed first.
func (b *Browser) Refresh(ctx context.Context) error {
	res, err := cdp.TargetGetTargets.Call(ctx, b.rootSession(), cdp.GetTargetsParams{})
	if err != nil {
		return fmt.Errorf("read page titles: %w", err)
	}
	// Info from events before the answer must not overwrite the fresher one.
	if err := b.targets.Sync(ctx); err != nil {
		return fmt.Errorf("read page titles: %w", err)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, info := range res.TargetInfos {
		if p := b.pages[info.TargetID]; p != nil {
			p.setInfo(info)
		}
	}
	return nil
}
