package main

// The command line over a background daemon: `devtools-mcp <tool> ...` calls
// one tool of a daemon that keeps the browser between commands, starting the
// daemon when none runs. Tool names and arguments come from the daemon's
// tools/list, so the command line always matches the server.

import (
	"bytes"
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
	"github.com/devtools-mcp/devtools-mcp/internal/browser"
	"github.com/devtools-mcp/devtools-mcp/internal/daemon"
	"github.com/devtools-mcp/devtools-mcp/jsonrpc"
)

// sessionEnv names the daemon to talk to; several can run side by side.
const sessionEnv = "DEVTOOLS_MCP_SESSION"

// How long the command line waits for a daemon to start, answer, or stop.
const (
	connectTimeout = 20 * time.Second
	stopTimeout    = 30 * time.Second
)

const cliUsage = `Usage:
  devtools-mcp <tool> [required args] [--option value] [--output-format=text|json]
  devtools-mcp <tool> --help     the tool's arguments
  devtools-mcp start [flags]     start the background daemon with server flags
  devtools-mcp status            whether the daemon runs: pid, browser, pages
  devtools-mcp stop              stop the daemon and the browser it launched
  devtools-mcp help              this text and the list of tools
  devtools-mcp [flags]           run the MCP server on stdio (see --help)

Tool commands go to a background daemon that keeps one browser between
commands; the first one starts it (headless, with a temporary profile unless
--userDataDir is given) when none runs. Required arguments are positional, in
the order the tool's help shows; optional ones are --name value (switches:
--name or --name=false; lists: repeat the option or give a JSON array). Text
answers are printed, images are saved to files whose paths are printed.
--output-format=json prints the raw MCP result instead. Exit status: 0 on
success, 1 when the tool reported an error, 2 for a usage error.

$DEVTOOLS_MCP_SESSION names the daemon (default "default"); each session has
its own daemon and browser. The socket, pid file and log live in
$XDG_RUNTIME_DIR/devtools-mcp, else in devtools-mcp-<uid> in the temp
directory.
`

// runCLI runs a command-line subcommand; args[0] is the subcommand or tool.
func runCLI(args []string, stdout, stderr io.Writer) int {
	switch args[0] {
	case "daemon":
		return runDaemon(args[1:], stderr)
	case "":
		fmt.Fprintf(stderr, "devtools-mcp: empty command\n\n%s", cliUsage)
		return 2
	}
	session := cmp.Or(os.Getenv(sessionEnv), "default")
	paths, err := daemon.SessionPaths(session)
	if err != nil {
		fmt.Fprintf(stderr, "devtools-mcp: %v\n", err)
		return 1
	}
	c := &cli{paths: paths, stdout: stdout, stderr: stderr}
	switch args[0] {
	case "start":
		return c.start(args[1:])
	case "stop":
		return c.stop(args[1:])
	case "status":
		return c.status(args[1:])
	case "help":
		if len(args) > 1 {
			return c.tool(args[1], []string{"--help"})
		}
		return c.help()
	}
	return c.tool(args[0], args[1:])
}

// cli is one command-line invocation.
type cli struct {
	paths          daemon.Paths
	stdout, stderr io.Writer
}

// failf reports a failure and returns exit status 1.
func (c *cli) failf(format string, args ...any) int {
	fmt.Fprintf(c.stderr, "devtools-mcp: "+format+"\n", args...)
	return 1
}

// usagef reports a usage error followed by help, and returns exit status 2.
func (c *cli) usagef(help, format string, args ...any) int {
	fmt.Fprintf(c.stderr, "devtools-mcp: "+format+"\n\n%s", append(args, help)...)
	return 2
}

// daemonArgv is the command line of a daemon started with the user's server
// flags: headless and isolated unless the flags choose otherwise, and files
// may be written anywhere, since only this user can reach the socket. It
// returns a usage error when the flags are wrong.
func (c *cli) daemonArgv(flags []string) ([]string, error) {
	cfg, err := ParseFlags(flags)
	if err != nil {
		return nil, err
	}
	argv := []string{"", "daemon", "--session=" + c.paths.Session, "--headless", "--allowUnrestrictedPaths"}
	if cfg.UserDataDir == "" && !cfg.AutoConnect && cfg.BrowserURL == "" && cfg.WSEndpoint == "" {
		argv = append(argv, "--isolated")
	}
	argv = append(argv, flags...)
	if _, err := ParseFlags(argv[3:]); err != nil {
		return nil, err
	}
	if argv[0], err = os.Executable(); err != nil {
		return nil, fmt.Errorf("find this program to start the daemon: %w", err)
	}
	return argv, nil
}

// connect returns a client of the session's daemon, starting one with the
// default flags when none runs.
func (c *cli) connect(ctx context.Context) (*daemon.Client, error) {
	argv, err := c.daemonArgv(nil)
	if err != nil {
		return nil, err
	}
	cl, _, err := daemon.Connect(ctx, c.paths, argv, version)
	return cl, err
}

const startUsage = `Usage: devtools-mcp start [server flags]

Starts the background daemon of the session ($DEVTOOLS_MCP_SESSION, default
"default") with the flags of the MCP server (devtools-mcp --help lists them).
It launches Chrome headless with a temporary profile unless the flags say
otherwise (--no-headless, --userDataDir, --browserUrl, ...).
`

func (c *cli) start(flags []string) int {
	argv, err := c.daemonArgv(flags)
	var ue *UsageError
	switch {
	case errors.As(err, &ue):
		return c.usagef(startUsage, "start: %v", err)
	case err != nil:
		return c.failf("%v", err)
	}
	if slices.ContainsFunc(flags, func(f string) bool { return f == "-h" || f == "--help" }) {
		fmt.Fprint(c.stdout, startUsage)
		return 0
	}
	ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
	defer cancel()
	cl, started, err := daemon.Connect(ctx, c.paths, argv, version)
	if err != nil {
		return c.failf("start: %v", err)
	}
	defer cl.Close()
	st, err := cl.Status(ctx)
	if err != nil {
		return c.failf("start: %v", err)
	}
	if !started {
		fmt.Fprintf(c.stdout, "The daemon of session %q already runs (pid %d).\n", c.paths.Session, st.PID)
		if len(flags) > 0 {
			return c.failf("start: the running daemon keeps its own flags; run devtools-mcp stop first to start it with %s", strings.Join(flags, " "))
		}
		return 0
	}
	fmt.Fprintf(c.stdout, "Started the daemon of session %q (pid %d).\nSocket: %s\nLog: %s\n", c.paths.Session, st.PID, c.paths.Socket, c.paths.Log)
	return 0
}

func (c *cli) stop(args []string) int {
	if len(args) > 0 {
		return c.usagef(cliUsage, "stop takes no arguments")
	}
	ctx, cancel := context.WithTimeout(context.Background(), stopTimeout)
	defer cancel()
	cl, err := daemon.Running(ctx, c.paths, version)
	if errors.Is(err, daemon.ErrNotRunning) {
		fmt.Fprintf(c.stdout, "The daemon of session %q is not running.\n", c.paths.Session)
		return 0
	}
	if err != nil {
		return c.failf("stop: %v", err)
	}
	defer cl.Close()
	st, err := cl.Stop(ctx)
	if err != nil {
		return c.failf("stop: %v", err)
	}
	fmt.Fprintf(c.stdout, "Stopped the daemon of session %q (pid %d).\n", c.paths.Session, st.PID)
	return 0
}

// status prints whether the daemon runs; the exit status is 1 when not.
func (c *cli) status(args []string) int {
	if len(args) > 0 {
		return c.usagef(cliUsage, "status takes no arguments")
	}
	ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
	defer cancel()
	cl, err := daemon.Running(ctx, c.paths, version)
	if errors.Is(err, daemon.ErrNotRunning) {
		fmt.Fprintf(c.stdout, "The daemon of session %q is not running.\n", c.paths.Session)
		return 1
	}
	if err != nil {
		return c.failf("status: %v", err)
	}
	defer cl.Close()
	st, err := cl.Status(ctx)
	if err != nil {
		return c.failf("status: %v", err)
	}
	fmt.Fprintf(c.stdout, "The daemon of session %q is running (pid %d, up %s).\nSocket: %s\nLog: %s\n%s",
		c.paths.Session, st.PID, time.Since(st.Since).Round(time.Second), c.paths.Socket, c.paths.Log, st.Details)
	return 0
}

// help prints the usage and the daemon's tools.
func (c *cli) help() int {
	fmt.Fprint(c.stdout, cliUsage)
	ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
	defer cancel()
	cl, err := c.connect(ctx)
	if err != nil {
		return c.failf("list the tools: %v", err)
	}
	defer cl.Close()
	list, err := cl.Tools(ctx)
	if err != nil {
		return c.failf("list the tools: %v", err)
	}
	fmt.Fprint(c.stdout, "\nTools:\n", toolList(list))
	return 0
}

// toolList lists tools one per line with the start of their description.
func toolList(list []jsonrpc.Tool) string {
	var b strings.Builder
	width := 0
	for _, t := range list {
		width = max(width, len(t.Name))
	}
	for _, t := range list {
		summary, _, _ := strings.Cut(t.Description, ". ")
		summary = strings.TrimSuffix(summary, ".")
		if room := max(100-width-4, 40); len(summary) > room {
			cut := strings.LastIndexByte(summary[:room-3], ' ')
			summary = summary[:max(cut, 0)] + "..."
		}
		fmt.Fprintf(&b, "  %-*s  %s\n", width, t.Name, summary)
	}
	return b.String()
}

// tool runs one tool command.
func (c *cli) tool(name string, argv []string) int {
	ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
	defer cancel()
	cl, err := c.connect(ctx)
	if err != nil {
		return c.failf("%v", err)
	}
	defer cl.Close()
	list, err := cl.Tools(ctx)
	if err != nil {
		return c.failf("%v", err)
	}
	i := slices.IndexFunc(list, func(t jsonrpc.Tool) bool { return t.Name == name })
	if i < 0 {
		msg := fmt.Sprintf("unknown command or tool %q", name)
		if s := closestTool(list, name); s != "" {
			msg += fmt.Sprintf("; did you mean %s?", s)
		}
		return c.usagef(cliUsage+"\nTools:\n"+toolList(list), "%s", msg)
	}
	t := list[i]
	params, err := toolParams(t.InputSchema)
	if err != nil {
		return c.failf("%s: %v", name, err)
	}
	call, err := parseToolArgs(params, argv)
	if err != nil {
		return c.usagef(toolHelp(t, params), "%s: %v", name, err)
	}
	if call.help {
		fmt.Fprint(c.stdout, toolHelp(t, params))
		return 0
	}
	// The tool may run long (a trace, a slow page); Ctrl-C ends it, and
	// closing the connection cancels it in the daemon.
	runCtx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	raw, err := cl.CallTool(runCtx, name, call.args)
	if err != nil {
		return c.failf("%s: %v", name, err)
	}
	return c.print(name, raw, call.json)
}

// closestTool suggests the tool name nearest to a mistyped one, or "".
func closestTool(list []jsonrpc.Tool, name string) string {
	best, bestDist := "", max(2, len(name)/3)+1
	for _, t := range list {
		if d := editDistance(normalizeName(name), normalizeName(t.Name)); d < bestDist {
			best, bestDist = t.Name, d
		}
	}
	return best
}

// print writes a tool result and returns the exit status: 1 when the tool
// reported an error.
func (c *cli) print(tool string, raw json.RawMessage, asJSON bool) int {
	var res struct {
		Content []jsonrpc.Content `json:"content"`
		IsError bool              `json:"isError"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return c.failf("%s: the daemon's answer is not an MCP result: %v", tool, err)
	}
	status := 0
	out := c.stdout
	if res.IsError {
		status, out = 1, c.stderr
	}
	if asJSON {
		fmt.Fprintf(c.stdout, "%s\n", raw)
		return status
	}
	for _, block := range res.Content {
		switch block.Type {
		case "text":
			fmt.Fprint(out, block.Text)
			if !strings.HasSuffix(block.Text, "\n") {
				fmt.Fprintln(out)
			}
		case "image":
			path, err := saveImage(tool, block)
			if err != nil {
				return c.failf("%s: %v", tool, err)
			}
			fmt.Fprintf(out, "Saved the %s image to %s\n", block.MimeType, path)
		default:
			b, _ := json.Marshal(block) // cannot fail: plain fields
			fmt.Fprintf(out, "%s\n", b)
		}
	}
	return status
}

// saveImage writes an image block to a new file in the current directory,
// or in the temp directory when the current one is not writable, and
// returns its absolute path.
func saveImage(tool string, block jsonrpc.Content) (string, error) {
	data, err := base64.StdEncoding.DecodeString(block.Data)
	if err != nil {
		return "", fmt.Errorf("decode the image: %w", err)
	}
	ext := strings.TrimPrefix(block.MimeType, "image/")
	if ext == "jpeg" {
		ext = "jpg"
	}
	f, err := os.CreateTemp(".", tool+"-*."+ext)
	if err != nil {
		f, err = os.CreateTemp("", tool+"-*."+ext)
	}
	if err != nil {
		return "", fmt.Errorf("save the image: %w", err)
	}
	_, werr := f.Write(data)
	if err := errors.Join(werr, f.Close()); err != nil {
		return "", fmt.Errorf("save the image: %w", err)
	}
	return filepath.Abs(f.Name())
}

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

// parseToolArgs turns a tool's command-line arguments into its MCP
// arguments: positionals fill the required parameters in order (the last
// one, when a list, takes the rest), --name value sets any parameter.
func parseToolArgs(params []param, argv []string) (*toolCall, error) {
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
		isFormat := normalizeName(name) == "outputformat"
		p := paramNamed(params, name)
		if p == nil && !isFormat {
			return nil, unknownOption(params, name)
		}
		switch {
		case hasValue:
		case p != nil && p.typ == "boolean":
			value = "true"
		case i+1 < len(argv):
			i++
			value = argv[i]
		default:
			return nil, fmt.Errorf("--%s needs a value", name)
		}
		if isFormat {
			if value != "text" && value != "json" {
				return nil, fmt.Errorf("--output-format must be text or json, got %q", value)
			}
			call.json = value == "json"
			continue
		}
		if err := p.set(call.args, value); err != nil {
			return nil, err
		}
	}
	var required []*param
	for i := range params {
		if params[i].required {
			required = append(required, &params[i])
		}
	}
	for i, value := range positional {
		if len(required) == 0 {
			return nil, fmt.Errorf("unexpected argument %q: this tool takes only options", value)
		}
		p := required[min(i, len(required)-1)]
		if i >= len(required) && p.typ != "array" {
			return nil, fmt.Errorf("unexpected argument %q: this tool takes %d positional argument(s)", value, len(required))
		}
		if err := p.set(call.args, value); err != nil {
			return nil, err
		}
	}
	for _, p := range required {
		if _, ok := call.args[p.name]; !ok {
			return nil, fmt.Errorf("missing the required argument <%s>", p.name)
		}
	}
	return call, nil
}

// paramNamed finds a parameter by name, in any case or with dashes
// (pageId, page-id, pageid).
func paramNamed(params []param, name string) *param {
	for i := range params {
		if normalizeName(params[i].name) == normalizeName(name) {
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
		b, ok := parseBool(value)
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
		n, err := strconv.ParseFloat(value, 64)
		if err != nil || n != n || n > 1e308 || n < -1e308 {
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
func toolHelp(t jsonrpc.Tool, params []param) string {
	var b strings.Builder
	b.WriteString("Usage: devtools-mcp " + t.Name)
	var options []param
	for _, p := range params {
		if p.required {
			b.WriteString(" <" + p.name + ">")
		} else {
			options = append(options, p)
		}
	}
	b.WriteString(" [options]\n\n")
	writeWrapped(&b, t.Description, "", 80)
	if len(options) < len(params) {
		b.WriteString("\nArguments (required, in this order):\n")
	}
	for _, p := range params {
		if !p.required {
			continue
		}
		b.WriteString("  <" + p.name + ">  " + p.kind() + "\n")
		writeWrapped(&b, p.desc, "      ", 80)
	}
	b.WriteString("\nOptions:\n")
	for _, p := range options {
		head := "  --" + p.name
		if p.typ != "boolean" {
			head += " " + p.kind()
		}
		b.WriteString(head + "\n")
		writeWrapped(&b, p.desc, "      ", 80)
	}
	b.WriteString("  --output-format text|json\n")
	writeWrapped(&b, "text (default): the tool's answer, with images saved to files; json: the raw MCP result.", "      ", 80)
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

// runDaemon is the hidden `daemon --session=NAME [server flags]` command the
// command line starts in the background: the MCP server of stdio mode,
// served on the session's socket to one connection per command.
func runDaemon(args []string, stderr io.Writer) int {
	session, ok := "", len(args) > 0
	if ok {
		session, ok = strings.CutPrefix(args[0], "--session=")
	}
	if !ok {
		fmt.Fprintln(stderr, "devtools-mcp: daemon is started by the command line; use devtools-mcp start")
		return 2
	}
	cfg, err := ParseFlags(args[1:])
	if err != nil {
		fmt.Fprintf(stderr, "devtools-mcp: %v\n", err)
		return 2
	}
	paths, err := daemon.SessionPaths(session)
	if err != nil {
		fmt.Fprintf(stderr, "devtools-mcp: %v\n", err)
		return 1
	}
	a, err := newApp(cfg, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "devtools-mcp: %v\n", err)
		return 1
	}
	defer a.close()
	err = daemon.Serve(a.ctx, daemon.Config{
		Paths:    paths,
		Info:     serverInfo(),
		Handler:  a.tools,
		Options:  mcpOptions(cfg, a.log),
		Log:      a.log,
		Details:  func(ctx context.Context) string { return browserDetails(ctx, a.tools.Browser()) },
		Shutdown: a.mgr.Close,
	})
	if err != nil {
		a.log.Error("daemon failed", "err", err)
		return 1
	}
	return 0
}

// browserDetails describes the browser for status: its version and pages.
func browserDetails(ctx context.Context, b *browser.Browser) string {
	if b == nil {
		return "Browser: none yet; the next tool command launches or attaches one.\n"
	}
	var s strings.Builder
	v, err := cdp.BrowserGetVersion.Call(ctx, b.Conn().Session(""))
	if err != nil {
		fmt.Fprintf(&s, "Browser: version unknown (%v)\n", err)
	} else {
		fmt.Fprintf(&s, "Browser: %s\n", v.Product)
	}
	s.WriteString("Pages:\n")
	selected := b.Selected()
	for _, p := range b.Pages() {
		mark := ""
		if p == selected {
			mark = " [selected]"
		}
		fmt.Fprintf(&s, "  %d: %s%s\n", p.ID, p.Info().URL, mark)
	}
	return s.String()
}
