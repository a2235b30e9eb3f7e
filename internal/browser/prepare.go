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
// script for render and load).
func (p *Page) callReady(ctx context.Context, s *cdp.Session, frameID string, render, load bool) (readiness, error) {
	return readinessOf(p.callInWorld(ctx, s, frameID, readyParams(0, render, load)))
}

// readyParams are the parameters of a call of snapshot-ready.js in the
// execution context world (0: set by the caller).
func readyParams(world int, render, load bool) cdp.CallFunctionOnParams {
	return cdp.CallFunctionOnParams{
		FunctionDeclaration: snapshotReadyJS,
		Arguments:           []cdp.CallArgument{{Value: render}, {Value: load}},
		ExecutionContextID:  world,
		AwaitPromise:        true,
		ReturnByValue:       true,
	}
}

// readinessOf is what a call of snapshot-ready.js answered.
func readinessOf(res cdp.EvaluateResult, err error) (readiness, error) {
	if err == nil && res.ExceptionDetails != nil {
		err = fmt.Errorf("%s", res.ExceptionDetails.Text)
	}
	var r readiness
	if err == nil {
		err = json.Unmarshal(res.Result.Value, &r)
	}
	return r, err
}

// prepared is a main-frame document got ready for its first snapshot
// while navigate_page loaded it: rendered once, and its elements counted
// at its load, so that the snapshot asks Chrome for the tree at once,
// beside the frame tree, instead of two round trips later (making the
// world, the script). The world is then made in every document navigated
// to, not only in those snapshotted (see worlds): one context more in a
// heap snapshot taken before any snapshot, which is why the tools layer
// does not ask for it when the heap snapshot analysis tools are on.
type prepared struct {
	session, frame string
	done           chan struct{} // closed when the fields below are set
	world          int           // the context of our world it ran in (the document's)
	ready          readiness
	err            error
	// loaded is set once the navigation saw the document load: before,
	// the script still waits for the load, which a snapshot does not.
	loaded atomic.Bool
}

// preparation holds the page's latest prepared document, taken by the
// first snapshot of that document, and what the latest snapshot learnt
// of its main frame's document.
type preparation struct {
	mu   sync.Mutex
	last *prepared
	seen seenDocument
}

// seenDocument is a main-frame document that a snapshot got ready (it was
// rendered) and counted: its world, which is the document's, and its
// elements then. A later snapshot of the same document, when it was
// clearly small, asks for Chromium's tree beside counting it again
// (Snapshots.readyBeside): one round trip instead of two.
type seenDocument struct {
	session, frame string
	world          int
	elements       int
}

// sawDocument records what a snapshot learnt of the main-frame document
// of frame frameID of session s, whose world is world.
func (p *Page) sawDocument(s *cdp.Session, frameID string, world int, r readiness) {
	if world == 0 {
		return
	}
	p.prep.mu.Lock()
	p.prep.seen = seenDocument{session: s.ID, frame: frameID, world: world, elements: r.Elements}
	p.prep.mu.Unlock()
}

// seenSmall returns the world of the document in frame frameID of session
// s when a snapshot saw it before with fewer than half threshold elements
// (any size when threshold is negative: Chromium's tree is read anyway),
// or 0.
func (p *Page) seenSmall(s *cdp.Session, frameID string, threshold int) int {
	p.sessions().synced() // the contexts destroyed so far are forgotten
	world := p.worlds.get(s, frameID)
	p.prep.mu.Lock()
	seen := p.prep.seen
	p.prep.mu.Unlock()
	if world == 0 || seen != (seenDocument{s.ID, frameID, world, seen.elements}) {
		return 0
	}
	if threshold >= 0 && seen.elements >= threshold/2 {
		return 0
	}
	return world
}

// prepare starts getting the document that frame frameID of session s
// just committed ready for a snapshot (snapshot-ready.js, sent now, waits
// for its load event and first rendering), replacing any earlier one.
func (p *Page) prepare(ctx context.Context, s *cdp.Session, frameID string) *prepared {
	pr := &prepared{session: s.ID, frame: frameID, done: make(chan struct{})}
	p.prep.mu.Lock()
	p.prep.last = pr
	p.prep.mu.Unlock()
	clock := cdp.WaitClockFrom(ctx)
	started := p.browser.bg.Go(func(ctx context.Context) {
		defer close(pr.done)
		// It may outlive the navigation (see Navigate), not the browser.
		// Bounded from the commit: a load and first rendering slower
		// than that leave the snapshot to get the document ready itself.
		ctx, cancel := context.WithTimeout(cdp.WithWaitClock(ctx, clock), 4*time.Second)
		defer cancel()
		pr.ready, pr.err = p.callReady(ctx, s, frameID, true, true)
		pr.world = p.worlds.get(s, frameID)
	})
	if !started {
		pr.err = context.Canceled
		close(pr.done)
	}
	return pr
}

// takePrepared returns, once, the readiness got by navigate_page for the
// document now in frame frameID of session s, waiting for it if still
// under way; ok is false when there is none for that document (it was
// navigated away from, it did not load in the navigation's time, or
// getting it failed).
func (p *Page) takePrepared(ctx context.Context, s *cdp.Session, frameID string) (r readiness, ok bool) {
	p.prep.mu.Lock()
	pr := p.prep.last
	if pr != nil && pr.session == s.ID && pr.frame == frameID && pr.loaded.Load() {
		p.prep.last = nil
	} else {
		pr = nil
	}
	p.prep.mu.Unlock()
	if pr == nil {
		return r, false
	}
	select {
	case <-pr.done:
	case <-ctx.Done():
		return r, false
	}
	p.sessions().synced() // a destroyed world is forgotten
	if pr.err != nil || pr.world == 0 || p.worlds.get(s, frameID) != pr.world {
		return r, false
	}
	p.sawDocument(s, frameID, pr.world, pr.ready)
	return pr.ready, true
}

// preparedLimit bounds how long Navigate waits, once the document loaded,
// for it to be got ready: mostly until its next frame, which follows the
// load closely. A page busy from its load on, or a renderer slow to draw,
// lets the navigation answer without it; the snapshot then waits for the
// rest (takePrepared).
const preparedLimit = 500 * time.Millisecond

// awaitPrepared waits for pr, preparedLimit at most.
func (p *Page) awaitPrepared(ctx context.Context, pr *prepared) {
	t := time.NewTimer(preparedLimit)
	defer t.Stop()
	select {
	case <-pr.done:
	case <-t.C:
	case <-ctx.Done():
	}
}
