package browser

import (
	"context"
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
