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
	if err := c.guard().CheckNavigation(ctx, path); err != nil {
		return fmt.Errorf("navigating to %s is not allowed: %w", rawURL, err)
	}
	return nil
}
