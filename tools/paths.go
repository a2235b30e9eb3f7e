package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/devtools-mcp/devtools-mcp/jsonrpc"
)

// rootsTimeout bounds how long a path check waits for the client's roots.
const rootsTimeout = 5 * time.Second

// pathGuard confines the files tools read and write to the directories
// configured with --filesystemRoot together with the roots of the calling
// MCP session's client; when there are neither, to the temp directory. The
// user lifts the restriction with --workspace=/ or --allowUnrestrictedPaths.
// The session remembers the roots between calls and asks again when the
// client says they changed (see jsonrpc.Session.Roots), so each client of a
// daemon gets its own.
type pathGuard struct {
	unrestricted bool
	configured   []string // resolved --filesystemRoot directories
}

// newPathGuard returns the guard for the command line's settings: roots
// are the --filesystemRoot directories, and "/" among them allows every
// path.
func newPathGuard(unrestricted bool, roots []string) pathGuard {
	g := pathGuard{unrestricted: unrestricted}
	for _, r := range roots {
		dir := resolve(r)
		if dir == filepath.Dir(dir) { // a filesystem root: /, or C:\ on Windows
			g.unrestricted = true
		}
		g.configured = append(g.configured, dir)
	}
	return g
}

// allowed returns the directories paths must lie in, and how they were
// decided (for error messages). A client whose roots cannot be had (none
// declared, none usable, or the request failed) adds none; with no
// --filesystemRoot either, the temp directory is allowed.
func (g *pathGuard) allowed(ctx context.Context) (dirs []string, source string) {
	client, clientSource := g.clientRoots(ctx)
	switch {
	case len(g.configured) > 0 && len(client) > 0:
		return append(slices.Clone(g.configured), client...), "the --filesystemRoot directories and " + clientSource
	case len(g.configured) > 0:
		return g.configured, "the --filesystemRoot directories"
	case len(client) > 0:
		return client, clientSource
	}
	return []string{resolve(os.TempDir())}, "the temp directory (the client shared no roots)"
}

// clientRoots returns the calling client's roots as resolved directories,
// none when it declares none or they cannot be had.
func (g *pathGuard) clientRoots(ctx context.Context) (dirs []string, source string) {
	if ss := jsonrpc.SessionFrom(ctx); ss != nil {
		rctx, cancel := context.WithTimeout(ctx, rootsTimeout)
		roots, err := ss.Roots(rctx)
		cancel()
		for _, r := range roots {
			if dir, err := rootDir(r.URI); err == nil {
				dirs = append(dirs, dir)
			}
		}
		if err == nil && len(dirs) > 0 {
			return dirs, "your MCP client's roots"
		}
	}
	return nil, ""
}

// rootDir turns a root URI (file:///home/me/project) into a resolved directory.
func rootDir(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return "", fmt.Errorf("root %q is not a file URI", uri)
	}
	return resolve(u.Path), nil
}

// resolve makes path absolute and clean, following symlinks in the part of
// it that exists, so a link cannot lead out of a root.
func resolve(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Clean(path)
	}
	var rest []string
	for cur := abs; ; cur = filepath.Dir(cur) {
		if real, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(append([]string{real}, rest...)...)
		}
		if cur == filepath.Dir(cur) {
			return abs
		}
		rest = append([]string{filepath.Base(cur)}, rest...)
	}
}

// check returns the resolved form of path, or an error naming the path, the
// allowed directories and how to allow it.
func (g *pathGuard) check(ctx context.Context, arg, path string) (string, error) {
	if path == "" {
		return "", fmt.Errorf("%s is empty; give a file path", arg)
	}
	real := resolve(path)
	if g.unrestricted {
		return real, nil
	}
	dirs, source := g.allowed(ctx)
	for _, d := range dirs {
		if real == d || strings.HasPrefix(real, d+string(filepath.Separator)) {
			return real, nil
		}
	}
	return "", fmt.Errorf("%s %s (resolved to %s) is outside %s: %s. Use a path inside one of them, add the folder as a root in your MCP client, or start the server with --workspace=<folder> (--workspace=/ or --allowUnrestrictedPaths for every path)",
		arg, path, real, source, strings.Join(dirs, ", "))
}

// checkArgs checks every path argument of a tool call (its fields tagged
// path:"") before it runs.
func (g *pathGuard) checkArgs(ctx context.Context, t *Tool, args map[string]json.RawMessage) error {
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
			if _, err := g.check(ctx, name, p); err != nil {
				return err
			}
		}
	}
	return nil
}

// createFile creates or truncates path for writing, readable only by the
// user. It never follows a symlink at the last component and never
// replaces a directory.
func createFile(path string) (*os.File, error) {
	if fi, err := os.Lstat(path); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("%s is a directory; give a file path", path)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|noFollow, 0o600)
	if err != nil {
		if isSymlinkLoop(err) {
			return nil, fmt.Errorf("%s is a symbolic link; refusing to write through it", path)
		}
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	return f, nil
}
