// Package chrome gets the server a Chrome to drive: it finds the
// executable (FindExecutable), builds its command line (DefaultArgs and the
// launch options), launches it with a CDP pipe (Launch), resolves the
// endpoint of a running one to attach to (AttachOptions, ResolveBrowserURL,
// ReadDevToolsActivePort), gets one from a WebDriver grid (StartWebDriver),
// and removes the profiles and directories that killed servers left in the
// temporary directory (RemoveStale).
//
// It plays the part of chromedp's Allocator: everything that happens before
// the first CDP message and after the last, apart from internal/browser,
// which owns the connection, its targets and its pages.
package chrome
