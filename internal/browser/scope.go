package browser

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// Scope is one client's isolated share of a Manager's browser, for a
// server with many clients at once (MCP sessions over HTTP). Its Browser
// is a view of the Manager's: a browser session of its own
// (Target.attachToBrowserTarget) whose pages live in a browser context of
// their own, so cookies, storage, cache and permissions are the client's
// alone, and the page list, page ids (from 1), selection and everything
// kept per page are too. Other clients' pages, and the browser's default
// context, are never seen.
//
// The view is made on the first Get, with one blank page as a launched
// browser has, and made again after the Manager's browser went away, with
// page ids going on where they stopped. Close disposes the contexts and
// their pages. A Scope is safe for concurrent use.
type Scope struct {
	m *Manager

	sem    chan struct{} // held while the view is checked or made
	cur    *Browser      // guarded by sem
	closed bool          // guarded by sem
	// abandoned is set by a Close that could not wait for sem: the Get
	// holding it closes the view instead of returning it.
	abandoned atomic.Bool

	ids atomic.Int64 // the scope's page id counter: ids are never reused
}

// errScopeClosed is returned by Get after Close.
var errScopeClosed = errors.New("this client's browser context was closed: its session ended")

// NewScope returns a new Scope of m's browser; nothing is created until
// its Get.
func (m *Manager) NewScope() *Scope {
	return &Scope{m: m, sem: make(chan struct{}, 1)}
}

// Attached reports whether the Manager attaches to a running browser
// rather than launching one.
func (s *Scope) Attached() bool { return s.m.Attached() }

// Get returns the scope's view, starting the Manager's browser and making
// the view when needed. While another call is making it, Get waits at
// most until ctx ends.
func (s *Scope) Get(ctx context.Context) (*Browser, error) {
	select {
	case s.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("waiting for the browser to start: %w", ctx.Err())
	}
	defer func() { <-s.sem }()
	if s.closed {
		return nil, errScopeClosed
	}
	if s.cur != nil && s.cur.Alive() {
		return s.cur, nil
	}
	if s.cur != nil {
		s.cur.release()
		s.cur = nil
	}
	base, err := s.m.Get(ctx)
	if err != nil {
		return nil, err
	}
	v, err := base.newView(ctx, &s.ids)
	if err != nil {
		return nil, err
	}
	if s.abandoned.Load() {
		s.closed = true
		v.closeView(ctx)
		return nil, errScopeClosed
	}
	s.cur = v
	return v, nil
}

// Close disposes the scope's browser contexts, which closes their pages,
// and ends its browser session. Later Gets fail. When ctx ends while a Get
// is making the view, that Get closes it.
func (s *Scope) Close(ctx context.Context) {
	s.abandoned.Store(true)
	select {
	case s.sem <- struct{}{}:
	case <-ctx.Done():
		s.m.log.Warn("browser context busy at close; the call making it will close it", "err", ctx.Err())
		return
	}
	defer func() { <-s.sem }()
	s.closed = true
	if s.cur != nil {
		s.cur.closeView(ctx)
		s.cur = nil
	}
}

// newView makes a view of b for a Scope whose page ids come from ids: a
// browser session that tracks only the pages of a new browser context,
// which holds one blank page.
func (b *Browser) newView(ctx context.Context, ids *atomic.Int64) (*Browser, error) {
	res, err := cdp.TargetAttachToBrowserTarget.Call(ctx, b.rootSession())
	if err != nil {
		return nil, fmt.Errorf("open a browser session for this client: %w", err)
	}
	v := newBrowser(b.m, ids)
	v.conn, v.root, v.view, v.filter = b.conn, res.SessionID, true, b.filter
	v.base = b
	v.facts.version = b.facts.version
	// Disposed by Chrome too should the session end without closeView.
	bc, err := cdp.TargetCreateBrowserContext.Call(ctx, v.rootSession(), cdp.CreateBrowserContextParams{DisposeOnDetach: true})
	if err != nil {
		v.closeView(ctx)
		return nil, fmt.Errorf("create this client's browser context: %w", err)
	}
	v.ownContext = bc.BrowserContextID
	if err := v.denyDownloads(ctx, bc.BrowserContextID); err != nil {
		v.closeView(ctx)
		return nil, err
	}
	v.targets = v.conn.SubscribeFunc(v.root, v.onEvent, targetEvents...)
	if err := cdp.TargetSetDiscoverTargets.Do(ctx, v.rootSession(), cdp.SetDiscoverTargetsParams{Discover: true}); err != nil {
		v.closeView(ctx)
		return nil, fmt.Errorf("track this client's pages: %w", err)
	}
	p, err := v.NewPage(ctx, "", false)
	if err != nil {
		v.closeView(ctx)
		return nil, err
	}
	p.mu.Lock()
	p.initial = true
	p.mu.Unlock()
	return v, nil
}

// closeView disposes a view's browser contexts (closing their pages) and
// detaches its browser session, then releases it. The shared connection
// stays open.
func (b *Browser) closeView(ctx context.Context) {
	b.endRecordings(ctx)
	if b.Alive() {
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		b.mu.Lock()
		ids := []string{b.ownContext}
		for _, id := range b.contexts {
			ids = append(ids, id)
		}
		b.mu.Unlock()
		for _, id := range ids {
			if id == "" {
				continue
			}
			if err := cdp.TargetDisposeBrowserContext.Do(ctx, b.rootSession(), cdp.DisposeBrowserContextParams{BrowserContextID: id}); err != nil {
				b.log.Debug("dispose a client's browser context", "context", id, "err", err)
			}
		}
		if err := cdp.TargetDetachFromTarget.Do(ctx, b.conn.Session(""), cdp.DetachFromTargetParams{SessionID: b.root}); err != nil {
			b.log.Debug("end a client's browser session", "err", err)
		}
	}
	b.release()
}
