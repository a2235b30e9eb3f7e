package browser

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestFailedSetUpLeavesNoPage fills the setup queue so that a new page's
// set-up cannot get its turn before its call gives up, and checks that the
// half-made page is closed, the page selected before stays selected, and
// the error says what it waited for.
func TestFailedSetUpLeavesNoPage(t *testing.T) {
	ctx := context.Background()
	m, b, first := headlessPage(ctx, t)
	defer m.Close(ctx)
	p, err := b.NewPage(ctx, "", false)
	if err != nil {
		t.Fatal(err)
	}
	for range cap(m.setup) {
		m.setup <- struct{}{}
	}
	short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	err = b.setUp(short, p, first)
	cancel()
	for range cap(m.setup) {
		<-m.setup
	}
	if err == nil || !strings.Contains(err.Error(), "waiting for Chrome to set up other pages first") || !strings.Contains(err.Error(), "the new page was closed") {
		t.Fatalf("set-up behind a full queue = %v, want the wait named and the page closed", err)
	}
	if ps := b.Pages(); len(ps) != 1 || ps[0] != first {
		t.Errorf("pages after the failed set-up: %d, want only the first", len(ps))
	}
	if b.Selected() != first {
		t.Errorf("the failed page's opener lost the selection")
	}
	// The queue works again once its turns are free.
	if _, err := b.OpenPage(ctx, "", false); err != nil {
		t.Fatal(err)
	}
}

// TestSetupLimitNamesItself gives page set-up no time at all and checks
// that the error says which limit ran out and that no argument changes
// it, rather than a bare context deadline.
func TestSetupLimitNamesItself(t *testing.T) {
	ctx := context.Background()
	m, b, _ := headlessPage(ctx, t)
	defer m.Close(ctx)
	m.setupLimit = time.Nanosecond
	_, err := b.OpenPage(ctx, "isolated", false)
	var st *SetupTimeoutError
	if !errors.As(err, &st) || !strings.Contains(err.Error(), "page setup limit") {
		t.Fatalf("OpenPage past the setup limit = %v, want a *SetupTimeoutError naming the limit", err)
	}
}
