package browser

import (
	"context"
	"sync"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// front tracks which of a browser's pages is its window's front tab, so
// that an input action can bring its page there first. Focus emulation
// (see attachTurn) has every page draw as if it were in front, but what a
// tab in the background draws is never shown, and after a few frames no
// display took, Chrome sends it one frame a second: the mouse move of a
// click or a hover, which the page receives at its next frame, then took
// up to a second on the opener of a third popup. A person brings a tab to
// the front before clicking in it; so does the agent's action, in a
// browser that is the agent's (launched, from a grid, a Scope's own
// context), not in the user's browser the server attached to.
type front struct {
	mu sync.Mutex
	// id is the target id of the page last brought to the front (the
	// browser's first page, one new_page opened in front, one activated);
	// "" when unknown: a page opened (a popup or a new tab takes the
	// front, a background one does not) or closed (Chrome picks another)
	// since.
	id string
}

// moved records that a page opened or closed: which tab is in front is
// no longer known.
func (f *front) moved() {
	f.mu.Lock()
	f.id = ""
	f.mu.Unlock()
}

// broughtToFront records that p was activated.
func (f *front) broughtToFront(p *Page) {
	f.mu.Lock()
	f.id = p.TargetID
	f.mu.Unlock()
}

// inFront reports whether p is known to be the front tab.
func (f *front) inFront(p *Page) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.id == p.TargetID
}

// focusEmulation has a page act as the one in front (as the reference does
// for every page), drawn even while another tab is: a page in the
// background draws no frames, and Chrome holds a mouse move there until it
// gives up waiting for one, 5 s later, so every click and hover on a page
// whose popup took the front was that slow.
var focusEmulation = cdp.EmulationSetFocusEmulationEnabled.With(cdp.SetFocusEmulationEnabledParams{Enabled: true})

// agentsPage reports whether the page is the agent's, so that it emulates
// focus from its set-up: every page of a browser that is the agent's, and
// in the user's browser the pages the agent opened (or adopted), not the
// user's own tabs. A tab of the user's that emulates focus tells its
// scripts it is visible and focused while the user looks elsewhere (a mail
// or chat page then marks what arrives as seen and holds back its
// notifications), and it gets hover updates in the background, so that
// emulate's viewport change could fire a hover handler under the pointer
// the agent left there: its tabs keep the state the user's Chrome gives
// them.
func (p *Page) agentsPage() bool { return p.browser.ownsWindows() || p.state().Owned }

// ownsWindows reports whether the browser's windows are the agent's, so
// that its actions may switch their tabs.
func (b *Browser) ownsWindows() bool { return b.proc != nil || b.wd != nil || b.view }

// toFront brings p to the front of its window before an input action,
// unless it is known to be there or the browser is the user's. A failure
// is only logged: the action still works, more slowly.
func (p *Page) toFront(ctx context.Context) {
	b := p.browser
	if !b.ownsWindows() || b.front.inFront(p) {
		return
	}
	if err := cdp.TargetActivateTarget.Do(ctx, b.rootSession(), cdp.ActivateTargetParams{TargetID: p.TargetID}); err != nil {
		b.log.Debug("bring the page to the front for an action", "target", p.TargetID, "err", err)
		return
	}
	b.front.broughtToFront(p)
}
