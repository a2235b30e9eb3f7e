package tools_test

import (
	"testing"

	"github.com/devtools-mcp/devtools-mcp/internal/tooltest"
)

// TestScenarios replays every recorded tool session and checks what the
// agent reads at each step.
func TestScenarios(t *testing.T) {
	for _, sc := range tooltest.Scenarios() {
		t.Run(sc.Name, func(t *testing.T) { tooltest.Run(t, sc) })
	}
}
