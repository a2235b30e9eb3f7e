package confine

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// rootsTimeout bounds how long a path check waits for the client's roots.
const rootsTimeout = 5 * time.Second

// Guard confines the files tools read and write to the directories
// configured with --filesystemRoot together with the roots of the calling
// MCP session's client; when there are neither, to the temp directory. The
// user lifts the restriction with --workspace=/ or --allowUnrestrictedPaths.
// The session remembers the roots between calls and asks again when the
// client says they changed (see jsonrpc.Session.Roots), so each client of a
// daemon gets its own: ClientRoots asks it.
type Guard struct {
	unrestricted bool
	configured   []string // resolved --filesystemRoot directories
	client       ClientRoots
}

// ClientRoots returns the root URIs (file:///home/me/project) of the
// client the call in ctx comes from: none, and no error, when there is no
// such client.
type ClientRoots func(ctx context.Context) ([]string, error)

// New returns the guard for the command line's settings: roots are the
// --filesystemRoot directories, and "/" among them allows every path.
// client, which may be nil, gives the calling client's roots.
func New(unrestricted bool, roots []string, client ClientRoots) *Guard {
	g := &Guard{unrestricted: unrestricted, client: client}
	for _, r := range roots {
		dir := Resolve(r)
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
func (g *Guard) allowed(ctx context.Context) (dirs []string, source string) {
	client, clientSource := g.clientRoots(ctx)
	switch {
	case len(g.configured) > 0 && len(client) > 0:
		return append(slices.Clone(g.configured), client...), "the --filesystemRoot directories and " + clientSource
	case len(g.configured) > 0:
		return g.configured, "the --filesystemRoot directories"
	case len(client) > 0:
		return client, clientSource
	}
	return []string{Resolve(os.TempDir())}, "the temp directory (the client shared no roots)"
}

// clientRoots returns the calling client's roots as resolved directories,
// none when it declares none or they cannot be had.
func (g *Guard) clientRoots(ctx context.Context) (dirs []string, source string) {
	if g.client != nil {
		rctx, cancel := context.WithTimeout(ctx, rootsTimeout)
		roots, err := g.client(rctx)
		cancel()
		for _, r := range roots {
			if dir, err := rootDir(r); err == nil {
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
	return Resolve(u.Path), nil
}

// Resolve makes path absolute, following its symlinks as the kernel does
// (see resolvePath); a path that cannot be resolved is only cleaned.
func Resolve(path string) string {
	real, err := resolvePath(path, true)
	if err != nil {
		if abs, err := filepath.Abs(path); err == nil {
			return abs
		}
		return filepath.Clean(path)
	}
	return real
}

// Unrestricted reports whether every path is allowed.
func (g *Guard) Unrestricted() bool { return g.unrestricted }

// Check returns the resolved form of path, the argument arg of a call, or
// an error naming the path, the allowed directories and how to allow it.
func (g *Guard) Check(ctx context.Context, arg, path string) (string, error) {
	real, _, err := g.confine(ctx, arg, path, true)
	return real, err
}

// confine resolves path as the kernel will (see resolvePath) and returns
// it with the allowed directory it lies in: the filesystem root when paths
// are unrestricted.
func (g *Guard) confine(ctx context.Context, arg, path string, followLast bool) (real, dir string, err error) {
	if path == "" {
		return "", "", fmt.Errorf("%s is empty; give a file path", arg)
	}
	if strings.IndexByte(path, 0) >= 0 {
		return "", "", fmt.Errorf("%s holds a NUL byte; give a file path", arg)
	}
	real, err = resolvePath(path, followLast)
	if err != nil {
		return "", "", fmt.Errorf("%s: %w", arg, err)
	}
	if g.unrestricted {
		return real, filepath.VolumeName(real) + string(filepath.Separator), nil
	}
	dirs, source := g.allowed(ctx)
	for _, d := range dirs {
		if within(real, d) {
			return real, d, nil
		}
	}
	how := "resolved to " + real
	if link, err := resolvePath(path, false); err == nil && link != real {
		if fi, err := os.Lstat(link); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			how = "a symbolic link to " + real
		}
	}
	return "", "", fmt.Errorf("%s %s (%s) is outside %s: %s. Use a path inside one of them, add the folder as a root in your MCP client, or start the server with --workspace=<folder> (--workspace=/ or --allowUnrestrictedPaths for every path)",
		arg, path, how, source, strings.Join(dirs, ", "))
}

// CheckNavigation returns an error when path, the local file a file: URL
// opens, lies outside the allowed directories, when there are any to speak
// of: the --filesystemRoot directories or the calling client's roots.
// Without either, file: URLs open anywhere, as in Chrome.
func (g *Guard) CheckNavigation(ctx context.Context, path string) error {
	if g.unrestricted {
		return nil
	}
	client, _ := g.clientRoots(ctx)
	if len(g.configured) == 0 && len(client) == 0 {
		return nil
	}
	real, _, err := g.confine(ctx, "url", path, true)
	if err != nil {
		return err
	}
	// Chrome reads the file itself; one with other hard links may be a
	// file outside the roots under a name inside them.
	if fi, err := os.Stat(real); err == nil && fi.Mode().IsRegular() {
		return RefuseHardLinked(real, fi)
	}
	return nil
}

// within reports whether path is dir or lies beneath it.
func within(path, dir string) bool {
	return path == dir || strings.HasPrefix(path, strings.TrimSuffix(dir, string(filepath.Separator))+string(filepath.Separator))
}
