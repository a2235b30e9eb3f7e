package browser

import (
	"context"
	"fmt"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// PageState is a page's lifecycle as the target events received so far
// tell it, read at once: a caller that needs several of its fields waits
// for the target events once, and sees them consistent.
type PageState struct {
	ID   int            // the page's id
	Info cdp.TargetInfo // title, URL, ...: after a navigation, the new URL
	// Owned says the agent opened the page (with new_page, or as a popup
	// of a page it opened or that its call on a user's tab opened), as
	// opposed to a tab of the user's.
	Owned bool
	// Crashed is the crash status when the renderer crashed, else "".
	Crashed string
	Closed  bool // the page was closed
}

// Usable returns an error when the page cannot take commands: it was
// closed or its renderer crashed. The error says how to recover.
func (s PageState) Usable() error {
	switch {
	case s.Closed:
		return fmt.Errorf("page %d was closed; call list_pages to see the open pages", s.ID)
	case s.Crashed != "":
		return fmt.Errorf("page %d crashed (%s); reload it with navigate_page type=reload, or close it with close_page", s.ID, s.Crashed)
	}
	return nil
}

// State returns the page's state once the target events received so far
// are handled. It waits for the target events' handler, so that handler
// must not call it (it panics there, see Browser.synced); it reads
// p.state().
func (p *Page) State() PageState {
	p.browser.synced()
	return p.state()
}

// Info is State().Info, for callers that need nothing else.
func (p *Page) Info() cdp.TargetInfo { return p.State().Info }

// state is State without waiting for the target events, for their handler.
func (p *Page) state() PageState {
	p.mu.Lock()
	defer p.mu.Unlock()
	return PageState{ID: p.ID, Info: p.info, Owned: p.owned, Crashed: p.crashed, Closed: p.closed}
}

// Adopt makes a tab of the user's the agent's, as if new_page had opened
// it, once the target events received so far are handled (like State, not
// from their handler). Callers adopt a Blank tab once the agent's
// navigation reached it.
// The page then emulates focus as the agent's pages do (see agentsPage).
func (p *Page) Adopt() {
	p.browser.synced()
	p.mu.Lock()
	owned, s := p.owned, p.session
	p.owned = true
	p.mu.Unlock()
	if owned || s == nil || p.browser.ownsWindows() {
		return
	}
	// Not the call's context: a navigation that timed out adopts too.
	ctx, cancel := context.WithTimeout(p.browser.bg.ctx, probeFor)
	defer cancel()
	if err := s.Pipeline(ctx, focusEmulation); err != nil {
		p.browser.log.Debug("emulate focus on an adopted tab", "target", p.TargetID, "err", err)
	}
}

func (p *Page) setInfo(info cdp.TargetInfo) {
	p.mu.Lock()
	p.info = info
	p.mu.Unlock()
}

// setCrashed records the renderer's crash status; "" clears it after a
// navigation brought the page back.
func (p *Page) setCrashed(status string) {
	p.mu.Lock()
	p.crashed = status
	p.mu.Unlock()
}
