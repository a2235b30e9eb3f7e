package browser

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// Navigation says where a page should go.
type Navigation struct {
	// Type is url (the default when URL is set), back, forward or reload.
	Type string
	URL  string
	// IgnoreCache reloads without the HTTP cache (reload only).
	IgnoreCache bool
	// DismissBeforeUnload stays on the page when it asks "leave site?";
	// by default the dialog is accepted.
	DismissBeforeUnload bool
	// InitScript runs before any page script of the next document only.
	InitScript string
	// Prepare gets the new document ready for a snapshot while it loads
	// (its first rendering, its size), for navigate_page and new_page,
	// whose next call is most often take_snapshot: see Page.prepare.
	Prepare bool
}

// NavigationResult tells what happened.
type NavigationResult struct {
	// BeforeUnload is "accepted" or "dismissed" when the page asked to
	// confirm leaving, else "".
	BeforeUnload string
}

// ErrNavigationTimeout is wrapped when a navigation did not finish loading in time.
var ErrNavigationTimeout = errors.New("navigation timed out")

// ErrNoHistory is wrapped when back or forward has nowhere to go.
var ErrNoHistory = errors.New("no history entry")

// NavigationError is the error of a navigation Chrome refused or could
// not complete (an unreachable host, a blocked URL, an unsafe port). The
// page then shows Chrome's error page for URL.
type NavigationError struct {
	URL string
	// Reason is Chrome's error code (net::ERR_NAME_NOT_RESOLVED) or, for
	// a URL the server's own filter blocks, why it is blocked.
	Reason string
}

func (e *NavigationError) Error() string { return fmt.Sprintf("navigate to %s: %s", e.URL, e.Reason) }

// loadEvents are the events a navigation is awaited by.
var loadEvents = []cdp.EventType{cdp.PageLifecycleEvent, cdp.PageFrameNavigated, cdp.PageNavigatedWithinDocument, cdp.PageJavascriptDialogOpening}

// loadWatch follows the main frame's navigations on a session: which
// document committed, which loaded. It is used on the navigating caller's
// goroutine only.
type loadWatch struct {
	mainFrame string
	committed string          // loader of the last main-frame commit
	loaded    map[string]bool // loaders whose load event fired
	// settled is set when the navigation ends without a new document to
	// load: a same-document navigation (seen before any document
	// committed: once one did, its own history.replaceState or hash
	// change during its load, as Sphinx's pages and many single-page
	// apps make, ends nothing), or a back/forward-cache restore.
	settled bool
}

// onEvent records what ev tells, and returns the beforeunload dialog it
// opens, if it does.
func (w *loadWatch) onEvent(ev Event) *cdp.DialogOpeningEvent {
	switch ev.Method {
	case cdp.PageLifecycleEvent.Method:
		if e, err := cdp.PageLifecycleEvent.Decode(ev.Params); err == nil && e.Name == "load" && e.FrameID == w.mainFrame {
			w.loaded[e.LoaderID] = true
		}
	case cdp.PageFrameNavigated.Method:
		if e, err := cdp.PageFrameNavigated.Decode(ev.Params); err == nil && e.Frame.ParentID == "" {
			w.committed = e.Frame.LoaderID
			if e.Type == "BackForwardCacheRestore" {
				w.settled = true
			}
		}
	case cdp.PageNavigatedWithinDocument.Method:
		if e, err := cdp.PageNavigatedWithinDocument.Decode(ev.Params); err == nil && e.FrameID == w.mainFrame && w.committed == "" {
			w.settled = true
		}
	case cdp.PageJavascriptDialogOpening.Method:
		if e, err := cdp.PageJavascriptDialogOpening.Decode(ev.Params); err == nil && e.Type == "beforeunload" {
			return &e
		}
	}
	return nil
}

// done reports whether the navigation of loader (or, when loader is empty,
// of whatever the main frame committed) has finished loading. A loader
// Chrome named is a new document's, whose load is awaited whatever
// same-document navigations the page makes meanwhile.
func (w *loadWatch) done(loader string) bool {
	if w.settled && loader == "" {
		return true
	}
	if loader == "" {
		loader = w.committed
	}
	return loader != "" && w.loaded[loader]
}

// Navigate moves the page as nav says and waits until the new document has
// loaded. A beforeunload dialog is accepted or dismissed as asked. On
// timeout (ctx's deadline) the error wraps ErrNavigationTimeout and the page
// keeps whatever it loaded.
func (p *Page) Navigate(ctx context.Context, nav Navigation) (NavigationResult, error) {
	var res NavigationResult
	pol := p.browser.m.opts.Navigation
	if nav.InitScript != "" {
		if err := pol.CheckInitScript(); err != nil {
			return res, err
		}
	}
	if nav.Type == "" || nav.Type == "url" {
		if err := pol.Check(nav.URL); err != nil {
			return res, err
		}
	}
	s, err := p.Session(ctx)
	var busy *BusyError
	if errors.As(err, &busy) && busy.AtAttach && (nav.Type == "" || nav.Type == "url") {
		s, err = p.leaveStuck(ctx)
	}
	if err != nil {
		return res, err
	}
	p.stopIfBusy(ctx, s)
	if err := p.suspendLeaveGuard(ctx, s); err != nil {
		return res, fmt.Errorf("suspend the leave guard: %w", err)
	}
	sub := s.Subscribe(loadEvents...)
	defer sub.Close()
	w := &loadWatch{mainFrame: p.TargetID, loaded: map[string]bool{}}

	if nav.InitScript != "" {
		added, err := cdp.PageAddScriptToEvaluateOnNewDocument.Call(ctx, s, cdp.AddScriptParams{Source: nav.InitScript})
		if err != nil {
			return res, fmt.Errorf("add initScript: %w", err)
		}
		// Remove it even when ctx ran out: it is for this navigation only.
		defer p.cleanUp(ctx, s, cdp.PageRemoveScriptToEvaluateOnNewDocument.With(added), cdp.PageRemoveScriptToEvaluateOnNewDocument.Method)
	}

	// The command runs beside the wait: Chrome answers some of them only
	// after a beforeunload dialog was handled.
	type started struct {
		loader string
		err    error
	}
	startc := make(chan started, 1)
	actx, cancel := context.WithCancel(ctx)
	go func() {
		loader, err := p.startNavigation(actx, s, nav)
		startc <- started{loader, err}
	}()
	pending := true
	defer func() {
		cancel()
		if pending {
			<-startc // the command's call ends with actx
		}
	}()

	defer cdp.WaitClockFrom(ctx).Wait()() // for the load, beside the command
	var loader string
	var pr *prepared   // the new document got ready, with Prepare
	var prepFor string // the loader of its commit
	// failed is the refusal of a navigation whose error page still loads:
	// it is returned once that page loaded, so that what the agent is told
	// next (the pages' URLs) is the error page's, not the one before.
	var failed *NavigationError
	for {
		if !pending && w.done(loader) {
			if pr != nil {
				pr.loaded.Store(true)
				if !w.settled {
					p.awaitPrepared(ctx, pr)
				}
			}
			if failed != nil {
				return res, failed
			}
			p.setCrashed("")
			return res, nil
		}
		select {
		case st := <-startc:
			pending = false
			if errors.As(st.err, &failed) && st.loader != "" {
				loader = st.loader
				continue
			}
			if st.err != nil {
				return res, st.err
			}
			loader = st.loader
		case ev, ok := <-sub.Events():
			if !ok {
				return res, fmt.Errorf("navigate: %w", s.Conn.Err())
			}
			d := w.onEvent(ev)
			if nav.Prepare && w.committed != prepFor && !w.settled {
				// In the background: the navigation waits for it only
				// past the load, and briefly (awaitPrepared).
				prepFor = w.committed
				pr = p.prepare(ctx, s, w.mainFrame)
			}
			if d == nil {
				continue
			}
			accept := !nav.DismissBeforeUnload
			if err := cdp.PageHandleJavaScriptDialog.Do(ctx, s, cdp.HandleDialogParams{Accept: accept}); err != nil {
				return res, fmt.Errorf("answer the page's beforeunload dialog: %w", err)
			}
			if !accept {
				res.BeforeUnload = "dismissed"
				return res, nil
			}
			res.BeforeUnload = "accepted"
		case <-ctx.Done():
			if failed != nil {
				return res, failed
			}
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return res, fmt.Errorf("%w: the page did not finish loading in time; it keeps what it loaded so far", ErrNavigationTimeout)
			}
			return res, ctx.Err()
		}
	}
}

// startNavigation sends the command for nav and returns the loader of the
// new document when Chrome tells it ("" when it will be learnt from events).
// A navigation Chrome refuses returns the loader of its error page with a
// *NavigationError.
func (p *Page) startNavigation(ctx context.Context, s *cdp.Session, nav Navigation) (string, error) {
	switch nav.Type {
	case "", "url":
		res, err := cdp.PageNavigate.Call(ctx, s, cdp.NavigateParams{URL: nav.URL})
		if err != nil {
			return "", fmt.Errorf("navigate to %s: %w", nav.URL, err)
		}
		if res.ErrorText != "" {
			reason := res.ErrorText
			if why := p.browser.filter.why(nav.URL); why != "" && strings.Contains(res.ErrorText, "BLOCKED_BY_CLIENT") {
				reason = why
			}
			return res.LoaderID, &NavigationError{URL: nav.URL, Reason: reason}
		}
		return res.LoaderID, nil
	case "reload":
		if err := cdp.PageReload.Do(ctx, s, cdp.ReloadParams{IgnoreCache: nav.IgnoreCache}); err != nil {
			return "", fmt.Errorf("reload: %w", err)
		}
		return "", nil
	case "back", "forward":
		h, err := cdp.PageGetNavigationHistory.Call(ctx, s)
		if err != nil {
			return "", fmt.Errorf("read history: %w", err)
		}
		i := h.CurrentIndex - 1
		if nav.Type == "forward" {
			i = h.CurrentIndex + 1
		}
		if i < 0 || i >= len(h.Entries) {
			where := map[string]string{"back": "the first", "forward": "the last"}[nav.Type]
			return "", fmt.Errorf("%w: cannot go %s, this page is %s in its history", ErrNoHistory, nav.Type, where)
		}
		// The entry may be a URL the policy forbids, opened before this
		// server was attached or by the page itself.
		if err := p.browser.m.opts.Navigation.Check(h.Entries[i].URL); err != nil {
			return "", err
		}
		if err := cdp.PageNavigateToHistoryEntry.Do(ctx, s, cdp.NavigateToHistoryEntryParams{EntryID: h.Entries[i].ID}); err != nil {
			return "", fmt.Errorf("go %s: %w", nav.Type, err)
		}
		return "", nil
	}
	return "", fmt.Errorf("unknown navigation type %q; use url, back, forward or reload", nav.Type)
}

// leaveStuck takes a page that was busy before the server attached to it,
// which no session of ours can set up or stop, to about:blank, then
// attaches to it there. Page.navigate is the browser's to carry out, so a
// bare session can send it, and Chrome loads about:blank, asked for by the
// browser, in a new process, free of the loop; the caller's navigation
// then goes on from there, watched as usual.
func (p *Page) leaveStuck(ctx context.Context) (*cdp.Session, error) {
	root := p.browser.rootSession()
	res, err := cdp.TargetAttachToTarget.Call(ctx, root, cdp.AttachToTargetParams{TargetID: p.TargetID, Flatten: true})
	if err != nil {
		return nil, fmt.Errorf("attach to page %d: %w", p.ID, err)
	}
	bare := p.browser.conn.Session(res.SessionID)
	_, err = cdp.PageNavigate.Call(ctx, bare, cdp.NavigateParams{URL: "about:blank"})
	p.cleanUp(ctx, root, cdp.TargetDetachFromTarget.With(cdp.DetachFromTargetParams{SessionID: bare.ID}), cdp.TargetDetachFromTarget.Method)
	if err != nil {
		return nil, fmt.Errorf("take the busy page %d away from its script: %w", p.ID, err)
	}
	return p.Session(ctx)
}
