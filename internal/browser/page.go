package browser

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/devtools-mcp/devtools-mcp/cdp"
	"github.com/devtools-mcp/devtools-mcp/snapshot"
)

// Page is one tab or popup. Its id is stable for its lifetime and never
// reused. The CDP session is attached only when a tool first acts on the page.
//
// Page's own methods are its core: identity and target info, the session
// and its lifecycle, the per-page lock, dialogs, evaluation, actions and
// navigation. The rest is reached through focused parts (see parts.go):
// Input, Emulator, Collected, Snapshots, Screenshots, InPageTools and
// Profiler.
type Page struct {
	ID       int
	TargetID string
	browser  *Browser

	lock chan struct{} // held by the tool call acting on the page
	gone chan struct{} // closed when the page is closed

	mu        sync.Mutex // guards the lifecycle fields below
	info      cdp.TargetInfo
	crashed   string // non-empty: the renderer crashed with this status
	closed    bool
	owned     bool // opened by the agent (new_page) or by a page it owns
	session   *cdp.Session
	attaching chan struct{} // closed when a running attach finishes
	// setup is the session a running attach is setting up, nil otherwise:
	// the busy watch probes it, since a page busy at attach time leaves
	// the set-up commands unanswered.
	setup       *cdp.Session
	setupCancel context.CancelCauseFunc // ends that attach, with its cause
	rec         *Recording              // the screencast being recorded, nil when none
	// initial marks a Scope view's own first blank page, which new_page
	// takes over while no call has used it (see OpenPage); used is set
	// once a call attached to the page.
	initial, used bool
	// pressCheck, when set, is asked before every mouse press and release
	// of the call holding the page (see Input.CheckPresses).
	pressCheck func(ctx context.Context, x, y float64) error
	// handled is set when the page had handled the last input an action
	// sent by the time Chrome answered it (see Input.handledBy): its
	// effects have started, and settling needs no window for late ones.
	handled atomic.Bool

	// The state of the page's focused parts, each with its own lock.
	events    pageEvents                        // dialog, iframes and the subscriptions following them
	tracker   *snapshot.Tracker                 // uids of this page's snapshots
	lastSnap  atomic.Pointer[snapshot.Snapshot] // the latest snapshot taken, nil after a new document
	collected collector                         // console messages and network requests
	maps      sourceMaps                        // source maps of the page's scripts
	emu       emulated                          // what the page emulates, restored on re-attach
	leave     leaveGuard                        // refuses closing or leaving a user's tab (GuardLeaving)
	worlds    worlds                            // our isolated world's contexts, by session and frame
	prep      preparation                       // the document navigate_page got ready for a snapshot
}

func newPage(b *Browser, id int, info cdp.TargetInfo) *Page {
	p := &Page{ID: id, TargetID: info.TargetID, browser: b, info: info, lock: make(chan struct{}, 1), gone: make(chan struct{}), tracker: snapshot.NewTracker()}
	p.collected.mainFrame, p.collected.live = info.TargetID, map[string]*Request{}
	return p
}

// Blank reports whether the page shows nothing and has nothing behind
// it: its URL is about:blank or a new-tab page, and its session history
// holds that one entry. Leading such a tab away loses the user nothing, and
// a browser started with --remote-debugging-port has only such a tab, which
// clients written for the reference navigate first. A blank tab with the
// user's pages behind it (or ahead of it) in its history is not blank: the
// agent could go back into them.
func (p *Page) Blank(ctx context.Context) (bool, error) {
	switch p.Info().URL {
	case "", "about:blank", "chrome://newtab/", "chrome://new-tab-page/":
	default:
		return false, nil
	}
	s, err := p.Session(ctx)
	if err != nil {
		return false, err
	}
	h, err := cdp.PageGetNavigationHistory.Call(ctx, s)
	if err != nil {
		return false, fmt.Errorf("read history: %w", err)
	}
	return len(h.Entries) <= 1, nil
}

func (p *Page) markClosed() {
	p.mu.Lock()
	p.closed = true
	p.session = nil
	p.mu.Unlock()
	p.sessions().stopFollowing()
	close(p.gone)
}

// detached forgets the session when Chrome reports it detached.
func (p *Page) detached(sessionID string) {
	p.mu.Lock()
	ours := p.session != nil && p.session.ID == sessionID
	if ours {
		p.session = nil
	}
	p.mu.Unlock()
	if ours {
		p.sessions().stopFollowing()
	}
}

// Lock serializes tool calls on the page: calls on different pages run at
// the same time, calls on one page one after another. ctx bounds the wait.
func (p *Page) Lock(ctx context.Context) (unlock func(), err error) {
	select {
	case p.lock <- struct{}{}:
		return func() { <-p.lock }, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("page %d is busy with another call: %w", p.ID, ctx.Err())
	}
}

// Session returns the page's CDP session, attaching on first use.
func (p *Page) Session(ctx context.Context) (*cdp.Session, error) {
	for {
		p.mu.Lock()
		switch {
		case p.closed:
			p.mu.Unlock()
			return nil, fmt.Errorf("page %d was closed; call list_pages to see the open pages", p.ID)
		case p.session != nil:
			s := p.session
			p.mu.Unlock()
			return s, nil
		case p.attaching != nil:
			wait := p.attaching
			p.mu.Unlock()
			select {
			case <-wait:
				continue
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		done := make(chan struct{})
		p.attaching, p.used = done, true
		p.mu.Unlock()

		s, err := p.attach(ctx)
		p.mu.Lock()
		p.attaching = nil
		if err == nil && !p.closed {
			p.session = s
		}
		p.mu.Unlock()
		close(done)
		return s, err
	}
}

// attach opens a flattened session to the page and enables what tools rely on.
// It waits its turn in the Manager's setup queue, and the set-up is
// bounded by PageSetupLimit from then on (and by ctx).
func (p *Page) attach(ctx context.Context) (*cdp.Session, error) {
	ctx, done, err := p.browser.m.setupTurn(ctx, fmt.Sprintf("set up page %d", p.ID))
	if err != nil {
		return nil, err
	}
	defer done()
	s, err := p.attachTurn(ctx)
	return s, setupErr(ctx, err)
}

// attachTurn is attach once its turn came.
func (p *Page) attachTurn(ctx context.Context) (*cdp.Session, error) {
	conn := p.browser.conn
	res, err := cdp.TargetAttachToTarget.Call(ctx, p.browser.rootSession(), cdp.AttachToTargetParams{TargetID: p.TargetID, Flatten: true})
	if err != nil {
		return nil, fmt.Errorf("attach to page %d: %w", p.ID, err)
	}
	s := conn.Session(res.SessionID)
	p.sessions().follow(s)
	// The busy watch may end the set-up (see checkBusy), with a
	// *BusyError as the cause.
	ctx, cancel := context.WithCancelCause(ctx)
	p.mu.Lock()
	p.setup, p.setupCancel = s, cancel
	p.mu.Unlock()
	ok := false
	defer func() {
		p.mu.Lock()
		p.setup, p.setupCancel = nil, nil
		p.mu.Unlock()
		if !ok {
			// Not left half set up: the next call attaches afresh.
			p.sessions().stopFollowing()
			p.cleanUp(ctx, p.browser.rootSession(), cdp.TargetDetachFromTarget.With(cdp.DetachFromTargetParams{SessionID: s.ID}), cdp.TargetDetachFromTarget.Method)
		}
		cancel(nil)
	}()
	// Sent at once, answered in order: one round trip, not one each.
	setup := []cdp.Request{
		cdp.PageEnable,
		cdp.PageSetLifecycleEventsEnabled.With(cdp.SetLifecycleEventsEnabledParams{Enabled: true}),
		cdp.RuntimeEnable,
		cdp.NetworkEnable,
		cdp.LogEnable,
		cdp.AuditsEnable,
	}
	if p.agentsPage() {
		setup = append(setup, focusEmulation)
	}
	setup = append(setup, cdp.TargetSetAutoAttach.With(p.sessions().frameAutoAttach()))
	if err := s.Pipeline(ctx, setup...); err != nil {
		var busy *BusyError
		if errors.As(context.Cause(ctx), &busy) {
			return nil, busy
		}
		return nil, fmt.Errorf("set up page %d: %w", p.ID, err)
	}
	if err := p.Emulator().restoreEmulation(ctx, s, false); err != nil {
		return nil, err
	}
	ok = true
	return s, nil
}

// Evaluate runs a JavaScript expression in the page, awaiting a promise, and
// returns its value as JSON. A thrown error becomes an error with its message
// and stack.
func (p *Page) Evaluate(ctx context.Context, expression string) (cdp.RemoteObject, error) {
	s, err := p.Session(ctx)
	if err != nil {
		return cdp.RemoteObject{}, err
	}
	res, err := cdp.RuntimeEvaluate.Call(ctx, s, cdp.EvaluateParams{
		Expression: expression, ReturnByValue: true, AwaitPromise: true, UserGesture: true,
	})
	if err != nil {
		return cdp.RemoteObject{}, fmt.Errorf("evaluate: %w", err)
	}
	if res.ExceptionDetails != nil {
		return cdp.RemoteObject{}, fmt.Errorf("the script threw: %s", res.ExceptionDetails.Message())
	}
	return res.Result, nil
}

// Screenshot captures the viewport in format (png, jpeg or webp).
func (sh Screenshots) Screenshot(ctx context.Context, params cdp.CaptureScreenshotParams) ([]byte, error) {
	s, err := sh.page.Session(ctx)
	if err != nil {
		return nil, err
	}
	res, err := cdp.PageCaptureScreenshot.Call(ctx, s, params)
	if err != nil {
		return nil, fmt.Errorf("screenshot: %w", err)
	}
	return res.Data, nil
}
