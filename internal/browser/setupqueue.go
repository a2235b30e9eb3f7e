package browser

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"time"
)

// PageSetupLimit bounds how long Chrome may take to open one page or set
// one up (create the target, attach, enable the domains tools rely on)
// once its turn in the setup queue came. It is generous because a loaded
// machine with many clients makes Chrome slow at exactly this, and it is
// apart from a tool's timeout argument, which bounds only the navigation
// or wait the agent asked for.
const PageSetupLimit = time.Minute

// setupSlots is how many pages Chrome is asked to open or set up at once;
// more wait their turn in arrival order (a channel's blocked senders are
// served first come, first served) instead of all slowing one another
// down until each runs out of time.
func setupSlots() int { return max(2, runtime.NumCPU()) }

// SetupTimeoutError is the error of opening or setting up a page that
// Chrome did not finish within PageSetupLimit of its turn.
type SetupTimeoutError struct {
	What  string        // what was being done, "open a page", "set up page 3"
	Limit time.Duration // PageSetupLimit
}

func (e *SetupTimeoutError) Error() string {
	return fmt.Sprintf("%s: Chrome did not finish within %s (the page setup limit, which no argument changes: Chrome or the machine is overloaded, e.g. by many sessions at once); try again, or open fewer pages at once", e.What, e.Limit)
}

// setupTurn waits, for as long as ctx allows, for a turn to open or set
// up a page, and returns ctx bounded by the setup limit (its cause a
// *SetupTimeoutError naming what) with the function that ends the turn.
func (m *Manager) setupTurn(ctx context.Context, what string) (context.Context, func(), error) {
	release := func() {}
	if m.setup != nil { // nil in a Manager not made by NewManager: no queue
		select {
		case m.setup <- struct{}{}:
			release = func() { <-m.setup }
		case <-ctx.Done():
			return nil, nil, fmt.Errorf("%s: waiting for Chrome to set up other pages first: %w", what, ctx.Err())
		}
	}
	limit := m.setupLimit
	if limit <= 0 {
		limit = PageSetupLimit
	}
	sctx, cancel := context.WithTimeoutCause(ctx, limit, &SetupTimeoutError{What: what, Limit: limit})
	return sctx, func() { cancel(); release() }, nil
}

// setupErr returns err, or the *SetupTimeoutError when the setup limit of
// sctx (from setupTurn) is what ended it.
func setupErr(sctx context.Context, err error) error {
	var st *SetupTimeoutError
	if err != nil && errors.As(context.Cause(sctx), &st) {
		return st
	}
	return err
}
