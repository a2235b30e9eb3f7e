package tools

import (
	"context"
	"fmt"

	"github.com/devtools-mcp/devtools-mcp/internal/urlpattern"
)

// checkNavigation refuses a URL the hardening flags forbid, and a file: URL
// outside the directories files are confined to when there are any to
// speak of: the --workspace (--filesystemRoot) directories or the calling
// client's roots. Without either, file: URLs open anywhere, as in Chrome.
func (c *Call) checkNavigation(ctx context.Context, rawURL string) error {
	if err := c.Server.opts.navigationPolicy().Check(rawURL); err != nil {
		return err
	}
	path, ok := urlpattern.FilePath(rawURL)
	if !ok {
		return nil
	}
	g := c.guard()
	if g.unrestricted {
		return nil
	}
	client, _ := g.clientRoots(ctx)
	if len(g.configured) == 0 && len(client) == 0 {
		return nil
	}
	if _, _, err := g.confine(ctx, "url", path, true); err != nil {
		return fmt.Errorf("navigating to %s is not allowed: %w", rawURL, err)
	}
	return nil
}
