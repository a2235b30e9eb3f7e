package browser

import (
	"maps"
	"slices"
	"testing"
)

// TestOpenerGroup checks that a page's group holds its opener, the
// opener's other popups and their popups, and nothing else.
func TestOpenerGroup(t *testing.T) {
	openers := map[string]string{
		"popup":     "user",  // the agent's popup of the user's tab
		"chat":      "user",  // the user's own popup of that tab
		"chatchild": "chat",  // a popup of that popup
		"other":     "user2", // another tab's popup
	}
	for start, want := range map[string][]string{
		"popup":  {"chat", "chatchild", "popup", "user"},
		"user":   {"chat", "chatchild", "popup", "user"},
		"other":  {"other", "user2"},
		"lonely": {"lonely"},
		"user2":  {"other", "user2"},
	} {
		if got := slices.Sorted(maps.Keys(openerGroup(openers, start))); !slices.Equal(got, want) {
			t.Errorf("openerGroup(%s) = %v, want %v", start, got, want)
		}
	}
}
