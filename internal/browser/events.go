package browser

import (
	"context"
	"encoding/json"
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
type Event struct {
	SessionID string
	Method    string
	Params    json.RawMessage
}

// pageEvents is what a page keeps from its sessions' events. Guarded by Page.mu.
type pageEvents struct {
	dialog   *cdp.DialogOpeningEvent // the open JavaScript dialog, if any
	frames   map[string]*cdp.Session // cross-process iframe sessions by frame id
	parents  map[string]*cdp.Session // the session each of those frames was announced on
	watchers map[int]func(Event)
	nextID   int
	stops    []func() // listener registrations to undo on detach
}

// reset forgets everything tied to the sessions and returns the listener
// registrations to undo (outside the lock).
func (e *pageEvents) reset() []func() {
	stops := e.stops
	*e = pageEvents{}
	return stops
}

// follow listens to session s (the page's or an iframe's) for the page's
// lifetime.
func (p *Page) follow(s *cdp.Session) {
	stop := s.Listen(func(method string, params json.RawMessage) {
		p.onEvent(s, method, params)
	})
	p.mu.Lock()
	p.events.stops = append(p.events.stops, stop)
	p.mu.Unlock()
}

// onEvent runs on the CDP reader goroutine: it updates the page's state and
// passes the event to the watchers of running actions. It never blocks.
func (p *Page) onEvent(s *cdp.Session, method string, params json.RawMessage) {
	p.collected.onEvent(s, method, params)
	p.mu.Lock()
	switch method {
	case cdp.PageJavascriptDialogOpening.Method:
		if ev, err := cdp.PageJavascriptDialogOpening.Decode(params); err == nil {
			p.events.dialog = &ev
		}
	case cdp.PageJavascriptDialogClosed.Method:
		p.events.dialog = nil
	case cdp.PageFrameNavigated.Method:
		if ev, err := cdp.PageFrameNavigated.Decode(params); err == nil && ev.Frame.ParentID == "" && s == p.session {
			p.newDocument()
		}
	case cdp.TargetAttachedToTarget.Method:
		if ev, err := cdp.TargetAttachedToTarget.Decode(params); err == nil && ev.TargetInfo.Type == "iframe" {
			child := s.Conn.Session(ev.SessionID)
			if p.events.frames == nil {
				p.events.frames, p.events.parents = map[string]*cdp.Session{}, map[string]*cdp.Session{}
			}
			p.events.frames[ev.TargetInfo.TargetID] = child
			p.events.parents[ev.TargetInfo.TargetID] = s
			p.mu.Unlock()
			p.follow(child)
			go p.setUpFrame(child)
			p.mu.Lock()
		}
	case cdp.TargetDetachedFromTarget.Method:
		if ev, err := cdp.TargetDetachedFromTarget.Decode(params); err == nil {
			for id, fs := range p.events.frames {
				if fs.ID == ev.SessionID {
					delete(p.events.frames, id)
					delete(p.events.parents, id)
				}
			}
		}
	}
	watchers := make([]func(Event), 0, len(p.events.watchers))
	for _, w := range p.events.watchers {
		watchers = append(watchers, w)
	}
	p.mu.Unlock()
	ev := Event{SessionID: s.ID, Method: method, Params: params}
	for _, w := range watchers {
		w(ev)
	}
}

// setUpFrame enables what a cross-process iframe's session needs: runtime
// events for errors thrown in it, the page's emulation, and its own nested
// iframes. A new frame waits for this (waitForDebuggerOnStart), so that its
// first requests already carry the emulated user agent and headers; it is
// let run whatever happens.
func (p *Page) setUpFrame(s *cdp.Session) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	defer func() {
		rctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = cdp.RuntimeRunIfWaitingForDebugger.Do(rctx, s)
	}()
	_ = cdp.RuntimeEnable.Do(ctx, s)
	_ = cdp.NetworkEnable.Do(ctx, s)
	_ = p.restoreEmulation(ctx, s, true)
	_ = cdp.TargetSetAutoAttach.Do(ctx, s, autoAttachFrames)
}

// watch calls fn for every event of the page's sessions until stop is
// called. fn runs on the CDP reader goroutine and must not block.
func (p *Page) watch(fn func(Event)) (stop func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.events.watchers == nil {
		p.events.watchers = map[int]func(Event){}
	}
	id := p.events.nextID
	p.events.nextID++
	p.events.watchers[id] = fn
	return func() {
		p.mu.Lock()
		delete(p.events.watchers, id)
		p.mu.Unlock()
	}
}

// Dialog returns the JavaScript dialog open on the page, or nil.
func (p *Page) Dialog() *cdp.DialogOpeningEvent {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.events.dialog
}

// frameSession returns the session of the cross-process iframe frameID, or nil.
func (p *Page) frameSession(frameID string) *cdp.Session {
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
