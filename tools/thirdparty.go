package tools

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/devtools-mcp/devtools-mcp/internal/browser"
)

// howToExpose tells a page's authors how to offer developer tools.
const howToExpose = "A page exposes tools by listening for the devtoolstooldiscovery event on window and calling " +
	"event.respondWith({name, description, tools: [{name, description, inputSchema, execute}]}) in the listener " +
	"(see docs/third-party-developer-tools.md)."

// howToRegisterWebMCP tells a page's authors how to offer WebMCP tools.
const howToRegisterWebMCP = "Pages register WebMCP tools with document.modelContext.registerTool({name, description, inputSchema, execute}), " +
	"or declare them on a <form toolname=\"...\" tooldescription=\"...\">."

// formFillWait bounds the wait for a declarative WebMCP tool whose form
// is not submitted automatically.
const formFillWait = 3 * time.Second

// pageToolsWait bounds listing the page's own tools at the end of a
// navigation or page switch, including waiting for a busy page.
const pageToolsWait = 5 * time.Second

func thirdPartyTools() []*Tool {
	return []*Tool{
		define(Tool{
			Name: "list_3p_developer_tools",
			Description: "Lists the developer tools the page itself exposes (e.g. a framework's component tree or state), " +
				"with their descriptions and input schemas. Run them with execute_3p_developer_tool, or from evaluate_script " +
				"with window.__dtmcp.executeTool(toolName, params), which helps to compose tools or to use results that are not JSON.",
			Category: CategoryExperimentalThirdParty, ReadOnly: true, Scope: ScopePage,
		}, list3pDeveloperTools),
		define(Tool{
			Name:        "execute_3p_developer_tool",
			Description: "Runs a developer tool the page exposes (see list_3p_developer_tools) and returns its result as JSON; DOM elements in it come back as snapshot uids.",
			Category:    CategoryExperimentalThirdParty, Scope: ScopePage, Busy: browser.BusyWaits, Guarded: true,
		}, execute3pDeveloperTool),
	}
}

// list3pDeveloperTools runs list_3p_developer_tools.
func list3pDeveloperTools(ctx context.Context, c *Call, _ *noArgs) error {
	d, err := c.Page.InPageTools().DiscoverTools(ctx)
	if err != nil {
		return err
	}
	if len(d.Groups) == 0 && len(d.Problems) == 0 {
		c.Resp.Linef("The page exposes no third-party developer tools. %s", howToExpose)
		return nil
	}
	var b strings.Builder
	writeToolGroups(&b, d)
	c.Resp.Linef("%s", strings.TrimSuffix(b.String(), "\n"))
	return nil
}

// execute3pDeveloperToolArgs are execute_3p_developer_tool's arguments.
type execute3pDeveloperToolArgs struct {
	ToolName string `json:"toolName" jsonschema:"The name of the tool to run."`
	Params   string `json:"params,omitempty" jsonschema:"The tool's arguments as a JSON object in a string, e.g. {\"a\": 1}; pass DOM elements as {\"uid\": \"1_5\"}. Default {}."`
}

// execute3pDeveloperTool runs execute_3p_developer_tool.
func execute3pDeveloperTool(ctx context.Context, c *Call, args *execute3pDeveloperToolArgs) error {
	params, input, err := jsonObject("params", args.Params)
	if err != nil {
		return err
	}
	tool, err := c.Page.InPageTools().FindTool(ctx, args.ToolName)
	if errors.Is(err, browser.ErrNoPageTools) {
		return fmt.Errorf("%w. %s", err, howToExpose)
	}
	if err != nil {
		return err
	}
	if err := checkInput(tool.Name, tool.InputSchema, input); err != nil {
		return err
	}
	var out string
	rep, err := c.Page.Act(ctx, func(ctx context.Context) error {
		ctx, cancel := context.WithTimeout(ctx, cmp.Or(c.Server.opts.ScriptTimeout, time.Minute))
		defer cancel()
		var err error
		out, err = c.Page.InPageTools().RunTool(ctx, tool, params)
		return err
	})
	if err != nil {
		report(c, rep)
		return err
	}
	if rep.Dialog != nil {
		c.Resp.Linef("Tool %q opened a dialog before it returned, which blocks the page; its result is lost. Answer the dialog with handle_dialog.", tool.Name)
		return nil
	}
	c.Resp.Linef("Tool %q returned:\n```json\n%s\n```", tool.Name, prettyJSON(out))
	report(c, rep)
	if namesElements(out) {
		// The uids are the snapshot's: the agent needs it to see what
		// they are and to act on them, as the reference gives it.
		c.Resp.IncludeSnapshot(false)
	}
	return nil
}

func webmcpTools() []*Tool {
	return []*Tool{
		define(Tool{
			Name:        "list_webmcp_tools",
			Description: "Lists the WebMCP tools the page registered (document.modelContext.registerTool, and declarative form tools), with their input schemas.",
			Category:    CategoryExperimentalWebmcp, ReadOnly: true, Scope: ScopePage,
		}, listWebmcpTools),
		define(Tool{
			Name:        "execute_webmcp_tool",
			Description: "Runs a WebMCP tool the page registered (see list_webmcp_tools) and returns its status, output and error text.",
			Category:    CategoryExperimentalWebmcp, Scope: ScopePage, Busy: browser.BusyWaits, Guarded: true,
		}, executeWebmcpTool),
	}
}

// listWebmcpTools runs list_webmcp_tools.
func listWebmcpTools(ctx context.Context, c *Call, _ *noArgs) error {
	tools, err := c.Page.InPageTools().WebMCPTools(ctx)
	if err != nil {
		return webmcpError(c, err)
	}
	if len(tools) == 0 {
		c.Resp.Linef("The page registered no WebMCP tools. %s", howToRegisterWebMCP)
		return nil
	}
	var b strings.Builder
	writeWebMCPTools(&b, tools)
	c.Resp.Linef("%s", strings.TrimSuffix(b.String(), "\n"))
	return nil
}

// executeWebmcpToolArgs are execute_webmcp_tool's arguments.
type executeWebmcpToolArgs struct {
	ToolName string `json:"toolName" jsonschema:"The name of the WebMCP tool to run."`
	Input    string `json:"input,omitempty" jsonschema:"The tool's input as a JSON object in a string, e.g. {\"query\": \"shoes\"}. Default {}."`
}

// executeWebmcpTool runs execute_webmcp_tool.
func executeWebmcpTool(ctx context.Context, c *Call, args *executeWebmcpToolArgs) error {
	input, value, err := jsonObject("input", args.Input)
	if err != nil {
		return err
	}
	tools, err := c.Page.InPageTools().WebMCPTools(ctx)
	if err != nil {
		return webmcpError(c, err)
	}
	var tool *browser.WebMCPTool
	names := make([]string, len(tools))
	for i := range tools {
		names[i] = tools[i].Name
		if tool == nil && tools[i].Name == args.ToolName {
			tool = &tools[i]
		}
	}
	switch {
	case tool == nil && len(tools) == 0:
		return fmt.Errorf("the page registered no WebMCP tools. %s", howToRegisterWebMCP)
	case tool == nil:
		return fmt.Errorf("the page has no WebMCP tool named %q; it registered: %s", args.ToolName, strings.Join(names, ", "))
	}
	if err := checkInput(tool.Name, tool.InputSchema, value); err != nil {
		return err
	}
	wait := cmp.Or(c.Server.opts.ScriptTimeout, time.Minute)
	// A form without toolautosubmit is filled in, then waits for a
	// submit that only the agent can make.
	waitsForSubmit := tool.FormUID != "" && (tool.Annotations == nil || !tool.Annotations.Autosubmit)
	if waitsForSubmit {
		wait = min(wait, formFillWait)
	}
	var res browser.WebMCPResult
	rep, err := c.Page.Act(ctx, func(ctx context.Context) error {
		ctx, cancel := context.WithTimeout(ctx, wait)
		defer cancel()
		var err error
		res, err = c.Page.InPageTools().InvokeWebMCPTool(ctx, *tool, input)
		return err
	})
	if errors.Is(err, context.DeadlineExceeded) && waitsForSubmit {
		err = fmt.Errorf("%w. Its form (uid=%s) has no toolautosubmit attribute: Chrome filled it in and waits for it to be submitted; click the form's submit button to send it", err, tool.FormUID)
	}
	if err != nil {
		report(c, rep)
		return err
	}
	if rep.Dialog != nil {
		c.Resp.Linef("WebMCP tool %q opened a dialog before it answered, which blocks the page. Answer the dialog with handle_dialog.", tool.Name)
		return nil
	}
	out, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return fmt.Errorf("WebMCP tool %q: %w", tool.Name, err)
	}
	c.Resp.Linef("%s", out)
	report(c, rep)
	return nil
}

// webmcpError adds to err how to turn WebMCP on when the browser lacks it.
func webmcpError(c *Call, err error) error {
	if !errors.Is(err, browser.ErrWebMCPUnsupported) {
		return err
	}
	how := "This server launches Chrome with --enable-features=WebMCP when --categoryExperimentalWebmcp is on; " +
		"restart the server so that it launches a new browser"
	if c.attached() {
		how = "Restart the Chrome you connect to with --enable-features=WebMCP"
	}
	return fmt.Errorf("%w. %s (WebMCP needs %s; the browser is %s)", err, how, browser.FeatureWebMCP.Needs(), c.Browser.Version())
}

// jsonObject parses an argument holding a JSON object in a string ("" is
// {}), returning the text and the decoded value.
func jsonObject(name, text string) (json.RawMessage, any, error) {
	if strings.TrimSpace(text) == "" {
		text = "{}"
	}
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		return nil, nil, fmt.Errorf("%s is not valid JSON (%v); pass an object such as {\"a\": 1}", name, err)
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, nil, fmt.Errorf("%s must be a JSON object such as {\"a\": 1}, not %s", name, text)
	}
	return json.RawMessage(text), v, nil
}

// checkInput validates input against the JSON Schema a page declared for
// its tool; the error names the field at fault.
func checkInput(tool string, schema json.RawMessage, input any) error {
	if len(schema) == 0 || string(schema) == "null" {
		return nil
	}
	var s jsonschema.Schema
	err := json.Unmarshal(schema, &s)
	var r *jsonschema.Resolved
	if err == nil {
		if s.Schema == "" {
			// Pages test their schemas with validators that assume
			// draft-07 (Ajv), e.g. for tuple "items" arrays.
			s.Schema = "http://json-schema.org/draft-07/schema#"
		}
		r, err = s.Resolve(nil)
	}
	if err != nil {
		return fmt.Errorf("tool %q declares an inputSchema that is not a usable JSON Schema (%v), so its arguments cannot be checked; fix the tool's definition in the page", tool, err)
	}
	if err := r.Validate(input); err != nil {
		return fmt.Errorf("the arguments do not match the inputSchema of tool %q: %s", tool, describeSchemaError(err))
	}
	return nil
}

var schemaStep = regexp.MustCompile(`^validating ([^:]*): `)

// describeSchemaError turns a jsonschema validation error, whose text is a
// chain of "validating <schema pointer>: " steps, into the field path and
// what is wrong with it.
func describeSchemaError(err error) string {
	msg, at := err.Error(), ""
	for m := schemaStep.FindStringSubmatch(msg); m != nil; m = schemaStep.FindStringSubmatch(msg) {
		at, msg = m[1], msg[len(m[0]):]
	}
	if field := fieldOf(at); field != "" {
		return fmt.Sprintf("field %q: %s", field, msg)
	}
	return msg
}

// fieldOf turns a schema pointer such as /properties/items/items/properties/id
// into the path of the value it checks: items[].id.
func fieldOf(pointer string) string {
	if !strings.HasPrefix(pointer, "/") {
		return ""
	}
	var b strings.Builder
	segs := strings.Split(pointer[1:], "/")
	for i := 0; i < len(segs); i++ {
		switch segs[i] {
		case "properties":
			if i+1 < len(segs) {
				i++
				if b.Len() > 0 {
					b.WriteByte('.')
				}
				b.WriteString(strings.NewReplacer("~1", "/", "~0", "~").Replace(segs[i]))
			}
		case "items", "prefixItems":
			b.WriteString("[]")
		}
	}
	return b.String()
}

// prettyJSON indents JSON text for reading; other text is kept as is.
func prettyJSON(text string) string {
	var b bytes.Buffer
	if json.Indent(&b, []byte(text), "", "  ") != nil {
		return text
	}
	return b.String()
}

// writeToolGroups writes the tool groups and the problems of a discovery.
func writeToolGroups(b *strings.Builder, d browser.Discovery) {
	b.WriteString("## Third-party developer tools\n")
	for _, g := range d.Groups {
		fmt.Fprintf(b, "%s: %s\n", g.Name, g.Description)
		for _, t := range g.Tools {
			fmt.Fprintf(b, "- name=%q, description=%q, inputSchema=%s\n", t.Name, t.Description, t.InputSchema)
		}
	}
	if len(d.Groups) > 0 {
		b.WriteString("Run them with execute_3p_developer_tool, or in evaluate_script with window.__dtmcp.executeTool(toolName, params).\n")
	}
	if len(d.Problems) > 0 {
		b.WriteString("Problems in the page's tool definitions (fix them in the page):\n")
		for _, p := range d.Problems {
			fmt.Fprintf(b, "- %s\n", p)
		}
	}
}

// writeWebMCPTools writes one line per WebMCP tool.
func writeWebMCPTools(b *strings.Builder, tools []browser.WebMCPTool) {
	b.WriteString("## WebMCP tools\n")
	for _, t := range tools {
		fmt.Fprintf(b, "- name=%q, description=%q", t.Name, t.Description)
		if len(t.InputSchema) > 0 {
			fmt.Fprintf(b, ", inputSchema=%s", t.InputSchema)
		}
		if t.Annotations != nil {
			if a, err := json.Marshal(t.Annotations); err == nil && string(a) != "{}" {
				fmt.Fprintf(b, ", annotations=%s", a)
			}
		}
		if t.FormUID != "" {
			fmt.Fprintf(b, ", declared by form uid=%s", t.FormUID)
		}
		b.WriteByte('\n')
	}
	b.WriteString("Run them with execute_webmcp_tool.\n")
}

// writePageTools appends the tools the page acted on (or the selected page)
// exposes, for the categories whose tools are listed; called after a
// navigation or page switch. Failures are noted, never fatal: the call
// itself succeeded.
func writePageTools(ctx context.Context, b *strings.Builder, c *Call) {
	thirdParty, webmcp := c.Server.byName["list_3p_developer_tools"] != nil, c.Server.byName["list_webmcp_tools"] != nil
	if !thirdParty && !webmcp || c.Browser == nil {
		return
	}
	p := c.Page
	if p == nil {
		p = c.Browser.Selected()
	}
	if p == nil || p.State().Usable() != nil || p.Dialog() != nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, pageToolsWait)
	defer cancel()
	if p != c.held { // the call's own page is locked until the answer is done
		unlock, err := p.Lock(ctx)
		if err != nil {
			fmt.Fprintf(b, "(The page's own tools were not listed: %v.)\n", err)
			return
		}
		defer unlock()
	}
	if thirdParty {
		d, err := p.InPageTools().DiscoverTools(ctx)
		switch {
		case err != nil:
			fmt.Fprintf(b, "(Could not list the page's developer tools: %v.)\n", err)
		case len(d.Groups) > 0 || len(d.Problems) > 0:
			writeToolGroups(b, d)
		}
	}
	if webmcp {
		// A browser without WebMCP is reported by list_webmcp_tools.
		if tools, err := p.InPageTools().WebMCPTools(ctx); err == nil && len(tools) > 0 {
			writeWebMCPTools(b, tools)
		}
	}
}

// namesElements reports whether a tool's JSON result holds DOM elements,
// which RunTool names as {"uid": "..."} objects.
func namesElements(result string) bool {
	var v any
	if json.Unmarshal([]byte(result), &v) != nil {
		return false
	}
	return holdsUID(v)
}

// holdsUID reports whether v is or contains an object whose only key is
// a string "uid".
func holdsUID(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		if uid, ok := v["uid"].(string); ok && len(v) == 1 && uid != "" {
			return true
		}
		for _, x := range v {
			if holdsUID(x) {
				return true
			}
		}
	case []any:
		return slices.ContainsFunc(v, holdsUID)
	}
	return false
}
