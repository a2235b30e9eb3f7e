package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

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
	res, err := c.Browser.PWAAppState(ctx, args.ManifestID)
	if err != nil {
		return pwaError(c, "read the OS state of", args.ManifestID, err)
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
	if err := c.Browser.InstallPWA(ctx, args.ManifestID, args.InstallURLOrBundleURL); err != nil {
		return pwaError(c, "install", args.ManifestID, err)
	}
	c.Resp.Linef("Installed PWA with manifest ID: %s", args.ManifestID)
	if args.DisplayMode == "" {
		return nil
	}
	if err := c.Browser.SetPWADisplayMode(ctx, args.ManifestID, args.DisplayMode); err != nil {
		return pwaError(c, "set the display mode of", args.ManifestID, err)
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
	p, err := c.Browser.LaunchPWA(ctx, args.ManifestID, args.URL)
	if err != nil {
		err = pwaError(c, "launch", args.ManifestID, err)
		if _, ok := errors.AsType[*browser.PWANoPageError](err); ok {
			err = fmt.Errorf("%w; call list_pages", err)
		}
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
	if err := c.Browser.UninstallPWA(ctx, args.ManifestID); err != nil {
		return pwaError(c, "uninstall", args.ManifestID, err)
	}
	c.Resp.Linef("Uninstalled PWA with manifest ID: %s", args.ManifestID)
	c.Resp.IncludePages()
	return nil
}

// pwaError turns a failed PWA command into a message that says what the
// agent can do about it.
func pwaError(c *Call, action, manifestID string, err error) error {
	err = fmt.Errorf("%s web app %s: %w", action, manifestID, err)
	switch {
	case errors.Is(err, browser.ErrPWAUnsupported):
		return fmt.Errorf("%w. This browser (%s) does not offer the PWA DevTools domain: PWA tools need a desktop Chrome or Chromium (launched by this server, or attached to with remote debugging), not a mobile or embedded browser", err, c.Browser.Version())
	case errors.Is(err, browser.ErrPWANotInstallable):
		return fmt.Errorf("%w. Chrome found no installable app there: installUrlOrBundleUrl must be a page served over https or from localhost that links a web app manifest (with name, start_url and an icon) whose id, resolved against the manifest's URL, equals manifestId", err)
	case errors.Is(err, browser.ErrPWAUnknownApp):
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
