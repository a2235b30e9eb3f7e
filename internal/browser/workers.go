package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// ServiceWorker is an extension's service worker, named by an id of the
// reference's form ("sw-1") that stays the same while the worker lives.
type ServiceWorker struct {
	ID, URL  string
	targetID string
}

// ExtensionServiceWorkers lists the running service workers of
// extensions, in Chrome's order.
func (b *Browser) ExtensionServiceWorkers(ctx context.Context) ([]ServiceWorker, error) {
	res, err := cdp.TargetGetTargets.Call(ctx, b.rootSession(), cdp.GetTargetsParams{Filter: []cdp.FilterEntry{{Type: "service_worker"}}})
	if err != nil {
		return nil, fmt.Errorf("list service workers: %w", err)
	}
	b.workersMu.Lock()
	defer b.workersMu.Unlock()
	if b.workerIDs == nil {
		b.workerIDs = map[string]string{}
	}
	var out []ServiceWorker
	for _, t := range res.TargetInfos {
		if t.Type != "service_worker" || !strings.HasPrefix(t.URL, "chrome-extension://") {
			continue
		}
		id, ok := b.workerIDs[t.TargetID]
		if !ok {
			b.lastWorkerID++
			id = "sw-" + strconv.Itoa(b.lastWorkerID)
			b.workerIDs[t.TargetID] = id
		}
		out = append(out, ServiceWorker{ID: id, URL: t.URL, targetID: t.TargetID})
	}
	return out, nil
}

// EvaluateInServiceWorker calls the function declaration fn (no
// arguments) in the extension service worker id, awaits it and returns
// its result as JSON text.
func (b *Browser) EvaluateInServiceWorker(ctx context.Context, id, fn string) (string, error) {
	workers, err := b.ExtensionServiceWorkers(ctx)
	if err != nil {
		return "", err
	}
	var w *ServiceWorker
	ids := make([]string, len(workers))
	for i := range workers {
		ids[i] = workers[i].ID
		if workers[i].ID == id {
			w = &workers[i]
		}
	}
	if w == nil {
		if len(ids) == 0 {
			return "", fmt.Errorf("no extension service worker %q: none is running (list_pages lists them)", id)
		}
		return "", fmt.Errorf("no extension service worker %q; running: %s", id, strings.Join(ids, ", "))
	}
	s, detach, err := b.attachLoadedWorker(ctx, w.targetID)
	if err != nil {
		return "", fmt.Errorf("attach to service worker %s: %w", id, err)
	}
	defer detach()
	// JSON.stringify in the worker: its result has no DOM nodes to name.
	expr := "(async () => { const v = await (" + fn + ")(); return v === undefined ? 'undefined' : JSON.stringify(v); })()"
	res, err := cdp.RuntimeEvaluate.Call(ctx, s, cdp.EvaluateParams{Expression: expr, AwaitPromise: true, ReturnByValue: true})
	if err != nil {
		return "", fmt.Errorf("evaluate in service worker %s: %w", id, err)
	}
	if d := res.ExceptionDetails; d != nil {
		return "", fmt.Errorf("the script threw in service worker %s: %s", id, d.Message())
	}
	var text string
	if err := json.Unmarshal(res.Result.Value, &text); err != nil {
		return "", fmt.Errorf("read the result of service worker %s: %w", id, err)
	}
	return text, nil
}

// workerLoadWait bounds the wait for a worker's script to load. A Chrome
// that never says so gets the script run after it anyway.
const workerLoadWait = 10 * time.Second

// attachLoadedWorker attaches to the worker target and returns once its
// script has loaded. Chrome lists an extension's service worker as soon as
// it starts, before its script ran: a function evaluated then finds no
// chrome.tabs, or gets no answer at all.
func (b *Browser) attachLoadedWorker(ctx context.Context, target string) (s *cdp.Session, detach func(), err error) {
	// The event can come right after the reply to the attach, before its
	// session is known here: listen on every session, then pick this one.
	loaded := b.conn.Subscribe(cdp.AnySession, cdp.InspectorWorkerScriptLoaded)
	defer loaded.Close()
	s, detach, err = b.attachTarget(ctx, target)
	if err != nil {
		return nil, nil, err
	}
	wait := time.NewTimer(workerLoadWait)
	defer wait.Stop()
	for {
		select {
		case ev, ok := <-loaded.Events():
			if !ok {
				detach()
				return nil, nil, fmt.Errorf("wait for the worker's script: %w", cdp.ErrBrowserGone)
			}
			if ev.SessionID == s.ID {
				return s, detach, nil
			}
		case <-wait.C:
			b.m.log.Debug("worker script not reported loaded; running anyway", "target", target)
			return s, detach, nil
		case <-ctx.Done():
			detach()
			return nil, nil, fmt.Errorf("the worker did not load its script: %w", ctx.Err())
		}
	}
}
