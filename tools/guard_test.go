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

// TestToolsThatActOnPagesAreGuarded checks that every tool that can set a
// page going on its own (input, caller code) is Guarded: on one of the
// user's tabs, only those arm the guard that keeps the tab from being
// closed or led away (guardUserTab).
func TestToolsThatActOnPagesAreGuarded(t *testing.T) {
	for _, tool := range all() {
		if tool.Scope != ScopeBrowser && tool.Category == CategoryInput && !tool.Guarded {
			t.Errorf("%s acts on a page but is not guarded", tool.Name)
		}
	}
}
