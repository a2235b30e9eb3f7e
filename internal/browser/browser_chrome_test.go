package browser

import (
	"context"
	"runtime"
	"testing"
	"time"
)

// TestKilledBrowserLeavesNoGoroutines launches Chromium, kills it, lets the
// manager relaunch, closes everything, and checks that the goroutines of
// both browsers are gone.
func TestKilledBrowserLeavesNoGoroutines(t *testing.T) {
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	m, b, p := headlessPage(ctx, t)
	if _, err := p.Navigate(ctx, Navigation{URL: "about:blank#attached"}); err != nil {
		t.Fatal(err)
	}
	b.proc.Kill()
	<-b.conn.Done()
	if _, err := p.Evaluate(ctx, "1"); err == nil {
		t.Fatal("a call on the killed browser succeeded")
	}
	b2, err := m.Get(ctx)
	if err != nil || b2 == b {
		t.Fatalf("no new browser after the kill: %v", err)
	}
	if _, err := b2.SelectedOrNew(ctx); err != nil {
		t.Fatal(err)
	}
	m.Close(ctx)
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines before, %d after:\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(20 * time.Millisecond)
	}
}
