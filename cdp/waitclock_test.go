package cdp

import (
	"testing"
	"time"
)

// TestWaitClockCountsOverlapsOnce checks that two overlapping waits count
// as the time either was under way, not as their sum, and that the time
// between waits is not counted.
func TestWaitClockCountsOverlapsOnce(t *testing.T) {
	w := &WaitClock{}
	start := time.Now()
	endA := w.Wait()
	endB := w.command("Page.getFrameTree")
	time.Sleep(20 * time.Millisecond)
	endA()
	endA() // a second end is ignored
	time.Sleep(20 * time.Millisecond)
	endB()
	overlapped := time.Since(start)
	time.Sleep(30 * time.Millisecond) // not waiting
	got, commands := w.Total()
	if got < 40*time.Millisecond || got > overlapped {
		t.Errorf("waited %v, want between 40 ms and the %v the waits were under way", got, overlapped)
	}
	if commands != 1 {
		t.Errorf("commands = %d, want 1", commands)
	}
	var none *WaitClock
	none.Wait()()
	if got, _ := none.Total(); got != 0 {
		t.Errorf("a nil clock counted %v", got)
	}
}

// TestWaitClockTraceKeepsEachSpan checks that a traced clock keeps each
// command's method and times, and a wait under way as ending now, and that
// an untraced one keeps none.
func TestWaitClockTraceKeepsEachSpan(t *testing.T) {
	w := &WaitClock{}
	w.Trace()
	end := w.command("Page.getFrameTree")
	time.Sleep(5 * time.Millisecond)
	end()
	w.Wait() // never ended
	spans := w.Spans()
	if len(spans) != 2 || spans[0].Name != "Page.getFrameTree" || spans[1].Name != "wait" {
		t.Fatalf("spans = %+v, want Page.getFrameTree then wait", spans)
	}
	if d := spans[0].End.Sub(spans[0].Start); d < 5*time.Millisecond {
		t.Errorf("the command's span lasted %v, want at least 5 ms", d)
	}
	if spans[1].End.Before(spans[1].Start) {
		t.Errorf("the wait under way ends at %v, before it began at %v", spans[1].End, spans[1].Start)
	}
	plain := &WaitClock{}
	plain.command("Page.getFrameTree")()
	if got := plain.Spans(); len(got) != 0 {
		t.Errorf("an untraced clock kept %+v", got)
	}
}
