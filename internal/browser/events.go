package browser

import (
	"context"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// autoAttachFrames asks Chrome to attach to cross-process iframes of a
// session, so their documents can be read and acted on. Every other child
// is attached too and let go at once (see release): Chrome pauses a child
// target at its start whenever an auto-attacher waits for the debugger,
// even one the filter leaves out (dedicated workers, prerendered pages),
// and only an attached client can let it run.
var autoAttachFrames = cdp.SetAutoAttachParams{
	AutoAttach: true, WaitForDebuggerOnStart: true, Flatten: true,
	Filter: []cdp.FilterEntry{{}},
}

// autoAttachFramesGuarded is autoAttachFrames under the socket guard,
// which leaves service workers to the guard's own session: a new service
// worker that two sessions hold paused answers neither until one lets it
// run, and then runs before the guard could set its rule.
var autoAttachFramesGuarded = cdp.SetAutoAttachParams{
	AutoAttach: true, WaitForDebuggerOnStart: true, Flatten: true,
	Filter: []cdp.FilterEntry{{Type: "service_worker", Exclude: true}, {}},
}

// frameAutoAttach is the auto-attach of the page's sessions.
func (ss pageSessions) frameAutoAttach() cdp.SetAutoAttachParams {
	if f := ss.page.browser.filter; f != nil && f.sockets != nil {
		return autoAttachFramesGuarded
	}
	return autoAttachFrames
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
	cdp.RuntimeExecutionContextCreated, cdp.RuntimeExecutionContextDestroyed, cdp.RuntimeExecutionContextsCleared,
}

// follow handles the events of session s (the page's or an iframe's) for
// the page's lifetime, on a subscription of its own.
func (ss pageSessions) follow(s *cdp.Session) {
	ss.page.events.addFollow(s.SubscribeFunc(func(ev cdp.RawEvent) { ss.onEvent(s, ev) }, followedEvents...))
}

// stopFollowing closes the page's subscriptions.
func (ss pageSessions) stopFollowing() {
	for _, sub := range ss.page.events.reset() {
		sub.Close()
	}
	ss.page.worlds.reset()
}

// synced waits until the page's subscriptions have handled the events
// received so far, so that its state (dialog, console, requests, frames)
// reflects them. Called from onEvent, it panics (see mustSync).
func (ss pageSessions) synced() {
	for _, sub := range ss.page.events.following() {
		mustSync(sub.Sync(ss.page.browser.bg.ctx)) // fails only when the page or browser is gone
	}
}

// onEvent updates the page's state from an event of session s. It runs on
// s's subscription; what needs calls runs in the browser's background.
func (ss pageSessions) onEvent(s *cdp.Session, ev cdp.RawEvent) {
	ss.page.collected.onEvent(s, ev.Method, ev.Params)
	ss.page.worlds.onEvent(s, ev)
	switch ev.Method {
	case cdp.PageJavascriptDialogOpening.Method:
		d, err := cdp.PageJavascriptDialogOpening.Decode(ev.Params)
		switch {
		case err != nil:
		case d.Type == "beforeunload" && ss.page.leave.refuse(ss.page.ID, &d):
			ss.page.browser.bg.Go(func(ctx context.Context) { ss.page.refuseLeaving(ctx, s) })
		default:
			ss.page.events.setDialog(&d)
		}
	case cdp.PageJavascriptDialogClosed.Method:
		ss.page.events.setDialog(nil)
	case cdp.PageFrameNavigated.Method:
		if e, err := cdp.PageFrameNavigated.Decode(ev.Params); err == nil && e.Frame.ParentID == "" && s == ss.currentSession() {
			ss.page.Snapshots().newDocument()
		}
	case cdp.TargetAttachedToTarget.Method:
		e, err := cdp.TargetAttachedToTarget.Decode(ev.Params)
		switch {
		case err != nil:
		case e.TargetInfo.Type == "iframe":
			ss.addFrame(s, e.TargetInfo.TargetID, s.Conn.Session(e.SessionID))
		default:
			ss.page.browser.bg.Go(func(ctx context.Context) { ss.release(ctx, s, e) })
		}
	case cdp.TargetDetachedFromTarget.Method:
		if e, err := cdp.TargetDetachedFromTarget.Decode(ev.Params); err == nil {
			ss.page.events.removeSession(e.SessionID)
		}
	}
}

// currentSession returns the page's session, nil when detached.
func (ss pageSessions) currentSession() *cdp.Session {
	ss.page.mu.Lock()
	defer ss.page.mu.Unlock()
	return ss.page.session
}

// addFrame records the cross-process iframe frameID, announced on parent,
// follows its session child and has it set up in the background.
func (ss pageSessions) addFrame(parent *cdp.Session, frameID string, child *cdp.Session) {
	watchers := ss.page.events.addFrame(frameID, parent, child)
	ss.follow(child)
	for _, w := range watchers {
		w.AddSession(child.ID)
	}
	ss.page.browser.bg.Go(func(ctx context.Context) { ss.setUpFrame(ctx, child, frameID) })
}

// setUpFrame enables what a cross-process iframe's session needs: runtime
// events for errors thrown in it, the page's emulation, and its own nested
// iframes. A new frame waits for this (waitForDebuggerOnStart), so that its
// first requests already carry the emulated user agent and headers; it is
// let run whatever happens. Failures are logged: nobody waits for them.
func (ss pageSessions) setUpFrame(life context.Context, s *cdp.Session, frameID string) {
	fail := func(method string, err error) { ss.page.browser.bg.failed(frameID, method, err) }
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
	if err := ss.page.Emulator().restoreEmulation(ctx, s, true); err != nil {
		fail("restore emulation", err)
	}
	if err := cdp.TargetSetAutoAttach.Do(ctx, s, ss.frameAutoAttach()); err != nil {
		fail(cdp.TargetSetAutoAttach.Method, err)
	}
}

// release lets a child target the page does not follow (a worker, a
// prerendered page) run, and detaches from it, so that it works as it would
// with no debugger attached. Under the socket guard it first waits for the
// guard's rule in the child: the page's word alone would let a paused
// worker run, WebSockets and all. A child the guard leaves paused stays
// paused.
func (ss pageSessions) release(life context.Context, parent *cdp.Session, e cdp.AttachedToTargetEvent) {
	resume := e.WaitingForDebugger && ss.page.browser.filter.socketsRefused(life, e.TargetInfo.TargetID)
	ctx, cancel := context.WithTimeout(life, 5*time.Second)
	defer cancel()
	fail := func(method string, err error) { ss.page.browser.bg.failed(e.TargetInfo.TargetID, method, err) }
	if resume {
		if err := cdp.RuntimeRunIfWaitingForDebugger.Do(ctx, parent.Conn.Session(e.SessionID)); err != nil {
			fail(cdp.RuntimeRunIfWaitingForDebugger.Method, err)
		}
	}
	if err := cdp.TargetDetachFromTarget.Do(ctx, parent, cdp.DetachFromTargetParams{SessionID: e.SessionID}); err != nil {
		fail(cdp.TargetDetachFromTarget.Method, err)
	}
}

// watch subscribes to the events of the page's session and
// of its iframes' sessions, including those of iframes that attach while
// the subscription is open. Events arrive on the caller's goroutine through
// sub.Events(); call stop when done.
func (ss pageSessions) watch(s *cdp.Session, events ...cdp.EventType) (sub *cdp.Subscription, stop func()) {
	sub = s.Subscribe(events...)
	ss.addWatcher(sub)
	return sub, func() { ss.removeWatcher(sub) }
}

// watchFunc is watch with fn called for each event on the subscription's
// own goroutine; sub.Sync tells when the events before a reply were handled.
func (ss pageSessions) watchFunc(s *cdp.Session, fn func(Event), events ...cdp.EventType) (sub *cdp.Subscription, stop func()) {
	sub = s.SubscribeFunc(fn, events...)
	ss.addWatcher(sub)
	return sub, func() { ss.removeWatcher(sub) }
}

// addWatcher registers sub for the iframe sessions the page has and gets.
func (ss pageSessions) addWatcher(sub *cdp.Subscription) {
	for _, fs := range ss.page.events.addWatcher(sub) {
		sub.AddSession(fs.ID)
	}
}

// removeWatcher closes sub and forgets it.
func (ss pageSessions) removeWatcher(sub *cdp.Subscription) {
	sub.Close()
	ss.page.events.removeWatcher(sub)
}

// Dialog returns the JavaScript dialog open on the page, or nil.
func (p *Page) Dialog() *cdp.DialogOpeningEvent {
	p.sessions().synced()
	return p.events.openDialog()
}

// frameSession returns the session of the cross-process iframe frameID, or nil.
func (ss pageSessions) frameSession(frameID string) *cdp.Session {
	ss.synced()
	return ss.page.events.frameSession(frameID)
}

// sessionFrame returns the id of the main frame of session s: the page's
// own frame for its session, the iframe's for a cross-process iframe's.
func (ss pageSessions) sessionFrame(s *cdp.Session) string {
	if id, parent := ss.page.events.frameOf(s); parent != nil {
		return id
	}
	return ss.page.TargetID
}

// sessionByID returns the page's session or one of its iframes' with id.
func (ss pageSessions) sessionByID(id string) *cdp.Session {
	if s := ss.currentSession(); s != nil && s.ID == id {
		return s
	}
	if s := ss.setupSession(); s != nil && s.ID == id {
		return s
	}
	return ss.page.events.frameSessionByID(id)
}

// setupSession returns the session a running attach sets up, or nil.
func (ss pageSessions) setupSession() *cdp.Session {
	ss.page.mu.Lock()
	defer ss.page.mu.Unlock()
	return ss.page.setup
}

// endSetup ends the attach setting up session s, if one still is, with
// cause.
func (ss pageSessions) endSetup(s *cdp.Session, cause error) {
	ss.page.mu.Lock()
	defer ss.page.mu.Unlock()
	if ss.page.setup == s && ss.page.setupCancel != nil {
		ss.page.setupCancel(cause)
	}
}

// cleanUp sends req, which undoes or stops what a call started for its own use,
// even when ctx has ended; a failure is logged with method, as nobody
// waits for it.
func (p *Page) cleanUp(ctx context.Context, s *cdp.Session, req cdp.Request, method string) {
	uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := req.Do(uctx, s); err != nil {
		p.browser.bg.failed(p.TargetID, method, err)
	}
}
