package browser_test

import (
	"testing"

	"github.com/devtools-mcp/devtools-mcp/internal/tooltest"
)

// TestScenarios drives the browser layer through the tools an agent calls,
// replaying recorded Chromium sessions (see internal/tooltest): page
// tracking, attaching, waiting for loads and actions, snapshots, input,
// collectors, emulation, tracing and heap snapshots.
func TestScenarios(t *testing.T) {
	for _, sc := range tooltest.Scenarios() {
		t.Run(sc.Name, func(t *testing.T) { tooltest.Run(t, sc) })
	}
}
