package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// readiness is what snapshot-ready.js tells of a document.
type readiness struct {
	Scripted bool `json:"scripted"` // pagewalk.js read it before
	Body     bool `json:"body"`     // it has an HTML body
	Elements int  `json:"elements"`
}

// scripted reports whether pagewalk.js is to read the document: it did
// before, or the document has an HTML body and at least threshold
// elements (never when threshold is negative).
func (r readiness) scripted(threshold int) bool {
	return threshold >= 0 && (r.Scripted || r.Body && r.Elements >= threshold)
}

// callReady runs snapshot-ready.js in frame frameID of session s (see the
// script for render).
func (p *Page) callReady(ctx context.Context, s *cdp.Session, frameID string, render bool) (readiness, error) {
	res, err := p.callInWorld(ctx, s, frameID, cdp.CallFunctionOnParams{
		FunctionDeclaration: snapshotReadyJS,
		Arguments:           []cdp.CallArgument{{Value: render}},
		AwaitPromise:        true,
		ReturnByValue:       true,
	})
	if err == nil && res.ExceptionDetails != nil {
		err = fmt.Errorf("%s", res.ExceptionDetails.Text)
	}
	var r readiness
	if err == nil {
		err = json.Unmarshal(res.Result.Value, &r)
	}
	return r, err
}

// The first snapshot after navigate_page is got ready while the page
// loads, so that it asks Chrome for the tree at once, beside the frame
// tree, instead of one round trip (a script in our world) later. What
// that script finds out is learnt without running any:
//
//   - whether the document has been rendered once (see snapshot-ready.js)
//     from Chrome's firstPaint lifecycle event, the same moment as the
//     paint timing entry the script looks for;
//   - whether it is clearly small, from the renderer's count of DOM nodes
//     (Performance.getMetrics) as the load event arrives: an upper bound
//     of the document's elements (text nodes, other frames and nodes not
//     yet collected count too).
//
// Nothing of ours is left in the document: no world, which would add a
// context to its heap snapshots, no compiled script, and no timer or
// listener a page's framework could see. The count decides only when
// below the threshold (preparedChoice); a bigger document is counted
// again by the script.
type preparation struct {
	mu      sync.Mutex
	current string    // the loader of the main frame's document
	painted string    // the loader of the main-frame document that painted
	last    *prepared // the latest navigation's, until a snapshot takes it
}

// prepared is a main-frame document's size, counted at its load.
type prepared struct {
	loader string
	done   chan struct{} // closed when ready and err are set
	ready  readiness     // Elements is the renderer's node count
	err    error
}

// onEvent records what an event of the page's own session tells of its
// main-frame document. It runs on the session's subscription.
func (pp *preparation) onEvent(mainFrame string, ev cdp.RawEvent) {
	switch ev.Method {
	case cdp.PageFrameNavigated.Method:
		if e, err := cdp.PageFrameNavigated.Decode(ev.Params); err == nil && e.Frame.ParentID == "" {
			pp.mu.Lock()
			pp.current = e.Frame.LoaderID
			pp.mu.Unlock()
		}
	case cdp.PageLifecycleEvent.Method:
		if e, err := cdp.PageLifecycleEvent.Decode(ev.Params); err == nil && e.Name == "firstPaint" && e.FrameID == mainFrame {
			pp.mu.Lock()
			pp.painted = e.LoaderID
			pp.mu.Unlock()
		}
	}
}

// prepare counts the nodes of the renderer of session s, whose main
// frame has just loaded the document of loader, replacing any count before.
func (p *Page) prepare(ctx context.Context, s *cdp.Session, loader string) *prepared {
	pr := &prepared{loader: loader, done: make(chan struct{})}
	p.prep.mu.Lock()
	p.prep.last = pr
	p.prep.mu.Unlock()
	go func() {
		pr.ready, pr.err = nodeCount(ctx, s)
		close(pr.done)
		// The counters are collected only while asked for.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		defer cancel()
		cdp.PerformanceDisable.Do(ctx, s)
	}()
	return pr
}

// nodeCount reads the renderer's count of DOM nodes, as a readiness whose
// Elements is that count.
func nodeCount(ctx context.Context, s *cdp.Session) (readiness, error) {
	if err := cdp.PerformanceEnable.Do(ctx, s); err != nil {
		return readiness{}, err
	}
	m, err := cdp.PerformanceGetMetrics.Call(ctx, s)
	if err != nil {
		return readiness{}, err
	}
	for _, v := range m.Metrics {
		if v.Name == "Nodes" {
			return readiness{Elements: int(v.Value)}, nil
		}
	}
	return readiness{}, errors.New("no Nodes metric")
}

// preparedLimit bounds how long Navigate waits, once the document loaded,
// for its count and its first paint, which mostly follows the load within
// a frame or two. A document that paints nothing (a blank one, a hidden
// page), a renderer slow to draw or a page busy after its load let the
// navigation answer without them; the snapshot then gets the document
// ready itself (snapshot-ready.js).
const preparedLimit = 100 * time.Millisecond

// awaitPrepared waits, preparedLimit at most, until pr is counted and
// Chrome told that its document painted, reading the navigation's events
// from sub into w meanwhile.
func (p *Page) awaitPrepared(ctx context.Context, pr *prepared, sub *cdp.Subscription, w *loadWatch) {
	t := time.NewTimer(preparedLimit)
	defer t.Stop()
	counted := false
	for !counted || !w.painted[pr.loader] {
		select {
		case <-pr.done:
			counted = true
		case ev, ok := <-sub.Events():
			if !ok {
				return
			}
			w.onEvent(ev)
		case <-t.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// takePrepared returns, once, the count navigate_page made for the
// document now in frame frameID of session s, when that is the page's
// main frame and its document has painted; ok is false otherwise (no
// count, another document, not painted yet: the caller gets the document
// ready itself).
func (p *Page) takePrepared(ctx context.Context, s *cdp.Session, frameID string) (r readiness, ok bool) {
	if frameID != p.TargetID || s != p.sessions().currentSession() {
		return r, false
	}
	p.sessions().synced() // the commits and paints so far are known
	p.prep.mu.Lock()
	pr := p.prep.last
	p.prep.last = nil
	fresh := pr != nil && pr.loader == p.prep.current && pr.loader == p.prep.painted
	p.prep.mu.Unlock()
	if !fresh {
		return r, false
	}
	select {
	case <-pr.done:
	case <-ctx.Done():
		return r, false
	}
	return pr.ready, pr.err == nil
}
