// Package tools declares the MCP tools: each is a name, a description, a
// category, a read-only hint, an input schema inferred from a Go struct, and
// a handler that calls into the browser and fills a Response. The Server
// decides from the command-line options which tools are listed.
package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/devtools-mcp/devtools-mcp/internal/browser"
	"github.com/devtools-mcp/devtools-mcp/internal/confine"
	"github.com/devtools-mcp/devtools-mcp/internal/urlpattern"
	"github.com/devtools-mcp/devtools-mcp/jsonrpc"
)

// Scope says what a tool acts on.
type Scope int

const (
	// ScopeNone tools need no browser (heap snapshot analysis of files).
	ScopeNone Scope = iota
	// ScopeBrowser tools act on the browser as a whole (list_pages, new_page).
	ScopeBrowser
	// ScopePage tools act on one page: they take an optional pageId (the
	// selected page when omitted) and run under that page's lock.
	ScopePage
	// ScopeSelectedPage tools act on the selected page and take no pageId
	// (the --slim tools).
	ScopeSelectedPage
)

// Tool is one tool's declaration. Build it with define.
type Tool struct {
	Name        string
	Description string
	Category    Category
	ReadOnly    bool
	Scope       Scope
	// Condition is a flag the tool needs besides its category;
	// ConditionNone when none.
	Condition Condition
	// Slim marks the tools of --slim mode, which are listed only there.
	Slim bool
	// AllowCrashed lets a page tool run on a crashed page (to recover it).
	AllowCrashed bool
	// Guarded marks a page tool that changes the page: on a sensitive page
	// it needs the user's confirmation. Reading tools are never blocked.
	Guarded bool
	// Lands says where a guarded tool acts: in the frame of its uid
	// arguments' elements, at its x, y point, or (the default) anywhere in
	// the page. The sensitive page guard checks those frames' URLs.
	Lands Lands
	// IgnoresDialog lets a page tool run while a JavaScript dialog blocks
	// the page; other page tools are refused then, pointing to handle_dialog.
	IgnoresDialog bool
	// RunsCallerCode marks a tool that runs JavaScript the caller supplies
	// (a script, an extension); it is not listed under
	// --no-javascript-evaluation.
	RunsCallerCode bool
	// Busy is what the call does when the page stops answering because
	// its JavaScript never yields: by default it ends, saying the page is
	// busy (see browser.Page.Watch).
	Busy browser.BusyPolicy
	// Task says, given a call's arguments, whether the call may run as an
	// MCP task (the 2026-07-28 tasks extension, for clients that declare
	// it): the calls that take long whatever the page. Nil for never. A
	// guarded tool cannot have one: a task must not wait for the user's
	// confirmation on the way.
	Task func(args json.RawMessage) bool

	args     reflect.Type     // the handler's argument struct
	paths    []string         // arguments tagged path:"", confined before the tool runs
	noPath   []string         // of paths, those tagged path:"empty", where "" means none
	bounds   map[string]bound // the numeric arguments' bound:"" tags, by name
	schema   json.RawMessage
	inSchema *jsonschema.Schema // what schema encodes, for withoutArgs
	props    map[string]*jsonschema.Resolved
	required []string
	run      func(ctx context.Context, c *Call, args json.RawMessage) error
}

// define declares a tool whose arguments decode into P. The input schema is
// inferred from P: json tags name the properties, `jsonschema` tags describe
// them, `enum` tags (comma-separated) restrict strings, and fields without
// omitempty are required, and `path:""` marks a local file path (a string
// or an array of strings) that is confined to the client's roots before
// the tool runs, and `bound:""` gives a number's range (see bound), which
// calls are checked against but the schema does not carry. ScopePage tools
// get an optional pageId property.
func define[P any](t Tool, handler func(ctx context.Context, c *Call, args *P) error) *Tool {
	s, err := jsonschema.For[P](&jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[optBool](): {Type: "boolean"},
	}})
	if err != nil {
		panic(fmt.Sprintf("tool %s: %v", t.Name, err)) // a programming error, caught by any test
	}
	if t.Guarded && t.Task != nil {
		panic(fmt.Sprintf("tool %s: a guarded tool cannot run as a task", t.Name)) // a programming error, caught by any test
	}
	t.args = reflect.TypeFor[P]()
	applyEnums(s, t.args)
	t.paths = pathArgs(t.Name, t.args)
	t.noPath = emptyPathArgs(t.args)
	t.bounds = boundArgs(t.Name, t.args)
	if t.Scope == ScopePage {
		if s.Properties == nil {
			s.Properties = map[string]*jsonschema.Schema{}
		}
		s.Properties["pageId"] = &jsonschema.Schema{Type: "number", Description: "Page id (list_pages); default: the selected page."}
		s.PropertyOrder = append([]string{"pageId"}, s.PropertyOrder...)
		t.bounds["pageId"] = boundPageID
	}
	clientSafe(t.Name, s)
	raw, err := json.Marshal(s)
	if err != nil {
		panic(fmt.Sprintf("tool %s: %v", t.Name, err))
	}
	t.schema = raw
	t.inSchema = s
	t.required = s.Required
	t.props = map[string]*jsonschema.Resolved{}
	for name, ps := range s.Properties {
		r, err := ps.Resolve(nil)
		if err != nil {
			panic(fmt.Sprintf("tool %s property %s: %v", t.Name, name, err))
		}
		t.props[name] = r
	}
	t.run = func(ctx context.Context, c *Call, args json.RawMessage) error {
		var p P
		if err := json.Unmarshal(args, &p); err != nil {
			return fmt.Errorf("arguments: %w", err)
		}
		return handler(ctx, c, &p)
	}
	return &t
}

// withoutArgs returns a copy of t whose schema lacks the named arguments,
// which calls are then refused as unknown; t itself when it has none of
// them. Options use it to take arguments away (pageId, initScript).
func (t *Tool) withoutArgs(names ...string) *Tool {
	s := *t.inSchema
	s.Properties = maps.Clone(s.Properties)
	for _, n := range names {
		delete(s.Properties, n)
	}
	if len(s.Properties) == len(t.inSchema.Properties) {
		return t
	}
	drop := func(n string) bool { return slices.Contains(names, n) }
	s.PropertyOrder = slices.DeleteFunc(slices.Clone(s.PropertyOrder), drop)
	s.Required = slices.DeleteFunc(slices.Clone(s.Required), drop)
	raw, err := json.Marshal(&s)
	if err != nil {
		panic(fmt.Sprintf("tool %s: %v", t.Name, err)) // it encoded before
	}
	c := *t
	c.inSchema, c.schema, c.required = &s, raw, s.Required
	c.props = maps.Clone(t.props)
	for _, n := range names {
		delete(c.props, n)
	}
	return &c
}

// noArgs are the arguments of a tool that takes none.
type noArgs struct{}

var validatingPrefix = regexp.MustCompile(`^(validating [^:]*: )+`)

// validate checks args against the tool's schema property by property, so
// that an error names the argument and what was expected. It returns the
// arguments with nulls removed (clients send null for "not given").
func (t *Tool) validate(raw json.RawMessage) (map[string]json.RawMessage, error) {
	args := map[string]json.RawMessage{}
	if err := json.Unmarshal(raw, &args); err != nil {
		return nil, fmt.Errorf("arguments must be a JSON object: %v", err)
	}
	for name, v := range args {
		if string(v) == "null" {
			delete(args, name)
			continue
		}
		r, ok := t.props[name]
		if !ok {
			return nil, fmt.Errorf("unknown argument %q; %s", name, t.accepts())
		}
		var val any
		if err := json.Unmarshal(v, &val); err != nil {
			return nil, fmt.Errorf("argument %q: %v", name, err)
		}
		if err := r.Validate(val); err != nil {
			return nil, fmt.Errorf("argument %q: %s", name, validatingPrefix.ReplaceAllString(err.Error(), ""))
		}
		if err := checkRange(name, t.bounds[name], val); err != nil {
			return nil, err
		}
	}
	for _, name := range t.required {
		if _, ok := args[name]; !ok {
			return nil, fmt.Errorf("missing required argument %q (%s); %s", name, t.props[name].Schema().Description, t.accepts())
		}
	}
	return args, nil
}

// accepts lists the tool's arguments for error messages.
func (t *Tool) accepts() string {
	if len(t.props) == 0 {
		return t.Name + " takes no arguments"
	}
	names := make([]string, 0, len(t.props))
	for n := range t.props {
		if slices.Contains(t.required, n) {
			n += " (required)"
		}
		names = append(names, n)
	}
	slices.Sort(names)
	return t.Name + " accepts: " + strings.Join(names, ", ")
}

// Options are the command-line settings that decide which tools are listed
// and how they behave.
type Options struct {
	Slim bool
	// Categories holds the categories set on the command line; the others
	// keep their default.
	Categories map[Category]bool
	// Conditions holds the condition flags that are on.
	Conditions map[Condition]bool
	// RedactHeaders hides credentials in network headers (--redactNetworkHeaders).
	RedactHeaders bool
	// UnrestrictedPaths lets tools read and write files anywhere
	// (--allowUnrestrictedPaths) instead of only in the client's roots.
	UnrestrictedPaths bool
	// Guard protects a browser that is the user's own.
	Guard GuardOptions
	// ScriptTimeout bounds each evaluate_script call (default 60 s).
	ScriptTimeout time.Duration
	// ScreenshotFormat and ScreenshotQuality are take_screenshot's defaults
	// ("" and 0 when unset); larger screenshots than ScreenshotMaxWidth ×
	// ScreenshotMaxHeight are downscaled (0: no limit).
	ScreenshotFormat                        string
	ScreenshotQuality                       int
	ScreenshotMaxWidth, ScreenshotMaxHeight int
	// HeapSnapshotBudget bounds the bytes of heap snapshot files the
	// analysis tools keep loaded; the least recently used are unloaded
	// beyond it. 0 means DefaultHeapSnapshotBudget.
	HeapSnapshotBudget int64
	// PerformanceCrux asks for field data (CrUX) in trace summaries
	// (--performanceCrux).
	PerformanceCrux bool
	// SessionBrowsers, when set, gives every MCP session with a transport
	// id (Streamable HTTP) browsers of its own, made on its first call and
	// closed by EndSession; sessions without one (stdio) use the Manager.
	SessionBrowsers func(sessionID string) SessionBrowsers
	// Screencast says how the screencast tools record.
	Screencast ScreencastOptions
	// StructuredContent adds structured content to every answer and an
	// output schema to every tool (--experimentalStructuredContent).
	StructuredContent bool
	// NoJavaScriptEvaluation hides the tools that run the caller's code
	// and navigate_page's initScript, and refuses javascript:, data: and
	// vbscript: URLs (--no-javascript-evaluation).
	NoJavaScriptEvaluation bool
	// NoFileNavigations refuses file: URLs (--no-file-navigations).
	NoFileNavigations bool
	// NoPageIDRouting drops pageId from the schemas: calls act on the
	// selected page (--no-page-id-routing).
	NoPageIDRouting bool
	// FilesystemRoots are directories file tools may use besides the
	// client's roots; "/" allows every path (--filesystemRoot).
	FilesystemRoots []string
}

// navigationPolicy is what the options forbid navigations.
func (o Options) navigationPolicy() urlpattern.NavigationPolicy {
	return urlpattern.NavigationPolicy{NoJavaScript: o.NoJavaScriptEvaluation, NoFiles: o.NoFileNavigations}
}

// adapt returns t as these options list it: without pageId under
// NoPageIDRouting, navigate_page without initScript under
// NoJavaScriptEvaluation.
func (o Options) adapt(t *Tool) *Tool {
	if o.NoPageIDRouting && t.Scope == ScopePage {
		t = t.withoutArgs("pageId")
	}
	if o.NoJavaScriptEvaluation {
		t = t.withoutArgs("initScript")
	}
	if t.Name == "evaluate_script" && !o.categoryOn(CategoryExtensions) {
		// Service workers are the extensions category's: the reference
		// lists evaluate_script's serviceWorkerId only with it.
		t = t.withoutArgs("serviceWorkerId")
	}
	return t
}

// categoryOn reports whether c's tools are listed under o.
func (o Options) categoryOn(c Category) bool {
	on, set := o.Categories[c]
	return on || !set && c.onByDefault()
}

// enabled reports whether t is listed under o.
func (o Options) enabled(t *Tool) bool {
	if t.RunsCallerCode && o.NoJavaScriptEvaluation {
		return false
	}
	if o.Slim || t.Slim {
		return o.Slim && t.Slim
	}
	on, set := o.Categories[t.Category]
	if !set {
		on = t.Category.onByDefault()
	}
	return on && (t.Condition == ConditionNone || o.Conditions[t.Condition])
}

// Server implements jsonrpc.Handler over the enabled tools.
type Server struct {
	opts    Options
	log     *slog.Logger
	tools   []*Tool
	byName  map[string]*Tool
	listing []jsonrpc.Tool

	main     *session // the state of stdio and of sessions without their own browser
	sessions sessions // the sessions with their own browser, by id

	paths      *confine.Guard
	sensitive  urlpattern.List
	heaps      *heapCache      // the heap snapshots the analysis tools loaded
	extensions extensionCopies // the extension folders copied for browsers
	// recording says the session's steps are kept for
	// export_recorder_flow: it is listed.
	recording bool
}

// all is every tool declared in this package, in listing order.
func all() []*Tool {
	return slices.Concat(inputTools(), navigationTools(), debuggingTools(), consoleTools(), networkTools(), screenshotTools(), screencastTools(), cssTools(), emulationTools(), performanceTools(), lighthouseTools(), memoryTools(), extensionTools(), thirdPartyTools(), webmcpTools(), pwaTools(), recorderTools(), slimTools())
}

// NewServer returns the tool server for opts, driving the browsers of m.
func NewServer(opts Options, m *browser.Manager, log *slog.Logger) *Server {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	var browsers Browsers
	if m != nil {
		browsers = m
	}
	s := &Server{opts: opts, log: log, byName: map[string]*Tool{}, main: newSession(browsers),
		sessions: sessions{byID: map[string]*session{}}, heaps: newHeapCache(opts.HeapSnapshotBudget)}
	s.paths = newPathGuard(opts.UnrestrictedPaths, opts.FilesystemRoots)
	if opts.Guard.Sensitive {
		s.sensitive = sensitivePatterns(opts.Guard)
	}
	for _, t := range all() {
		if !opts.enabled(t) {
			continue
		}
		t = opts.adapt(t)
		s.tools = append(s.tools, t)
		s.byName[t.Name] = t
		s.recording = s.recording || t.Category == CategoryExperimentalRecorder
		a := annotations(t)
		s.listing = append(s.listing, jsonrpc.Tool{
			Name: t.Name, Description: t.Description, InputSchema: t.schema,
			Annotations: a,
		})
		if opts.StructuredContent {
			s.listing[len(s.listing)-1].OutputSchema = json.RawMessage(outputSchema)
		}
	}
	return s
}

// ListTools returns the enabled tools.
func (s *Server) ListTools() []jsonrpc.Tool { return s.listing }

// Browser returns the browser the latest tool call without a session of
// its own used while it is still connected, else nil. It never launches or
// attaches one.
func (s *Server) Browser() *browser.Browser {
	if b := s.main.lastBrowser.Load(); b != nil && b.Alive() {
		return b
	}
	return nil
}

// RunsAsTask reports whether a tool call may run as an MCP task: what
// the tool's Task says of its arguments.
func (s *Server) RunsAsTask(name string, args json.RawMessage) bool {
	t := s.byName[name]
	return t != nil && t.Task != nil && t.Task(args)
}

// alwaysTask is the Task of a tool whose every call may run as one.
func alwaysTask(json.RawMessage) bool { return true }
