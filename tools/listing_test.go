package tools

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s changed; the listing is a compatibility contract (names, descriptions, schemas). Diff it against go test -update if the change is meant.\ngot:\n%s", path, got)
	}
}

// allCategories turns every category on.
func allCategories() map[Category]bool {
	on := map[Category]bool{}
	for _, t := range all() {
		on[t.Category] = true
	}
	return on
}

// TestToolsListIsUnchanged pins tools/list as clients see it, for the
// default flags, for every category and condition on, and for --slim: a
// refactor of the declarations must not change a byte of it.
func TestToolsListIsUnchanged(t *testing.T) {
	everything := Options{Categories: allCategories(), Conditions: map[Condition]bool{}}
	for _, tool := range all() {
		if tool.Condition != ConditionNone {
			everything.Conditions[tool.Condition] = true
		}
	}
	for name, opts := range map[string]Options{
		"default": {},
		"all":     everything,
		"slim":    {Slim: true},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := json.MarshalIndent(NewServer(opts, nil, nil).ListTools(), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden(t, "tools_list_"+name+".json", append(got, '\n'))
		})
	}
}

// TestToolDeclarationsAreUnchanged pins what tools/list does not show:
// each tool's category, scope, condition, flags and confined path
// arguments.
func TestToolDeclarationsAreUnchanged(t *testing.T) {
	var b strings.Builder
	for _, tool := range all() {
		var flags []string
		for _, f := range []struct {
			on   bool
			name string
		}{{tool.ReadOnly, "readOnly"}, {tool.Slim, "slim"}, {tool.AllowCrashed, "allowCrashed"}, {tool.IgnoresDialog, "ignoresDialog"}, {tool.Guarded, "guarded"}} {
			if f.on {
				flags = append(flags, f.name)
			}
		}
		paths := pathArgNames(tool)
		slices.Sort(paths)
		fmt.Fprintf(&b, "%s category=%s scope=%d condition=%q flags=%v paths=%v\n", tool.Name, tool.Category, tool.Scope, tool.Condition, flags, paths)
	}
	golden(t, "tool_declarations.txt", []byte(b.String()))
}

// pathArgNames are the arguments of t confined as file paths.
func pathArgNames(t *Tool) []string { return slices.Clone(t.paths) }
