package tools

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/devtools-mcp/devtools-mcp/internal/confine"
)

// Chrome opens the files of upload_file and install_extension itself, and
// later than the path check: a page reads an uploaded File when it likes,
// an extension's files are read while it runs. Giving Chrome the checked
// path would let a directory swapped for a symlink meanwhile lead it out
// of the roots. So, while paths are confined, Chrome gets copies made
// through the check's directory handle, in the browser's private directory
// (see browser.Browser.FilesDir): an upload's until its page closes, an
// extension's as long as the browser.

// maxCopyBytes bounds the bytes one call copies for the browser.
const maxCopyBytes = 512 << 20

// maxExtensionEntries bounds the files and folders of an extension folder
// that install_extension copies.
const maxExtensionEntries = 20000

// copyChunk is how much is copied between checks of the call's context.
const copyChunk = 16 << 20

// copyBudget is what a call may still copy for the browser.
type copyBudget struct {
	bytes   int64
	entries int // files, and folders of an extension
}

// newCopyBudget is the budget of one call.
func newCopyBudget() *copyBudget {
	return &copyBudget{bytes: maxCopyBytes, entries: maxExtensionEntries}
}

// browserPaths returns the paths to give the browser for the files that
// upload_file's filePaths name: each checked and opened through the
// directory handle of the check (regular files only, never blocking),
// then copied into the page's folder of the browser's private directory
// under its own name, so that the page sees the file's name and contents
// as they were checked.
// With unrestricted paths there is nothing to confine, and the browser
// gets the resolved paths themselves.
func (c *Call) browserPaths(ctx context.Context, arg string, paths []string) ([]string, error) {
	out := make([]string, len(paths))
	budget := newCopyBudget()
	var dst *os.Root
	var sub string // dst's folder of the page's files
	if len(paths) > budget.entries && !c.guard().Unrestricted() {
		return nil, fmt.Errorf("%s names %d files; one call copies at most %d for the browser", arg, len(paths), budget.entries)
	}
	for i, path := range paths {
		f, err := c.openFile(ctx, arg, path)
		if err != nil {
			return nil, err
		}
		if c.guard().Unrestricted() {
			out[i] = f.Name()
			f.Close()
			continue
		}
		if dst == nil {
			if dst, sub, err = c.Browser.PageFiles(c.Page); err != nil {
				f.Close()
				return nil, err
			}
		}
		out[i], err = copyUpload(ctx, dst, sub, f, filepath.Base(path), budget)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", arg, path, err)
		}
	}
	return out, nil
}

// copyUpload copies the open file f into a new directory in the folder
// sub of dst as name, with f's modification time (which the page sees as
// lastModified), and returns the copy's path.
func copyUpload(ctx context.Context, dst *os.Root, sub string, f *os.File, name string, budget *copyBudget) (string, error) {
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	if fi.Size() > budget.bytes {
		return "", tooBig(fi.Size())
	}
	// Digits only, as in os.MkdirTemp names: recorded CDP replays compare
	// paths digits aside.
	dir := filepath.Join(sub, "upload-"+strconv.FormatUint(rand.Uint64(), 10))
	if err := dst.Mkdir(dir, 0o700); err != nil {
		return "", fmt.Errorf("copy for the browser: %w", err)
	}
	rel := filepath.Join(dir, name)
	if err := copyFile(ctx, dst, rel, f, budget); err != nil {
		_ = dst.RemoveAll(dir)
		return "", err
	}
	if err := dst.Chtimes(rel, fi.ModTime(), fi.ModTime()); err != nil {
		_ = dst.RemoveAll(dir)
		return "", fmt.Errorf("copy for the browser: %w", err)
	}
	return filepath.Join(dst.Name(), rel), nil
}

// copyFile copies the open regular file src to the new file rel of dst
// (0600), within the budget: a file that grows past it while copied is
// refused too.
func copyFile(ctx context.Context, dst *os.Root, rel string, src *os.File, budget *copyBudget) error {
	out, err := dst.OpenFile(rel, os.O_WRONLY|os.O_CREATE|os.O_EXCL|confine.NoFollow, 0o600)
	if err != nil {
		return fmt.Errorf("copy for the browser: %w", err)
	}
	for {
		if err := ctx.Err(); err != nil {
			out.Close()
			return err
		}
		n, err := io.CopyN(out, src, min(copyChunk, budget.bytes+1))
		budget.bytes -= n
		if budget.bytes < 0 {
			out.Close()
			size := -budget.bytes // at least what is over the budget
			if fi, err := src.Stat(); err == nil {
				size = fi.Size()
			}
			return tooBig(size)
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			out.Close()
			return fmt.Errorf("copy for the browser: %w", err)
		}
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("copy for the browser: %w", err)
	}
	return nil
}

// tooBig says why a file of size bytes is not copied.
func tooBig(size int64) error {
	return fmt.Errorf("too big to copy (%s): the browser gets a copy of what was checked, so that the file cannot be swapped before it reads it, and one call copies at most %s in all. Use smaller or fewer files, or start the server with --allowUnrestrictedPaths to let the browser read files in place",
		mib(size), byteBudget(maxCopyBytes))
}

// mib formats n bytes in MiB with one decimal.
func mib(n int64) string { return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB" }

// maxExtensionDepth bounds how deep an extension folder's copy nests,
// which also ends a loop of symbolic links to folders.
const maxExtensionDepth = 32

// extensionCopies remembers which extension folder each copy given to a
// browser was made from, so that reload_extension copies the folder
// again and list_extensions shows it. Copies are made one at a time.
type extensionCopies struct {
	mu      sync.Mutex
	sources map[string]string // copy's path -> the folder's resolved path
}

// source returns the folder the copy at dir was made from.
func (x *extensionCopies) source(dir string) (string, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	src, ok := x.sources[dir]
	return src, ok
}

// extensionDir returns the folder to give the browser for the unpacked
// extension folder at path: while paths are confined, a copy of the whole
// tree made through the check's directory handle into the browser's
// private directory (symbolic links followed only inside the folder,
// regular files and folders only, bounded in size and count). The copy of
// one folder always lands at the same path for one browser, so that the
// extension keeps its id (Chrome derives it from the path) when it is
// installed or reloaded again.
func (c *Call) extensionDir(ctx context.Context, arg, path string) (string, error) {
	if c.guard().Unrestricted() {
		return filepath.Abs(path) // nothing to confine: Chrome reads the folder in place
	}
	p, err := c.guard().PlaceFollowing(ctx, arg, path, true)
	if err != nil {
		return "", err
	}
	defer p.Close()
	src, err := openFolder(p.Root(), p.Rel())
	if err != nil {
		return "", fmt.Errorf("%s: %s is not a folder that can be opened: %w", arg, path, err)
	}
	defer src.Close()
	dst, err := c.Browser.SharedFilesDir()
	if err != nil {
		return "", err
	}
	x := &c.Server.extensions
	x.mu.Lock()
	defer x.mu.Unlock()
	sum := sha256.Sum256([]byte(p.Path()))
	name := "extension-" + strconv.FormatUint(binary.BigEndian.Uint64(sum[:]), 10)
	part := name + ".part-" + strconv.FormatUint(rand.Uint64(), 10)
	if err := dst.Mkdir(part, 0o700); err != nil {
		return "", fmt.Errorf("copy for the browser: %w", err)
	}
	defer dst.RemoveAll(part) // after the rename, a no-op
	base := filepath.Base(p.Path())
	if base == "." || base == string(filepath.Separator) {
		base = "extension"
	}
	if err := dst.Mkdir(filepath.Join(part, base), 0o700); err != nil {
		return "", fmt.Errorf("copy for the browser: %w", err)
	}
	if err := copyTree(ctx, src, ".", dst, filepath.Join(part, base), 0, newCopyBudget()); err != nil {
		return "", fmt.Errorf("%s: copy the extension folder %s for the browser: %w", arg, path, err)
	}
	if err := dst.RemoveAll(name); err != nil {
		return "", fmt.Errorf("copy for the browser: %w", err)
	}
	if err := dst.Rename(part, name); err != nil {
		return "", fmt.Errorf("copy for the browser: %w", err)
	}
	dir := filepath.Join(dst.Name(), name, base)
	if x.sources == nil {
		x.sources = map[string]string{}
	}
	x.sources[dir] = p.Path()
	return dir, nil
}

// openFolder opens the folder rel of root as a root of its own. A FIFO
// there fails at once: os.Root.OpenRoot opens its last component without
// O_DIRECTORY, which blocks on a FIFO, so rel gets a last component "."
// and is itself opened as a directory on the way.
func openFolder(root *os.Root, rel string) (*os.Root, error) {
	return root.OpenRoot(rel + string(filepath.Separator) + ".")
}

// copyTree copies the folder rel of src into the existing folder to of
// dst, depth folders down from the top.
func copyTree(ctx context.Context, src *os.Root, rel string, dst *os.Root, to string, depth int, budget *copyBudget) error {
	if depth > maxExtensionDepth {
		return fmt.Errorf("%s nests more than %d folders deep (a loop of symbolic links?)", rel, maxExtensionDepth)
	}
	d, err := src.OpenFile(rel, os.O_RDONLY|confine.NonBlock, 0) // a FIFO swapped in must not block
	if err != nil {
		return err
	}
	entries, err := d.ReadDir(-1)
	d.Close()
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return err
		}
		if budget.entries--; budget.entries < 0 {
			return fmt.Errorf("it holds more than %d files and folders, the most that is copied; start the server with --allowUnrestrictedPaths to let the browser read the folder in place", maxExtensionEntries)
		}
		name := filepath.Join(rel, e.Name())
		fi, err := src.Lstat(name)
		if err != nil {
			return err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			if fi, err = src.Stat(name); confine.IsSymlinkLoop(err) {
				return fmt.Errorf("%s goes through too many symbolic links (a loop?); refusing to copy it", name)
			} else if err != nil {
				return fmt.Errorf("%s is a symbolic link that leads out of the folder or nowhere; refusing to copy it (%w)", name, err)
			}
		}
		switch {
		case fi.IsDir():
			if err := dst.Mkdir(filepath.Join(to, name), 0o700); err != nil {
				return err
			}
			if err := copyTree(ctx, src, name, dst, to, depth+1, budget); err != nil {
				return err
			}
		case fi.Mode().IsRegular():
			if err := copyTreeFile(ctx, src, name, dst, filepath.Join(to, name), budget); err != nil {
				return err
			}
		default:
			return fmt.Errorf("%s is %s; an extension folder may hold only files and folders", name, confine.Kind(fi.Mode()))
		}
	}
	return nil
}

// copyTreeFile copies the regular file name of src to the new file to of
// dst, opening it without blocking and refusing anything else found there.
func copyTreeFile(ctx context.Context, src *os.Root, name string, dst *os.Root, to string, budget *copyBudget) error {
	f, err := src.OpenFile(name, os.O_RDONLY|confine.NonBlock, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is %s; an extension folder may hold only files and folders", name, confine.Kind(fi.Mode()))
	}
	if err := confine.RefuseHardLinked(name, fi); err != nil {
		return err
	}
	if fi.Size() > budget.bytes {
		return tooBig(fi.Size())
	}
	return copyFile(ctx, dst, to, f, budget)
}
