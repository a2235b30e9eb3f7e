package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/devtools-mcp/devtools-mcp/internal/daemon"
)

// callTool runs the tool through the daemon. When stderr is a terminal it
// asks for progress and shows it there on one line, rewritten as it comes
// and erased before the answer is printed; in scripts and pipes stderr
// stays clean.
func (c *cli) callTool(ctx context.Context, cl *daemon.Client, name string, args map[string]any) (json.RawMessage, error) {
	if !writerIsTerminal(c.stderr) {
		return cl.CallTool(ctx, name, args)
	}
	shown := false
	raw, err := cl.CallToolProgress(ctx, name, args, func(p daemon.Progress) {
		fmt.Fprint(c.stderr, "\r\x1b[K"+progressLine(name, p))
		shown = true
	})
	if shown {
		fmt.Fprint(c.stderr, "\r\x1b[K")
	}
	return raw, err
}

// progressLine is one progress report as the terminal shows it: a bar
// when the total is known, the message otherwise.
func progressLine(tool string, p daemon.Progress) string {
	msg := strings.TrimPrefix(p.Message, tool+": ")
	if p.Total <= 0 {
		return fmt.Sprintf("%s: %s", tool, msg)
	}
	const width = 20
	frac := min(max(p.Progress/p.Total, 0), 1)
	n := int(frac * width)
	return fmt.Sprintf("%s [%s%s] %3.0f%% %s", tool, strings.Repeat("#", n), strings.Repeat(".", width-n), frac*100, msg)
}

// writerIsTerminal reports whether w is a terminal.
func writerIsTerminal(w io.Writer) bool {
	r, ok := w.(io.Reader)
	return ok && IsTerminal(r)
}
