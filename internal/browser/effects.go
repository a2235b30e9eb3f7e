package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// How an action's effects are told from no effect. The page records what
// the action sets going (effects-watch.js): timers due within effectHorizon,
// animation frames, requests, navigations, DOM mutations. When nothing is
// pending once the action returned and nothing new starts within its
// window, the action is over; otherwise the page is awaited as before
// (quiet DOM, requests done, navigation loaded). All are lengthened by the
// emulated CPU throttling.
const (
	// inputWindow is how long after an input action nothing may start; the
	// wait also lasts until the page's next animation frame. Measured on
	// headless Chromium 156: click handlers had run when the last
	// Input.dispatchMouseEvent answered (30 of 30), but Chrome hands the page
	// mouse moves at its next frame, so hover handlers ran 3-21 ms later
	// (41 ms on a loaded machine): the frame is awaited, not guessed. An
	// action whose last input the page had handled when it was answered (a
	// click's release, keys: Input.handledBy) waits for handledWindow.
	inputWindow = 10 * time.Millisecond
	// handledWindow is that window after input the page had handled: no
	// frame, only a timer's turn, so that a timer of no delay the action
	// set through a reference the page took before the watch began (which
	// the watch does not see) has run, its DOM change seen.
	handledWindow = time.Millisecond
	// scriptWindow is that window for scripts: their effects are scheduled
	// by the time their evaluation answers, in the page the watch records.
	scriptWindow = 0
	// effectHorizon is how far ahead a timer the action sets is awaited: as
	// far as the quiet-DOM wait reached before effects were recorded.
	effectHorizon = domQuiet
	// effectWatchLife bounds how long the recording stays in the page when
	// the action never comes to its end (a dialog, an error, a long script).
	effectWatchLife = 10 * time.Second
)

// effectSessions returns the sessions an action's effects are recorded
// in: the page's first, then its cross-process iframes'. An action lands in
// any frame (a click at a point, keys in the focused frame), and what it
// sets going in a frame of another process, such as a fetch and the DOM
// change after it, shows only in that frame's own window.
func (p *Page) effectSessions(s *cdp.Session) []*cdp.Session {
	p.sessions().synced() // iframes attached so far are listed
	return append([]*cdp.Session{s}, p.events.frameSessions()...)
}

// watchEffects starts recording in the page's sessions what the action
// about to run sets going, and returns the sessions that record: the
// page's always (where the recording fails, settling falls back to the
// quiet-DOM wait), an iframe's only when it answered within probeFor. An
// iframe that leaves a script unanswered that long is busy, or gone, and
// would not handle the action either.
func (p *Page) watchEffects(ctx context.Context, sessions []*cdp.Session, cpu float64) []*cdp.Session {
	expr := fmt.Sprintf("(%s)(%d, %d)", effectsWatchJS, scaled(effectHorizon, cpu).Milliseconds(), effectWatchLife.Milliseconds())
	errs := make([]error, len(sessions))
	var wg sync.WaitGroup
	for i, s := range sessions {
		wg.Go(func() {
			wctx := ctx
			if i > 0 {
				var cancel context.CancelFunc
				wctx, cancel = context.WithTimeout(ctx, probeFor)
				defer cancel()
			}
			res, err := cdp.RuntimeEvaluate.Call(wctx, s, cdp.EvaluateParams{Expression: expr})
			if err == nil && res.ExceptionDetails != nil {
				err = fmt.Errorf("%s", res.ExceptionDetails.Message())
			}
			errs[i] = err
		})
	}
	wg.Wait()
	watched := sessions[:1:1]
	for i, err := range errs {
		if err != nil {
			p.browser.log.Debug("record an action's effects", "target", p.TargetID, "session", sessions[i].ID, "err", err)
		} else if i > 0 {
			watched = append(watched, sessions[i])
		}
	}
	return watched
}

// settleEffects waits in each of sessions (the page's first, then iframes'
// that record, from watchEffects) until the effects recorded there are over
// (effects-settle.js), with window as the time in which something new must
// start; where the recording is gone (another document), it waits for a
// quiet DOM instead. The result, the page's, arrives on the channel once
// every session is done, with whether the DOM changed or the focus moved
// in any of them (true when unknown); an iframe's failure (it went away)
// is only logged. The wait is abandoned when ctx ends.
func (p *Page) settleEffects(ctx context.Context, sessions []*cdp.Session, window time.Duration, cpu float64) <-chan settled {
	resc := make(chan settled, 1)
	go func() {
		ctx, cancel := context.WithTimeout(ctx, scaled(domSettleCap, cpu)+time.Second)
		defer cancel()
		var (
			wg      sync.WaitGroup
			changed atomic.Bool
		)
		for _, fs := range sessions[1:] {
			wg.Go(func() {
				c, err := p.settleIn(ctx, fs, window, cpu)
				if err != nil {
					p.browser.log.Debug("wait for an action's effects in an iframe", "target", p.TargetID, "session", fs.ID, "err", err)
				}
				if c {
					changed.Store(true)
				}
			})
		}
		s, err := p.Session(ctx)
		c := true
		if err == nil {
			c, err = p.settleIn(ctx, s, window, cpu)
		}
		wg.Wait()
		resc <- settled{err: err, changed: c || changed.Load()}
	}()
	return resc
}

// settled is how the wait for an action's effects ended.
type settled struct {
	err     error
	changed bool // the DOM changed or the focus moved (true when unknown)
}

// settleIn is settleEffects in one session; changed is true unless the
// page said that neither its DOM nor its focus changed.
func (p *Page) settleIn(ctx context.Context, s *cdp.Session, window time.Duration, cpu float64) (changed bool, err error) {
	quiet, limit := scaled(domQuiet, cpu), scaled(domSettleCap, cpu)
	frames := window >= inputWindow // see handledWindow
	expr := fmt.Sprintf("(%s)(%d, %d, %d, %t)", effectsSettleJS, scaled(window, cpu).Milliseconds(), quiet.Milliseconds(), limit.Milliseconds(), frames)
	res, err := cdp.RuntimeEvaluate.Call(ctx, s, cdp.EvaluateParams{Expression: expr, ReturnByValue: true, AwaitPromise: true})
	if err == nil && res.ExceptionDetails != nil {
		err = fmt.Errorf("wait for the action's effects: %s", res.ExceptionDetails.Message())
	}
	if err != nil {
		return true, err
	}
	var out struct {
		Outcome string `json:"outcome"`
		Changed *bool  `json:"changed"`
	}
	if json.Unmarshal(res.Result.Value, &out) != nil || out.Changed == nil {
		return true, nil
	}
	if out.Outcome == "lost" {
		err = <-p.quietDOMIn(ctx, s, cpu)
	}
	return *out.Changed, err
}
