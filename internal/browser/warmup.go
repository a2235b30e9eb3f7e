package browser

import (
	"context"
	"log/slog"
	"sync"
)

// WarmUp starts the Chrome a Manager launches in the background, so that
// the agent's first tool call, which comes after the agent has thought for
// a while, finds it running instead of waiting a second for its start-up.
// It starts at most once, when a client has initialized; Stop ends it. The
// zero WarmUp is ready to use.
type WarmUp struct {
	mu      sync.Mutex
	started bool
	cancel  context.CancelFunc
	done    chan struct{}
}

// Start launches m's browser on its own goroutine, with a context that
// Stop cancels, when m launches Chrome itself (not attached, no
// WebDriver). With firstPage (one browser for all, as on stdio), it also
// makes the first page ready for the tools: attached to, its events
// followed. Failures are logged only: the first tool call meets them and
// reports them. It does nothing after the first Start, or after Stop.
func (w *WarmUp) Start(parent context.Context, m *Manager, firstPage bool, log *slog.Logger) {
	if !m.Launches() {
		return
	}
	w.start(parent, func(ctx context.Context) {
		b, err := m.Get(ctx)
		if err == nil && firstPage {
			page, perr := b.SelectedOrNew(ctx)
			if err = perr; err == nil {
				_, err = page.Session(ctx)
			}
		}
		if err != nil && ctx.Err() == nil {
			log.Debug("start the browser ahead of the first call", "err", err)
		}
	})
}

// start runs fn once, on its own goroutine, with a context that stop
// cancels. It does nothing after stop.
func (w *WarmUp) start(parent context.Context, fn func(ctx context.Context)) {
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

// Stop cancels the warm-up and waits until it returned, so that a browser
// it was launching is either abandoned (launch kills it) or handed to the
// Manager, which closes it.
func (w *WarmUp) Stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.started = true // none after Stop
	if w.cancel != nil {
		w.cancel()
		<-w.done
	}
}
