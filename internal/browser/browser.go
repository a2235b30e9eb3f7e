// Package browser owns the Chrome we drive: it launches or attaches to it
// lazily, relaunches after it died, and tracks its pages through Target
// domain events so that listing pages never needs to attach to them.
package browser

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// Options configure a Manager.
type Options struct {
	Launch LaunchOptions
	Attach AttachOptions
	Logger *slog.Logger
	// BlockedURLPatterns and AllowedURLPatterns restrict what every page
	// may load (--blockedUrlPattern, --allowedUrlPattern).
	BlockedURLPatterns, AllowedURLPatterns []string
}

// Manager hands out the live browser, starting one on first use. It is safe
// for concurrent use.
type Manager struct {
	opts Options
	log  *slog.Logger

	mu  sync.Mutex
	cur *Browser

	// lastPageID is the process-wide page id counter: ids are never reused.
	// It is atomic because pages are added on the CDP reader goroutine.
	lastPageID atomic.Int64
}

// NewManager returns a Manager; nothing starts until Get is called.
func NewManager(opts Options) *Manager {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Manager{opts: opts, log: log}
}

// Attached reports whether the manager attaches to a running browser instead
// of launching one.
func (m *Manager) Attached() bool { return m.opts.Attach.Enabled() }

// Get returns the live browser, launching or attaching when there is none or
// the previous one went away.
func (m *Manager) Get(ctx context.Context) (*Browser, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.cur != nil && m.cur.Alive() {
		return m.cur, nil
	}
	if m.cur != nil {
		m.cur.release()
		m.cur = nil
	}
	b, err := m.start(ctx)
	if err != nil {
		return nil, err
	}
	m.cur = b
	return b, nil
}

// start launches or attaches, then begins tracking targets.
func (m *Manager) start(ctx context.Context) (*Browser, error) {
	b := &Browser{m: m, pages: map[string]*Page{}, contexts: map[string]string{}, firstID: int(m.lastPageID.Load()) + 1}
	if m.opts.Attach.Enabled() {
		ws, header, err := m.opts.Attach.endpoint(ctx)
		if err != nil {
			return nil, err
		}
		t, err := cdp.DialWebSocket(ctx, ws, header)
		if err != nil {
			return nil, fmt.Errorf("attach to Chrome: %w. Check that Chrome is running with remote debugging on", err)
		}
		b.conn = cdp.NewConn(t, cdp.WithLogger(m.log))
		m.log.Info("attached to Chrome", "endpoint", ws)
	} else {
		conn, proc, err := launch(ctx, m.opts.Launch, m.log)
		if err != nil {
			return nil, err
		}
		b.conn, b.proc = conn, proc
		m.log.Info("launched Chrome", "pid", proc.cmd.Process.Pid)
	}
	b.stopEvents = b.conn.Listen("", b.onEvent)
	if b.filter = newURLFilter(m.opts.BlockedURLPatterns, m.opts.AllowedURLPatterns); b.filter != nil {
		if err := b.filter.install(ctx, b); err != nil {
			b.shutdown(ctx)
			return nil, err
		}
	}
	// Chrome reports every existing target before it answers, so the page
	// list is complete when this returns.
	if err := cdp.TargetSetDiscoverTargets.Do(ctx, b.conn.Session(""), cdp.SetDiscoverTargetsParams{Discover: true}); err != nil {
		b.shutdown(ctx)
		return nil, fmt.Errorf("track pages: %w", err)
	}
	return b, nil
}

// Close closes a launched browser (and removes an isolated profile) or
// disconnects from an attached one, leaving it running.
func (m *Manager) Close(ctx context.Context) {
	m.mu.Lock()
	b := m.cur
	m.cur = nil
	m.mu.Unlock()
	if b != nil {
		b.shutdown(ctx)
	}
}

// newPageID takes the next id from the process-wide counter.
func (m *Manager) newPageID() int {
	return int(m.lastPageID.Add(1))
}

// Browser is one connection to Chrome and the pages seen through it.
type Browser struct {
	m          *Manager
	conn       *cdp.Conn
	proc       *process // nil when attached
	stopEvents func()
	firstID    int // the first page id handed out for this browser
	filter     *urlFilter

	mu       sync.Mutex
	pages    map[string]*Page // by target id
	selected *Page
	contexts map[string]string // isolated context name -> browser context id
}

// FirstPageID is the first page id handed out for this browser; lower ids
// belonged to browsers before it.
func (b *Browser) FirstPageID() int { return b.firstID }

// Conn is the browser-level CDP connection.
func (b *Browser) Conn() *cdp.Conn { return b.conn }

// Alive reports whether the connection to the browser still works.
func (b *Browser) Alive() bool {
	select {
	case <-b.conn.Done():
		return false
	default:
		return true
	}
}

// release forgets a dead browser: kills what is left of a launched one.
func (b *Browser) release() {
	b.stopEvents()
	b.conn.Close()
	if b.proc != nil {
		b.proc.kill()
	}
}

// shutdown closes the browser cleanly: a launched one is asked to close and
// killed if it does not within a few seconds; an attached one is only
// disconnected from.
func (b *Browser) shutdown(ctx context.Context) {
	if b.proc != nil && b.Alive() {
		cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		_ = cdp.BrowserClose.Do(cctx, b.conn.Session(""))
		cancel()
		select {
		case <-b.proc.exited:
		case <-time.After(3 * time.Second):
		}
	}
	b.release()
}

// onEvent tracks pages from Target domain events. It runs on the connection's
// reader goroutine and only updates maps.
func (b *Browser) onEvent(method string, params json.RawMessage) {
	switch method {
	case cdp.TargetTargetCreated.Method:
		if ev, err := cdp.TargetTargetCreated.Decode(params); err == nil && isPage(ev.TargetInfo) {
			b.addPage(ev.TargetInfo)
		}
	case cdp.TargetTargetInfoChanged.Method:
		if ev, err := cdp.TargetTargetInfoChanged.Decode(params); err == nil {
			b.mu.Lock()
			if p := b.pages[ev.TargetInfo.TargetID]; p != nil {
				p.setInfo(ev.TargetInfo)
			}
			b.mu.Unlock()
		}
	case cdp.TargetTargetDestroyed.Method:
		if ev, err := cdp.TargetTargetDestroyed.Decode(params); err == nil {
			b.removePage(ev.TargetID)
		}
	case cdp.TargetTargetCrashed.Method:
		if ev, err := cdp.TargetTargetCrashed.Decode(params); err == nil {
			b.mu.Lock()
			if p := b.pages[ev.TargetID]; p != nil {
				p.setCrashed(cmp.Or(ev.Status, "crashed"))
			}
			b.mu.Unlock()
		}
	case cdp.TargetDetachedFromTarget.Method:
		if ev, err := cdp.TargetDetachedFromTarget.Decode(params); err == nil {
			b.mu.Lock()
			for _, p := range b.pages {
				p.detached(ev.SessionID)
			}
			b.mu.Unlock()
		}
	}
}

// isPage says whether a target is a page the agent should see: tabs and
// popups, but not Chrome's own UI pages or extension backgrounds.
func isPage(t cdp.TargetInfo) bool {
	if t.Type != "page" {
		return false
	}
	if t.URL == "chrome://newtab/" || strings.HasPrefix(t.URL, "chrome://inspect") {
		return true
	}
	for _, prefix := range []string{"chrome://", "chrome-untrusted://", "chrome-extension://", "devtools://"} {
		if strings.HasPrefix(t.URL, prefix) {
			return false
		}
	}
	return true
}

func (b *Browser) addPage(info cdp.TargetInfo) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.pages[info.TargetID]; ok {
		return
	}
	p := newPage(b, b.m.newPageID(), info)
	if opener := b.pages[info.OpenerID]; opener != nil && opener.Owned() {
		p.owned = true
	}
	b.pages[info.TargetID] = p
	if b.selected == nil {
		b.selected = p
	}
}

func (b *Browser) removePage(targetID string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	p := b.pages[targetID]
	if p == nil {
		return
	}
	delete(b.pages, targetID)
	p.markClosed()
	if b.selected == p {
		b.selected = nil
		if ps := b.sortedLocked(); len(ps) > 0 {
			b.selected = ps[len(ps)-1]
		}
	}
}

// sortedLocked returns the pages in id order. b.mu must be held.
func (b *Browser) sortedLocked() []*Page {
	ps := make([]*Page, 0, len(b.pages))
	for _, p := range b.pages {
		ps = append(ps, p)
	}
	slices.SortFunc(ps, func(a, b *Page) int { return a.ID - b.ID })
	return ps
}

// Pages returns the open pages in id order.
func (b *Browser) Pages() []*Page {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sortedLocked()
}

// Selected returns the page tools act on by default, or nil if there is none.
func (b *Browser) Selected() *Page {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.selected
}

// Select makes p the page tools act on by default.
func (b *Browser) Select(p *Page) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.pages[p.TargetID] == p {
		b.selected = p
	}
}

// ErrUnknownPage is wrapped by errors for page ids that name no open page.
var ErrUnknownPage = errors.New("unknown page")

// Page returns the open page with id, or an error that lists the valid ids
// (and says so when the id belonged to a browser that is gone).
func (b *Browser) Page(id int) (*Page, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var ids []string
	for _, p := range b.sortedLocked() {
		if p.ID == id {
			return p, nil
		}
		ids = append(ids, strconv.Itoa(p.ID))
	}
	valid := "there are no open pages"
	if len(ids) > 0 {
		valid = "open pages: " + strings.Join(ids, ", ")
	}
	if id < b.firstID && id > 0 {
		return nil, fmt.Errorf("%w: page %d belonged to a browser that has since closed or reconnected; %s (call list_pages)", ErrUnknownPage, id, valid)
	}
	return nil, fmt.Errorf("%w: no page with id %d; %s (call list_pages)", ErrUnknownPage, id, valid)
}

// SelectedOrNew returns the selected page, opening a blank one when the
// browser has no page at all (possible when attached).
func (b *Browser) SelectedOrNew(ctx context.Context) (*Page, error) {
	if p := b.Selected(); p != nil {
		return p, nil
	}
	return b.NewPage(ctx, "", false)
}
