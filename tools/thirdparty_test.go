package tools

import (
	"strings"
	"testing"
)

func TestCheckInputNamesTheField(t *testing.T) {
	schema := []byte(`{"type":"object","properties":{
		"a":{"type":"number"},
		"cart":{"type":"object","properties":{"items":{"type":"array","items":{"type":"object","properties":{"sku":{"type":"string"}},"required":["sku"]}}}}
	},"required":["a"],"additionalProperties":false}`)
	for _, tc := range []struct{ input, want string }{
		{`{"a": 1}`, ""},
		{`{"a": "x"}`, `field "a": type: x has type "string", want "number"`},
		{`{}`, `missing properties: ["a"]`},
		{`{"a": 1, "b": 2}`, `unexpected additional properties ["b"]`},
		{`{"a": 1, "cart": {"items": [{"sku": 5}]}}`, `field "cart.items[].sku"`},
		{`{"a": 1, "cart": {"items": [{}]}}`, `field "cart.items[]": required`},
	} {
		_, v, err := jsonObject("params", tc.input)
		if err != nil {
			t.Fatal(err)
		}
		err = checkInput("t", schema, v)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: unexpected error %v", tc.input, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want it to contain %q", tc.input, err, tc.want)
		}
	}
}

func TestCheckInputReadsDraft07(t *testing.T) {
	schema := []byte(`{"type":"object","properties":{"pair":{"type":"array","items":[{"type":"string"},{"type":"number"}]}}}`)
	if err := checkInput("t", schema, map[string]any{"pair": []any{"a", 1.0}}); err != nil {
		t.Fatalf("a valid pair: %v", err)
	}
	err := checkInput("t", schema, map[string]any{"pair": []any{"a", "b"}})
	if err == nil || !strings.Contains(err.Error(), `field "pair`) {
		t.Fatalf("an invalid pair: error %v, want one naming the field", err)
	}
}

func TestCheckInputRejectsBrokenSchemas(t *testing.T) {
	for _, schema := range []string{`{"type": 5}`, `{"$ref": "https://example.com/args.json"}`} {
		err := checkInput("t", []byte(schema), map[string]any{})
		if err == nil || !strings.Contains(err.Error(), "not a usable JSON Schema") {
			t.Errorf("schema %s: error %v, want a complaint about the schema", schema, err)
		}
	}
	if err := checkInput("t", nil, map[string]any{"x": 1}); err != nil {
		t.Fatalf("no schema: %v", err)
	}
}

func TestJSONObject(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""}, {" {\"a\":1} ", ""}, {"[1]", "must be a JSON object"}, {"null", "must be a JSON object"}, {"{", "not valid JSON"},
	} {
		_, _, err := jsonObject("params", tc.in)
		if (tc.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("jsonObject(%q) = %v, want %q", tc.in, err, tc.want)
		}
	}
}
