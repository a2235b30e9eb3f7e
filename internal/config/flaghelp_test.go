package config

import (
	"strings"
	"testing"

	"github.com/devtools-mcp/devtools-mcp/tools"
)

// listedFor returns the names of the tools the server lists for args.
func listedFor(t *testing.T, args ...string) map[string]bool {
	t.Helper()
	cfg := parseOK(t, args...)
	names := map[string]bool{}
	for _, tool := range tools.NewServer(cfg.ToolOptions(), nil, nil).ListTools() {
		names[tool.Name] = true
	}
	return names
}

// TestHelpClaimsAboutToolsHold checks --help against the listing: a switch
// whose text says it adds tools adds some, a category switch that is off
// by default adds its tools, and a switch accepted for compatibility, or
// one whose text says it adds none, leaves the listing as it is.
func TestHelpClaimsAboutToolsHold(t *testing.T) {
	base := listedFor(t)
	for _, s := range flagTable {
		if s.kind != kindBool || s.invert || s.name == "slim" || (s.group != groupTools && !s.compat) {
			continue
		}
		on := listedFor(t, "--"+s.name)
		added := 0
		for name := range on {
			if !base[name] {
				added++
			}
		}
		claimsTools := strings.HasPrefix(s.desc, "Add ") || (s.category != "" && s.def == "false")
		noTools := s.compat || strings.Contains(s.desc, "adds no tools") || strings.Contains(s.desc, "ignored")
		switch {
		case claimsTools && added == 0:
			t.Errorf("--help says --%s adds tools (%q), but it lists none more", s.name, s.desc)
		case noTools && len(on) != len(base):
			t.Errorf("--help says --%s adds no tools, but the listing changed from %d to %d tools", s.name, len(base), len(on))
		}
	}
	if slim := listedFor(t, "--slim"); len(slim) != 3 {
		t.Errorf("--help says --slim exposes three tools; it lists %d", len(slim))
	}
}
