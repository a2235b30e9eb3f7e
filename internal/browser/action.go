package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// How long an action's effects are awaited: the DOM must be quiet for
// domQuiet, but no longer than domSettleCap in all; a navigation that starts
// meanwhile is awaited for up to actionLoadCap. Under emulated throttling
// these are lengthened by the emulation's Slowdown.
const (
	domQuiet      = 100 * time.Millisecond
	domSettleCap  = 3 * time.Second
	actionLoadCap = 10 * time.Second
)

// ActionReport is what an action caused, for the agent to read.
type ActionReport struct {
	// Dialog is a JavaScript dialog the action opened; the page waits for
	// handle_dialog.
	Dialog *cdp.DialogOpeningEvent
	// Navigated is the URL a navigation the action started went to.
	Navigated string
	// LoadTimedOut is set when that navigation did not finish loading in time.
	LoadTimedOut bool
	// Errors are uncaught exceptions and console errors that happened while
	// the action settled.
	Errors []string
	// Answered describes the dialogs answered on the agent's behalf.
	Answered []string
	// Unchanged is set when the page said that, while the action ran and
	// settled, its DOM did not change and its focus did not move (in every
	// frame that recorded the action's effects).
	Unchanged bool
}

// DialogAnswer decides how to answer a dialog an action opened: accept or
// not, and the text for a prompt.
type DialogAnswer func(cdp.DialogOpeningEvent) (accept bool, promptText string)

// actionEvents are the events an action is watched by.
var actionEvents = []cdp.EventType{
	cdp.PageFrameRequestedNavigation, cdp.PageFrameStartedNavigating, cdp.PageFrameStoppedLoading, cdp.PageNavigatedWithinDocument,
	cdp.PageFrameNavigated, cdp.PageLifecycleEvent, cdp.PageJavascriptDialogOpening,
	cdp.RuntimeExceptionThrown, cdp.RuntimeConsoleAPICalled,
}

// actionWatch collects what happens on the page while an action runs. It
// is used on the goroutine of the action's caller only.
type actionWatch struct {
	page      *Page
	mainFrame string
	sub       *cdp.Subscription // the page's events, from watch
	events    <-chan Event      // sub.Events()
	answer    DialogAnswer      // nil: dialogs stop the wait for handle_dialog
	effects   []*cdp.Session    // the sessions recording the action's effects (watchEffects)

	navigations int    // main-frame navigations started
	handled     int    // of those, how many the settle loop has taken up
	pending     bool   // the last one has not finished loading
	url         string // where it went
	committed   string // loader of the document it committed
	dialog      *cdp.DialogOpeningEvent
	errors      []string
	answered    []string
	unchanged   atomic.Bool // from settleEffects, when it said so
}

// receive handles what the events channel gave; it fails when the channel
// was closed because the connection died.
func (w *actionWatch) receive(ctx context.Context, ev Event, ok bool) error {
	if !ok {
		if err := w.page.browser.conn.Err(); err != nil {
			return err
		}
		return fmt.Errorf("page %d: its events stopped", w.page.ID)
	}
	return w.onEvent(ctx, ev)
}

// catchUp handles the events received before the reply its caller just
// got (the action's, or the quiet-DOM wait's), so that what the watch
// reports includes them: the subscription's goroutine may not have handed
// them over yet. Sync runs beside the loop that takes them.
func (w *actionWatch) catchUp(ctx context.Context) error {
	synced := make(chan error, 1) // the closing of sub ends Sync if we return first
	go func() { synced <- w.sub.Sync(ctx) }()
	for {
		select {
		case err := <-synced:
			if err != nil {
				return fmt.Errorf("page %d: wait for its events: %w", w.page.ID, err)
			}
			return nil
		case ev, ok := <-w.events:
			if err := w.receive(ctx, ev, ok); err != nil {
				return err
			}
		}
	}
}

// onEvent records what ev tells about the action's effects, answering a
// dialog when the watch has an answer for it.
func (w *actionWatch) onEvent(ctx context.Context, ev Event) error {
	switch ev.Method {
	case cdp.PageFrameRequestedNavigation.Method, cdp.PageFrameStartedNavigating.Method, cdp.PageFrameStoppedLoading.Method, cdp.PageNavigatedWithinDocument.Method:
		var e struct {
			FrameID string `json:"frameId"`
			URL     string `json:"url"`
		}
		if json.Unmarshal(ev.Params, &e) != nil || e.FrameID != w.mainFrame {
			return nil
		}
		switch ev.Method {
		case cdp.PageFrameStoppedLoading.Method:
			w.pending = false // also ends navigations that commit nothing (204, downloads)
		case cdp.PageNavigatedWithinDocument.Method:
			// It ends a navigation that has not committed a document
			// (a link to an anchor), not a new document's load: that
			// document's own history changes while it loads (a router's
			// replaceState) leave the wait to its load event.
			if w.committed == "" {
				w.pending = false
			}
			w.url = e.URL
		default:
			if !w.pending {
				w.navigations++
			}
			w.pending, w.url, w.committed = true, e.URL, ""
		}
	case cdp.PageFrameNavigated.Method:
		if e, err := cdp.PageFrameNavigated.Decode(ev.Params); err == nil && e.Frame.ParentID == "" {
			if !w.pending {
				w.navigations++
			}
			w.pending, w.url, w.committed = true, e.Frame.URL, e.Frame.LoaderID
		}
	case cdp.PageLifecycleEvent.Method:
		if e, err := cdp.PageLifecycleEvent.Decode(ev.Params); err == nil && e.Name == "load" && e.FrameID == w.mainFrame && e.LoaderID == w.committed {
			w.pending = false
		}
	case cdp.PageJavascriptDialogOpening.Method:
		e, err := cdp.PageJavascriptDialogOpening.Decode(ev.Params)
		if err != nil {
			return fmt.Errorf("%s: %w", ev.Method, err)
		}
		if e.Type == "beforeunload" && w.page.leave.active(time.Now()) {
			// The leave guard refuses it (see GuardLeaving): the
			// navigation that asked will not happen.
			w.pending = false
			return nil
		}
		if w.answer == nil {
			w.dialog = &e
			return nil
		}
		return w.answerDialog(ctx, ev.SessionID, e)
	case cdp.RuntimeExceptionThrown.Method:
		if e, err := cdp.RuntimeExceptionThrown.Decode(ev.Params); err == nil {
			w.errors = append(w.errors, "Uncaught "+firstLine(e.ExceptionDetails.Message()))
		}
	case cdp.RuntimeConsoleAPICalled.Method:
		if e, err := cdp.RuntimeConsoleAPICalled.Decode(ev.Params); err == nil && (e.Type == "error" || e.Type == "assert") {
			w.errors = append(w.errors, "console."+e.Type+": "+formatArgs(e.Args))
		}
	}
	return nil
}

// answerDialog answers dialog d, opened in session sessionID, as the
// watch's DialogAnswer says.
func (w *actionWatch) answerDialog(ctx context.Context, sessionID string, d cdp.DialogOpeningEvent) error {
	accept, text := w.answer(d)
	verb := map[bool]string{true: "Accepted", false: "Dismissed"}[accept]
	w.answered = append(w.answered, fmt.Sprintf("%s a %s dialog: %q.", verb, d.Type, d.Message))
	s := w.page.sessions().sessionByID(sessionID)
	if s == nil {
		return nil // its frame is gone, and the dialog with it
	}
	if err := cdp.PageHandleJavaScriptDialog.Do(ctx, s, cdp.HandleDialogParams{Accept: accept, PromptText: text}); err != nil {
		return fmt.Errorf("answer the %s dialog: %w", d.Type, err)
	}
	return nil
}

// takeNavigation reports whether a navigation started that the settle loop
// has not taken up yet, and takes it up.
func (w *actionWatch) takeNavigation() bool {
	if w.handled < w.navigations {
		w.handled = w.navigations
		return true
	}
	return false
}

// Act runs act on the page and waits for what it caused: a navigation that
// starts right after it is awaited until loaded, then the DOM must be quiet.
// A dialog the action opens ends the wait at once (the page is blocked
// until handle_dialog). act's own error is returned as is. The page is
// brought to the front of its window first (see toFront).
func (p *Page) Act(ctx context.Context, act func(ctx context.Context) error) (ActionReport, error) {
	p.toFront(ctx)
	return p.act(ctx, nil, inputWindow, act)
}

// ActAnswering runs act like Act, but answers the dialogs it opens with
// answer instead of stopping at them; act is a script, whose effects have
// started by the time it returns. Without settle it returns as soon as act
// is done.
func (p *Page) ActAnswering(ctx context.Context, answer DialogAnswer, settle bool, act func(ctx context.Context) error) (ActionReport, error) {
	window := time.Duration(scriptWindow)
	if !settle {
		window = -1
	}
	return p.act(ctx, answer, window, act)
}

// act runs act and waits for its effects, with window as the time in which
// they must start (settleEffects); a negative window waits for nothing.
func (p *Page) act(ctx context.Context, answer DialogAnswer, window time.Duration, act func(ctx context.Context) error) (ActionReport, error) {
	var rep ActionReport
	s, err := p.Session(ctx)
	if err != nil {
		return rep, err
	}
	sub, stop := p.sessions().watch(s, actionEvents...)
	defer stop()
	w := &actionWatch{page: p, mainFrame: p.TargetID, sub: sub, events: sub.Events(), answer: answer}
	settle := window >= 0
	if settle {
		_, cpu := p.Emulator().Current().Slowdown()
		w.effects = p.watchEffects(ctx, p.effectSessions(s), cpu)
	}

	// The action runs beside the watch: input commands are not answered
	// while a dialog they opened is showing.
	p.handled.Store(false)
	actx, cancel := context.WithCancel(ctx)
	errc := make(chan error, 1)
	go func() { errc <- act(actx) }()
	defer func() {
		// When ctx is done, actx ends with it, with ctx's error: a cancel
		// here could come first and turn a deadline into "canceled", and
		// a timed-out script would not be reported (and stopped) as one.
		if ctx.Err() == nil {
			cancel()
		}
		<-errc // the action's calls end with actx
		cancel()
	}()
	for {
		select {
		case err := <-errc:
			errc <- err // for the deferred wait
			if err != nil {
				return rep, err
			}
			if err := w.catchUp(ctx); err != nil {
				return rep, err
			}
			if !settle || w.dialog != nil {
				return w.report(), nil
			}
			if window == inputWindow && p.handled.Load() {
				// What the input set going has started (Input.handledBy).
				window = handledWindow
			}
			return p.settle(ctx, w, window)
		case ev, ok := <-w.events:
			if err := w.receive(ctx, ev, ok); err != nil {
				return rep, err
			}
			if w.dialog != nil {
				return w.report(), nil
			}
		case <-ctx.Done():
			return rep, ctx.Err()
		}
	}
}

// settle waits for the page to come to rest after an action: when the
// action set nothing going within window, at once; otherwise once nothing
// it started is pending and the DOM was quiet for domQuiet (at most
// domSettleCap). A main-frame navigation that starts meanwhile is awaited
// until loaded (at most actionLoadCap), then the new document must be quiet
// for domQuiet. A dialog ends the wait.
func (p *Page) settle(ctx context.Context, w *actionWatch, window time.Duration) (ActionReport, error) {
	timedOut := false
	load, cpu := p.Emulator().Current().Slowdown()
	for round := range 3 { // a page that keeps navigating gets three rounds
		var quiet <-chan error
		if round == 0 {
			errc := make(chan error, 1)
			res := p.settleEffects(ctx, w.effects, window, cpu)
			go func() {
				r := <-res
				w.unchanged.Store(!r.changed)
				errc <- r.err
			}()
			quiet = errc
		} else {
			quiet = p.quietDOM(ctx, cpu)
		}
		navigated, err := w.quietOrNavigation(ctx, quiet)
		if err != nil {
			return ActionReport{}, err
		}
		if !navigated {
			break
		}
		if timedOut, err = w.awaitLoad(ctx, scaled(actionLoadCap, load)); err != nil {
			return ActionReport{}, err
		}
		if timedOut || w.dialog != nil {
			break
		}
	}
	rep := w.report()
	rep.LoadTimedOut = timedOut
	rep.Unchanged = w.unchanged.Load() && rep.Navigated == "" && rep.Dialog == nil
	return rep, nil
}

// quietOrNavigation waits for quiet (the result of quietDOM) and reports
// whether a navigation started first. A dialog ends the wait.
func (w *actionWatch) quietOrNavigation(ctx context.Context, quiet <-chan error) (navigated bool, err error) {
	for {
		if w.dialog != nil {
			return false, nil
		}
		if w.takeNavigation() {
			return true, nil
		}
		select {
		case <-quiet:
			// The wait fails when the document went away (navigation,
			// closed tab); that is an end of waiting, not an error. The
			// navigation that took it away came before its reply.
			if err := w.catchUp(ctx); err != nil {
				return false, err
			}
			if w.dialog != nil {
				return false, nil
			}
			return w.takeNavigation(), ctx.Err()
		case ev, ok := <-w.events:
			if err := w.receive(ctx, ev, ok); err != nil {
				return false, err
			}
		case <-ctx.Done():
			return false, ctx.Err()
		}
	}
}

// awaitLoad waits until the navigation taken up has loaded (timedOut when
// that takes over limit) or a dialog opened.
func (w *actionWatch) awaitLoad(ctx context.Context, limit time.Duration) (timedOut bool, err error) {
	loadBy := time.NewTimer(limit)
	defer loadBy.Stop()
	for w.pending && w.dialog == nil {
		select {
		case ev, ok := <-w.events:
			if err := w.receive(ctx, ev, ok); err != nil {
				return false, err
			}
		case <-loadBy.C:
			return true, nil
		case <-ctx.Done():
			return false, ctx.Err()
		}
	}
	return false, nil
}

// quietDOM starts waiting in the page until its DOM had no mutation for
// domQuiet, at most domSettleCap, both times slowdown; the result arrives
// on the channel. The evaluation is abandoned when ctx ends.
func (p *Page) quietDOM(ctx context.Context, slowdown float64) <-chan error {
	return p.quietDOMIn(ctx, nil, slowdown)
}

// quietDOMIn is quietDOM in the document of session s: the page's for nil,
// an iframe's for its session.
func (p *Page) quietDOMIn(ctx context.Context, s *cdp.Session, slowdown float64) <-chan error {
	errc := make(chan error, 1)
	quiet, limit := scaled(domQuiet, slowdown), scaled(domSettleCap, slowdown)
	go func() {
		ctx, cancel := context.WithTimeout(ctx, limit+time.Second)
		defer cancel()
		expr := fmt.Sprintf("(%s)(%d, %d)", quietDOMJS, quiet.Milliseconds(), limit.Milliseconds())
		var err error
		if s == nil {
			_, err = p.Evaluate(ctx, expr)
		} else {
			err = evaluateIn(ctx, s, expr)
		}
		errc <- err
	}()
	return errc
}

// evaluateIn runs expression in session s, awaiting a promise, for its
// effect: a thrown error becomes an error.
func evaluateIn(ctx context.Context, s *cdp.Session, expression string) error {
	res, err := cdp.RuntimeEvaluate.Call(ctx, s, cdp.EvaluateParams{Expression: expression, AwaitPromise: true})
	if err != nil {
		return fmt.Errorf("evaluate: %w", err)
	}
	if res.ExceptionDetails != nil {
		return fmt.Errorf("the script threw: %s", res.ExceptionDetails.Message())
	}
	return nil
}

// scaled returns d times factor.
func scaled(d time.Duration, factor float64) time.Duration {
	return time.Duration(float64(d) * factor)
}

// report builds the ActionReport from what the watch saw.
func (w *actionWatch) report() ActionReport {
	rep := ActionReport{Dialog: w.dialog, Errors: w.errors, Answered: w.answered}
	if w.navigations > 0 {
		rep.Navigated = w.url
	}
	return rep
}

// ErrDialogOpen is wrapped when a tool cannot run because a dialog blocks the page.
var ErrDialogOpen = errors.New("a dialog is open")

// firstLine returns s up to its first newline.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// formatArgs renders console arguments on one line, as DevTools does.
func formatArgs(args []cdp.RemoteObject) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = firstLine(FormatValue(a))
	}
	return strings.Join(parts, " ")
}

// FormatValue renders a console argument: strings as they are, other
// values as JSON, objects from their preview (not [object Object]).
func FormatValue(v cdp.RemoteObject) string {
	switch {
	case v.Type == "string":
		var s string
		_ = json.Unmarshal(v.Value, &s)
		return s
	case v.UnserializableValue != "":
		return v.UnserializableValue
	case len(v.Value) > 0:
		return string(v.Value)
	case v.Preview != nil:
		return formatPreview(v.Preview)
	case v.Type == "undefined":
		return "undefined"
	}
	return v.Description
}

// formatPreview renders an object preview as JSON-like text.
func formatPreview(p *cdp.ObjectPreview) string {
	var b strings.Builder
	array := p.Subtype == "array"
	if p.Subtype == "node" || p.Subtype == "error" || p.Subtype == "regexp" || p.Subtype == "date" {
		return p.Description
	}
	b.WriteString(map[bool]string{true: "[", false: "{"}[array])
	for i, prop := range p.Properties {
		if i > 0 {
			b.WriteString(",")
		}
		if !array {
			b.WriteString(fmt.Sprintf("%q:", prop.Name))
		}
		switch {
		case prop.ValuePreview != nil:
			b.WriteString(formatPreview(prop.ValuePreview))
		case prop.Type == "string":
			b.WriteString(fmt.Sprintf("%q", prop.Value))
		default:
			b.WriteString(prop.Value)
		}
	}
	if p.Overflow {
		b.WriteString(",…")
	}
	b.WriteString(map[bool]string{true: "]", false: "}"}[array])
	return b.String()
}
