package browser

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// The PWA domain lives on the browser target, which only a launched or
// attached desktop Chrome has. Its methods' errors keep Chrome's text and
// also match, with errors.Is, one of these reasons when Chrome gave one.
var (
	// ErrPWAUnsupported: the browser has no PWA domain.
	ErrPWAUnsupported = errors.New("the browser has no PWA domain")
	// ErrPWANotInstallable: Chrome found no installable app at the URL.
	ErrPWANotInstallable = errors.New("no installable web app there")
	// ErrPWAUnknownApp: no installed app has the manifest id.
	ErrPWAUnknownApp = errors.New("no installed web app with that manifest id")
)

// PWAFileHandler is a file handler a web app registered with the OS, as
// Chrome reports it (it encodes to the same JSON).
type PWAFileHandler = cdp.PWAFileHandler

// PWAAppState is a web app's OS integration state.
type PWAAppState struct {
	BadgeCount   int
	FileHandlers []PWAFileHandler
}

// PWAAppState returns the OS integration state of the installed web app
// manifestID.
func (b *Browser) PWAAppState(ctx context.Context, manifestID string) (PWAAppState, error) {
	res, err := cdp.PWAGetOsAppState.Call(ctx, b.rootSession(), cdp.PWAManifestParams{ManifestID: manifestID})
	if err != nil {
		return PWAAppState{}, pwaRefusal(err)
	}
	return PWAAppState{BadgeCount: res.BadgeCount, FileHandlers: res.FileHandlers}, nil
}

// InstallPWA installs the web app manifestID without a user gesture, from
// installURL (a page, or a signed web bundle) when it is not "".
func (b *Browser) InstallPWA(ctx context.Context, manifestID, installURL string) error {
	return pwaRefusal(cdp.PWAInstall.Do(ctx, b.rootSession(), cdp.PWAInstallParams{ManifestID: manifestID, InstallURLOrBundleURL: installURL}))
}

// SetPWADisplayMode makes the installed web app manifestID open in its own
// window ("standalone") or as a tab ("browser").
func (b *Browser) SetPWADisplayMode(ctx context.Context, manifestID, mode string) error {
	return pwaRefusal(cdp.PWAChangeAppUserSettings.Do(ctx, b.rootSession(), cdp.PWAChangeAppUserSettingsParams{ManifestID: manifestID, DisplayMode: mode}))
}

// UninstallPWA uninstalls the web app manifestID and closes its windows.
func (b *Browser) UninstallPWA(ctx context.Context, manifestID string) error {
	return pwaRefusal(cdp.PWAUninstall.Do(ctx, b.rootSession(), cdp.PWAManifestParams{ManifestID: manifestID}))
}

// pwaLaunchWait is how long LaunchPWA waits for the app's page to appear.
const pwaLaunchWait = 5 * time.Second

// PWANoPageError is LaunchPWA's error when Chrome launched the app but no
// new page appeared in time.
type PWANoPageError struct {
	TargetID string // what Chrome answered the launch with
}

func (e *PWANoPageError) Error() string {
	return fmt.Sprintf("Chrome launched it (target %s) but no new page appeared within %d s", e.TargetID, int(pwaLaunchWait.Seconds()))
}

// LaunchPWA launches the installed web app manifestID, at url within it or
// at its start URL when url is "", and returns its page. PWA.launch answers
// with the id of the tab target, whose page target has an id of its own, so
// the page is the one created while the launch ran (or the target itself,
// should Chrome return a page id).
func (b *Browser) LaunchPWA(ctx context.Context, manifestID, url string) (*Page, error) {
	// pageByTarget reads b.Pages, which reflects the target events received
	// so far, so a page this subscription hears of is in it.
	created := b.conn.Subscribe("", cdp.TargetTargetCreated)
	defer created.Close()
	res, err := cdp.PWALaunch.Call(ctx, b.rootSession(), cdp.PWALaunchParams{ManifestID: manifestID, URL: url})
	if err != nil {
		return nil, pwaRefusal(err)
	}
	if p := b.pageByTarget(res.TargetID); p != nil {
		return p, nil
	}
	timeout := time.After(pwaLaunchWait)
	for {
		select {
		case raw, ok := <-created.Events():
			if !ok {
				return nil, b.conn.Err()
			}
			ev, err := cdp.TargetTargetCreated.Decode(raw.Params)
			if err != nil {
				continue
			}
			if p := b.pageByTarget(ev.TargetInfo.TargetID); p != nil {
				return p, nil
			}
		case <-timeout:
			return nil, &PWANoPageError{TargetID: res.TargetID}
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// pageByTarget returns the tracked page with the target id, or nil.
func (b *Browser) pageByTarget(targetID string) *Page {
	ps := b.Pages()
	if i := slices.IndexFunc(ps, func(p *Page) bool { return p.TargetID == targetID }); i >= 0 {
		return ps[i]
	}
	return nil
}

// pwaRefusal is err of a PWA domain command, made to also match the reason
// Chrome gave for refusing it, if any.
func pwaRefusal(err error) error {
	var ce *cdp.Error
	if !errors.As(err, &ce) {
		return err
	}
	switch msg := ce.Message; {
	case ce.Code == -32601 || strings.Contains(msg, "wasn't found"):
		return &reasonError{err: err, reason: ErrPWAUnsupported}
	case strings.Contains(msg, "Couldn't fetch install info"):
		return &reasonError{err: err, reason: ErrPWANotInstallable}
	case strings.Contains(msg, "Unknown web-app manifest id"), strings.Contains(msg, "Failed to launch"):
		return &reasonError{err: err, reason: ErrPWAUnknownApp}
	}
	return err
}
