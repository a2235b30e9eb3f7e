package browser

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"sync"

	"github.com/devtools-mcp/devtools-mcp/internal/chrome"
)

// filesPrefix names the private directories of the files a browser is
// given to read.
const filesPrefix = "devtools-mcp-files-"

// privateFiles is a browser's directory for copies of the files it is
// given to read (uploads, unpacked extensions). Chrome opens such a path
// itself, later (when the page reads the File, while the extension runs),
// so the path must lead to a file nobody can swap meanwhile: one in a
// directory only this user can enter, made by this process.
type privateFiles struct {
	mu   sync.Mutex
	root *os.Root // nil until first used, and after remove
	gone bool     // removed: the browser was released
}

// FilesDir returns the handle of the browser's private directory for
// copies of files its pages read, making it on first use (first removing the
// ones of servers that were killed). It is removed with everything in it
// when the browser is released (closed, disconnected or gone), and a
// server killed before that leaves it to the next one to remove.
func (b *Browser) FilesDir() (*os.Root, error) {
	f := &b.files
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.gone {
		return nil, ErrBrowserGone
	}
	if f.root != nil {
		return f.root, nil
	}
	chrome.RemoveStale(os.TempDir(), filesPrefix, "directory of browser files", b.log)
	dir, err := chrome.NewOwnedDir(filesPrefix)
	if err != nil {
		return nil, fmt.Errorf("create a private directory for the browser's files: %w", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("create a private directory for the browser's files: %w", err)
	}
	f.root = root
	return root, nil
}

// PageFiles returns FilesDir and the folder beneath it for the copies of
// files page p reads (uploads): "page-<id>", removed with what it holds
// when the page closes, since nothing reads them after that.
func (b *Browser) PageFiles(p *Page) (root *os.Root, dir string, err error) {
	if root, err = b.FilesDir(); err != nil {
		return nil, "", err
	}
	dir = pageFilesDir(p.ID)
	if err := root.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, "", fmt.Errorf("create a private directory for the page's files: %w", err)
	}
	return root, dir, nil
}

// pageFilesDir names the folder of page id's files.
func pageFilesDir(id int) string { return "page-" + strconv.Itoa(id) }

// removePage deletes the folder of page id's files, if any.
func (f *privateFiles) removePage(id int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.root != nil {
		_ = f.root.RemoveAll(pageFilesDir(id))
	}
}

// SharedFilesDir is FilesDir for files the whole browser reads, not only
// the pages of this view of it (unpacked extensions, which every context
// sees): the directory of the Manager's browser, which outlives a Scope's
// view.
func (b *Browser) SharedFilesDir() (*os.Root, error) {
	if b.base != nil {
		return b.base.FilesDir()
	}
	return b.FilesDir()
}

// remove deletes the directory and everything in it; later FilesDir calls
// fail.
func (f *privateFiles) remove() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.gone = true
	if f.root != nil {
		dir := f.root.Name()
		f.root.Close()
		f.root = nil
		_ = os.RemoveAll(dir)
	}
}
