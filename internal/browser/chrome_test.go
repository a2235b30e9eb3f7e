package browser

import (
	"context"
	"testing"

	"github.com/devtools-mcp/devtools-mcp/internal/chrome"
	"github.com/devtools-mcp/devtools-mcp/internal/chrometest"
)

// The unit tests that launch a real Chromium live in *_chrome_test.go and
// reach it only through headlessPage, which chrometest.Require guards: go
// test -short skips them, and CI fails them when Chromium is missing.

// headlessPage launches a headless Chromium with an isolated profile and
// returns its manager, browser and first page. The caller closes m.
func headlessPage(ctx context.Context, t *testing.T) (*Manager, *Browser, *Page) {
	t.Helper()
	exe := chrometest.Require(t)
	m := NewManager(Options{Launch: chrome.LaunchOptions{ExecutablePath: exe, Headless: true, Isolated: true}})
	b, err := m.Get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	p, err := b.SelectedOrNew(ctx)
	if err != nil {
		m.Close(ctx)
		t.Fatal(err)
	}
	return m, b, p
}
