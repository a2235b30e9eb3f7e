package tools

// The tags of argument structs, read once by define: json names a
// property, jsonschema describes it, enum:"a,b" restricts a string,
// path:"" marks a local file path to confine, and bound:"" gives a
// number's range (see bound).

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"

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

// optBool is a boolean argument whose default is true, so "not given" must
// be told apart from false.
type optBool struct{ set, value bool }

// UnmarshalJSON records that the argument was given.
func (b *optBool) UnmarshalJSON(data []byte) error {
	b.set = true
	return json.Unmarshal(data, &b.value)
}

// or returns the value, or def when the argument was not given.
func (b optBool) or(def bool) bool {
	if b.set {
		return b.value
	}
	return def
}

// applyEnums copies `enum:"a,b"` struct tags of t, and of the structs it
// embeds, into the schema s.
func applyEnums(s *jsonschema.Schema, t reflect.Type) {
	for f := range t.Fields() {
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			applyEnums(s, f.Type)
			continue
		}
		tag := f.Tag.Get("enum")
		if tag == "" {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		ps := s.Properties[name]
		if ps.Items != nil {
			ps = ps.Items
		}
		for v := range strings.SplitSeq(tag, ",") {
			ps.Enum = append(ps.Enum, v)
		}
	}
}

// pathArgs returns the JSON names of the fields of t, and of the structs
// it embeds, that carry a `path:""` tag. Such a field must be a string or
// a []string: the confinement reads nothing else.
func pathArgs(tool string, t reflect.Type) []string {
	var names []string
	for f := range t.Fields() {
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			names = append(names, pathArgs(tool, f.Type)...)
			continue
		}
		if _, ok := f.Tag.Lookup("path"); !ok {
			continue
		}
		if k := f.Type.Kind(); k != reflect.String && (k != reflect.Slice || f.Type.Elem().Kind() != reflect.String) {
			panic(fmt.Sprintf("tool %s: path argument %s is a %s; use string or []string", tool, f.Name, f.Type)) // a programming error, caught by any test
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		names = append(names, name)
	}
	return names
}

// emptyPathArgs returns the JSON names of the path arguments tagged
// path:"empty": for them "" is no path but a value of its own (none, off),
// which the confinement lets through.
func emptyPathArgs(t reflect.Type) []string {
	var names []string
	for f := range t.Fields() {
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			names = append(names, emptyPathArgs(f.Type)...)
		} else if f.Tag.Get("path") == "empty" {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			names = append(names, name)
		}
	}
	return names
}

// bound is a numeric argument's range, declared by its field's
// `bound:""` tag; checkRange applies it, so that no number reaches Chrome
// or an int conversion out of range (1e100 as an id, 2147483647 as a
// window width). A number without a tag must lie within ±2^53.
type bound string

// The bounds a `bound:""` tag names.
const (
	boundNone    bound = ""        // any number within ±2^53
	boundTimeout bound = "timeout" // milliseconds up to maxTimeout; 0 is the default
	boundPage    bound = "page"    // a page size or 0-based page number (pageSize, pageIdx)
	boundSide    bound = "side"    // a width or height in CSS pixels
	boundCount   bound = "count"   // a count or length, from 0
	boundID      bound = "id"      // an id from an earlier answer: a whole number from 0
	boundPageID  bound = "pageId"  // a page id from list_pages
)

// Limits of the bounds.
const (
	maxExact = 1<<53 - 1 // the largest whole number a JSON client keeps exact
	maxCount = 1<<31 - 1 // counts, lengths and page numbers
	maxSide  = 10000     // a page's width or height in CSS pixels, as --viewport
)

// boundArgs returns the bounds that the `bound:""` tags of t, and of the
// structs it embeds, declare, by JSON name. A tag on a field that is not
// a number, or naming no bound, is a programming error.
func boundArgs(tool string, t reflect.Type) map[string]bound {
	bounds := map[string]bound{}
	for f := range t.Fields() {
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			maps.Copy(bounds, boundArgs(tool, f.Type))
			continue
		}
		tag, ok := f.Tag.Lookup("bound")
		if !ok {
			continue
		}
		b := bound(tag)
		switch b {
		case boundTimeout, boundPage, boundSide, boundCount, boundID, boundPageID:
		default:
			panic(fmt.Sprintf("tool %s: argument %s has unknown bound %q", tool, f.Name, tag)) // a programming error, caught by any test
		}
		switch f.Type.Kind() {
		case reflect.Int, reflect.Int64, reflect.Float64:
		default:
			panic(fmt.Sprintf("tool %s: bound argument %s is a %s, not a number", tool, f.Name, f.Type))
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		bounds[name] = b
	}
	return bounds
}

// checkRange refuses the value val of the argument name when it is a
// number outside its bound b.
func checkRange(name string, b bound, val any) error {
	n, ok := val.(float64)
	if !ok {
		return nil
	}
	if math.IsNaN(n) || math.IsInf(n, 0) {
		return fmt.Errorf("argument %q is %v; give a finite number", name, n)
	}
	switch b {
	case boundTimeout:
		if n < 0 || n > float64(maxTimeout.Milliseconds()) {
			return fmt.Errorf("argument %q is %v; give milliseconds from 1 to %d, or 0 for the default", name, n, maxTimeout.Milliseconds())
		}
	case boundPage:
		if n < 0 {
			return fmt.Errorf("argument %q is %v; it must be 0 or more (pageIdx counts from 0)", name, n)
		}
		if n > maxCount {
			return fmt.Errorf("argument %q is %v; give a whole number from 0 to %d", name, n, maxCount)
		}
	case boundSide:
		if n < 1 || n > maxSide {
			return fmt.Errorf("argument %q is %v; give CSS pixels from 1 to %d", name, n, maxSide)
		}
	case boundCount:
		if n < 0 || n > maxCount {
			return fmt.Errorf("argument %q is %v; give a whole number from 0 to %d", name, n, maxCount)
		}
	case boundPageID:
		if n < 0 || n > maxExact || n != math.Trunc(n) {
			return fmt.Errorf("pageId must be a whole number from list_pages, got %v", n)
		}
	case boundID:
		if n < 0 || n > maxExact || n != math.Trunc(n) {
			return fmt.Errorf("argument %q is %v; give a whole number from 0 to %d, an id from an earlier answer", name, n, int64(maxExact))
		}
	default:
		if math.Abs(n) > maxExact {
			return fmt.Errorf("argument %q is %v; give a number from %d to %d", name, n, -int64(maxExact), int64(maxExact))
		}
	}
	return nil
}
