package tools

import "testing"

// TestToolsRunningCallerCodeAreGuarded: a tool that runs the caller's
// JavaScript can do anything an input tool can, so the sensitive page guard
// must cover it.
func TestToolsRunningCallerCodeAreGuarded(t *testing.T) {
	for _, tool := range all() {
		if tool.RunsCallerCode && tool.Scope != ScopeBrowser && !tool.Guarded {
			t.Errorf("%s runs the caller's code on a page but is not guarded", tool.Name)
		}
	}
}
