package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// RootLister asks the MCP client for its roots (directories the user
// shared). ok is false when the client does not support roots.
type RootLister func(ctx context.Context) (roots []string, ok bool, err error)

// pathGuard confines the files tools read and write to the client's roots,
// or to the temp directory for clients without roots, unless the user
// lifted the restriction with --allowUnrestrictedPaths.
type pathGuard struct {
	unrestricted bool

	mu     sync.Mutex
	list   RootLister
	roots  []string // resolved, nil until fetched
	ok     bool     // the client has roots
	loaded bool
}

// setLister installs how roots are fetched and forgets cached ones.
func (g *pathGuard) setLister(l RootLister) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.list, g.loaded = l, false
}

// invalidate forgets the cached roots (the client said they changed).
func (g *pathGuard) invalidate() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.loaded = false
}

// allowed returns the directories paths must lie in, and how they were
// decided (for error messages).
func (g *pathGuard) allowed(ctx context.Context) (dirs []string, source string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.loaded && g.list != nil {
		lctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		roots, ok, err := g.list(lctx)
		cancel()
		if err == nil {
			g.roots, g.ok, g.loaded = nil, ok, true
			for _, r := range roots {
				if dir, err := rootDir(r); err == nil {
					g.roots = append(g.roots, dir)
				}
			}
		}
	}
	if g.ok && len(g.roots) > 0 {
		return g.roots, "your MCP client's roots"
	}
	return []string{resolve(os.TempDir())}, "the temp directory (the client shared no roots)"
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
	return "", fmt.Errorf("%s %s (resolved to %s) is outside %s: %s. Use a path inside one of them, add the folder as a root in your MCP client, or start the server with --allowUnrestrictedPaths",
		arg, path, real, source, strings.Join(dirs, ", "))
}

// checkArgs checks every path argument of a tool call before it runs.
func (g *pathGuard) checkArgs(ctx context.Context, t *Tool, args map[string]json.RawMessage) error {
	for _, name := range t.Paths {
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
