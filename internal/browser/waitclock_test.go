package browser

import (
	"testing"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// TestTimelineShowsEachCommandsSendTimeAndRoundTrip checks the format of
// the CDP timeline logged per call: method, when sent and how long it took,
// in milliseconds since the call began.
func TestTimelineShowsEachCommandsSendTimeAndRoundTrip(t *testing.T) {
	start := time.Now()
	at := func(ms float64) time.Time { return start.Add(time.Duration(ms * float64(time.Millisecond))) }
	got := formatSpans(start, []cdp.Span{
		{Name: "Page.getFrameTree", Start: at(0.4), End: at(1.6)},
		{Name: "Accessibility.getFullAXTree", Start: at(1.7), End: at(9.2)},
		{Name: "wait", Start: at(1.7), End: at(3)},
	})
	want := "Page.getFrameTree@0.4+1.2 Accessibility.getFullAXTree@1.7+7.5 wait@1.7+1.3"
	if got != want {
		t.Errorf("timeline = %q, want %q", got, want)
	}
}
