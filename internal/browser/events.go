package browser

import (
	"context"
	"slices"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// autoAttachFrames asks Chrome to attach to cross-process iframes of a
// session, so their documents can be read and acted on.
var autoAttachFrames = cdp.SetAutoAttachParams{
	AutoAttach: true, WaitForDebuggerOnStart: true, Flatten: true,
	Filter: []cdp.FilterEntry{{Type: "iframe"}},
}

// Event is one CDP event from the page's session or one of its frames'.
type Event = cdp.RawEvent

// followedEvents are the events a page keeps state from (see onEvent and
// collector.onEvent).
var followedEvents = []cdp.EventType{
	cdp.PageJavascriptDialogOpening, cdp.PageJavascriptDialogClosed, cdp.PageFrameNavigated,
	cdp.TargetAttachedToTarget, cdp.TargetDetachedFromTarget,
	cdp.RuntimeConsoleAPICalled, cdp.RuntimeExceptionThrown, cdp.LogEntryAdded, cdp.AuditsIssueAdded,
	cdp.NetworkRequestWillBeSent, cdp.NetworkResponseReceived, cdp.NetworkRequestWillBeSentExtraInfo,
	cdp.NetworkResponseReceivedExtraInfo, cdp.NetworkLoadingFinished, cdp.NetworkLoadingFailed,
}

// pageEvents is what a page keeps from its sessions' events. Guarded by Page.mu.
type pageEvents struct {
	dialog   *cdp.DialogOpeningEvent // the open JavaScript dialog, if any
	frames   map[string]*cdp.Session // cross-process iframe sessions by frame id
	parents  map[string]*cdp.Session // the session each of those frames was announced on
	follows  []*cdp.Subscription     // the page's and its iframes' sessions, handled by onEvent
	watchers []*cdp.Subscription     // open watch subscriptions, given new iframe sessions
}

// reset forgets everything tied to the sessions and returns the
// subscriptions to close (outside the lock).
func (e *pageEvents) reset() []*cdp.Subscription {
	subs := e.follows
	*e = pageEvents{watchers: e.watchers}
	return subs
}

// follow handles the events of session s (the page's or an iframe's) for
// the page's lifetime, on a subscription of its own.
func (p *Page) follow(s *cdp.Session) {
	sub := s.SubscribeFunc(func(ev cdp.RawEvent) { p.onEvent(s, ev) }, followedEvents...)
	p.mu.Lock()
	p.events.follows = append(p.events.follows, sub)
	p.mu.Unlock()
}

// stopFollowing closes the page's subscriptions.
func (p *Page) stopFollowing() {
	p.mu.Lock()
	subs := p.events.reset()
	p.mu.Unlock()
	for _, sub := range subs {
		sub.Close()
	}
}

// synced waits until the page's subscriptions have handled the events
// received so far, so that its state (dialog, console, requests, frames)
// reflects them. It must not be called from onEvent.
func (p *Page) synced() {
	p.mu.Lock()
	subs := slices.Clone(p.events.follows)
	p.mu.Unlock()
	for _, sub := range subs {
		_ = sub.Sync(p.browser.bg.ctx) // fails only when the page or browser is gone
	}
}

// onEvent updates the page's state from an event of session s. It runs on
// s's subscription; what needs calls runs in the browser's background.
func (p *Page) onEvent(s *cdp.Session, ev cdp.RawEvent) {
	p.collected.onEvent(s, ev.Method, ev.Params)
	switch ev.Method {
	case cdp.PageJavascriptDialogOpening.Method:
		if d, err := cdp.PageJavascriptDialogOpening.Decode(ev.Params); err == nil {
			p.mu.Lock()
			p.events.dialog = &d
			p.mu.Unlock()
		}
	case cdp.PageJavascriptDialogClosed.Method:
		p.mu.Lock()
		p.events.dialog = nil
		p.mu.Unlock()
	case cdp.PageFrameNavigated.Method:
		if e, err := cdp.PageFrameNavigated.Decode(ev.Params); err == nil && e.Frame.ParentID == "" && s == p.currentSession() {
			p.newDocument()
		}
	case cdp.TargetAttachedToTarget.Method:
		if e, err := cdp.TargetAttachedToTarget.Decode(ev.Params); err == nil && e.TargetInfo.Type == "iframe" {
			p.addFrame(s, e.TargetInfo.TargetID, s.Conn.Session(e.SessionID))
		}
	case cdp.TargetDetachedFromTarget.Method:
		if e, err := cdp.TargetDetachedFromTarget.Decode(ev.Params); err == nil {
			p.mu.Lock()
			for id, fs := range p.events.frames {
				if fs.ID == e.SessionID {
					delete(p.events.frames, id)
					delete(p.events.parents, id)
				}
			}
			p.mu.Unlock()
		}
	}
}

// currentSession returns the page's session, nil when detached.
func (p *Page) currentSession() *cdp.Session {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.session
}

// addFrame records the cross-process iframe frameID, announced on parent,
// follows its session child and has it set up in the background.
func (p *Page) addFrame(parent *cdp.Session, frameID string, child *cdp.Session) {
	p.mu.Lock()
	if p.events.frames == nil {
		p.events.frames, p.events.parents = map[string]*cdp.Session{}, map[string]*cdp.Session{}
	}
	p.events.frames[frameID] = child
	p.events.parents[frameID] = parent
	watchers := slices.Clone(p.events.watchers)
	p.mu.Unlock()

	p.follow(child)
	for _, w := range watchers {
		w.AddSession(child.ID)
	}
	p.browser.bg.Go(func(ctx context.Context) { p.setUpFrame(ctx, child, frameID) })
}

// setUpFrame enables what a cross-process iframe's session needs: runtime
// events for errors thrown in it, the page's emulation, and its own nested
// iframes. A new frame waits for this (waitForDebuggerOnStart), so that its
// first requests already carry the emulated user agent and headers; it is
// let run whatever happens. Failures are logged: nobody waits for them.
func (p *Page) setUpFrame(life context.Context, s *cdp.Session, frameID string) {
	fail := func(method string, err error) { p.browser.bg.failed(frameID, method, err) }
	defer func() {
		rctx, cancel := context.WithTimeout(life, 5*time.Second)
		defer cancel()
		if err := cdp.RuntimeRunIfWaitingForDebugger.Do(rctx, s); err != nil {
			fail(cdp.RuntimeRunIfWaitingForDebugger.Method, err)
		}
	}()
	ctx, cancel := context.WithTimeout(life, 10*time.Second)
	defer cancel()
	for _, a := range []cdp.Action{cdp.RuntimeEnable, cdp.NetworkEnable} {
		if err := a.Do(ctx, s); err != nil {
			fail(a.Method, err)
		}
	}
	if err := p.restoreEmulation(ctx, s, true); err != nil {
		fail("restore emulation", err)
	}
	if err := cdp.TargetSetAutoAttach.Do(ctx, s, autoAttachFrames); err != nil {
		fail(cdp.TargetSetAutoAttach.Method, err)
	}
}

// watch subscribes to the events of the page's session and
// of its iframes' sessions, including those of iframes that attach while
// the subscription is open. Events arrive on the caller's goroutine through
// sub.Events(); call stop when done.
func (p *Page) watch(s *cdp.Session, events ...cdp.EventType) (sub *cdp.Subscription, stop func()) {
	sub = s.Subscribe(events...)
	p.addWatcher(sub)
	return sub, func() { p.removeWatcher(sub) }
}

// watchFunc is watch with fn called for each event on the subscription's
// own goroutine; sub.Sync tells when the events before a reply were handled.
func (p *Page) watchFunc(s *cdp.Session, fn func(Event), events ...cdp.EventType) (sub *cdp.Subscription, stop func()) {
	sub = s.SubscribeFunc(fn, events...)
	p.addWatcher(sub)
	return sub, func() { p.removeWatcher(sub) }
}

// addWatcher registers sub for the iframe sessions the page has and gets.
func (p *Page) addWatcher(sub *cdp.Subscription) {
	p.mu.Lock()
	p.events.watchers = append(p.events.watchers, sub)
	frames := make([]*cdp.Session, 0, len(p.events.frames))
	for _, fs := range p.events.frames {
		frames = append(frames, fs)
	}
	p.mu.Unlock()
	for _, fs := range frames {
		sub.AddSession(fs.ID)
	}
}

// removeWatcher closes sub and forgets it.
func (p *Page) removeWatcher(sub *cdp.Subscription) {
	sub.Close()
	p.mu.Lock()
	p.events.watchers = slices.DeleteFunc(p.events.watchers, func(w *cdp.Subscription) bool { return w == sub })
	p.mu.Unlock()
}

// Dialog returns the JavaScript dialog open on the page, or nil.
func (p *Page) Dialog() *cdp.DialogOpeningEvent {
	p.synced()
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.events.dialog
}

// frameSession returns the session of the cross-process iframe frameID, or nil.
func (p *Page) frameSession(frameID string) *cdp.Session {
	p.synced()
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.events.frames[frameID]
}

// sessionFrame returns the id of the main frame of session s: the page's
// own frame for its session, the iframe's for a cross-process iframe's.
func (p *Page) sessionFrame(s *cdp.Session) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	for id, fs := range p.events.frames {
		if fs == s {
			return id
		}
	}
	return p.TargetID
}

// sessionByID returns the page's session or one of its iframes' with id.
func (p *Page) sessionByID(id string) *cdp.Session {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.session != nil && p.session.ID == id {
		return p.session
	}
	for _, s := range p.events.frames {
		if s.ID == id {
			return s
		}
	}
	return nil
}

// undo sends req, which turns off what a call turned on for its own use,
// even when ctx has ended; a failure is logged with method, as nobody
// waits for it.
func (p *Page) undo(ctx context.Context, s *cdp.Session, req cdp.Request, method string) {
	uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := req.Do(uctx, s); err != nil {
		p.browser.bg.failed(p.TargetID, method, err)
	}
}
