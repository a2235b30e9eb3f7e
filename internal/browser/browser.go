// Package browser owns the Chrome we drive: it launches or attaches to it
// lazily, relaunches after it died, and tracks its pages through Target
// domain events so that listing pages never needs to attach to them.
package browser

import (
	"cmp"
	"context"
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
	"github.com/devtools-mcp/devtools-mcp/internal/chrome"
	"github.com/devtools-mcp/devtools-mcp/internal/urlpattern"
)

// Options configure a Manager.
type Options struct {
	Launch chrome.LaunchOptions
	Attach chrome.AttachOptions
	// WebDriver, when enabled, gets each browser from a WebDriver endpoint
	// (a grid), configured by Launch, instead of launching it here.
	WebDriver chrome.WebDriverOptions
	Logger    *slog.Logger
	// ProtocolLog logs every CDP message, raw, to Logger at debug level
	// (DEBUG=protocol). Without it the log never holds message contents:
	// cookies, tokens, page text.
	ProtocolLog bool
	// BlockedURLPatterns and AllowedURLPatterns restrict what every page
	// may load (--blockedUrlPattern, --allowedUrlPattern).
	BlockedURLPatterns, AllowedURLPatterns []string
	// AllowWebSockets turns off the refusal of every WebSocket under URL
	// patterns (see socketguard.go). Only recorded tests set it: the
	// guard attaches to targets in the background, in an order a replay
	// cannot follow.
	AllowWebSockets bool
	// IncludeAllPages lists webviews and extension background pages as
	// pages too (--experimentalIncludeAllPages).
	IncludeAllPages bool
	// Navigation is what the hardening flags forbid this server's own
	// navigations (--no-javascript-evaluation, --no-file-navigations).
	Navigation urlpattern.NavigationPolicy
	// NoSourceMaps leaves console stack frames as Chrome reports them and
	// fetches no source map (--no-source-maps).
	NoSourceMaps bool
	// Dial, when set, replaces launching and attaching: the Manager speaks
	// CDP over the transport Dial returns, owns it, and calls Dial again
	// after it failed. Nothing is started or killed. Tests use it to drive
	// the browser layer with recorded exchanges instead of Chrome.
	Dial func(ctx context.Context) (cdp.Transport, error)
}

// Manager hands out the live browser, starting one on first use. It is safe
// for concurrent use.
type Manager struct {
	opts Options
	log  *slog.Logger

	// sem is held while the current browser is checked or started: a
	// launch takes seconds, and callers waiting for it give up when their
	// context ends instead of queueing behind a mutex.
	sem chan struct{}
	cur *Browser // guarded by sem
	// abandoned is set by a Close that could not wait for the semaphore:
	// the Get holding it shuts the browser down instead of returning it.
	abandoned atomic.Bool

	// lastPageID is the process-wide page id counter: ids are never reused.
	// It is atomic because pages are added on the CDP event goroutine.
	lastPageID atomic.Int64

	// setup holds a slot per page being opened or set up (setupTurn);
	// setupLimit bounds each, PageSetupLimit when zero.
	setup      chan struct{}
	setupLimit time.Duration
}

// NewManager returns a Manager; nothing starts until Get is called.
func NewManager(opts Options) *Manager {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Manager{opts: opts, log: log, sem: make(chan struct{}, 1), setup: make(chan struct{}, setupSlots())}
}

// Attached reports whether the manager attaches to a running browser instead
// of launching one.
func (m *Manager) Attached() bool { return m.opts.Attach.Enabled() }

// Launches reports whether the manager starts Chrome itself: neither
// attached, nor given browsers by a WebDriver endpoint or a Dial.
func (m *Manager) Launches() bool {
	return !m.opts.Attach.Enabled() && !m.opts.WebDriver.Enabled() && m.opts.Dial == nil
}

// acquire takes the manager's semaphore, or fails when ctx ends first.
func (m *Manager) acquire(ctx context.Context) error {
	select {
	case m.sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("waiting for the browser to start: %w", ctx.Err())
	}
}

func (m *Manager) release() { <-m.sem }

// Get returns the live browser, launching or attaching when there is none or
// the previous one went away. While another call is starting the browser,
// Get waits for it at most until ctx ends.
func (m *Manager) Get(ctx context.Context) (*Browser, error) {
	if err := m.acquire(ctx); err != nil {
		return nil, err
	}
	defer m.release()
	b, err := m.current(ctx)
	if abandoned := m.abandoned.Swap(false); abandoned && err == nil {
		m.cur = nil
		b.shutdown(ctx)
		return nil, errors.New("the browser was closed while this call used it")
	}
	return b, err
}

// current returns m.cur when it is alive, else starts a new browser. The
// semaphore must be held.
func (m *Manager) current(ctx context.Context) (*Browser, error) {
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

// cdpOptions are the options of every CDP connection: the log, and with
// ProtocolLog every message in it.
func (m *Manager) cdpOptions() []cdp.Option {
	opts := []cdp.Option{cdp.WithLogger(m.log)}
	if m.opts.ProtocolLog {
		opts = append(opts, cdp.WithProtocolLog())
	}
	return opts
}

// start launches or attaches, then begins tracking targets.
func (m *Manager) start(ctx context.Context) (*Browser, error) {
	b := newBrowser(m, &m.lastPageID)
	switch {
	case m.opts.Dial != nil:
		t, err := m.opts.Dial(ctx)
		if err != nil {
			return nil, fmt.Errorf("connect to the browser: %w", err)
		}
		b.conn = cdp.NewConn(t, m.cdpOptions()...)
	case m.opts.WebDriver.Enabled():
		if err := b.startWebDriver(ctx); err != nil {
			return nil, err
		}
	case m.opts.Attach.Enabled():
		ws, header, err := m.opts.Attach.Endpoint(ctx)
		if err != nil {
			return nil, err
		}
		t, err := cdp.DialWebSocket(ctx, ws, header)
		if err != nil {
			return nil, fmt.Errorf("attach to Chrome: %w. Check that Chrome is running with remote debugging on", err)
		}
		b.conn = cdp.NewConn(t, m.cdpOptions()...)
		m.log.InfoContext(ctx, "attached to Chrome", "endpoint", urlpattern.LogSafe(ws))
	default:
		opts := m.opts.Launch
		opts.NoPreloading = len(m.opts.BlockedURLPatterns)+len(m.opts.AllowedURLPatterns) > 0
		conn, proc, err := chrome.Launch(ctx, opts, m.log, m.cdpOptions()...)
		if err != nil {
			return nil, err
		}
		b.conn, b.proc = conn, proc
		m.log.InfoContext(ctx, "launched Chrome", "pid", proc.Pid())
	}
	if err := b.ready(ctx); err != nil {
		b.shutdown(ctx)
		return nil, err
	}
	return b, nil
}

// ready readies a browser just connected to: learns its version, refuses
// downloads in one the server launched (or a WebDriver session), installs the
// URL filter, and tracks its pages, returning once the page list is complete.
func (b *Browser) ready(ctx context.Context) (err error) {
	b.learnVersion(ctx)
	// Downloads are refused in the same burst as the commands below, and
	// before any of them takes effect (Chrome handles the browser's commands
	// in turn): one round trip less at start-up.
	if b.proc != nil || b.wd != nil {
		denied := cdp.BrowserSetDownloadBehavior.Send(ctx, b.rootSession(), cdp.SetDownloadBehaviorParams{Behavior: "deny"})
		defer func() {
			if _, werr := denied.Wait(ctx); werr != nil && err == nil {
				err = fmt.Errorf("refuse downloads: %w", werr)
			}
		}()
	}
	b.targets = b.conn.SubscribeFunc("", b.onEvent, targetEvents...)
	opts := b.m.opts
	if b.filter = newURLFilter(opts.BlockedURLPatterns, opts.AllowedURLPatterns); b.filter != nil {
		b.filter.speculation = b.proc == nil && opts.Dial == nil
		if err := b.filter.install(ctx, b); err != nil {
			return err
		}
	}
	// Chrome reports every existing target before it answers, so the page
	// list is complete once those events are handled.
	if err := cdp.TargetSetDiscoverTargets.Do(ctx, b.rootSession(), cdp.SetDiscoverTargetsParams{Discover: true}); err != nil {
		return fmt.Errorf("track pages: %w", err)
	}
	if err := b.targets.Sync(ctx); err != nil {
		return fmt.Errorf("track pages: %w", err)
	}
	if b.filter != nil && !opts.AllowWebSockets {
		return b.filter.guardSockets(ctx, b)
	}
	return nil
}

// Close closes a launched browser (and removes an isolated profile) or
// disconnects from an attached one, leaving it running. When ctx ends while
// a Get holds the browser (starting it, say), that Get shuts it down.
func (m *Manager) Close(ctx context.Context) {
	if err := m.acquire(ctx); err != nil {
		m.abandoned.Store(true)
		m.log.Warn("browser busy at close; the call using it will shut it down", "err", err)
		return
	}
	b := m.cur
	m.cur = nil
	m.release()
	if b != nil {
		b.shutdown(ctx)
	}
}

// newBrowser returns an unconnected Browser of m whose page ids come from ids.
func newBrowser(m *Manager, ids *atomic.Int64) *Browser {
	return &Browser{m: m, log: m.log, bg: newBackground(m.log), pages: map[string]*Page{}, contexts: map[string]string{}, ids: ids, firstID: int(ids.Load()) + 1}
}

// newPageID takes the next id from the browser's counter.
func (b *Browser) newPageID() int {
	return int(b.ids.Add(1))
}

// Browser is one connection to Chrome and the pages seen through it.
type Browser struct {
	m       *Manager
	log     *slog.Logger
	conn    *cdp.Conn
	proc    *chrome.Process          // nil when attached
	wd      *chrome.WebDriverSession // the grid session the browser belongs to, or nil
	bg      *background              // follow-ups of events; stopped by release
	targets *cdp.Subscription
	ids     *atomic.Int64 // the page id counter: the Manager's, or a Scope's
	firstID int           // the first page id handed out for this browser
	filter  *urlFilter
	facts   browserFacts // its version and default context
	dl      downloads    // the downloads pages were allowed to make

	// root is the session of browser-level commands and target events:
	// "" for the connection's own, or, in a Scope's view, a session of
	// Target.attachToBrowserTarget whose target events are the view's.
	root string
	// ownContext, in a Scope's view, is the browser context its pages
	// live in; "" for a browser that sees every context.
	ownContext string
	// view marks a Scope's view: it shares its Manager's connection, which
	// it must not close.
	view bool
	// base, in a Scope's view, is the Manager's browser it is a view of.
	base *Browser

	front front // which page is its window's front tab (see toFront)

	mu       sync.Mutex
	pages    map[string]*Page // by target id
	selected *Page
	contexts map[string]string // isolated context name -> browser context id

	endedMu sync.Mutex
	ended   []*Recording // screencasts that ended on their own, not told yet

	workersMu    sync.Mutex
	workerIDs    map[string]string // extension service worker target id -> "sw-N"
	lastWorkerID int

	files privateFiles // copies of the files it was given to read
}

// FirstPageID is the first page id handed out for this browser; lower ids
// belonged to browsers before it.
func (b *Browser) FirstPageID() int { return b.firstID }

// Conn is the browser-level CDP connection.
func (b *Browser) Conn() *cdp.Conn { return b.conn }

// rootSession is where browser-level commands go: the connection's own
// session, or a Scope view's browser session.
func (b *Browser) rootSession() *cdp.Session { return b.conn.Session(b.root) }

// Alive reports whether the connection to the browser still works.
func (b *Browser) Alive() bool {
	select {
	case <-b.conn.Done():
		return false
	default:
		return true
	}
}

// release forgets a dead browser: kills what is left of a launched one and
// waits for the background work, which the closed connection ends.
func (b *Browser) release() {
	if b.targets != nil {
		b.targets.Close()
	}
	if !b.view {
		b.filter.stop() // a view borrows its Manager browser's filter
	}
	b.bg.cancel()
	if !b.view {
		b.conn.Close()
	}
	if b.proc != nil {
		b.proc.Kill()
	}
	if b.wd != nil {
		b.wd.Close()
	}
	b.files.remove() // Chrome, if ours, is gone; an attached one reads no more for us
	b.bg.stop()
	for _, p := range b.pageList() {
		p.sessions().stopFollowing()
	}
	b.endDownloads(context.Background()) // a no-op after shutdown's
}

// shutdown closes the browser cleanly: a launched one is asked to close and
// killed if it does not within a few seconds; an attached one is only
// disconnected from.
func (b *Browser) shutdown(ctx context.Context) {
	b.endRecordings(ctx)
	b.endDownloads(ctx)
	if b.proc != nil && b.Alive() {
		cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		if err := cdp.BrowserClose.Do(cctx, b.rootSession()); err != nil {
			b.log.Debug("closing Chrome", "method", cdp.BrowserClose.Method, "err", err)
		}
		cancel()
		select {
		case <-b.proc.Exited():
		case <-time.After(3 * time.Second):
		}
	}
	b.release()
}

// startWebDriver connects b to a new browser of the WebDriver endpoint,
// whose session lives as long as b: kept alive while b is, deleted when b
// is released, and b's connection closed should the endpoint end it.
func (b *Browser) startWebDriver(ctx context.Context) error {
	wd, ws, header, err := chrome.StartWebDriver(ctx, b.m.opts.WebDriver, b.m.opts.Launch, b.log)
	if err != nil {
		return err
	}
	t, err := cdp.DialWebSocket(ctx, ws, header)
	if err != nil {
		wd.Close()
		return fmt.Errorf("connect to the WebDriver session's browser: %w", err)
	}
	b.conn, b.wd = cdp.NewConn(t, b.m.cdpOptions()...), wd
	wd.KeepAlive(chrome.WebDriverKeepAlive, func() { b.conn.Close() })
	return nil
}

// synced waits until the target events received so far are handled, so
// that the page list reflects them. It gives up when the browser closes.
// Called from the target events' handler, which would wait for itself, it
// panics: the handler reads the unsynced state (Page.state) instead.
func (b *Browser) synced() {
	if b.targets != nil {
		mustSync(b.targets.Sync(b.bg.ctx)) // fails only when the browser is gone
	}
}

// mustSync panics when err says a subscription's handler waited for
// itself, a deadlock made loud; other errors (the browser or page gone)
// leave the state as it is, final.
func mustSync(err error) {
	if errors.Is(err, cdp.ErrSyncFromSubscriber) {
		panic("browser: " + err.Error() + "; read the unsynced state from event handlers")
	}
}

// targetEvents are the events the browser tracks its pages by.
var targetEvents = []cdp.EventType{cdp.TargetTargetCreated, cdp.TargetTargetInfoChanged, cdp.TargetTargetDestroyed, cdp.TargetTargetCrashed, cdp.TargetDetachedFromTarget}

// onEvent tracks pages from Target domain events. It runs on the browser's
// target subscription, one event after the other.
func (b *Browser) onEvent(ev cdp.RawEvent) {
	params := ev.Params
	switch ev.Method {
	case cdp.TargetTargetCreated.Method:
		if ev, err := cdp.TargetTargetCreated.Decode(params); err == nil && isPage(ev.TargetInfo, b.m.opts.IncludeAllPages) {
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
			for _, p := range b.pageList() {
				p.detached(ev.SessionID)
			}
		}
	}
}

// isPage says whether a target is a page the agent should see: tabs and
// popups, but not Chrome's own UI pages or extension backgrounds; with
// all, also webviews and extension background pages (which live at
// chrome-extension:// URLs).
func isPage(t cdp.TargetInfo, all bool) bool {
	switch {
	case all && (t.Type == "webview" || t.Type == "background_page"):
		return !strings.HasPrefix(t.URL, "devtools://")
	case t.Type != "page":
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
	if _, ok := b.pages[info.TargetID]; ok || !b.seesLocked(info.BrowserContextID) {
		return
	}
	p := newPage(b, b.newPageID(), info)
	// A popup is the agent's when its opener is, or when the agent's call
	// acting on the user's tab that opened it (or its grace period) was
	// under way: the agent's click or script opened it.
	if opener := b.pages[info.OpenerID]; opener != nil && (opener.state().Owned || opener.leave.active(time.Now())) {
		p.owned = true
	}
	if len(b.pages) == 0 {
		b.front.broughtToFront(p) // a browser's first tab is its window's front one
	} else {
		b.front.moved()
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
	b.front.moved()
	p.markClosed()
	b.bg.Go(func(context.Context) { b.files.removePage(p.ID) }) // not on the event loop
	if p.emu.get().Downloads != nil {
		b.bg.Go(func(ctx context.Context) { b.pageDownloadsGone(ctx, p) })
	}
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

// Pages returns the open pages in id order, as of every target event
// received so far.
func (b *Browser) Pages() []*Page {
	b.synced()
	return b.pageList()
}

// pageList is Pages without waiting for the target events to be handled,
// for the code that handles them.
func (b *Browser) pageList() []*Page {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sortedLocked()
}

// Selected returns the page tools act on by default, or nil if there is none.
func (b *Browser) Selected() *Page {
	b.synced()
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
	b.synced()
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
