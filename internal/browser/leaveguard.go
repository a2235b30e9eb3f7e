package browser

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// leaveGrace is how long after a guarded call its effects are still
// refused: a close or a navigation the call set going on a timer, or one
// Chrome runs only once the call's answer has gone. What happens later is
// not guarded (the user may close their own tab again by then).
const leaveGrace = 2 * time.Second

// leaveGuard is the server's side of a user tab's leave guard (see
// GuardLeaving): whether a "leave site?" dialog opening now is refused.
type leaveGuard struct {
	mu      sync.Mutex
	used    bool      // GuardLeaving was called on the page
	armed   bool      // a guarded call is acting on the page
	until   time.Time // after the call, its effects are refused until then
	refused []string  // refusals the agent has not been told of
}

// active reports whether beforeunload dialogs are refused at now.
func (g *leaveGuard) active(now time.Time) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.armed || now.Before(g.until)
}

// refuse records the refusal of dialog d when the guard is active, and
// reports whether it is.
func (g *leaveGuard) refuse(pageID int, d *cdp.DialogOpeningEvent) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.armed && !time.Now().Before(g.until) {
		return false
	}
	g.refused = append(g.refused, fmt.Sprintf("Refused: what the agent did tried to close page %d or lead it away from %s, but it is one of your own tabs, not opened by the agent, so it stays. Open a page of the agent's with new_page, or start the server with --allowCloseUserTabs.", pageID, d.URL))
	return true
}

// GuardLeaving keeps the page, one of the user's tabs, from being closed
// or led away by what the caller does next (a script, a click, a key),
// until stop is called and leaveGrace more. A beforeunload listener in
// our isolated world, which the page's scripts cannot remove, asks to stay
// on the page; the "leave site?" dialog Chrome then shows is dismissed
// (see refuseLeaving), and the refusal is reported by LeaveRefusals. The
// call also gives the page a user activation: Chrome shows that dialog
// only for a page the user has interacted with. While stop has not been
// called, every beforeunload dialog of the page is refused, the user's
// own included.
func (p *Page) GuardLeaving(ctx context.Context) (stop func(), err error) {
	s, err := p.Session(ctx)
	if err != nil {
		return nil, err
	}
	p.leave.mu.Lock()
	p.leave.armed, p.leave.used = true, true
	p.leave.mu.Unlock()
	// A busy page would keep the call waiting for ever: the watch does
	// not probe calls that wait for scripts.
	actx, cancel := context.WithTimeout(ctx, stallAfter+probeFor)
	defer cancel()
	if err := p.setLeaveGuard(actx, s, "on"); err != nil {
		p.leave.mu.Lock()
		p.leave.armed = false
		p.leave.mu.Unlock()
		if ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("it did not answer for %.0f s (a script in an endless loop, or one very long task)", (stallAfter + probeFor).Seconds())
		}
		return nil, fmt.Errorf("page %d is one of your own tabs, and guarding it against being closed or led away failed, so the call did not act: %w", p.ID, err)
	}
	return func() { p.stopGuarding() }, nil
}

// stopGuarding ends the guard GuardLeaving armed, but for leaveGrace. The
// page's listener is told the same, by the page's clock.
func (p *Page) stopGuarding() {
	p.leave.mu.Lock()
	armed := p.leave.armed
	p.leave.armed = false
	if armed {
		// A little longer than the page's own grace: its clock and ours
		// may differ by the time the command takes.
		p.leave.until = time.Now().Add(leaveGrace + time.Second)
	}
	p.leave.mu.Unlock()
	s := p.sessions().currentSession()
	if !armed || s == nil {
		return // a navigation suspended it, or the page is gone
	}
	ctx, cancel := context.WithTimeout(p.browser.bg.ctx, probeFor)
	defer cancel()
	if err := p.setLeaveGuard(ctx, s, strconv.FormatInt(leaveGrace.Milliseconds(), 10)); err != nil {
		p.browser.bg.failed(p.TargetID, "disarm the leave guard", err)
	}
}

// suspendLeaveGuard lets a navigation the agent was allowed to make (a
// reload) leave the page: the guard would refuse it, and its own
// beforeunload answer must be the page's, not ours. The new document has
// no listener.
func (p *Page) suspendLeaveGuard(ctx context.Context, s *cdp.Session) error {
	p.leave.mu.Lock()
	on := p.leave.armed || time.Now().Before(p.leave.until)
	p.leave.armed, p.leave.until = false, time.Time{}
	p.leave.mu.Unlock()
	if !on {
		return nil
	}
	return p.setLeaveGuard(ctx, s, "off")
}

// setLeaveGuard runs leave-guard.js in the page's main frame, in our
// isolated world, with mode "on", "off" or a number of milliseconds.
func (p *Page) setLeaveGuard(ctx context.Context, s *cdp.Session, mode string) error {
	ec, err := world(ctx, s, p.TargetID)
	if err != nil {
		return err
	}
	res, err := cdp.RuntimeCallFunctionOn.Call(ctx, s, cdp.CallFunctionOnParams{
		FunctionDeclaration: leaveGuardJS, ExecutionContextID: ec,
		Arguments: []cdp.CallArgument{{Value: mode}}, UserGesture: mode == "on",
	})
	if err == nil && res.ExceptionDetails != nil {
		err = fmt.Errorf("leave-guard.js: %s", res.ExceptionDetails.Message())
	}
	return err
}

// refuseLeaving dismisses the beforeunload dialog the guard refused, on
// the session it opened in.
func (p *Page) refuseLeaving(ctx context.Context, s *cdp.Session) {
	ctx, cancel := context.WithTimeout(ctx, probeFor)
	defer cancel()
	if err := cdp.PageHandleJavaScriptDialog.Do(ctx, s, cdp.HandleDialogParams{Accept: false}); err != nil {
		p.browser.bg.failed(p.TargetID, cdp.PageHandleJavaScriptDialog.Method, err)
	}
}

// LeaveRefusals returns, once, the closes and navigations of the page the
// guard refused (see GuardLeaving), as of the events received so far.
func (p *Page) LeaveRefusals() []string {
	p.leave.mu.Lock()
	used := p.leave.used
	p.leave.mu.Unlock()
	if !used {
		return nil
	}
	p.sessions().synced()
	p.leave.mu.Lock()
	defer p.leave.mu.Unlock()
	r := p.leave.refused
	p.leave.refused = nil
	return r
}
