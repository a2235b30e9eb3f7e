package browser

import (
	"context"
	"encoding/json"
	"fmt"
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
	// (41 ms on a loaded machine): the frame is awaited, not guessed.
	inputWindow = 10 * time.Millisecond
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

// watchEffects starts recording in the page what the action about to run
// sets going. When it fails, settling falls back to the quiet-DOM wait.
func (p *Page) watchEffects(ctx context.Context, s *cdp.Session, cpu float64) {
	expr := fmt.Sprintf("(%s)(%d, %d)", effectsWatchJS, scaled(effectHorizon, cpu).Milliseconds(), effectWatchLife.Milliseconds())
	res, err := cdp.RuntimeEvaluate.Call(ctx, s, cdp.EvaluateParams{Expression: expr})
	if err == nil && res.ExceptionDetails != nil {
		err = fmt.Errorf("%s", res.ExceptionDetails.Message())
	}
	if err != nil {
		p.browser.log.Debug("record an action's effects", "target", p.TargetID, "err", err)
	}
}

// settleEffects waits in the page until the effects recorded since
// watchEffects are over (effects-settle.js), with window as the time in
// which something new must start; where the recording is gone (another
// document), it waits for a quiet DOM instead. The result arrives on the
// channel; the wait is abandoned when ctx ends.
func (p *Page) settleEffects(ctx context.Context, window time.Duration, cpu float64) <-chan error {
	errc := make(chan error, 1)
	quiet, limit := scaled(domQuiet, cpu), scaled(domSettleCap, cpu)
	go func() {
		ctx, cancel := context.WithTimeout(ctx, limit+time.Second)
		defer cancel()
		s, err := p.Session(ctx)
		if err != nil {
			errc <- err
			return
		}
		expr := fmt.Sprintf("(%s)(%d, %d, %d)", effectsSettleJS, scaled(window, cpu).Milliseconds(), quiet.Milliseconds(), limit.Milliseconds())
		res, err := cdp.RuntimeEvaluate.Call(ctx, s, cdp.EvaluateParams{Expression: expr, ReturnByValue: true, AwaitPromise: true})
		if err == nil && res.ExceptionDetails != nil {
			err = fmt.Errorf("wait for the action's effects: %s", res.ExceptionDetails.Message())
		}
		var outcome string
		if err == nil && json.Unmarshal(res.Result.Value, &outcome) == nil && outcome == "lost" {
			err = <-p.quietDOM(ctx, cpu)
		}
		errc <- err
	}()
	return errc
}
