package browser

import (
	"context"
	"errors"
	"strings"
	"sync"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// worlds remembers, per frame of the page's sessions, the execution context
// of our isolated world (worldName), as Chrome announces it, so that a
// document's snapshots after its first run their scripts at once, without
// first asking for the world. The world is not made in every new document
// in advance (Page.addScriptToEvaluateOnNewDocument could): it would add a
// context to every heap snapshot. Entries go with the contexts Chrome
// destroys; one that is gone before its event arrived fails the call made
// in it, which then asks for the world (callInWorld).
type worlds struct {
	mu  sync.Mutex
	ids map[worldKey]int
}

// worldKey is a frame of a session.
type worldKey struct{ session, frame string }

// onEvent records what a Runtime event of session s tells about our worlds.
func (w *worlds) onEvent(s *cdp.Session, ev cdp.RawEvent) {
	switch ev.Method {
	case cdp.RuntimeExecutionContextCreated.Method:
		e, err := cdp.RuntimeExecutionContextCreated.Decode(ev.Params)
		if err != nil || e.Context.Name != worldName || e.Context.AuxData.IsDefault || e.Context.AuxData.FrameID == "" {
			return
		}
		w.set(s, e.Context.AuxData.FrameID, e.Context.ID)
	case cdp.RuntimeExecutionContextDestroyed.Method:
		if e, err := cdp.RuntimeExecutionContextDestroyed.Decode(ev.Params); err == nil {
			w.drop(func(k worldKey, id int) bool { return k.session == s.ID && id == e.ExecutionContextID })
		}
	case cdp.RuntimeExecutionContextsCleared.Method:
		w.drop(func(k worldKey, _ int) bool { return k.session == s.ID })
	}
}

// set records id as the world of frame in session s.
func (w *worlds) set(s *cdp.Session, frame string, id int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ids == nil {
		w.ids = map[worldKey]int{}
	}
	w.ids[worldKey{s.ID, frame}] = id
}

// get returns the world of frame in session s, 0 when not known.
func (w *worlds) get(s *cdp.Session, frame string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.ids[worldKey{s.ID, frame}]
}

// drop forgets the worlds gone says are.
func (w *worlds) drop(gone func(worldKey, int) bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for k, id := range w.ids {
		if gone(k, id) {
			delete(w.ids, k)
		}
	}
}

// reset forgets every world, when the page's sessions are let go.
func (w *worlds) reset() {
	w.mu.Lock()
	w.ids = nil
	w.mu.Unlock()
}

// callInWorld calls params' function in our isolated world of frame
// frameID of session s: the world known from Chrome's events, else the one
// Chrome makes or finds (world); a known world that turns out gone is
// forgotten and the call made once more in a new one.
func (p *Page) callInWorld(ctx context.Context, s *cdp.Session, frameID string, params cdp.CallFunctionOnParams) (cdp.EvaluateResult, error) {
	p.sessions().synced() // the contexts destroyed so far are forgotten
	if id := p.worlds.get(s, frameID); id != 0 {
		params.ExecutionContextID = id
		res, err := cdp.RuntimeCallFunctionOn.Call(ctx, s, params)
		if !noContext(err) {
			return res, err
		}
		p.worlds.drop(func(k worldKey, v int) bool { return k == worldKey{s.ID, frameID} && v == id })
	}
	id, err := world(ctx, s, frameID)
	if err != nil {
		return cdp.EvaluateResult{}, err
	}
	p.worlds.set(s, frameID, id)
	params.ExecutionContextID = id
	return cdp.RuntimeCallFunctionOn.Call(ctx, s, params)
}

// noContext reports whether err is Chrome's refusal of a call in an
// execution context that no longer exists.
func noContext(err error) bool {
	var e *cdp.Error
	return errors.As(err, &e) && strings.Contains(e.Message, "context")
}
