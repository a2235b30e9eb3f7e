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
// tree, instead of two round trips (making our world, a script in it)
// later. The navigation does not wait for any of it: it answers at the
// load as before. What the script finds out is learnt without running
// any:
//
//   - whether the document has been rendered once (see snapshot-ready.js)
//     from Chrome's firstPaint lifecycle event, the same moment as the
//     paint timing entry the script looks for, which the snapshot awaits
//     (paintLimit);
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
	paint  chan struct{} // closed when Chrome told the document painted
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
			if pr := pp.last; pr != nil && pr.loader == e.LoaderID {
				pr.painted()
			}
			pp.mu.Unlock()
		}
	}
}

// prepare counts the nodes of the renderer of session s, whose main
// frame has just loaded the document of loader, replacing any count before.
func (p *Page) prepare(ctx context.Context, s *cdp.Session, loader string) *prepared {
	pr := &prepared{loader: loader, done: make(chan struct{}), paint: make(chan struct{})}
	p.prep.mu.Lock()
	p.prep.last = pr
	if p.prep.painted == loader {
		pr.painted()
	}
	p.prep.mu.Unlock()
	// It outlives the navigation, which does not wait for it.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 4*time.Second)
	go func() {
		defer cancel()
		pr.ready, pr.err = nodeCount(ctx, s)
		close(pr.done)
		// The counters are collected only while asked for.
		cdp.PerformanceDisable.Do(ctx, s)
	}()
	return pr
}

// painted records that pr's document painted. Called with the
// preparation's lock held.
func (pr *prepared) painted() {
	select {
	case <-pr.paint:
	default:
		close(pr.paint)
	}
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

// paintLimit bounds how long a snapshot waits for Chrome to tell that the
// document it got ready painted: mostly a frame or two after the load. A
// document that paints nothing (a blank one, a hidden page) or a renderer
// slow to draw gets its document ready itself (snapshot-ready.js).
const paintLimit = 100 * time.Millisecond

// takePrepared returns, once, the count navigate_page made for the
// document now in frame frameID of session s, when that is the page's
// main frame and Chrome told that its document painted, waiting
// paintLimit at most for that; ok is false otherwise (no count, another
// document, not painted: the caller gets the document ready itself).
func (p *Page) takePrepared(ctx context.Context, s *cdp.Session, frameID string) (r readiness, ok bool) {
	if frameID != p.TargetID || s != p.sessions().currentSession() {
		return r, false
	}
	p.sessions().synced() // the commits and paints so far are known
	p.prep.mu.Lock()
	pr := p.prep.last
	fresh := pr != nil && pr.loader == p.prep.current
	p.prep.mu.Unlock()
	if !fresh {
		return r, false
	}
	defer func() { // taken: a later snapshot counts again
		p.prep.mu.Lock()
		if p.prep.last == pr {
			p.prep.last = nil
		}
		p.prep.mu.Unlock()
	}()
	t := time.NewTimer(paintLimit)
	defer t.Stop()
	for _, c := range []chan struct{}{pr.done, pr.paint} {
		select {
		case <-c:
		case <-t.C:
			return r, false
		case <-ctx.Done():
			return r, false
		}
	}
	p.sessions().synced()
	p.prep.mu.Lock()
	fresh = pr.loader == p.prep.current
	p.prep.mu.Unlock()
	return pr.ready, fresh && pr.err == nil
}
