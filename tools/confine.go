package tools

import (
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// place is a file location that passed the path guard, held as a handle of
// the allowed directory it lies in and the path beneath it. Every open goes
// through the handle (os.Root: one directory at a time, openat without
// following links out of it), so a directory swapped for a symlink after
// the check, even long after it as in a delayed write, cannot lead the
// write out of the allowed directory.
type place struct {
	root  *os.Root
	rel   string // beneath root, as resolved when checked
	path  string // the resolved absolute path, for messages
	owner bool   // whether close releases root
}

// place checks path for the calling session and opens the handle of the
// allowed directory it lies in. A symlink in its last component is kept
// as the link (create refuses it, open follows it inside the directory).
// The caller closes the place.
func (g *pathGuard) place(ctx context.Context, arg, path string) (*place, error) {
	return g.placeFollowing(ctx, arg, path, false)
}

// placeFollowing is place, following a symlink in the last component when
// followLast is set (for files that are read).
func (g *pathGuard) placeFollowing(ctx context.Context, arg, path string, followLast bool) (*place, error) {
	real, dir, err := g.confine(ctx, arg, path, followLast)
	if err != nil {
		return nil, err
	}
	rel, err := filepath.Rel(dir, real)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", arg, err)
	}
	// os.OpenRoot blocks on a FIFO: an allowed "directory" that is one
	// (a client root planted as a FIFO) is refused before it is opened.
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return nil, fmt.Errorf("%s: the allowed directory %s is not a directory (%s)", arg, dir, kind(fi.Mode()))
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: open %s: %w", arg, dir, err)
	}
	return &place{root: root, rel: rel, path: real, owner: true}, nil
}

// newDirPlace is the place of the directory dir itself, for files the
// server puts in a directory of its own making.
func newDirPlace(dir string) (*place, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &place{root: root, rel: ".", path: dir, owner: true}, nil
}

// close releases the directory handle (a child shares its parent's).
func (p *place) close() {
	if p != nil && p.owner {
		p.root.Close()
	}
}

// child is the file name in the directory p names. name is one path
// component: it never leads elsewhere than into p.
func (p *place) child(name string) (*place, error) {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) {
		return nil, fmt.Errorf("%q is not a file name", name)
	}
	return &place{root: p.root, rel: filepath.Join(p.rel, name), path: filepath.Join(p.path, name)}, nil
}

// parent is the directory p lies in, refused when p is the allowed
// directory itself: a name made from it (an added extension) would lie
// beside the directory, outside it.
func (p *place) parent() (*place, error) {
	if p.rel == "." {
		return nil, fmt.Errorf("%s is an allowed directory itself; give a file path inside it", p.path)
	}
	return &place{root: p.root, rel: filepath.Dir(p.rel), path: filepath.Dir(p.path)}, nil
}

// refuseSpecial says why the existing file fi cannot be written or read as
// a plain file: a directory, a symlink (when links is false), a FIFO, a
// device or a socket.
func refuseSpecial(path string, fi fs.FileInfo, links bool) error {
	switch m := fi.Mode(); {
	case m.IsRegular():
		return nil
	case m.IsDir():
		return fmt.Errorf("%s is a directory; give a file path", path)
	case m&fs.ModeSymlink != 0:
		if links {
			return nil
		}
		return fmt.Errorf("%s is a symbolic link; refusing to write through it", path)
	default:
		return fmt.Errorf("%s is not a regular file (%s); refusing to use it", path, kind(m))
	}
}

// kind names a special file's type for messages.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "mode " + m.String()
}

// create creates or replaces the file for writing, readable only by the
// user (an existing file's mode is reset to 0600). It never writes through
// a symlink, never replaces a directory and never opens anything but a
// regular file: the open does not block (a FIFO without a reader fails at
// once), and truncation waits until the file is known to be regular.
func (p *place) create() (*os.File, error) {
	if fi, err := p.root.Lstat(p.rel); err == nil {
		if err := refuseSpecial(p.path, fi, false); err != nil {
			return nil, err
		}
	}
	f, err := p.root.OpenFile(p.rel, os.O_WRONLY|os.O_CREATE|noFollow|nonBlock, 0o600)
	if err != nil {
		if isSymlinkLoop(err) {
			return nil, fmt.Errorf("%s is a symbolic link; refusing to write through it", p.path)
		}
		return nil, fmt.Errorf("create %s: %w", p.path, err)
	}
	if err := prepareRegular(f, p.path); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// prepareRegular checks that the file just opened is regular and empties
// it, readable only by the user.
func prepareRegular(f *os.File, path string) error {
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	if err := refuseSpecial(path, fi, false); err != nil {
		return err
	}
	if err := f.Truncate(0); err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	if err := f.Chmod(0o600); err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	return nil
}

// open opens the existing regular file for reading, without blocking: a
// FIFO or a device is refused, not waited on.
func (p *place) open() (*os.File, error) {
	fi, err := p.root.Stat(p.rel)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", p.path, err)
	}
	if err := refuseSpecial(p.path, fi, true); err != nil {
		return nil, err
	}
	f, err := p.root.OpenFile(p.rel, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", p.path, err)
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = refuseSpecial(p.path, fi, false)
		}
		return nil, err
	}
	return f, nil
}

// replace writes the file through a temporary one beside it, renamed over
// it once write succeeded, so that a reader never sees half of it. The
// temporary file is removed on failure.
func (p *place) replace(write func(io.Writer) error) error {
	if fi, err := p.root.Lstat(p.rel); err == nil {
		if err := refuseSpecial(p.path, fi, false); err != nil {
			return err
		}
	}
	dir, err := p.parent()
	if err != nil {
		return err
	}
	tmp, err := dir.child("." + filepath.Base(p.rel) + "." + rand.Text()[:10] + ".part")
	if err != nil {
		return err
	}
	f, err := p.root.OpenFile(tmp.rel, os.O_WRONLY|os.O_CREATE|os.O_EXCL|noFollow, 0o600)
	if err != nil {
		return fmt.Errorf("create %s: %w", tmp.path, err)
	}
	defer p.root.Remove(tmp.rel) // after a successful rename, a no-op
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := p.root.Rename(tmp.rel, p.rel); err != nil {
		return fmt.Errorf("save %s: %w", p.path, err)
	}
	return nil
}

// writeAll creates the file and writes data to it.
func (p *place) writeAll(data []byte) error {
	f, err := p.create()
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("save to %s: %w", p.path, err)
	}
	return f.Close()
}

// guard is the server's path guard, or one for the temp directory when the
// call has no server (some unit tests).
func (c *Call) guard() *pathGuard {
	if c == nil || c.Server == nil {
		return &pathGuard{}
	}
	return &c.Server.paths
}

// place is the checked location of the path argument arg of the call.
func (c *Call) place(ctx context.Context, arg, path string) (*place, error) {
	return c.guard().place(ctx, arg, path)
}

// writeFile creates or replaces path with data, readable only by the user,
// after checking the path (the final one, after any rewrite) against the
// guard.
func (c *Call) writeFile(ctx context.Context, arg, path string, data []byte) error {
	p, err := c.place(ctx, arg, path)
	if err != nil {
		return err
	}
	defer p.close()
	return p.writeAll(data)
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
	p, err := c.guard().placeFollowing(ctx, arg, path, true)
	if err != nil {
		return nil, err
	}
	defer p.close() // the file stays open without the directory's handle
	return p.open()
}
