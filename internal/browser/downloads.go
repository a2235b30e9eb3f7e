package browser

import (
	"context"
	"fmt"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// denyDownloads refuses downloads in the browser context id (the default
// one when id is empty): left to Chrome, a page saves what it likes into
// ~/Downloads, readable by everyone, whatever the roots say. It is set for
// a browser the server launched and for every context it creates; the
// default context of a browser it attached to is the user's, and keeps the
// user's settings.
func (b *Browser) denyDownloads(ctx context.Context, id string) error {
	err := cdp.BrowserSetDownloadBehavior.Do(ctx, b.rootSession(), cdp.SetDownloadBehaviorParams{Behavior: "deny", BrowserContextID: id})
	if err != nil {
		return fmt.Errorf("refuse downloads: %w", err)
	}
	return nil
}
