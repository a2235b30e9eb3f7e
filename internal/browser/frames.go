package browser

import (
	"maps"
	"slices"
	"sync"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// pageEvents is what a page keeps from its sessions' events: the open
// dialog, its cross-process iframes, and the subscriptions that follow and
// watch them. It has its own lock, apart from the page's lifecycle.
type pageEvents struct {
	mu       sync.Mutex
	dialog   *cdp.DialogOpeningEvent // the open JavaScript dialog, if any
	frames   map[string]*cdp.Session // cross-process iframe sessions by frame id
	parents  map[string]*cdp.Session // the session each of those frames was announced on
	follows  []*cdp.Subscription     // the page's and its iframes' sessions, handled by onEvent
	watchers []*cdp.Subscription     // open watch subscriptions, given new iframe sessions
}

// reset forgets everything tied to the sessions and returns the
// subscriptions to close. Open watchers are their callers' to close.
func (e *pageEvents) reset() []*cdp.Subscription {
	e.mu.Lock()
	defer e.mu.Unlock()
	subs := e.follows
	e.dialog, e.frames, e.parents, e.follows = nil, nil, nil, nil
	return subs
}

func (e *pageEvents) addFollow(sub *cdp.Subscription) {
	e.mu.Lock()
	e.follows = append(e.follows, sub)
	e.mu.Unlock()
}

// following returns the subscriptions that follow the page's sessions.
func (e *pageEvents) following() []*cdp.Subscription {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.follows)
}

func (e *pageEvents) setDialog(d *cdp.DialogOpeningEvent) {
	e.mu.Lock()
	e.dialog = d
	e.mu.Unlock()
}

func (e *pageEvents) openDialog() *cdp.DialogOpeningEvent {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.dialog
}

// addFrame records the iframe frameID with session child, announced on
// parent, and returns the open watchers, which should get child's events.
func (e *pageEvents) addFrame(frameID string, parent, child *cdp.Session) []*cdp.Subscription {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.frames == nil {
		e.frames, e.parents = map[string]*cdp.Session{}, map[string]*cdp.Session{}
	}
	e.frames[frameID] = child
	e.parents[frameID] = parent
	return slices.Clone(e.watchers)
}

// removeSession forgets the iframes whose session is sessionID.
func (e *pageEvents) removeSession(sessionID string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for id, fs := range e.frames {
		if fs.ID == sessionID {
			delete(e.frames, id)
			delete(e.parents, id)
		}
	}
}

// addWatcher registers sub and returns the iframe sessions it should get
// the events of too.
func (e *pageEvents) addWatcher(sub *cdp.Subscription) []*cdp.Session {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.watchers = append(e.watchers, sub)
	return slices.Collect(maps.Values(e.frames))
}

func (e *pageEvents) removeWatcher(sub *cdp.Subscription) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.watchers = slices.DeleteFunc(e.watchers, func(w *cdp.Subscription) bool { return w == sub })
}

// frameSessions returns the sessions of the cross-process iframes.
func (e *pageEvents) frameSessions() []*cdp.Session {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Collect(maps.Values(e.frames))
}

// frameSession returns the session of iframe frameID, or nil.
func (e *pageEvents) frameSession(frameID string) *cdp.Session {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.frames[frameID]
}

// frameOf returns the iframe whose session is s and the session it was
// announced on; parent is nil when s is no iframe's.
func (e *pageEvents) frameOf(s *cdp.Session) (frameID string, parent *cdp.Session) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for id, fs := range e.frames {
		if fs == s || fs.ID == s.ID {
			return id, e.parents[id]
		}
	}
	return "", nil
}

// frameSessionByID returns the iframe session with id, or nil.
func (e *pageEvents) frameSessionByID(id string) *cdp.Session {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, s := range e.frames {
		if s.ID == id {
			return s
		}
	}
	return nil
}

// childFrames lists the iframes announced on session s, sorted.
func (e *pageEvents) childFrames(s *cdp.Session) []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var ids []string
	for id, parent := range e.parents {
		if parent.ID == s.ID {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}
