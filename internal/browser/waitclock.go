package browser

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// TimeChrome returns ctx with a clock of how long the work done with it
// waits on Chrome (its commands unanswered, events awaited; overlaps count
// once), and a function that reads that time and the number of commands
// sent so far. The wall time minus it is the time spent in the server's
// own code.
func TimeChrome(ctx context.Context) (context.Context, func() (waited time.Duration, commands int)) {
	clock := &cdp.WaitClock{}
	return cdp.WithWaitClock(ctx, clock), clock.Total
}

// TraceChrome is TimeChrome that also keeps the work's CDP timeline:
// timeline formats it as "method@sent+took" in milliseconds since the
// call to TraceChrome ("Page.getFrameTree@0.4+1.2
// Runtime.callFunctionOn@0.5+5.0"; "wait" is an awaited event), so spans
// that overlap were in flight together.
func TraceChrome(ctx context.Context) (_ context.Context, waited func() (time.Duration, int), timeline func() string) {
	clock := &cdp.WaitClock{}
	clock.Trace()
	start := time.Now()
	return cdp.WithWaitClock(ctx, clock), clock.Total, func() string { return formatSpans(start, clock.Spans()) }
}

// formatSpans is TraceChrome's timeline of spans.
func formatSpans(start time.Time, spans []cdp.Span) string {
	var b strings.Builder
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	for i, s := range spans {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s@%.1f+%.1f", s.Name, ms(s.Start.Sub(start)), ms(s.End.Sub(s.Start)))
	}
	return b.String()
}
