package confine

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

// Place is a file location that passed the path guard, held as a handle of
// the allowed directory it lies in and the path beneath it. Every open goes
// through the handle (os.Root: one directory at a time, openat without
// following links out of it), so a directory swapped for a symlink after
// the check, even long after it as in a delayed write, cannot lead the
// write out of the allowed directory.
type Place struct {
	root  *os.Root
	rel   string // beneath root, as resolved when checked
	path  string // the resolved absolute path, for messages
	owner bool   // whether close releases root
	// confined is set when paths are confined: a file with more than one
	// hard link is then not read, since its other names may lie outside
	// the allowed directories and nothing tells where.
	confined bool
}

// Place checks path, the argument arg of a call, for the calling session and opens the handle of the
// allowed directory it lies in. A symlink in its last component is kept
// as the link (create refuses it, open follows it inside the directory).
// The caller closes the place.
func (g *Guard) Place(ctx context.Context, arg, path string) (*Place, error) {
	return g.PlaceFollowing(ctx, arg, path, false)
}

// PlaceFollowing is Place, following a symlink in the last component when
// followLast is set (for files that are read).
func (g *Guard) PlaceFollowing(ctx context.Context, arg, path string, followLast bool) (*Place, error) {
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
		return nil, fmt.Errorf("%s: the allowed directory %s is not a directory (%s)", arg, dir, Kind(fi.Mode()))
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: open %s: %w", arg, dir, err)
	}
	return &Place{root: root, rel: rel, path: real, owner: true, confined: !g.unrestricted}, nil
}

// Dir is the place of the directory dir itself, for files the
// server puts in a directory of its own making.
func Dir(dir string) (*Place, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &Place{root: root, rel: ".", path: dir, owner: true}, nil
}

// Path is the resolved absolute path of the place, for messages.
func (p *Place) Path() string { return p.path }

// Root is the handle of the allowed directory the place lies in: what to
// open the place through, never by its path.
func (p *Place) Root() *os.Root { return p.root }

// Rel is the place's path beneath Root.
func (p *Place) Rel() string { return p.rel }

// Close releases the directory handle (a child shares its parent's).
func (p *Place) Close() {
	if p != nil && p.owner {
		p.root.Close()
	}
}

// Child is the file name in the directory p names. name is one path
// component: it never leads elsewhere than into p.
func (p *Place) Child(name string) (*Place, error) {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) {
		return nil, fmt.Errorf("%q is not a file name", name)
	}
	return &Place{root: p.root, rel: filepath.Join(p.rel, name), path: filepath.Join(p.path, name), confined: p.confined}, nil
}

// Parent is the directory p lies in, refused when p is the allowed
// directory itself: a name made from it (an added extension) would lie
// beside the directory, outside it.
func (p *Place) Parent() (*Place, error) {
	if p.rel == "." {
		return nil, fmt.Errorf("%s is an allowed directory itself; give a file path inside it", p.path)
	}
	return &Place{root: p.root, rel: filepath.Dir(p.rel), path: filepath.Dir(p.path), confined: p.confined}, nil
}

// TakeParent is Parent for a place that is dropped: the parent takes over
// p's directory handle, which its Close releases.
func (p *Place) TakeParent() (*Place, error) {
	dir, err := p.Parent()
	if err != nil {
		return nil, err
	}
	dir.owner, p.owner = p.owner, false
	return dir, nil
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
		return fmt.Errorf("%s is not a regular file (%s); refusing to use it", path, Kind(m))
	}
}

// Kind names a special file's type for messages.
func Kind(m fs.FileMode) string {
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

// Create creates or replaces the file for writing, readable only by the
// user (an existing file's mode is reset to 0600). It never writes through
// a symlink, never replaces a directory and never opens anything but a
// regular file: the open does not block (a FIFO without a reader fails at
// once), and truncation waits until the file is known to be regular. An
// existing file with more than one hard link is replaced by a new file of
// that name rather than written, so that the file's other names (one may
// be outside the allowed directories) keep their contents and mode.
func (p *Place) Create() (*os.File, error) {
	if fi, err := p.root.Lstat(p.rel); err == nil {
		if err := refuseSpecial(p.path, fi, false); err != nil {
			return nil, err
		}
	}
	f, err := p.openCreate(os.O_WRONLY | os.O_CREATE | NoFollow | NonBlock)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err == nil && HardLinks(fi) > 1 {
		// Unlinking drops only this name. O_EXCL then fails on anything
		// planted there meanwhile, a symlink included.
		f.Close()
		if err := p.root.Remove(p.rel); err != nil {
			return nil, fmt.Errorf("create %s: replacing a file with other hard links: %w", p.path, err)
		}
		if f, err = p.openCreate(os.O_WRONLY | os.O_CREATE | os.O_EXCL | NoFollow | NonBlock); err != nil {
			return nil, err
		}
	}
	if err := prepareRegular(f, p.path); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// openCreate opens the file with flag, creating it 0600, and words the
// error of a symlink found there.
func (p *Place) openCreate(flag int) (*os.File, error) {
	f, err := p.root.OpenFile(p.rel, flag, 0o600)
	if err != nil {
		if IsSymlinkLoop(err) {
			return nil, fmt.Errorf("%s is a symbolic link; refusing to write through it", p.path)
		}
		return nil, fmt.Errorf("create %s: %w", p.path, err)
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

// Open opens the existing regular file for reading, without blocking: a
// FIFO or a device is refused, not waited on.
func (p *Place) Open() (*os.File, error) {
	fi, err := p.root.Stat(p.rel)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", p.path, err)
	}
	if err := refuseSpecial(p.path, fi, true); err != nil {
		return nil, err
	}
	f, err := p.root.OpenFile(p.rel, os.O_RDONLY|NonBlock, 0)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", p.path, err)
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = refuseSpecial(p.path, fi, false)
		}
		return nil, err
	} else if p.confined {
		if err := RefuseHardLinked(p.path, fi); err != nil {
			f.Close()
			return nil, err
		}
	}
	return f, nil
}

// RefuseHardLinked refuses to read a file that has more than one hard
// link: a link inside the allowed directories may name a file outside
// them (repositories and unpacked archives hold hard links), and no name
// of the file is more its own than another.
func RefuseHardLinked(path string, fi fs.FileInfo) error {
	if n := HardLinks(fi); n > 1 {
		return fmt.Errorf("%s has %d hard links, and another may be outside the allowed directories; refusing to read it. Read a copy of it (cp makes one), or start the server with --allowUnrestrictedPaths", path, n)
	}
	return nil
}

// Replace writes the file through a temporary one beside it, renamed over
// it once write succeeded, so that a reader never sees half of it. The
// temporary file is removed on failure.
func (p *Place) Replace(write func(io.Writer) error) error {
	if fi, err := p.root.Lstat(p.rel); err == nil {
		if err := refuseSpecial(p.path, fi, false); err != nil {
			return err
		}
	}
	dir, err := p.Parent()
	if err != nil {
		return err
	}
	tmp, err := dir.Child("." + filepath.Base(p.rel) + "." + rand.Text()[:10] + ".part")
	if err != nil {
		return err
	}
	f, err := p.root.OpenFile(tmp.rel, os.O_WRONLY|os.O_CREATE|os.O_EXCL|NoFollow, 0o600)
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

// WriteAll creates the file and writes data to it.
func (p *Place) WriteAll(data []byte) error {
	f, err := p.Create()
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("save to %s: %w", p.path, err)
	}
	return f.Close()
}
