package cli

// Tool arguments on the command line: a tool's input schema becomes its
// positional arguments and --options, and its help text.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/devtools-mcp/devtools-mcp/internal/config"
	"github.com/devtools-mcp/devtools-mcp/jsonrpc"
)

// param is one argument of a tool, from its input schema.
type param struct {
	name     string
	typ      string   // string, number, integer, boolean, array, object, or "" for any
	items    string   // the element type of an array
	enum     []string // allowed values (of the elements, for an array)
	desc     string
	required bool
}

// schemaProp is the part of a property schema the command line uses.
type schemaProp struct {
	Type        json.RawMessage `json:"type"`
	Description string          `json:"description"`
	Enum        []any           `json:"enum"`
	Items       *schemaProp     `json:"items"`
}

// typeName returns the type of a property, the first non-null one when the
// schema allows several.
func (p *schemaProp) typeName() string {
	var one string
	if json.Unmarshal(p.Type, &one) == nil {
		return one
	}
	var many []string
	_ = json.Unmarshal(p.Type, &many)
	for _, t := range many {
		if t != "null" {
			return t
		}
	}
	return ""
}

// toolParams reads a tool's arguments from its input schema: the required
// ones first, in the order of the schema's required list, then the others
// in the order of its properties.
func toolParams(schema json.RawMessage) ([]param, error) {
	var s struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil, fmt.Errorf("input schema: %w", err)
	}
	var params []param
	if len(s.Properties) > 0 {
		// Decode key by key: a map would lose the schema's order.
		dec := json.NewDecoder(bytes.NewReader(s.Properties))
		if _, err := dec.Token(); err != nil {
			return nil, fmt.Errorf("input schema properties: %w", err)
		}
		for dec.More() {
			key, err := dec.Token()
			if err != nil {
				return nil, fmt.Errorf("input schema properties: %w", err)
			}
			var prop schemaProp
			if err := dec.Decode(&prop); err != nil {
				return nil, fmt.Errorf("input schema property %v: %w", key, err)
			}
			p := param{name: key.(string), typ: prop.typeName(), desc: prop.Description, required: slices.Contains(s.Required, key.(string))}
			enum := prop.Enum
			if prop.Items != nil {
				p.items, enum = prop.Items.typeName(), prop.Items.Enum
			}
			for _, v := range enum {
				p.enum = append(p.enum, fmt.Sprint(v))
			}
			params = append(params, p)
		}
	}
	slices.SortStableFunc(params, func(a, b param) int {
		ia, ib := slices.Index(s.Required, a.name), slices.Index(s.Required, b.name)
		switch {
		case ia >= 0 && ib >= 0:
			return ia - ib
		case ia >= 0:
			return -1
		case ib >= 0:
			return 1
		}
		return 0
	})
	return params, nil
}

// toolCall is a parsed tool command line.
type toolCall struct {
	args map[string]any
	json bool // --output-format=json
	help bool
}

// grammar is how a tool command reads: ours (devtools-mcp), or the
// reference's chrome-devtools, which also takes the page id positionally.
type grammar struct {
	prog string // the command's name, for messages and help
	ref  bool   // the reference's chrome-devtools grammar
}

// slot is one positional argument of a tool command.
type slot struct {
	*param
	needed bool // the command fails without it
}

// positionalSlots lists the positional arguments of a tool, in order: its
// required parameters, then the optional one the tool is about (see
// leadingOptional). The reference's grammar puts the page id first, except
// for a tool with an optional positional, where a leading number would be
// ambiguous; there the page id stays an option, as in the reference.
func positionalSlots(tool string, params []param, g grammar) []slot {
	var slots []slot
	optional := paramNamed(params, leadingOptional(tool))
	if p := paramNamed(params, "pageId"); g.ref && p != nil && !p.required && optional == nil {
		slots = append(slots, slot{p, true})
	}
	for i := range params {
		if params[i].required {
			slots = append(slots, slot{&params[i], true})
		}
	}
	if optional != nil && !optional.required {
		slots = append(slots, slot{optional, false})
	}
	return slots
}

// leadingOptional names the optional parameter a tool takes positionally,
// or "": evaluate_script's function, optional only because a file may
// replace it, is what every call is about.
func leadingOptional(tool string) string {
	if tool == "evaluate_script" {
		return "function"
	}
	return ""
}

// parseToolArgs turns a tool's command-line arguments into its MCP
// arguments: positionals fill the tool's positional slots in order (the
// last one, when a list, takes the rest), skipping those an option already
// set; --name value sets any parameter. A switch takes an optional true or
// false after it (--dblClick true), as the reference's command line does.
func parseToolArgs(tool string, params []param, argv []string, g grammar) (*toolCall, error) {
	call := &toolCall{args: map[string]any{}}
	var positional []string
	for i := 0; i < len(argv); i++ {
		arg := argv[i]
		if arg == "--" {
			positional = append(positional, argv[i+1:]...)
			break
		}
		if arg == "-h" || arg == "--help" {
			call.help = true
			return call, nil
		}
		if !strings.HasPrefix(arg, "--") {
			positional = append(positional, arg)
			continue
		}
		name, value, hasValue := strings.Cut(arg[2:], "=")
		isFormat := config.NormalizeName(name) == "outputformat"
		p := paramNamed(params, name)
		if p == nil && !isFormat {
			return nil, unknownOption(params, name)
		}
		switch {
		case hasValue:
		case p != nil && p.typ == "boolean":
			value = "true"
			if i+1 < len(argv) && (argv[i+1] == "true" || argv[i+1] == "false") {
				i++
				value = argv[i]
			}
		case i+1 < len(argv):
			i++
			value = argv[i]
		default:
			return nil, fmt.Errorf("--%s needs a value", name)
		}
		if isFormat {
			switch value {
			case "text", "md":
			case "json":
				call.json = true
			default:
				return nil, fmt.Errorf("--output-format must be md (or text) or json, got %q", value)
			}
			continue
		}
		if err := p.set(call.args, value); err != nil {
			return nil, err
		}
	}
	var open []slot // the slots no option filled
	for _, s := range positionalSlots(tool, params, g) {
		if _, set := call.args[s.name]; !set {
			open = append(open, s)
		}
	}
	for i, value := range positional {
		if len(open) == 0 {
			return nil, fmt.Errorf("unexpected argument %q: this tool takes only options here", value)
		}
		s := open[min(i, len(open)-1)]
		if i >= len(open) && s.typ != "array" {
			return nil, fmt.Errorf("unexpected argument %q: this tool takes %d positional argument(s) here", value, len(open))
		}
		if err := s.set(call.args, value); err != nil {
			return nil, err
		}
	}
	for _, s := range open {
		if _, ok := call.args[s.name]; !ok && s.needed {
			return nil, fmt.Errorf("missing the required argument <%s>", s.name)
		}
	}
	return call, nil
}

// paramNamed finds a parameter by name, in any case or with dashes
// (pageId, page-id, pageid).
func paramNamed(params []param, name string) *param {
	for i := range params {
		if config.NormalizeName(params[i].name) == config.NormalizeName(name) {
			return &params[i]
		}
	}
	return nil
}

// unknownOption describes an option the tool does not have.
func unknownOption(params []param, name string) error {
	var names []string
	for _, p := range params {
		if !p.required {
			names = append(names, "--"+p.name)
		}
	}
	if len(names) == 0 {
		return fmt.Errorf("unknown option --%s: this tool has no options", name)
	}
	return fmt.Errorf("unknown option --%s; the options are %s", name, strings.Join(names, ", "))
}

// set converts value to the parameter's type and stores it in args; a list
// parameter collects one element per call, or takes a whole JSON array.
func (p *param) set(args map[string]any, value string) error {
	if p.typ != "array" {
		v, err := p.convert(p.typ, value)
		if err != nil {
			return err
		}
		args[p.name] = v
		return nil
	}
	list, _ := args[p.name].([]any)
	if strings.HasPrefix(strings.TrimSpace(value), "[") {
		var all []any
		if err := json.Unmarshal([]byte(value), &all); err != nil {
			return fmt.Errorf("<%s> is not a valid JSON array: %v", p.name, err)
		}
		for _, v := range all {
			if s, ok := v.(string); ok && isPathParam(p.name) {
				v = absPath(s)
			}
			list = append(list, v)
		}
	} else {
		v, err := p.convert(p.items, value)
		if err != nil {
			return err
		}
		list = append(list, v)
	}
	args[p.name] = list
	return nil
}

// convert parses one value of type typ for the parameter.
func (p *param) convert(typ, value string) (any, error) {
	if len(p.enum) > 0 && !slices.Contains(p.enum, value) {
		return nil, fmt.Errorf("<%s> must be one of %s, got %q", p.name, strings.Join(p.enum, ", "), value)
	}
	switch typ {
	case "string":
		if isPathParam(p.name) && value != "" {
			return absPath(value), nil
		}
		return value, nil
	case "boolean":
		b, ok := config.ParseBool(value)
		if !ok {
			return nil, fmt.Errorf("<%s> must be true or false, got %q", p.name, value)
		}
		return b, nil
	case "integer":
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("<%s> must be a whole number, got %q", p.name, value)
		}
		return n, nil
	case "number":
		// A JSON number: ParseFloat would also take 1_2 (as 12), hex
		// floats and Inf, which no one means on a command line.
		var n float64
		if err := json.Unmarshal([]byte(value), &n); err != nil {
			return nil, fmt.Errorf("<%s> must be a number, got %q", p.name, value)
		}
		return n, nil
	}
	var v any
	if err := json.Unmarshal([]byte(value), &v); err != nil {
		if typ == "" {
			return value, nil // untyped: a plain string
		}
		return nil, fmt.Errorf("<%s> must be JSON (%s), got %q: %v", p.name, typ, value, err)
	}
	return v, nil
}

// isPathParam reports whether a parameter names a file (filePath,
// sourcePath, filePaths, ...): the command line makes those absolute, since
// the daemon does not run in the user's directory.
func isPathParam(name string) bool {
	return strings.HasSuffix(name, "Path") || strings.HasSuffix(name, "Paths") || name == "path"
}

func absPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

// toolHelp describes a tool's command line from its schema.
func toolHelp(t jsonrpc.Tool, params []param, g grammar) string {
	var b strings.Builder
	b.WriteString("Usage: " + g.prog + " " + t.Name)
	slots := positionalSlots(t.Name, params, g)
	isSlot := func(p param) bool {
		return slices.ContainsFunc(slots, func(s slot) bool { return s.name == p.name })
	}
	for _, s := range slots {
		if s.needed {
			b.WriteString(" <" + s.name + ">")
		} else {
			b.WriteString(" [" + s.name + "]")
		}
	}
	b.WriteString(" [options]\n\n")
	config.WriteWrapped(&b, t.Description, "", 80)
	if len(slots) > 0 {
		b.WriteString("\nArguments (in this order):\n")
	}
	for _, s := range slots {
		b.WriteString("  <" + s.name + ">  " + s.kind())
		if !s.needed {
			b.WriteString(" (optional)")
		}
		b.WriteString("\n")
		config.WriteWrapped(&b, s.desc, "      ", 80)
	}
	b.WriteString("\nOptions:\n")
	for _, p := range params {
		if isSlot(p) && p.required {
			continue
		}
		head := "  --" + p.name
		if p.typ != "boolean" {
			head += " " + p.kind()
		} else {
			head += " [true|false]"
		}
		b.WriteString(head + "\n")
		config.WriteWrapped(&b, p.desc, "      ", 80)
	}
	b.WriteString("  --output-format md|json\n")
	if g.ref {
		config.WriteWrapped(&b, "md (default): the tool's answer, with images saved to files; json: the tool's structured content.", "      ", 80)
	} else {
		config.WriteWrapped(&b, "md (default, also text): the tool's answer, with images saved to files; json: the raw MCP result.", "      ", 80)
	}
	return b.String()
}

// kind describes the values a parameter takes, for help.
func (p *param) kind() string {
	values := p.typ
	if p.typ == "array" {
		values = p.items
	}
	if len(p.enum) > 0 {
		values = strings.Join(p.enum, "|")
	}
	switch {
	case values == "":
		values = "value"
	case values == "object":
		values = "JSON object"
	}
	if p.typ == "array" {
		return values + "... (repeat, or one JSON array)"
	}
	return values
}
