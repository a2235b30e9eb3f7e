package tools

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestEveryToolHasAValidDeclaration checks the declarations themselves:
// names are unique, schemas are objects, descriptions are short.
func TestEveryToolHasAValidDeclaration(t *testing.T) {
	seen := map[string]bool{}
	for _, tool := range all() {
		if seen[tool.Name] {
			t.Errorf("tool %s declared twice", tool.Name)
		}
		seen[tool.Name] = true
		var schema struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(tool.schema, &schema); err != nil || schema.Type != "object" {
			t.Errorf("tool %s: input schema %s is not an object schema", tool.Name, tool.schema)
		}
		if n := len(tool.Description); n == 0 || n > 400 {
			t.Errorf("tool %s: description of %d characters; keep it short and present", tool.Name, n)
		}
	}
}

func TestValidateNamesTheField(t *testing.T) {
	var nav *Tool
	for _, tool := range all() {
		if tool.Name == "navigate_page" {
			nav = tool
		}
	}
	for args, want := range map[string]string{
		`{"url": 5}`:                     `argument "url"`,
		`{"type": "sideways"}`:           `argument "type"`,
		`{"bogus": 1}`:                   `unknown argument "bogus"`,
		`{"timeout": -1}`:                `argument "timeout"`,
		`[]`:                             "must be a JSON object",
		`{"url": "x", "timeout": 1e300}`: `argument "timeout"`,
	} {
		if _, err := nav.validate(json.RawMessage(args)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("validate(%s) = %v, want it to mention %s", args, err, want)
		}
	}
	if _, err := nav.validate(json.RawMessage(`{"url": "about:blank", "timeout": null, "pageId": 1}`)); err != nil {
		t.Errorf("valid arguments refused: %v", err)
	}
}

// FuzzValidate feeds arbitrary arguments to every tool's validation: it
// must answer with arguments or an error, never panic.
func FuzzValidate(f *testing.F) {
	for _, s := range []string{`{}`, `{"url":"x"}`, `{"pageId":1.5}`, `{"elements":[{"uid":"1_1","value":2}]}`, `null`, `[1]`, `{"text":[null]}`} {
		f.Add(s)
	}
	tools := all()
	f.Fuzz(func(t *testing.T, args string) {
		for _, tool := range tools {
			_, _ = tool.validate(json.RawMessage(args))
		}
	})
}

// TestRunsAsTask checks that the calls declared to run as tasks are the
// long ones, by their arguments, and that no other call is.
func TestRunsAsTask(t *testing.T) {
	s := NewServer(Options{Conditions: map[Condition]bool{ConditionMemoryDebugging: true}}, nil, nil)
	for _, c := range []struct {
		tool, args string
		want       bool
	}{
		{"lighthouse_audit", `{}`, true},
		{"lighthouse_audit", `{"mode":"navigation"}`, true},
		{"lighthouse_audit", `{"mode":"snapshot"}`, false},
		{"performance_start_trace", `{}`, true},
		{"performance_start_trace", `{"autoStop":null}`, true},
		{"performance_start_trace", `{"autoStop":false}`, false},
		{"take_heapsnapshot", `{}`, true},
		{"performance_stop_trace", `{}`, false},
		{"click", `{"uid":"1_1"}`, false},
		{"no_such_tool", `{}`, false},
	} {
		if got := s.RunsAsTask(c.tool, json.RawMessage(c.args)); got != c.want {
			t.Errorf("RunsAsTask(%s, %s) = %v, want %v", c.tool, c.args, got, c.want)
		}
	}
	for _, tool := range all() {
		if tool.Guarded && tool.Task != nil {
			t.Errorf("tool %s is guarded and runs as a task", tool.Name)
		}
	}
}

// TestCleanupsRunLastFirst checks that a call's undo steps run in the
// reverse of the order they were added (the user-tab guard lifted before
// the watch ends, the watch ended before the page's lock is released),
// once.
func TestCleanupsRunLastFirst(t *testing.T) {
	var got []string
	var c cleanups
	for _, step := range []string{"release", "stop watch", "lift guard"} {
		c.add(func() { got = append(got, step) })
	}
	c.run()
	c.run()
	if want := []string{"lift guard", "stop watch", "release"}; !slices.Equal(got, want) {
		t.Errorf("cleanups ran %q, want %q", got, want)
	}
}
