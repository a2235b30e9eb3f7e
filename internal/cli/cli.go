package cli

// The command line over a background daemon: `devtools-mcp <tool> ...` calls
// one tool of a daemon that keeps the browser between commands, starting the
// daemon when none runs. Tool names and arguments come from the daemon's
// tools/list, so the command line always matches the server.

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/devtools-mcp/devtools-mcp/internal/config"
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
  devtools-mcp <tool> [required args] [--option value] [--output-format=md|json]
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

// Run runs devtools-mcp's command line: args[0] names a subcommand or a
// tool. version is the program's, which a daemon must match.
func Run(args []string, stdout, stderr io.Writer, version string) int {
	if len(args) == 0 || args[0] == "" {
		fmt.Fprintf(stderr, "devtools-mcp: empty command\n\n%s", cliUsage)
		return 2
	}
	session := cmp.Or(os.Getenv(sessionEnv), "default")
	return dispatch(session, grammar{prog: "devtools-mcp"}, args, stdout, stderr, version)
}

// dispatch runs one subcommand (start, stop, status, help) or tool
// command of either grammar against the session's daemon.
func dispatch(session string, g grammar, args []string, stdout, stderr io.Writer, version string) int {
	paths, err := daemon.SessionPaths(session)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", g.prog, err)
		return 1
	}
	c := &cli{paths: paths, stdout: stdout, stderr: stderr, g: g, version: version}
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
	g              grammar
	version        string // the program's, which the daemon must match
}

// usage is the command line's usage text, in its grammar.
func (c *cli) usage() string {
	if c.g.ref {
		return refUsage
	}
	return cliUsage
}

// failf reports a failure and returns exit status 1.
func (c *cli) failf(format string, args ...any) int {
	fmt.Fprintf(c.stderr, c.g.prog+": "+format+"\n", args...)
	return 1
}

// usagef reports a usage error followed by help, and returns exit status 2.
func (c *cli) usagef(help, format string, args ...any) int {
	fmt.Fprintf(c.stderr, c.g.prog+": "+format+"\n\n%s", append(args, help)...)
	return 2
}

// daemonArgv is the command line of a daemon started with the user's server
// flags: headless and isolated unless the flags choose otherwise, and files
// may be written anywhere unless the flags or the config file name
// --filesystemRoot directories, since only this user can reach the socket.
// It returns a usage error when the flags are wrong.
func (c *cli) daemonArgv(flags []string) ([]string, error) {
	env := config.ProcessEnviron()
	cfg, err := config.LoadConfig(flags, env)
	if err != nil {
		return nil, err
	}
	for _, w := range cfg.Warnings {
		fmt.Fprintf(c.stderr, c.g.prog+": warning: %s\n", w)
	}
	argv := []string{"", "daemon", "--session=" + c.paths.Session, "--headless"}
	if cfg.FilesystemRoots == nil {
		argv = append(argv, "--allowUnrestrictedPaths")
	}
	connects := cfg.AutoConnect || cfg.BrowserURL != "" || cfg.WSEndpoint != ""
	if cfg.UserDataDir == "" && !connects {
		argv = append(argv, "--isolated")
	}
	if c.g.ref {
		argv = append(argv, refDaemonDefaults(connects)...)
	}
	argv = append(argv, flags...)
	if _, err := config.LoadConfig(argv[3:], env); err != nil {
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
	cl, _, err := daemon.Connect(ctx, c.paths, argv, c.version)
	return cl, err
}

const startUsage = `Usage: devtools-mcp start [server flags]

Starts the background daemon of the session ($DEVTOOLS_MCP_SESSION, default
"default") with the flags of the MCP server (devtools-mcp --help lists them).
It launches Chrome headless with a temporary profile unless the flags say
otherwise (--no-headless, --userDataDir, --browserUrl, ...).
`

// startUsage is start's usage text, in the command line's grammar.
func (c *cli) startUsage() string {
	if c.g.ref {
		return strings.Replace(startUsage, "Usage: devtools-mcp start", "Usage: chrome-devtools start", 1) +
			"A daemon already running is stopped first, so the flags always apply.\n"
	}
	return startUsage
}

func (c *cli) start(flags []string) int {
	argv, err := c.daemonArgv(flags)
	var ue *config.UsageError
	switch {
	case errors.As(err, &ue):
		return c.usagef(c.startUsage(), "start: %v", err)
	case err != nil:
		return c.failf("%v", err)
	}
	if slices.ContainsFunc(flags, func(f string) bool { return f == "-h" || f == "--help" }) {
		fmt.Fprint(c.stdout, c.startUsage())
		return 0
	}
	if c.g.ref {
		// The reference's start is a restart: the new flags always apply.
		if _, err := c.stopDaemon(); err != nil {
			return c.failf("start: %v", err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
	defer cancel()
	cl, started, err := daemon.Connect(ctx, c.paths, argv, c.version)
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
			return c.failf("start: the running daemon keeps its own flags; run %s stop first to start it with %s", c.g.prog, strings.Join(flags, " "))
		}
		return 0
	}
	fmt.Fprintf(c.stdout, "Started the daemon of session %q (pid %d).\nSocket: %s\nLog: %s\n", c.paths.Session, st.PID, c.paths.Socket, c.paths.Log)
	return 0
}

func (c *cli) stop(args []string) int {
	if len(args) > 0 {
		return c.usagef(c.usage(), "stop takes no arguments")
	}
	pid, err := c.stopDaemon()
	switch {
	case err != nil:
		return c.failf("stop: %v", err)
	case pid == 0:
		fmt.Fprintf(c.stdout, "The daemon of session %q is not running.\n", c.paths.Session)
	default:
		fmt.Fprintf(c.stdout, "Stopped the daemon of session %q (pid %d).\n", c.paths.Session, pid)
	}
	return 0
}

// stopDaemon stops the session's daemon and returns its pid, or 0 when
// none runs.
func (c *cli) stopDaemon() (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), stopTimeout)
	defer cancel()
	cl, err := daemon.Running(ctx, c.paths, c.version)
	if errors.Is(err, daemon.ErrNotRunning) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	defer cl.Close()
	st, err := cl.Stop(ctx)
	if err != nil {
		return 0, err
	}
	return st.PID, nil
}

// status prints whether the daemon runs; the exit status is 1 when not,
// except in the reference's grammar, whose status always succeeds.
func (c *cli) status(args []string) int {
	if len(args) > 0 {
		return c.usagef(c.usage(), "status takes no arguments")
	}
	ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
	defer cancel()
	cl, err := daemon.Running(ctx, c.paths, c.version)
	if errors.Is(err, daemon.ErrNotRunning) {
		fmt.Fprintf(c.stdout, "The daemon of session %q is not running.\n", c.paths.Session)
		if c.g.ref {
			return 0
		}
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
	fmt.Fprint(c.stdout, c.usage())
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
		return c.usagef(c.usage()+"\nTools:\n"+toolList(list), "%s", msg)
	}
	t := list[i]
	params, err := toolParams(t.InputSchema)
	if err != nil {
		return c.failf("%s: %v", name, err)
	}
	call, err := parseToolArgs(name, params, argv, c.g)
	if err != nil {
		return c.usagef(toolHelp(t, params, c.g), "%s: %v", name, err)
	}
	if call.help {
		fmt.Fprint(c.stdout, toolHelp(t, params, c.g))
		return 0
	}
	// The tool may run long (a trace, a slow page); Ctrl-C ends it, and
	// closing the connection cancels it in the daemon.
	runCtx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	raw, err := c.callTool(runCtx, cl, name, call.args)
	if err != nil {
		return c.failf("%s: %v", name, err)
	}
	if c.g.ref {
		return c.printRef(name, raw, call.json)
	}
	return c.print(name, raw, call.json)
}

// closestTool suggests the tool name nearest to a mistyped one, or "".
func closestTool(list []jsonrpc.Tool, name string) string {
	best, bestDist := "", max(2, len(name)/3)+1
	for _, t := range list {
		if d := config.EditDistance(config.NormalizeName(name), config.NormalizeName(t.Name)); d < bestDist {
			best, bestDist = t.Name, d
		}
	}
	return best
}
