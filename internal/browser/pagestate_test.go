package browser

import (
	"fmt"
	"strings"
	"testing"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// TestSyncFromAnEventHandlerPanics checks that reading the synced page
// state from a subscription's own handler, which would deadlock, panics
// with a message saying so, and that a browser gone is no panic.
func TestSyncFromAnEventHandlerPanics(t *testing.T) {
	mustSync(nil)
	mustSync(cdp.ErrSubscriptionClosed)
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "would wait for itself") {
			t.Errorf("mustSync(ErrSyncFromSubscriber) recovered %v, want a panic naming the deadlock", r)
		}
	}()
	mustSync(fmt.Errorf("sync: %w", cdp.ErrSyncFromSubscriber))
}

// TestPageStateUsable checks the recovery each unusable state points to.
func TestPageStateUsable(t *testing.T) {
	for _, c := range []struct {
		s    PageState
		want string
	}{
		{PageState{ID: 3}, ""},
		{PageState{ID: 3, Closed: true}, "page 3 was closed; call list_pages to see the open pages"},
		{PageState{ID: 3, Crashed: "oom"}, "page 3 crashed (oom); reload it with navigate_page type=reload, or close it with close_page"},
	} {
		got := ""
		if err := c.s.Usable(); err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%+v.Usable() = %q, want %q", c.s, got, c.want)
		}
	}
}
