package main

import (
	"context"
	"sync"

	"github.com/devtools-mcp/devtools-mcp/internal/config"
)

// warmUp starts the Chrome the server launches in the background, so that
// the agent's first tool call, which comes after the agent has thought for a
// while, finds it running instead of waiting a second for its start-up. It
// is started once per process, when a client has initialized; stop ends it.
type warmUp struct {
	mu      sync.Mutex
	started bool
	cancel  context.CancelFunc
	done    chan struct{}
}

// start runs fn once, on its own goroutine, with a context that stop
// cancels. It does nothing after stop.
func (w *warmUp) start(parent context.Context, fn func(ctx context.Context)) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.started {
		return
	}
	w.started = true
	ctx, cancel := context.WithCancel(parent)
	w.cancel, w.done = cancel, make(chan struct{})
	go func() {
		defer close(w.done)
		fn(ctx)
	}()
}

// stop cancels the warm-up and waits until it returned, so that a browser
// it was launching is either abandoned (launch kills it) or handed to the
// Manager, which closes it.
func (w *warmUp) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.started = true // none after stop
	if w.cancel != nil {
		w.cancel()
		<-w.done
	}
}

// warmBrowser launches the browser when the server starts Chrome itself
// (not attached, no WebDriver) and --lazyLaunch is not set. With one browser for all (stdio), it also makes its first page
// ready for the tools: attached to, its events followed. Failures are
// logged only: the first tool call meets them and reports them.
func (a *app) warmBrowser(cfg *config.Config) {
	if cfg.LazyLaunch || !a.mgr.Launches() {
		return
	}
	a.warm.start(a.ctx, func(ctx context.Context) {
		b, err := a.mgr.Get(ctx)
		if err == nil && !cfg.HTTP.Serve {
			page, perr := b.SelectedOrNew(ctx)
			if err = perr; err == nil {
				_, err = page.Session(ctx)
			}
		}
		if err != nil && ctx.Err() == nil {
			a.log.Debug("start the browser ahead of the first call", "err", err)
		}
	})
}

// closeBrowser stops the warm-up, then closes the browser.
func (a *app) closeBrowser(ctx context.Context) {
	a.warm.stop()
	a.mgr.Close(ctx)
}
