package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
	"github.com/devtools-mcp/devtools-mcp/internal/browser"
)

// pwaTools are the Progressive Web App tools. They drive the browser-level
// PWA domain, which only a launched or attached desktop Chrome has.
func pwaTools() []*Tool {
	return []*Tool{
		define(Tool{Name: "get_os_app_state", Description: "Returns the OS integration state (badge count and registered file handlers) of an installed web app, identified by its manifest id.",
			Category: CategoryPwa, ReadOnly: true, Scope: ScopeBrowser},
			getOsAppState),
		define(Tool{Name: "install_pwa", Description: "Installs a Progressive Web App (PWA) identified by its manifest id, through the PWA CDP domain: no user gesture or install dialog. Such installs open in browser display mode unless displayMode says otherwise.",
			Category: CategoryPwa, Scope: ScopeBrowser},
			installPwa),
		define(Tool{Name: "launch_pwa", Description: "Launches an installed Progressive Web App in its saved display mode, at its start URL or at url within the app. The app's page is added to the page list.",
			Category: CategoryPwa, Scope: ScopeBrowser},
			launchPwa),
		define(Tool{Name: "uninstall_pwa", Description: "Uninstalls a Progressive Web App identified by its manifest id and closes its open app windows.",
			Category: CategoryPwa, Scope: ScopeBrowser},
			uninstallPwa),
	}
}

// getOsAppStateArgs are get_os_app_state's arguments.
type getOsAppStateArgs struct {
	ManifestID string `json:"manifestId" jsonschema:"The web app's manifest id (see install_pwa)."`
}

// getOsAppState runs get_os_app_state.
func getOsAppState(ctx context.Context, c *Call, args *getOsAppStateArgs) error {
	var res cdp.PWAGetOsAppStateResult
	if err := pwaCall(ctx, c, "PWA.getOsAppState", cdp.PWAManifestParams{ManifestID: args.ManifestID}, &res); err != nil {
		return pwaError("read the OS state of", args.ManifestID, err)
	}
	c.Resp.Linef("OS app state for manifest ID: %s", args.ManifestID)
	c.Resp.Linef("Badge count: %d", res.BadgeCount)
	handlers, err := json.Marshal(orEmpty(res.FileHandlers))
	if err != nil {
		return fmt.Errorf("encode file handlers: %w", err)
	}
	c.Resp.Linef("File handlers: %s", handlers)
	return nil
}

// installPwaArgs are install_pwa's arguments.
type installPwaArgs struct {
	ManifestID            string `json:"manifestId" jsonschema:"The web app's manifest id: the manifest's id member resolved against the manifest URL, or its resolved start_url when id is absent (e.g. https://example.com/)."`
	InstallURLOrBundleURL string `json:"installUrlOrBundleUrl" jsonschema:"Where to install from: the app's page URL for a normal site; for an Isolated Web App a file:// or http(s):// signed web bundle."`
	DisplayMode           string `json:"displayMode,omitempty" enum:"standalone,browser" jsonschema:"Display mode to set after install: standalone opens the app in its own window, browser as a tab. Default: browser."`
}

// installPwa runs install_pwa.
func installPwa(ctx context.Context, c *Call, args *installPwaArgs) error {
	params := cdp.PWAInstallParams{ManifestID: args.ManifestID, InstallURLOrBundleURL: args.InstallURLOrBundleURL}
	if err := pwaCall(ctx, c, "PWA.install", params, nil); err != nil {
		return pwaError("install", args.ManifestID, err)
	}
	c.Resp.Linef("Installed PWA with manifest ID: %s", args.ManifestID)
	if args.DisplayMode == "" {
		return nil
	}
	settings := cdp.PWAChangeAppUserSettingsParams{ManifestID: args.ManifestID, DisplayMode: args.DisplayMode}
	if err := pwaCall(ctx, c, "PWA.changeAppUserSettings", settings, nil); err != nil {
		return pwaError("set the display mode of", args.ManifestID, err)
	}
	c.Resp.Linef("Display mode set to: %s", args.DisplayMode)
	return nil
}

// launchPwaArgs are launch_pwa's arguments.
type launchPwaArgs struct {
	ManifestID string `json:"manifestId" jsonschema:"The web app's manifest id (see install_pwa)."`
	URL        string `json:"url,omitempty" jsonschema:"A URL within the app to open instead of its start URL."`
}

// launchPwa runs launch_pwa.
func launchPwa(ctx context.Context, c *Call, args *launchPwaArgs) error {
	p, err := launchPWA(ctx, c.Browser, cdp.PWALaunchParams{ManifestID: args.ManifestID, URL: args.URL})
	if err != nil {
		return err
	}
	c.Browser.Select(p)
	c.Resp.Linef("Launched PWA with manifest ID: %s as page %d (%s)", args.ManifestID, p.ID, p.Info().URL)
	c.Resp.IncludePages()
	return nil
}

// uninstallPwaArgs are uninstall_pwa's arguments.
type uninstallPwaArgs struct {
	ManifestID string `json:"manifestId" jsonschema:"The web app's manifest id (see install_pwa)."`
}

// uninstallPwa runs uninstall_pwa.
func uninstallPwa(ctx context.Context, c *Call, args *uninstallPwaArgs) error {
	if err := pwaCall(ctx, c, "PWA.uninstall", cdp.PWAManifestParams{ManifestID: args.ManifestID}, nil); err != nil {
		return pwaError("uninstall", args.ManifestID, err)
	}
	c.Resp.Linef("Uninstalled PWA with manifest ID: %s", args.ManifestID)
	c.Resp.IncludePages()
	return nil
}

// pwaCall sends a PWA domain command to the browser target.
func pwaCall(ctx context.Context, c *Call, method string, params, result any) error {
	return c.Browser.Conn().Call(ctx, "", method, params, result)
}

// launchPWA launches a web app and returns its page. PWA.launch answers
// with the id of the tab target, whose page target has an id of its own, so
// the page is the one created while the launch ran (or the target itself,
// should Chrome return a page id).
func launchPWA(ctx context.Context, b *browser.Browser, params cdp.PWALaunchParams) (*browser.Page, error) {
	// pageByTarget reads b.Pages, which reflects the target events received
	// so far, so a page this subscription hears of is in it.
	created := b.Conn().Subscribe("", cdp.TargetTargetCreated)
	defer created.Close()
	var res cdp.PWALaunchResult
	if err := b.Conn().Call(ctx, "", "PWA.launch", params, &res); err != nil {
		return nil, pwaError("launch", params.ManifestID, err)
	}
	if p := pageByTarget(b, res.TargetID); p != nil {
		return p, nil
	}
	timeout := time.After(5 * time.Second)
	for {
		select {
		case raw, ok := <-created.Events():
			if !ok {
				return nil, fmt.Errorf("launch web app %s: %w", params.ManifestID, b.Conn().Err())
			}
			ev, err := cdp.TargetTargetCreated.Decode(raw.Params)
			if err != nil {
				continue
			}
			if p := pageByTarget(b, ev.TargetInfo.TargetID); p != nil {
				return p, nil
			}
		case <-timeout:
			return nil, fmt.Errorf("launch web app %s: Chrome launched it (target %s) but no new page appeared within 5 s; call list_pages", params.ManifestID, res.TargetID)
		case <-ctx.Done():
			return nil, fmt.Errorf("launch web app %s: %w", params.ManifestID, ctx.Err())
		}
	}
}

// pageByTarget returns the tracked page with the target id, or nil.
func pageByTarget(b *browser.Browser, targetID string) *browser.Page {
	ps := b.Pages()
	if i := slices.IndexFunc(ps, func(p *browser.Page) bool { return p.TargetID == targetID }); i >= 0 {
		return ps[i]
	}
	return nil
}

// pwaError turns a failed PWA command into a message that says what the
// agent can do about it.
func pwaError(action, manifestID string, err error) error {
	err = fmt.Errorf("%s web app %s: %w", action, manifestID, err)
	var ce *cdp.Error
	if !errors.As(err, &ce) {
		return err
	}
	switch msg := ce.Message; {
	case ce.Code == -32601 || strings.Contains(msg, "wasn't found"):
		return fmt.Errorf("%w. This browser does not offer the PWA DevTools domain: PWA tools need a desktop Chrome or Chromium (launched by this server, or attached to with remote debugging), not a mobile or embedded browser", err)
	case strings.Contains(msg, "Couldn't fetch install info"):
		return fmt.Errorf("%w. Chrome found no installable app there: installUrlOrBundleUrl must be a page served over https or from localhost that links a web app manifest (with name, start_url and an icon) whose id, resolved against the manifest's URL, equals manifestId", err)
	case strings.Contains(msg, "Unknown web-app manifest id"), strings.Contains(msg, "Failed to launch"):
		return fmt.Errorf("%w. Check that the app is installed (install_pwa) and that manifestId is exactly its id", err)
	}
	return err
}

// orEmpty makes a nil slice encode as [] rather than null.
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
