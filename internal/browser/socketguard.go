package browser

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// Fetch interception, which enforces the URL patterns, does not see
// WebSocket handshakes, and no CDP command lets a client decide on one
// WebSocket URL at a time. Under a URL policy the socket guard therefore
// refuses every WebSocket, as if the network were down for them: it
// attaches to every target of the browser (pages, popups, iframes,
// dedicated, shared and service workers) and sets a ws:/wss: offline rule
// in each before it runs. WebTransport and WebRTC are not covered.
//
// A worker paused at its start runs as soon as any session attached to it
// calls Runtime.runIfWaitingForDebugger, not when all have: a page's own
// session, which also auto-attaches to the page's dedicated workers, must
// not let one run before the guard's rule is set. The guard therefore
// keeps, per target, the verdict that others await (see socketsRefused).
// A new service worker is stranger still: held paused by one session it
// answers that session once its script has loaded (however long the
// server takes), but held by two it answers neither until one lets it
// run, and then runs at once, before any rule. Service workers are
// therefore attached by the browser-wide auto-attach alone (see
// autoAttachRelated and autoAttachFramesGuarded). A target whose rule
// could not be set is left paused: the guard fails closed.

// socketsOffline is the rule: every ws: and wss: URL on any port.
var socketsOffline = cdp.EmulateNetworkConditionsByRuleParams{MatchedNetworkConditions: []cdp.NetworkConditions{
	{URLPattern: "ws://*:*/*", Offline: true, DownloadThroughput: -1, UploadThroughput: -1},
	{URLPattern: "wss://*:*/*", Offline: true, DownloadThroughput: -1, UploadThroughput: -1},
}}

// autoAttachAll attaches to every target of the browser, paused until the
// rule is set.
var autoAttachAll = cdp.SetAutoAttachParams{AutoAttach: true, WaitForDebuggerOnStart: true, Flatten: true}

// autoAttachRelated attaches to a target's own iframes and workers. Service
// workers are left to the browser's auto-attach: a second session holding
// one paused would keep the guard's commands unanswered.
var autoAttachRelated = cdp.SetAutoAttachParams{AutoAttach: true, WaitForDebuggerOnStart: true, Flatten: true,
	Filter: []cdp.FilterEntry{{Type: "service_worker", Exclude: true}, {}}}

// socketGuard is the state of the socket guard: its subscription to the
// targets it attaches to, and each target's verdict.
type socketGuard struct {
	sub *cdp.Subscription

	mu       sync.Mutex
	targets  map[string]*guardedTarget // by target id
	sessions map[string]string         // the guard's session id -> target id
}

// guardedTarget is one target under the guard.
type guardedTarget struct {
	session string        // the guard's own session; "" until it attached
	done    chan struct{} // closed once the verdict is in
	ok      bool          // the rule is set: the target may run
}

func newSocketGuard() *socketGuard {
	return &socketGuard{targets: map[string]*guardedTarget{}, sessions: map[string]string{}}
}

// target returns the entry of targetID, adding a pending one if needed.
// g.mu must be held.
func (g *socketGuard) target(targetID string) *guardedTarget {
	t := g.targets[targetID]
	if t == nil {
		t = &guardedTarget{done: make(chan struct{})}
		g.targets[targetID] = t
	}
	return t
}

// claim records session as the guard's own session of targetID, unless
// the guard already has one: then session is another client's (a page's
// own session, an evaluate_script attach), which the guard leaves alone.
func (g *socketGuard) claim(targetID, session string) (*guardedTarget, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	t := g.target(targetID)
	if t.session != "" {
		return t, false
	}
	t.session = session
	g.sessions[session] = targetID
	return t, true
}

// settle records the verdict of t, once.
func (g *socketGuard) settle(t *guardedTarget, ok bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	select {
	case <-t.done:
	default:
		t.ok = ok
		close(t.done)
	}
}

// detached forgets the target of the guard's session, when that session
// ends; its verdict, if still pending, is a refusal.
func (g *socketGuard) detached(session string) {
	g.mu.Lock()
	id, ok := g.sessions[session]
	var t *guardedTarget
	if ok {
		delete(g.sessions, session)
		t = g.targets[id]
		delete(g.targets, id)
	}
	g.mu.Unlock()
	if t != nil {
		g.settle(t, false)
	}
}

// restarted starts a new verdict for the target of the guard's session,
// which restarted paused; nil when the session is not the guard's.
func (g *socketGuard) restarted(session string) (t *guardedTarget, targetID string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	targetID, ok := g.sessions[session]
	if !ok {
		return nil, ""
	}
	t = &guardedTarget{session: session, done: make(chan struct{})}
	g.targets[targetID] = t
	return t, targetID
}

// pending returns the entries whose verdict is not in yet.
func (g *socketGuard) pending() []*guardedTarget {
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []*guardedTarget
	for _, t := range g.targets {
		select {
		case <-t.done:
		default:
			out = append(out, t)
		}
	}
	return out
}

// guardSockets starts the socket guard on the browser's targets, those open
// now included. In a browser the server launched, it returns once the
// open targets (its first blank tab) have the rule, so that the first tool
// call finds them guarded; an attached browser's tabs, which may be too
// busy to answer, are guarded in the background.
func (f *urlFilter) guardSockets(ctx context.Context, b *Browser) error {
	g := newSocketGuard()
	f.sockets = g
	g.sub = b.conn.SubscribeFunc("", func(ev cdp.RawEvent) { f.onGuardEvent(b, ev) },
		cdp.TargetAttachedToTarget, cdp.TargetDetachedFromTarget, cdp.InspectorTargetReloadedAfterCrash, cdp.PreloadRuleSetUpdated)
	if err := cdp.TargetSetAutoAttach.Do(ctx, b.rootSession(), autoAttachAll); err != nil {
		return fmt.Errorf("refuse WebSockets under the URL patterns: %w", err)
	}
	if b.proc == nil {
		return nil
	}
	// Chrome reports the open targets before it answers.
	if err := g.sub.Sync(ctx); err != nil {
		return fmt.Errorf("refuse WebSockets under the URL patterns: %w", err)
	}
	for _, t := range g.pending() {
		select {
		case <-t.done:
		case <-ctx.Done():
			return fmt.Errorf("refuse WebSockets under the URL patterns: %w", context.Cause(ctx))
		}
	}
	return nil
}

// socketsRefused waits until the socket guard has set its rule in
// targetID, and says whether it has; it is true at once when there is no
// guard, false when ctx ends first. Whoever else lets a paused target run
// must ask it first.
func (f *urlFilter) socketsRefused(ctx context.Context, targetID string) bool {
	if f == nil || f.sockets == nil {
		return true
	}
	g := f.sockets
	g.mu.Lock()
	t := g.target(targetID)
	g.mu.Unlock()
	select {
	case <-t.done:
		g.mu.Lock()
		defer g.mu.Unlock()
		return t.ok
	case <-ctx.Done():
		return false
	}
}

// onGuardEvent follows the targets the guard attaches to. Setting one up
// runs in the background: this subscription must not wait for calls.
func (f *urlFilter) onGuardEvent(b *Browser, raw cdp.RawEvent) {
	g := f.sockets
	switch raw.Method {
	case cdp.PreloadRuleSetUpdated.Method:
		// Rules the speculation guard's script did not see: removed now.
		ev, err := cdp.PreloadRuleSetUpdated.Decode(raw.Params)
		if err != nil || ev.RuleSet.BackendNodeID == 0 {
			return
		}
		g.mu.Lock()
		id := g.sessions[raw.SessionID]
		g.mu.Unlock()
		s := b.conn.Session(raw.SessionID)
		b.bg.Go(func(ctx context.Context) {
			if err := removeRuleSet(ctx, s, id, ev.RuleSet.BackendNodeID); err != nil {
				b.bg.failed(id, "remove speculation rules", err)
			}
		})
	case cdp.InspectorTargetReloadedAfterCrash.Method:
		// A service worker restarting, paused again: the rule is set anew
		// (Chrome keeps it, but nothing promises that) before it runs.
		if t, id := g.restarted(raw.SessionID); t != nil {
			s := b.conn.Session(raw.SessionID)
			b.bg.Go(func(ctx context.Context) {
				f.refuseSockets(ctx, b, s, cdp.TargetInfo{TargetID: id, Type: "service_worker"}, t)
			})
		}
	case cdp.TargetDetachedFromTarget.Method:
		if ev, err := cdp.TargetDetachedFromTarget.Decode(raw.Params); err == nil {
			g.detached(ev.SessionID)
		}
	case cdp.TargetAttachedToTarget.Method:
		ev, err := cdp.TargetAttachedToTarget.Decode(raw.Params)
		if err != nil {
			b.bg.failed("browser", raw.Method, fmt.Errorf("decode: %w", err))
			return
		}
		t, mine := g.claim(ev.TargetInfo.TargetID, ev.SessionID)
		if !mine {
			return
		}
		g.sub.AddSession(ev.SessionID) // its own targets attach on it
		s := b.conn.Session(ev.SessionID)
		b.bg.Go(func(ctx context.Context) { f.refuseSockets(ctx, b, s, ev.TargetInfo, t) })
	}
}

// refuseSockets sets the offline rule in a target and has its own targets
// attached the same way, then lets it run. It waits as long as the target
// lives: a new service worker answers nothing until its script has loaded,
// however long the server takes to send it. A target whose rule could not
// be set is left paused.
func (f *urlFilter) refuseSockets(ctx context.Context, b *Browser, s *cdp.Session, info cdp.TargetInfo, t *guardedTarget) {
	fail := func(method string, err error) { b.bg.failed(info.TargetID, method, err) }
	ok := setSocketRule(ctx, s, fail) && keepServiceWorkersOut(ctx, s, info, fail) && refuseBackgroundFetches(ctx, s, info, fail)
	if ok && f.speculation {
		ok = guardSpeculation(ctx, s, info, fail)
	}
	f.sockets.settle(t, ok)
	if !ok {
		return
	}
	if err := cdp.RuntimeRunIfWaitingForDebugger.Do(ctx, s); err != nil {
		b.bg.failed(info.TargetID, cdp.RuntimeRunIfWaitingForDebugger.Method, err)
	}
}

// setSocketRule sets the offline rule in the target of s and its nested
// auto-attach, reporting failures to fail; it says whether the target may
// run. A target without the Network domain has no WebSocket to refuse.
func setSocketRule(ctx context.Context, s *cdp.Session, fail func(method string, err error)) bool {
	err := cdp.NetworkEnable.Do(ctx, s)
	if err == nil {
		_, err = cdp.NetworkEmulateNetworkConditionsByRule.Call(ctx, s, socketsOffline)
		if err != nil {
			fail(cdp.NetworkEmulateNetworkConditionsByRule.Method, leftPaused(err))
			return false
		}
	} else if !noSuchMethod(err) {
		fail(cdp.NetworkEnable.Method, leftPaused(err))
		return false
	}
	if err := cdp.TargetSetAutoAttach.Do(ctx, s, autoAttachRelated); err != nil {
		fail(cdp.TargetSetAutoAttach.Method, leftPaused(err))
		return false
	}
	return true
}

// keepServiceWorkersOut has every request of a page, iframe or worker go
// to the network, where Fetch checks it, rather than to a service worker:
// Chrome makes a service worker's navigation preload request itself,
// beside every DevTools interception, as soon as a navigation into its
// scope starts (so a link to a refused URL would load it), and a service
// worker can answer with pages, speculation rules included, that no
// response the server sees holds. A target without the Network domain has
// no such requests.
func keepServiceWorkersOut(ctx context.Context, s *cdp.Session, info cdp.TargetInfo, fail func(method string, err error)) bool {
	switch info.Type {
	case "page", "iframe", "worker", "shared_worker":
	default:
		return true
	}
	if err := cdp.NetworkSetBypassServiceWorker.Do(ctx, s, cdp.BypassServiceWorkerParams{Bypass: true}); err != nil && !noSuchMethod(err) {
		fail(cdp.NetworkSetBypassServiceWorker.Method, leftPaused(err))
		return false
	}
	return true
}

// refuseBackgroundFetches has background fetches fail in a page, iframe
// or worker (see no-background-fetch.js): in a page's documents from their
// start, in a worker before its script runs.
func refuseBackgroundFetches(ctx context.Context, s *cdp.Session, info cdp.TargetInfo, fail func(method string, err error)) bool {
	src := "(" + noBackgroundFetchJS + ")()"
	switch info.Type {
	case "page", "iframe":
		if err := cdp.PageEnable.Do(ctx, s); err != nil {
			fail(cdp.PageEnable.Method, leftPaused(err))
			return false
		}
		if _, err := cdp.PageAddScriptToEvaluateOnNewDocument.Call(ctx, s, cdp.AddScriptParams{Source: src, RunImmediately: true}); err != nil {
			fail(cdp.PageAddScriptToEvaluateOnNewDocument.Method, leftPaused(err))
			return false
		}
	case "service_worker", "worker", "shared_worker":
		if _, err := cdp.RuntimeEvaluate.Call(ctx, s, cdp.EvaluateParams{Expression: src}); err != nil {
			fail(cdp.RuntimeEvaluate.Method, leftPaused(err))
			return false
		}
	}
	return true
}

// noSuchMethod says whether err is Chrome's answer to a command the target
// does not have.
func noSuchMethod(err error) bool {
	var cerr *cdp.Error
	return errors.As(err, &cerr) && cerr.Code == -32601
}

// leftPaused adds to err that the target stays paused.
func leftPaused(err error) error {
	return fmt.Errorf("%w (its WebSockets could not be refused: left paused)", err)
}
