package browser

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// Extension is an unpacked extension installed in the browser.
type Extension struct {
	ID      string
	Name    string
	Version string
	// Path is the directory the extension was loaded from.
	Path    string
	Enabled bool
}

// ErrExtensionsRefused matches (with errors.Is) the error of an Extensions
// method when Chrome declined the Extensions domain: it serves it only over
// a debugging pipe to a browser started with
// --enable-unsafe-extension-debugging. The error's text stays Chrome's.
var ErrExtensionsRefused = errors.New("the browser refused the Extensions domain")

// Extensions returns the unpacked extensions of the browser.
func (b *Browser) Extensions(ctx context.Context) ([]Extension, error) {
	res, err := cdp.ExtensionsGetExtensions.Call(ctx, b.rootSession())
	if err != nil {
		return nil, extensionsRefusal(err)
	}
	exts := make([]Extension, len(res.Extensions))
	for i, e := range res.Extensions {
		exts[i] = Extension{ID: e.ID, Name: e.Name, Version: e.Version, Path: e.Path, Enabled: e.Enabled}
	}
	return exts, nil
}

// UninstallExtension uninstalls the unpacked extension id.
func (b *Browser) UninstallExtension(ctx context.Context, id string) error {
	return extensionsRefusal(cdp.ExtensionsUninstall.Do(ctx, b.rootSession(), cdp.ExtensionIDParams{ID: id}))
}

// TriggerExtensionAction runs extension id's default action, as clicking
// its toolbar button would, on the tab tabID (see TabOf).
func (b *Browser) TriggerExtensionAction(ctx context.Context, id, tabID string) error {
	return extensionsRefusal(cdp.ExtensionsTriggerAction.Do(ctx, b.rootSession(), cdp.ExtensionsTriggerActionParams{ID: id, TargetID: tabID}))
}

// LoadUnpackedExtension installs the extension in the absolute directory
// dir and returns its id. When the manifest declares a background service
// worker, it waits a few seconds at most for the worker to run its script,
// so that an action triggered right after finds the listeners it adds.
func (b *Browser) LoadUnpackedExtension(ctx context.Context, dir string) (string, error) {
	created := b.conn.Subscribe("", cdp.TargetTargetCreated)
	defer created.Close()
	res, err := cdp.ExtensionsLoadUnpacked.Call(ctx, b.rootSession(), cdp.ExtensionsLoadUnpackedParams{Path: dir})
	if err != nil {
		return "", extensionsRefusal(err)
	}
	if worker := serviceWorker(dir); worker != "" {
		b.awaitWorker(ctx, created, "chrome-extension://"+res.ID+"/"+worker)
	}
	return res.ID, nil
}

// serviceWorker returns the background service worker script that the
// manifest in dir declares, or "" when there is none.
func serviceWorker(dir string) string {
	var m struct {
		Background struct {
			ServiceWorker string `json:"service_worker"`
		} `json:"background"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil || json.Unmarshal(data, &m) != nil {
		return ""
	}
	return strings.TrimPrefix(m.Background.ServiceWorker, "/")
}

// awaitWorker waits a few seconds at most for the service worker at url to
// start and run its script. It gives up silently: the install itself
// succeeded.
func (b *Browser) awaitWorker(ctx context.Context, created *cdp.Subscription, url string) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	for {
		select {
		case <-ctx.Done():
			return
		case raw, ok := <-created.Events():
			if !ok {
				return // the browser went away
			}
			ev, err := cdp.TargetTargetCreated.Decode(raw.Params)
			t := ev.TargetInfo
			if err != nil || t.Type != "service_worker" || t.URL != url {
				continue
			}
			// An error only means the script will not load, which the
			// wait cannot change.
			if _, detach, err := b.attachLoadedWorker(ctx, t.TargetID); err == nil {
				detach()
			}
			return
		}
	}
}

// TabOf returns the id of the tab target that holds p, which is what
// TriggerExtensionAction takes. Chrome does not link a page target to its
// tab, so each tab showing p's URL is asked, by auto-attaching to it,
// whether p is its page.
func (b *Browser) TabOf(ctx context.Context, p *Page) (string, error) {
	page := p.Info()
	res, err := cdp.TargetGetTargets.Call(ctx, b.rootSession(), cdp.GetTargetsParams{Filter: []cdp.FilterEntry{{Type: "tab"}}})
	if err != nil {
		return "", err
	}
	for _, tab := range res.TargetInfos {
		if tab.Type != "tab" || tab.URL != page.URL {
			continue
		}
		if ok, err := b.holds(ctx, tab.TargetID, page.TargetID); err != nil || ok {
			return tab.TargetID, err
		}
	}
	return "", errors.New("no tab holds it")
}

// holds tells whether tab's page is the target page.
func (b *Browser) holds(ctx context.Context, tab, page string) (bool, error) {
	s, detach, err := b.attachTarget(ctx, tab)
	if err != nil {
		return false, err
	}
	defer detach()
	var mu sync.Mutex
	var found []string
	sub := s.SubscribeFunc(func(raw cdp.RawEvent) {
		if ev, err := cdp.TargetAttachedToTarget.Decode(raw.Params); err == nil && ev.TargetInfo.Type == "page" {
			mu.Lock()
			found = append(found, ev.TargetInfo.TargetID)
			mu.Unlock()
		}
	}, cdp.TargetAttachedToTarget)
	defer sub.Close()
	// Chrome announces the tab's page before it replies; Sync waits until
	// the events before the reply were handled.
	if err := cdp.TargetSetAutoAttach.Do(ctx, s, cdp.SetAutoAttachParams{AutoAttach: true, Flatten: true}); err != nil {
		return false, err
	}
	if err := sub.Sync(ctx); err != nil {
		return false, err
	}
	mu.Lock()
	defer mu.Unlock()
	return len(found) > 0 && found[0] == page, nil
}

// attachTarget opens a session to target; detach ends it.
func (b *Browser) attachTarget(ctx context.Context, target string) (s *cdp.Session, detach func(), err error) {
	res, err := cdp.TargetAttachToTarget.Call(ctx, b.rootSession(), cdp.AttachToTargetParams{TargetID: target, Flatten: true})
	if err != nil {
		return nil, nil, err
	}
	return b.conn.Session(res.SessionID), func() {
		if err := cdp.TargetDetachFromTarget.Do(ctx, b.rootSession(), cdp.DetachFromTargetParams(res)); err != nil {
			b.m.log.Debug("detach from target", "target", target, "err", err)
		}
	}, nil
}

// extensionsRefusal is err of an Extensions domain command, made to also
// match ErrExtensionsRefused when Chrome refused the domain.
func extensionsRefusal(err error) error {
	var cerr *cdp.Error
	if errors.As(err, &cerr) && cerr.Code == -32601 {
		return &reasonError{err: err, reason: ErrExtensionsRefused}
	}
	return err
}

// reasonError is a failed CDP command with what the browser layer read
// from Chrome's answer: its text is the command's error, and errors.Is
// matches both that error and the reason.
type reasonError struct {
	err, reason error
}

func (e *reasonError) Error() string   { return e.err.Error() }
func (e *reasonError) Unwrap() []error { return []error{e.err, e.reason} }
