package main

// The daemon side of the command line: the hidden daemon subcommand that
// serves MCP on a session's socket, and what status says about its browser.

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/devtools-mcp/devtools-mcp/internal/browser"
	"github.com/devtools-mcp/devtools-mcp/internal/config"
	"github.com/devtools-mcp/devtools-mcp/internal/daemon"
)

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
	cfg, err := config.LoadConfig(args[1:], config.ProcessEnviron())
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
		Handler:  a.handler(),
		Options:  mcpOptions(cfg, a),
		Log:      a.log,
		Details:  func(ctx context.Context) string { return browserDetails(ctx, a.tools.Browser()) },
		Shutdown: a.closeBrowser,
	})
	if err != nil {
		a.log.Error("daemon failed", "err", err)
		return 1
	}
	return 0
}

// browserDetails describes the browser for status: its version, as it
// said when the server connected, and its pages.
func browserDetails(ctx context.Context, b *browser.Browser) string {
	if b == nil {
		return "Browser: none yet; the next tool command launches or attaches one.\n"
	}
	var s strings.Builder
	fmt.Fprintf(&s, "Browser: %s\n", cmp.Or(b.Version().Product, "version unknown"))
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
