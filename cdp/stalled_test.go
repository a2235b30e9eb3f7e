package cdp

import (
	"context"
	"testing"
	"time"
)

// TestStalled checks that Stalled names, per session, the oldest command
// still waiting from before the cutoff, and forgets it once answered.
func TestStalled(t *testing.T) {
	c, p := newTestConn(t)
	ctx := context.Background()
	errc := make(chan error, 3)
	go func() { errc <- c.Call(ctx, "S1", "DOM.getDocument", nil, nil) }()
	first := p.expect(t)
	go func() { errc <- c.Call(ctx, "S1", "Page.captureScreenshot", nil, nil) }()
	second := p.expect(t)
	go func() { errc <- c.Call(ctx, "", "Target.getTargets", nil, nil) }()
	third := p.expect(t)
	if got := c.Stalled(time.Now().Add(-time.Hour)); len(got) != 0 {
		t.Errorf("Stalled(an hour ago) = %v, want none", got)
	}
	got := c.Stalled(time.Now().Add(time.Millisecond))
	if len(got) != 2 || got["S1"] != "DOM.getDocument" || got[""] != "Target.getTargets" {
		t.Errorf("Stalled(now) = %v, want the oldest command of S1 and the browser's", got)
	}
	p.reply(t, first.ID, `{}`)
	p.reply(t, third.ID, `{}`)
	for range 2 {
		if err := <-errc; err != nil {
			t.Fatal(err)
		}
	}
	if got := c.Stalled(time.Now().Add(time.Millisecond)); len(got) != 1 || got["S1"] != "Page.captureScreenshot" {
		t.Errorf("after the replies Stalled = %v, want S1's screenshot only", got)
	}
	p.reply(t, second.ID, `{}`)
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
}
