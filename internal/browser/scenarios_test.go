package browser_test

import (
	"testing"

	"github.com/devtools-mcp/devtools-mcp/internal/cdptest"
	"github.com/devtools-mcp/devtools-mcp/internal/tooltest"
)

// TestScenarios drives the browser layer through the tools an agent calls,
// replaying recorded Chromium sessions (see internal/tooltest): page
// tracking, attaching, waiting for loads and actions, snapshots, input,
// collectors, emulation, tracing and heap snapshots.
func TestScenarios(t *testing.T) {
	if cdptest.Rerecording() {
		t.Skip("the tools package's TestScenarios re-records these scenarios; recording them twice at once would clash")
	}
	for _, sc := range tooltest.Scenarios() {
		t.Run(sc.Name, func(t *testing.T) { tooltest.Run(t, sc) })
	}
}
