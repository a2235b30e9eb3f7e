package tools

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// strictKeywords are the schema keywords the strictest common
// function-calling validators (Gemini's function declarations, OpenAI's
// tools) accept; a listing that uses others is refused by some hosts.
var strictKeywords = []string{"type", "description", "properties", "required", "items", "enum", "minimum", "maximum", "default", "additionalProperties"}

// strictTypes are the single type names those validators know.
var strictTypes = []string{"object", "array", "string", "number", "integer", "boolean"}

// checkStrictSchema reports every way the schema s, at path, breaks the
// rules of strict function-calling validators.
func checkStrictSchema(path string, s map[string]any) []string {
	var bad []string
	for k := range s {
		if !slices.Contains(strictKeywords, k) {
			bad = append(bad, fmt.Sprintf("%s: keyword %q", path, k))
		}
	}
	typ, ok := s["type"].(string)
	if !ok || !slices.Contains(strictTypes, typ) {
		bad = append(bad, fmt.Sprintf("%s: type %v is not one of %v", path, s["type"], strictTypes))
	}
	if d, ok := s["description"]; ok {
		if _, ok := d.(string); !ok {
			bad = append(bad, fmt.Sprintf("%s: description %v is not a string", path, d))
		}
	}
	switch typ {
	case "object":
		props, ok := s["properties"].(map[string]any)
		if !ok {
			bad = append(bad, fmt.Sprintf("%s: object without properties", path))
		}
		if s["additionalProperties"] != false {
			bad = append(bad, fmt.Sprintf("%s: additionalProperties is %v, not false", path, s["additionalProperties"]))
		}
		req, _ := s["required"].([]any)
		if _, ok := s["required"]; ok && len(req) == 0 {
			bad = append(bad, fmt.Sprintf("%s: required is not a non-empty list", path))
		}
		for _, r := range req {
			name, _ := r.(string)
			if _, ok := props[name]; !ok {
				bad = append(bad, fmt.Sprintf("%s: required %v is not a property", path, r))
			}
		}
		for _, name := range slices.Sorted(maps.Keys(props)) {
			p, ok := props[name].(map[string]any)
			if !ok {
				bad = append(bad, fmt.Sprintf("%s.%s: not a schema object", path, name))
				continue
			}
			bad = append(bad, checkStrictSchema(path+"."+name, p)...)
		}
	case "array":
		items, ok := s["items"].(map[string]any)
		if !ok {
			bad = append(bad, fmt.Sprintf("%s: array without an items schema", path))
		} else {
			bad = append(bad, checkStrictSchema(path+"[]", items)...)
		}
	}
	if typ != "object" {
		for _, k := range []string{"properties", "required", "additionalProperties"} {
			if _, ok := s[k]; ok {
				bad = append(bad, fmt.Sprintf("%s: %s on a %s", path, k, typ))
			}
		}
	}
	if _, ok := s["items"]; ok && typ != "array" {
		bad = append(bad, fmt.Sprintf("%s: items on a %s", path, typ))
	}
	if e, ok := s["enum"]; ok {
		vals, _ := e.([]any)
		if typ != "string" || len(vals) == 0 {
			bad = append(bad, fmt.Sprintf("%s: enum %v on a %s; only non-empty string enums are portable", path, e, typ))
		}
		for _, v := range vals {
			if _, ok := v.(string); !ok {
				bad = append(bad, fmt.Sprintf("%s: enum value %v is not a string", path, v))
			}
		}
	}
	for _, k := range []string{"minimum", "maximum"} {
		if v, ok := s[k]; ok {
			if _, num := v.(float64); !num || (typ != "number" && typ != "integer") {
				bad = append(bad, fmt.Sprintf("%s: %s %v on a %s", path, k, v, typ))
			}
		}
	}
	return bad
}

// schemaOptionSets are the option sets that change which tools are
// listed or what their schemas hold: the defaults, --slim, everything on,
// and each category alone with every condition on. An option that
// changes a schema belongs here.
func schemaOptionSets() map[string]Options {
	conditions := map[Condition]bool{}
	for _, tool := range all() {
		if tool.Condition != ConditionNone {
			conditions[tool.Condition] = true
		}
	}
	sets := map[string]Options{
		"default": {},
		"slim":    {Slim: true},
		"all":     {Categories: allCategories(), Conditions: conditions},
		"all, hardened, no page ids": {Categories: allCategories(), Conditions: conditions,
			NoJavaScriptEvaluation: true, NoFileNavigations: true, NoPageIDRouting: true},
	}
	for _, info := range Categories() {
		only := map[Category]bool{}
		for _, other := range Categories() {
			only[other.Category] = other.Category == info.Category
		}
		sets["only "+string(info.Category)] = Options{Categories: only, Conditions: conditions}
	}
	return sets
}

// TestEveryToolSchemaIsPortable checks each listed tool's input schema,
// under every option set that changes schemas, against the rules of
// strict function-calling validators: no type lists (["null","array"]),
// a closed top-level object, and only the portable keywords.
func TestEveryToolSchemaIsPortable(t *testing.T) {
	seen := map[string]bool{}
	for name, opts := range schemaOptionSets() {
		t.Run(name, func(t *testing.T) {
			for _, tool := range NewServer(opts, nil, nil).ListTools() {
				seen[tool.Name] = true
				var s map[string]any
				if err := json.Unmarshal(tool.InputSchema, &s); err != nil {
					t.Fatalf("%s: %v", tool.Name, err)
				}
				if s["type"] != "object" {
					t.Errorf("%s: input schema type %v, want object", tool.Name, s["type"])
				}
				for _, b := range checkStrictSchema(tool.Name, s) {
					t.Error(b)
				}
			}
		})
	}
	for _, tool := range all() {
		if !seen[tool.Name] {
			t.Errorf("%s is listed under none of the option sets checked", tool.Name)
		}
	}
}

// TestStrictSchemaCheckRejects shows the check above fails on the
// schemas some hosts refuse, so its passing means something.
func TestStrictSchemaCheckRejects(t *testing.T) {
	for _, tc := range []struct{ schema, want string }{
		{`{"type":"object","properties":{"a":{"type":["null","array"],"items":{"type":"string"}}},"additionalProperties":false}`, "type [null array]"},
		{`{"type":"object","properties":{}}`, "additionalProperties is <nil>"},
		{`{"type":"object","additionalProperties":false}`, "object without properties"},
		{`{"type":"object","properties":{"a":{"type":"string","format":"uri"}},"additionalProperties":false}`, `keyword "format"`},
		{`{"type":"object","properties":{"a":{"anyOf":[{"type":"string"}]}},"additionalProperties":false}`, `keyword "anyOf"`},
		{`{"type":"object","properties":{"a":{"type":"array"}},"additionalProperties":false}`, "array without an items schema"},
		{`{"type":"object","properties":{},"required":["a"],"additionalProperties":false}`, "required a is not a property"},
		{`{"type":"object","properties":{"a":{"type":"number","enum":[1]}},"additionalProperties":false}`, "only non-empty string enums"},
		{`{"type":"object","properties":{"a":{"type":"string","minimum":1}},"additionalProperties":false}`, "minimum 1 on a string"},
		{`{"type":"object","properties":{"a":{"type":"array","items":{"type":"object","properties":{}}}},"additionalProperties":false}`, "a[]: additionalProperties"},
	} {
		var s map[string]any
		if err := json.Unmarshal([]byte(tc.schema), &s); err != nil {
			t.Fatal(err)
		}
		bad := strings.Join(checkStrictSchema("t", s), "\n")
		if !strings.Contains(bad, tc.want) {
			t.Errorf("schema %s: problems %q, want one containing %q", tc.schema, bad, tc.want)
		}
	}
	ok := `{"type":"object","properties":{"a":{"type":"array","items":{"type":"string","enum":["x"]},"description":"d"},"n":{"type":"integer","minimum":0,"maximum":9,"default":1}},"required":["a"],"additionalProperties":false}`
	var s map[string]any
	if err := json.Unmarshal([]byte(ok), &s); err != nil {
		t.Fatal(err)
	}
	if bad := checkStrictSchema("t", s); len(bad) != 0 {
		t.Errorf("a portable schema was refused: %v", bad)
	}
}
