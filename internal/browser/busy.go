package browser

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// BusyPolicy says what a call does when the page it acts on stops
// answering (its main thread runs JavaScript that never yields).
type BusyPolicy int

const (
	// BusyFails ends the call with a *BusyError.
	BusyFails BusyPolicy = iota
	// BusyInterrupts lets the call go on: it takes the page away from its
	// loop (a navigation or closing, which first stops the script of a
	// busy page: see stopIfBusy).
	BusyInterrupts
	// BusyWaits leaves the call to its own deadline: for calls that run the
	// caller's code under --scriptTimeout, or that keep the page's main
	// thread busy themselves (a heap snapshot, an audit).
	BusyWaits
)

// The watchdog's timing: a command unanswered for stallAfter gets a probe,
// and a probe unanswered for probeFor means the page is busy. A command
// whose work grows with the page (see longWork) gets workStallAfter first:
// Chrome does it on the page's main thread, which then leaves the probe
// unanswered too, and on a big page or a loaded machine it runs for
// seconds without anything being wrong.
const (
	stallAfter     = 2 * time.Second
	workStallAfter = 20 * time.Second
	probeFor       = 2 * time.Second
	dialogAfter    = time.Second
	watchTick      = 100 * time.Millisecond
)

// BusyError is why a call on a busy page was stopped.
type BusyError struct {
	PageID int
	Method string        // the command that got no answer
	For    time.Duration // how long it had waited
	// AtAttach says the page was busy before the server attached to it:
	// Chrome binds a new connection on the page's main thread, so such a
	// connection cannot stop the script.
	AtAttach bool
}

func (e *BusyError) Error() string {
	if e.AtAttach {
		return fmt.Sprintf("page %d is busy: its main thread has not answered for %.0f s, since before the server connected to it (a script in an endless loop, or one very long task), so the call was stopped. Chrome cannot stop that script from a connection made while it runs, but navigate_page (to a URL) and close_page still take the page away from it",
			e.PageID, e.For.Round(time.Second).Seconds())
	}
	return fmt.Sprintf("page %d is busy: its main thread has not answered for %.0f s (a script in an endless loop, or one very long task), so the call was stopped. navigate_page or close_page still take the page away from it; evaluate_script waits for it up to --scriptTimeout",
		e.PageID, e.For.Round(time.Second).Seconds())
}

// DialogError is why a call was stopped by a JavaScript dialog that opened
// while it ran.
type DialogError struct {
	Dialog *cdp.DialogOpeningEvent
}

func (e *DialogError) Error() string {
	return fmt.Sprintf("a %s dialog opened on the page during the call (%q) and blocks it; call handle_dialog to accept or dismiss it, then try again", e.Dialog.Type, e.Dialog.Message)
}

// Watch guards one call on the page: the context it returns is cancelled,
// with a *DialogError as its cause, when a dialog opens and stays open
// (unless dialogs is false: the call handles them), and with a *BusyError
// when a command to the page gets no answer because the page is busy
// (as policy says). Call stop when the call is done.
func (p *Page) Watch(ctx context.Context, policy BusyPolicy, dialogs bool) (_ context.Context, stop func()) {
	wctx, cancel := context.WithCancelCause(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.watch(wctx, cancel, policy, dialogs)
	}()
	return wctx, func() {
		cancel(nil)
		<-done
	}
}

// watch is Watch's loop; it returns when ctx ends.
func (p *Page) watch(ctx context.Context, cancel context.CancelCauseFunc, policy BusyPolicy, dialogs bool) {
	tick := time.NewTicker(watchTick)
	defer tick.Stop()
	var dialogSince time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if d := p.events.openDialog(); d != nil {
			// A dialog also keeps commands from being answered: it is
			// what the page waits for, not a loop.
			switch {
			case !dialogs:
			case dialogSince.IsZero():
				dialogSince = time.Now()
			case time.Since(dialogSince) >= dialogAfter:
				cancel(&DialogError{Dialog: d})
				return
			}
			continue
		}
		dialogSince = time.Time{}
		if policy == BusyWaits && p.sessions().setupSession() == nil {
			continue
		}
		if err := p.checkBusy(ctx, policy); err != nil {
			cancel(err)
			return
		}
	}
}

// checkBusy probes the page's sessions that have a command waiting for
// longer than stallAfter. A busy one fails the call (BusyFails) or has its
// script stopped (BusyInterrupts).
func (p *Page) checkBusy(ctx context.Context, policy BusyPolicy) error {
	now := time.Now()
	var worked map[string]string // sessions stalled since before workStallAfter
	for id, method := range p.browser.conn.Stalled(now.Add(-stallAfter)) {
		if longWork(method) {
			if worked == nil {
				worked = p.browser.conn.Stalled(now.Add(-workStallAfter))
			}
			if worked[id] != method {
				continue
			}
		}
		s := p.sessions().sessionByID(id)
		if s == nil {
			continue
		}
		setup := s == p.sessions().setupSession()
		if policy == BusyWaits && !setup {
			continue
		}
		if !p.unanswering(ctx, s) {
			continue
		}
		err := &BusyError{PageID: p.ID, Method: method, For: time.Since(now) + stallAfter}
		if setup {
			// Busy since before the attach, whatever the call: the
			// attach fails with err, and the call unless it can do
			// without (Navigate).
			err.AtAttach = true
			p.sessions().endSetup(s, err)
			continue
		}
		if policy == BusyInterrupts {
			continue
		}
		return err
	}
	return nil
}

// longWork tells whether method is a command whose own work on the page's
// main thread grows with the page's size: reading its whole accessibility
// tree or DOM, or painting it. A busy page stalls cheaper commands before
// any of these is sent, so waiting longer for them costs a busy page
// nothing and spares a big one from being called busy.
func longWork(method string) bool {
	switch method {
	case cdp.AccessibilityGetFullAXTree.Method, cdp.DOMSnapshotCaptureSnapshot.Method:
		return true
	}
	return false
}

// unanswering tells whether session s leaves a trivial command of its main
// thread unanswered for probeFor with no dialog open: that thread is busy.
// The probe runs no script: one would show in a trace being recorded (the
// probe before a traced reload cost the trace its script sources).
func (p *Page) unanswering(ctx context.Context, s *cdp.Session) bool {
	pctx, cancel := context.WithTimeout(ctx, probeFor)
	err := cdp.RuntimeGetIsolateId.Do(pctx, s)
	cancel()
	if ctx.Err() != nil {
		return false
	}
	return errors.Is(err, context.DeadlineExceeded) && p.events.openDialog() == nil
}

// stopIfBusy stops the script keeping the page busy before a call that
// takes the page away from it (navigating, closing). It must come first,
// and cannot wait for a watch to see the page busy: while a navigation is
// pending, Chrome holds back every command to the page, the one that
// stops scripts included, and a page can turn busy between calls (a loop
// started from a timer) with nobody watching. A page that answers costs
// one round trip.
func (p *Page) stopIfBusy(ctx context.Context, s *cdp.Session) {
	if p.State().Crashed != "" {
		return // no renderer, no script; the probe would wait in vain
	}
	if p.unanswering(ctx, s) {
		p.cleanUp(ctx, s, cdp.RuntimeTerminateExecution, cdp.RuntimeTerminateExecution.Method)
	}
}

// StopIfBusy stops the JavaScript that keeps the page's main thread busy
// (Runtime.terminateExecution), if it is busy: for a call whose own
// deadline ran out while the page did not answer. It tells whether it
// stopped something. The check runs even when ctx has ended.
func (p *Page) StopIfBusy(ctx context.Context) bool {
	s := p.sessions().currentSession()
	if s == nil {
		return false
	}
	uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), probeFor+time.Second)
	defer cancel()
	if !p.unanswering(uctx, s) {
		return false
	}
	p.cleanUp(uctx, s, cdp.RuntimeTerminateExecution, cdp.RuntimeTerminateExecution.Method)
	return true
}
