package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

func extensionTools() []*Tool {
	return []*Tool{
		define(Tool{
			Name: "install_extension", Description: "Installs an unpacked Chrome extension from a local folder and prints its id.",
			Category: CategoryExtensions, Scope: ScopeBrowser,
		}, installExtension),
		define(Tool{
			Name: "list_extensions", Description: "Lists the unpacked extensions installed in the browser: id, name, version and whether each is enabled.",
			Category: CategoryExtensions, ReadOnly: true, Scope: ScopeBrowser,
		}, listExtensions),
		define(Tool{
			Name: "reload_extension", Description: "Reloads an unpacked extension from its folder, picking up changes to its files.",
			Category: CategoryExtensions, Scope: ScopeBrowser,
		}, reloadExtension),
		define(Tool{
			Name: "trigger_extension_action", Description: "Runs an extension's default action (as clicking its toolbar button would) on the selected page.",
			Category: CategoryExtensions, Scope: ScopeBrowser,
		}, triggerExtensionAction),
		define(Tool{
			Name: "uninstall_extension", Description: "Uninstalls an unpacked extension.",
			Category: CategoryExtensions, Scope: ScopeBrowser,
		}, uninstallExtension),
	}
}

// installExtensionArgs are install_extension's arguments.
type installExtensionArgs struct {
	Path string `json:"path" path:"" jsonschema:"Absolute path of the unpacked extension's folder (the one holding manifest.json)."`
}

// installExtension runs install_extension.
func installExtension(ctx context.Context, c *Call, args *installExtensionArgs) error {
	id, err := loadUnpacked(ctx, c, args.Path)
	if err != nil {
		return err
	}
	c.Resp.Linef("Extension installed. Id: %s", id)
	return nil
}

// listExtensions runs list_extensions.
func listExtensions(ctx context.Context, c *Call, _ *noArgs) error {
	exts, err := extensions(ctx, c)
	if err != nil {
		return err
	}
	c.Resp.Linef("## Extensions")
	if len(exts) == 0 {
		c.Resp.Linef("No extensions installed.")
	}
	for _, e := range exts {
		state := "Enabled"
		if !e.Enabled {
			state = "Disabled"
		}
		c.Resp.Linef("id=%s %q v%s %s", e.ID, e.Name, e.Version, state)
	}
	return nil
}

// reloadExtensionArgs are reload_extension's arguments.
type reloadExtensionArgs struct {
	ID string `json:"id" jsonschema:"Id of the extension to reload (see list_extensions)."`
}

// reloadExtension runs reload_extension.
func reloadExtension(ctx context.Context, c *Call, args *reloadExtensionArgs) error {
	e, err := extension(ctx, c, args.ID)
	if err != nil {
		return err
	}
	if err := extensionsCall(ctx, c, "Extensions.uninstall", cdp.ExtensionIDParams{ID: e.ID}, nil); err != nil {
		return err
	}
	id, err := loadUnpacked(ctx, c, e.Path)
	if err != nil {
		return fmt.Errorf("extension %s was uninstalled but could not be loaded again; fix it and call install_extension with %s: %w", e.ID, e.Path, err)
	}
	c.Resp.Linef("Extension reloaded. Id: %s", id)
	return nil
}

// triggerExtensionActionArgs are trigger_extension_action's arguments.
type triggerExtensionActionArgs struct {
	ID string `json:"id" jsonschema:"Id of the extension whose action to run (see list_extensions)."`
}

// triggerExtensionAction runs trigger_extension_action.
func triggerExtensionAction(ctx context.Context, c *Call, args *triggerExtensionActionArgs) error {
	if _, err := extension(ctx, c, args.ID); err != nil {
		return err
	}
	p, err := c.Browser.SelectedOrNew(ctx)
	if err != nil {
		return err
	}
	tab, err := tabOf(ctx, c.Browser.Conn(), p.Info())
	if err != nil {
		return fmt.Errorf("find the tab of page %d: %w", p.ID, err)
	}
	params := cdp.ExtensionsTriggerActionParams{ID: args.ID, TargetID: tab}
	if err := extensionsCall(ctx, c, "Extensions.triggerAction", params, nil); err != nil {
		return err
	}
	c.Resp.Linef("Extension action triggered for id %s on page %d.", args.ID, p.ID)
	return nil
}

// uninstallExtensionArgs are uninstall_extension's arguments.
type uninstallExtensionArgs struct {
	ID string `json:"id" jsonschema:"Id of the extension to uninstall (see list_extensions)."`
}

// uninstallExtension runs uninstall_extension.
func uninstallExtension(ctx context.Context, c *Call, args *uninstallExtensionArgs) error {
	if _, err := extension(ctx, c, args.ID); err != nil {
		return err
	}
	if err := extensionsCall(ctx, c, "Extensions.uninstall", cdp.ExtensionIDParams{ID: args.ID}, nil); err != nil {
		return err
	}
	c.Resp.Linef("Extension uninstalled. Id: %s", args.ID)
	return nil
}

// loadUnpacked installs the extension in dir and returns its id.
func loadUnpacked(ctx context.Context, c *Call, dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("extension path %s: %w", dir, err)
	}
	conn := c.Browser.Conn()
	created := conn.Subscribe("", cdp.TargetTargetCreated)
	defer created.Close()
	var res cdp.ExtensionsLoadUnpackedResult
	if err := extensionsCall(ctx, c, "Extensions.loadUnpacked", cdp.ExtensionsLoadUnpackedParams{Path: abs}, &res); err != nil {
		return "", fmt.Errorf("install the extension in %s: %w", abs, err)
	}
	if worker := serviceWorker(abs); worker != "" {
		awaitWorker(ctx, conn, created, "chrome-extension://"+res.ID+"/"+worker)
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
// start and run its script, so that an action triggered right after the
// install finds the listeners the script adds. It gives up silently: the
// install itself succeeded.
func awaitWorker(ctx context.Context, conn *cdp.Conn, created *cdp.Subscription, url string) {
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
			if s, detach, err := attach(ctx, conn, t.TargetID); err == nil {
				// The worker answers once its script has run.
				s.Call(ctx, "Runtime.evaluate", cdp.EvaluateParams{Expression: "0"}, nil)
				detach()
			}
			return
		}
	}
}

// extensions returns the unpacked extensions of the browser.
func extensions(ctx context.Context, c *Call) ([]cdp.ExtensionInfo, error) {
	var res cdp.ExtensionsGetExtensionsResult
	if err := extensionsCall(ctx, c, "Extensions.getExtensions", nil, &res); err != nil {
		return nil, err
	}
	return res.Extensions, nil
}

// extension returns the installed unpacked extension with id, or an error
// that lists the installed ones.
func extension(ctx context.Context, c *Call, id string) (cdp.ExtensionInfo, error) {
	exts, err := extensions(ctx, c)
	if err != nil {
		return cdp.ExtensionInfo{}, err
	}
	ids := "none is installed"
	for i, e := range exts {
		if e.ID == id {
			return e, nil
		}
		if i == 0 {
			ids = "installed: " + e.ID
		} else {
			ids += ", " + e.ID
		}
	}
	return cdp.ExtensionInfo{}, fmt.Errorf("no unpacked extension with id %q; %s (call list_extensions)", id, ids)
}

// tabOf returns the id of the tab target that holds page, which is what
// Extensions.triggerAction takes. Chrome does not link a page target to its
// tab, so each tab showing the page's URL is asked, by auto-attaching to
// it, whether page is its page.
func tabOf(ctx context.Context, conn *cdp.Conn, page cdp.TargetInfo) (string, error) {
	var res cdp.GetTargetsResult
	if err := conn.Call(ctx, "", "Target.getTargets", cdp.GetTargetsParams{Filter: []cdp.FilterEntry{{Type: "tab"}}}, &res); err != nil {
		return "", err
	}
	for _, tab := range res.TargetInfos {
		if tab.Type != "tab" || tab.URL != page.URL {
			continue
		}
		if ok, err := holds(ctx, conn, tab.TargetID, page.TargetID); err != nil || ok {
			return tab.TargetID, err
		}
	}
	return "", errors.New("no tab holds it")
}

// holds tells whether tab's page is the target page.
func holds(ctx context.Context, conn *cdp.Conn, tab, page string) (bool, error) {
	s, detach, err := attach(ctx, conn, tab)
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
	// Chrome announces the tab's page before it replies.
	if err := s.Call(ctx, "Target.setAutoAttach", cdp.SetAutoAttachParams{AutoAttach: true, Flatten: true}, nil); err != nil {
		return false, err
	}
	if err := sub.Sync(ctx); err != nil {
		return false, err
	}
	mu.Lock()
	defer mu.Unlock()
	return len(found) > 0 && found[0] == page, nil
}

// attach opens a session to target; detach ends it.
func attach(ctx context.Context, conn *cdp.Conn, target string) (s *cdp.Session, detach func(), err error) {
	var res cdp.AttachToTargetResult
	if err := conn.Call(ctx, "", "Target.attachToTarget", cdp.AttachToTargetParams{TargetID: target, Flatten: true}, &res); err != nil {
		return nil, nil, err
	}
	return conn.Session(res.SessionID), func() {
		conn.Call(ctx, "", "Target.detachFromTarget", cdp.DetachFromTargetParams(res), nil)
	}, nil
}

// extensionsCall sends an Extensions domain command to the browser. When
// Chrome refuses the domain (it serves it only over a debugging pipe to a
// browser started with --enable-unsafe-extension-debugging), the error says
// how to get a browser that accepts it.
func extensionsCall(ctx context.Context, c *Call, method string, params, result any) error {
	err := c.Browser.Conn().Call(ctx, "", method, params, result)
	var cerr *cdp.Error
	if !errors.As(err, &cerr) || !refused(cerr) {
		return err
	}
	if c.Server.browser.Attached() {
		return fmt.Errorf("%w; the browser this server is attached to does not allow managing extensions: Chrome allows it only over --remote-debugging-pipe with --enable-unsafe-extension-debugging. Let this server launch the browser (drop --browserUrl, --wsEndpoint and --autoConnect) with --categoryExtensions", err)
	}
	return fmt.Errorf("%w; this browser does not allow managing extensions: it needs --enable-unsafe-extension-debugging (added when --categoryExtensions is on) and must not be started with --disable-extensions (check --chromeArg and --ignoreDefaultChromeArg)", err)
}

// refused tells whether err is Chrome declining the Extensions domain.
func refused(err *cdp.Error) bool {
	return err.Code == -32601
}
