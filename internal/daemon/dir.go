// Package daemon runs the MCP server in the background behind a Unix domain
// socket, so that many short command-line invocations drive the same browser,
// and holds the small client those invocations use.
//
// Each session (a name, "default" unless chosen) has three files in a
// per-user runtime directory: NAME.sock, the socket; NAME.pid, which holds
// the daemon's pid and is locked (flock) for as long as the daemon lives, so
// a lock that can be taken means any socket or pid left behind is stale; and
// NAME.log, the daemon's log.
package daemon

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
)

// Paths are the files of one session.
type Paths struct {
	Session string
	Dir     string // the runtime directory
	Socket  string
	PID     string
	Log     string
}

var validSession = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)

// maxSocketPath is the longest socket path every supported system accepts
// (sun_path is 104 bytes on macOS and the BSDs, 108 on Linux).
const maxSocketPath = 103

// SessionPaths checks the session name, makes sure the runtime directory
// exists and is private to the user, and returns the session's files.
func SessionPaths(session string) (Paths, error) {
	if !validSession.MatchString(session) {
		return Paths{}, fmt.Errorf("session name %q: use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit", session)
	}
	dir, err := RuntimeDir()
	if err != nil {
		return Paths{}, err
	}
	base := filepath.Join(dir, session)
	p := Paths{Session: session, Dir: dir, Socket: base + ".sock", PID: base + ".pid", Log: base + ".log"}
	if len(p.Socket) > maxSocketPath {
		return Paths{}, fmt.Errorf("socket path %s is longer than the %d bytes Unix sockets allow; set XDG_RUNTIME_DIR to a shorter directory", p.Socket, maxSocketPath)
	}
	return p, nil
}

// RuntimeDir returns the per-user directory for sockets, pid files and logs:
// $XDG_RUNTIME_DIR/devtools-mcp, or devtools-mcp-UID in the temp directory.
// It creates the directory with mode 0700 and refuses one that is a symbolic
// link, belongs to another user, or is writable by group or others, since
// whoever can write there could put their own socket in our place.
func RuntimeDir() (string, error) {
	if !supported {
		return "", errUnsupported
	}
	dir := filepath.Join(os.TempDir(), "devtools-mcp-"+strconv.Itoa(os.Getuid()))
	if x := os.Getenv("XDG_RUNTIME_DIR"); x != "" {
		if !filepath.IsAbs(x) {
			return "", fmt.Errorf("XDG_RUNTIME_DIR %q is not an absolute path", x)
		}
		dir = filepath.Join(x, "devtools-mcp")
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", fmt.Errorf("create the runtime directory: %w", err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return "", fmt.Errorf("runtime directory: %w", err)
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return "", fmt.Errorf("runtime directory %s is a symbolic link; refusing to use it. Remove it, or set XDG_RUNTIME_DIR to a private directory", dir)
	case !fi.IsDir():
		return "", fmt.Errorf("runtime directory %s is not a directory; remove it, or set XDG_RUNTIME_DIR to a private directory", dir)
	case !ownedByUser(fi):
		return "", fmt.Errorf("runtime directory %s belongs to another user; refusing to use it. Remove it, or set XDG_RUNTIME_DIR to a private directory", dir)
	case fi.Mode().Perm()&0o022 != 0:
		return "", fmt.Errorf("runtime directory %s has mode %03o: it must not be writable by group or others; refusing to use it. Run chmod 700 %s", dir, fi.Mode().Perm(), dir)
	}
	return dir, nil
}
