package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/devtools-mcp/devtools-mcp/internal/confine"
	"github.com/devtools-mcp/devtools-mcp/jsonrpc"
)

// The files tools read and write are confined by internal/confine; this is
// where tools meets it: the guard of the server's settings, which learns
// the client's roots from the calling MCP session, the checks of the path
// arguments a call's struct tags name, and the reads and writes of calls.

// newPathGuard returns the guard for the command line's settings (see
// confine.New), asking the calling session for its client's roots.
func newPathGuard(unrestricted bool, roots []string) *confine.Guard {
	return confine.New(unrestricted, roots, sessionRoots)
}

// sessionRoots returns the root URIs of the calling MCP session's client.
func sessionRoots(ctx context.Context) ([]string, error) {
	ss := jsonrpc.SessionFrom(ctx)
	if ss == nil {
		return nil, nil
	}
	roots, err := ss.Roots(ctx)
	uris := make([]string, len(roots))
	for i, r := range roots {
		uris[i] = r.URI
	}
	return uris, err
}

// checkPathArgs checks every path argument of a tool call (its fields
// tagged path:"") against g before it runs.
func checkPathArgs(ctx context.Context, g *confine.Guard, t *Tool, args map[string]json.RawMessage) error {
	for _, name := range t.paths {
		raw, ok := args[name]
		if !ok {
			continue
		}
		var paths []string
		if err := json.Unmarshal(raw, &paths); err != nil {
			var one string
			if err := json.Unmarshal(raw, &one); err != nil {
				return fmt.Errorf("%s must be a path", name)
			}
			paths = []string{one}
		}
		for _, p := range paths {
			if p == "" && slices.Contains(t.noPath, name) {
				continue
			}
			if _, err := g.Check(ctx, name, p); err != nil {
				return err
			}
		}
	}
	return nil
}

// guard is the server's path guard, or one for the temp directory when the
// call has no server (some unit tests).
func (c *Call) guard() *confine.Guard {
	if c == nil || c.Server == nil || c.Server.paths == nil {
		return newPathGuard(false, nil)
	}
	return c.Server.paths
}

// place is the checked location of the path argument arg of the call.
func (c *Call) place(ctx context.Context, arg, path string) (*confine.Place, error) {
	return c.guard().Place(ctx, arg, path)
}

// writeFile creates or replaces path with data, readable only by the user,
// after checking the path (the final one, after any rewrite) against the
// guard.
func (c *Call) writeFile(ctx context.Context, arg, path string, data []byte) error {
	p, err := c.place(ctx, arg, path)
	if err != nil {
		return err
	}
	defer p.Close()
	return p.WriteAll(data)
}

// readFile reads the regular file at path, checked against the guard.
func (c *Call) readFile(ctx context.Context, arg, path string) ([]byte, error) {
	f, err := c.openFile(ctx, arg, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// openFile opens the regular file at path for reading, checked against the
// guard.
func (c *Call) openFile(ctx context.Context, arg, path string) (*os.File, error) {
	p, err := c.guard().PlaceFollowing(ctx, arg, path, true)
	if err != nil {
		return nil, err
	}
	defer p.Close() // the file stays open without the directory's handle
	return p.Open()
}
