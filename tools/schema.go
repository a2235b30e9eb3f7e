package tools

import (
	"fmt"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
)

// clientSafe rewrites an inferred input schema into the subset of JSON
// Schema that the strictest function-calling validators of common MCP
// hosts accept (Gemini's and OpenAI's tool declarations, older MCP
// Inspector CLIs): one type name per schema, never a list of types, so
// Go's nil-able slices become plain "array" rather than ["null","array"]
// (a null argument is treated as absent before validation anyway); and
// every object schema, the top-level one included, closes its
// properties with additionalProperties: false, as the reference does.
// It panics on a type list it cannot reduce to one name: that is a
// declaration the listing must not carry.
func clientSafe(tool string, s *jsonschema.Schema) {
	if len(s.Types) > 0 {
		rest := slices.DeleteFunc(slices.Clone(s.Types), func(t string) bool { return t == "null" })
		if len(rest) != 1 {
			panic(fmt.Sprintf("tool %s: schema types %v cannot be one type", tool, s.Types)) // a programming error, caught by any test
		}
		s.Type, s.Types = rest[0], nil
	}
	if s.Type == "object" {
		if s.Properties == nil {
			s.Properties = map[string]*jsonschema.Schema{}
		}
		s.AdditionalProperties = &jsonschema.Schema{Not: &jsonschema.Schema{}}
	}
	for _, p := range s.Properties {
		clientSafe(tool, p)
	}
	if s.Items != nil {
		clientSafe(tool, s.Items)
	}
}
