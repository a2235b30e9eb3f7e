package tools

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/devtools-mcp/devtools-mcp/internal/browser"
)

func extensionTools() []*Tool {
	return []*Tool{
		define(Tool{
			Name: "install_extension", Description: "Installs an unpacked Chrome extension from a local folder and prints its id.",
			Category: CategoryExtensions, Scope: ScopeBrowser, RunsCallerCode: true,
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
	dir, err := c.extensionDir(ctx, "path", args.Path)
	if err != nil {
		return err
	}
	id, err := loadUnpacked(ctx, c, dir, args.Path)
	if err != nil {
		return err
	}
	c.Resp.Linef("Extension installed. Id: %s", id)
	return nil
}

// listExtensions runs list_extensions.
func listExtensions(ctx context.Context, c *Call, _ *noArgs) error {
	exts, err := c.Browser.Extensions(ctx)
	if err != nil {
		return extensionsError(c, err)
	}
	c.Resp.Linef("## Extensions")
	if len(exts) == 0 {
		c.Resp.Linef("No extensions installed.")
	}
	structured := make([]extensionJSON, 0, len(exts))
	for _, e := range exts {
		path := e.Path
		if src, ok := c.Server.extensions.source(e.Path); ok {
			path = src // the folder, not the copy the browser reads
		}
		structured = append(structured, extensionJSON{ID: e.ID, Name: e.Name, Version: e.Version, Path: path, Enabled: e.Enabled})
		state := "Enabled"
		if !e.Enabled {
			state = "Disabled"
		}
		c.Resp.Linef("id=%s %q v%s %s", e.ID, e.Name, e.Version, state)
	}
	c.Resp.Set("extensions", structured)
	return nil
}

// reloadExtensionArgs are reload_extension's arguments.
type reloadExtensionArgs struct {
	ID string `json:"id" jsonschema:"Id of the extension to reload (see list_extensions)."`
}

// reloadExtension runs reload_extension. An extension installed from a
// copy (see Call.extensionDir) is copied again from its folder, checked
// as install_extension checks it, before it is uninstalled.
func reloadExtension(ctx context.Context, c *Call, args *reloadExtensionArgs) error {
	e, err := extension(ctx, c, args.ID)
	if err != nil {
		return err
	}
	dir, folder := e.Path, e.Path
	if src, ok := c.Server.extensions.source(e.Path); ok {
		folder = src
		if dir, err = c.extensionDir(ctx, "the extension's folder", src); err != nil {
			return fmt.Errorf("extension %s was not reloaded: %w", e.ID, err)
		}
	}
	if err := c.Browser.UninstallExtension(ctx, e.ID); err != nil {
		return extensionsError(c, err)
	}
	id, err := loadUnpacked(ctx, c, dir, folder)
	if err != nil {
		return fmt.Errorf("extension %s was uninstalled but could not be loaded again; fix it and call install_extension with %s: %w", e.ID, folder, err)
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
	tab, err := c.Browser.TabOf(ctx, p)
	if err != nil {
		return fmt.Errorf("find the tab of page %d: %w", p.ID, err)
	}
	if err := c.Browser.TriggerExtensionAction(ctx, args.ID, tab); err != nil {
		return extensionsError(c, err)
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
	if err := c.Browser.UninstallExtension(ctx, args.ID); err != nil {
		return extensionsError(c, err)
	}
	c.Resp.Linef("Extension uninstalled. Id: %s", args.ID)
	return nil
}

// loadUnpacked installs the extension in dir (a copy of folder, or
// folder itself) and returns its id.
func loadUnpacked(ctx context.Context, c *Call, dir, folder string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("extension path %s: %w", dir, err)
	}
	id, err := c.Browser.LoadUnpackedExtension(ctx, abs)
	if err != nil {
		if a, aerr := filepath.Abs(folder); aerr == nil {
			folder = a
		}
		return "", fmt.Errorf("install the extension in %s: %w", folder, extensionsError(c, err))
	}
	return id, nil
}

// extension returns the installed unpacked extension with id, or an error
// that lists the installed ones.
func extension(ctx context.Context, c *Call, id string) (browser.Extension, error) {
	exts, err := c.Browser.Extensions(ctx)
	if err != nil {
		return browser.Extension{}, extensionsError(c, err)
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
	return browser.Extension{}, fmt.Errorf("no unpacked extension with id %q; %s (call list_extensions)", id, ids)
}

// extensionsError says, when Chrome refused the Extensions domain, how to
// get a browser that accepts it.
func extensionsError(c *Call, err error) error {
	if !errors.Is(err, browser.ErrExtensionsRefused) {
		return err
	}
	if c.attached() {
		return fmt.Errorf("%w; the browser this server is attached to (%s) does not allow managing extensions: Chrome allows it only over --remote-debugging-pipe with --enable-unsafe-extension-debugging. Let this server launch the browser (drop --browserUrl, --wsEndpoint and --autoConnect) with --categoryExtensions", err, c.Browser.Version())
	}
	return fmt.Errorf("%w; this browser (%s) does not allow managing extensions: it needs --enable-unsafe-extension-debugging (added when --categoryExtensions is on) and must not be started with --disable-extensions (check --chromeArg and --ignoreDefaultChromeArg)", err, c.Browser.Version())
}
