package tools

import "testing"

func TestEveryToolHasAnnotations(t *testing.T) {
	titles := map[string]string{}
	for _, tool := range all() {
		h, ok := toolHints(tool.Name)
		if !ok {
			t.Errorf("%s has no hints: add it to toolHints in tools/annotations.go (title, destructive, idempotent, openWorld)", tool.Name)
			continue
		}
		if h.title == "" {
			t.Errorf("%s has no title", tool.Name)
		}
		if other, dup := titles[h.title]; dup && !sameTool(other, tool.Name) {
			t.Errorf("%s and %s share the title %q", other, tool.Name, h.title)
		}
		titles[h.title] = tool.Name
		a := annotations(tool)
		if tool.ReadOnly && (a.DestructiveHint || !a.IdempotentHint) {
			t.Errorf("%s is read-only but annotated destructive=%v idempotent=%v", tool.Name, a.DestructiveHint, a.IdempotentHint)
		}
	}
}

// sameTool tells the --slim tools from the full ones they stand for.
func sameTool(a, b string) bool {
	slim := map[string]string{"navigate": "navigate_page", "evaluate": "evaluate_script", "screenshot": "take_screenshot"}
	return slim[a] == b || slim[b] == a
}

func TestAnnotationsOfToolsThatActOnThePage(t *testing.T) {
	byName := map[string]*Tool{}
	for _, tool := range all() {
		byName[tool.Name] = tool
	}
	for name, want := range map[string][3]bool{ // destructive, idempotent, openWorld
		"take_snapshot":   {false, true, false},
		"click":           {true, false, true},
		"evaluate_script": {true, false, true},
		"close_page":      {true, false, false},
		"navigate_page":   {false, false, true},
		"emulate":         {false, true, false},
	} {
		a := annotations(byName[name])
		if got := [3]bool{a.DestructiveHint, a.IdempotentHint, a.OpenWorldHint}; got != want || a.Title == "" {
			t.Errorf("%s annotations = %+v, want destructive/idempotent/openWorld %v", name, a, want)
		}
	}
}
