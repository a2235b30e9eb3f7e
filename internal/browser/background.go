package browser

import (
	"context"
	"errors"
	"log/slog"
	"sync"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// background owns a browser's follow-up work: what an event asks for but
// nobody waits on, such as letting a new iframe run after it was set up.
// Its context lasts as long as the browser; stop cancels it and waits for
// the work to return, so that nothing outlives the browser.
type background struct {
	ctx    context.Context
	cancel context.CancelFunc
	log    *slog.Logger

	mu      sync.Mutex
	stopped bool
	wg      sync.WaitGroup
}

func newBackground(log *slog.Logger) *background {
	ctx, cancel := context.WithCancel(context.Background())
	return &background{ctx: ctx, cancel: cancel, log: log}
}

// Go runs fn on its own goroutine with the browser's lifetime context. Once
// stop was called, fn is not run, and Go returns false.
func (g *background) Go(fn func(ctx context.Context)) (started bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.stopped {
		return false
	}
	g.wg.Go(func() { fn(g.ctx) })
	return true
}

// stop cancels the work's context and waits until all of it returned.
func (g *background) stop() {
	g.mu.Lock()
	g.stopped = true
	g.mu.Unlock()
	g.cancel()
	g.wg.Wait()
}

// failed logs an error of work nobody waits for, naming the target and
// the CDP method (or step) that failed. Errors caused by the browser going
// away while it is being closed are expected and logged at debug level.
func (g *background) failed(target, method string, err error) {
	level := slog.LevelWarn
	if g.ctx.Err() != nil || errors.Is(err, cdp.ErrBrowserGone) {
		level = slog.LevelDebug
	}
	g.log.Log(context.Background(), level, "background CDP work failed", "target", target, "method", method, "err", err)
}
