package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// Chrome opens the files of upload_file and install_extension itself, and
// later than the path check: a page reads an uploaded File when it likes,
// an extension's files are read while it runs. Giving Chrome the checked
// path would let a directory swapped for a symlink meanwhile lead it out
// of the roots. So, while paths are confined, Chrome gets copies made
// through the check's directory handle, in the browser's private directory
// (see browser.Browser.FilesDir), which live as long as the browser does.

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
	entries int // files and folders; used by extension folders
}

// newCopyBudget is the budget of one call.
func newCopyBudget() *copyBudget {
	return &copyBudget{bytes: maxCopyBytes, entries: maxExtensionEntries}
}

// browserPaths returns the paths to give the browser for the files that
// upload_file's filePaths name: each checked and opened through the
// directory handle of the check (regular files only, never blocking),
// then copied into the browser's private directory under its own name, so
// that the page sees the file's name and contents as they were checked.
// With unrestricted paths there is nothing to confine, and the browser
// gets the resolved paths themselves.
func (c *Call) browserPaths(ctx context.Context, arg string, paths []string) ([]string, error) {
	out := make([]string, len(paths))
	budget := newCopyBudget()
	var dst *os.Root
	for i, path := range paths {
		f, err := c.openFile(ctx, arg, path)
		if err != nil {
			return nil, err
		}
		if c.guard().unrestricted {
			out[i] = f.Name()
			f.Close()
			continue
		}
		if dst == nil {
			if dst, err = c.Browser.FilesDir(); err != nil {
				f.Close()
				return nil, err
			}
		}
		out[i], err = copyUpload(ctx, dst, f, filepath.Base(path), budget)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", arg, path, err)
		}
	}
	return out, nil
}

// copyUpload copies the open file f into a new directory of dst as name,
// with f's modification time (which the page sees as lastModified), and
// returns the copy's path.
func copyUpload(ctx context.Context, dst *os.Root, f *os.File, name string, budget *copyBudget) (string, error) {
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	if fi.Size() > budget.bytes {
		return "", tooBig(fi.Size())
	}
	// Digits only, as in os.MkdirTemp names: recorded CDP replays compare
	// paths digits aside.
	dir := "upload-" + strconv.FormatUint(rand.Uint64(), 10)
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
	out, err := dst.OpenFile(rel, os.O_WRONLY|os.O_CREATE|os.O_EXCL|noFollow, 0o600)
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
			fi, _ := src.Stat()
			return tooBig(fi.Size())
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
	return fmt.Errorf("too big to copy (%.1f MiB; at most %s per call): the browser gets a copy of what was checked, so that the file cannot be swapped before it reads it. Use smaller files, or start the server with --allowUnrestrictedPaths to let the browser read files in place",
		float64(size)/(1<<20), byteBudget(maxCopyBytes))
}
