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
	endB := w.command()
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
