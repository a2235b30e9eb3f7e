//go:build unix

package tools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/devtools-mcp/devtools-mcp/internal/confine"
)

func TestUploadsAreCopiedAsChecked(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "docs")
	os.Mkdir(dir, 0o700)
	src := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(src, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	stamp := time.Date(2023, 1, 2, 3, 4, 5, 0, time.UTC)
	os.Chtimes(src, stamp, stamp)
	dst, err := os.OpenRoot(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	ctx := context.Background()
	c := confinedCall(t, root)
	f, err := c.openFile(ctx, "filePaths", src)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// Swapped after the check: the copy is of the file that was opened.
	os.Rename(dir, dir+".old")
	os.Symlink(t.TempDir(), dir)
	budget := newCopyBudget()
	path, err := copyUpload(ctx, dst, ".", f, "a.txt", budget)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(path) != "a.txt" || !strings.HasPrefix(path, dst.Name()+"/upload-") {
		t.Errorf("copy at %s, want %s/upload-*/a.txt", path, dst.Name())
	}
	data, err := os.ReadFile(path)
	fi, _ := os.Stat(path)
	if err != nil || string(data) != "hello" || fi.Mode().Perm() != 0o600 || !fi.ModTime().Equal(stamp) {
		t.Errorf("copy holds %q (%v), mode %v, time %v; want hello, 0600, %v", data, err, fi.Mode(), fi.ModTime(), stamp)
	}
	if budget.bytes != maxCopyBytes-5 {
		t.Errorf("budget left %d, want %d", budget.bytes, maxCopyBytes-5)
	}

	// Over the budget: a clear error, and nothing left behind.
	entries, _ := os.ReadDir(dst.Name())
	f.Seek(0, 0)
	_, err = copyUpload(ctx, dst, ".", f, "a.txt", &copyBudget{bytes: 4})
	if err == nil || !strings.Contains(err.Error(), "too big to copy") || !strings.Contains(err.Error(), "--allowUnrestrictedPaths") {
		t.Errorf("copying over the budget: %v", err)
	}
	if after, _ := os.ReadDir(dst.Name()); len(after) != len(entries) {
		t.Errorf("a refused copy left %d entries, want %d", len(after), len(entries))
	}
	// A file that grows past the budget while it is copied is refused too.
	g, _ := os.Open(filepath.Join(dir+".old", "a.txt"))
	defer g.Close()
	if err := copyFile(ctx, dst, "grown.txt", g, &copyBudget{bytes: 4}); err == nil || !strings.Contains(err.Error(), "too big") {
		t.Errorf("copying a file grown past the budget: %v", err)
	}
}

func TestUnrestrictedUploadsAreReadInPlace(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "a.txt")
	os.WriteFile(src, []byte("x"), 0o600)
	os.Symlink(src, filepath.Join(dir, "link.txt"))
	c := &Call{Server: &Server{paths: newPathGuard(true, nil)}} // no browser: none is needed
	got, err := c.browserPaths(context.Background(), "filePaths", []string{filepath.Join(dir, "link.txt")})
	if err != nil || len(got) != 1 || got[0] != confine.Resolve(src) {
		t.Errorf("unrestricted upload paths %v, %v; want [%s]", got, err, confine.Resolve(src))
	}
}

// copyExtension copies the folder src with copyTree into a new directory
// and returns that directory.
func copyExtension(t *testing.T, src string, budget *copyBudget) (string, error) {
	t.Helper()
	s, err := os.OpenRoot(src)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	out := t.TempDir()
	d, err := os.OpenRoot(out)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	return out, noHang(t, "copying "+src, func() error { return copyTree(context.Background(), s, ".", d, ".", 0, budget) })
}

func TestExtensionFoldersAreCopiedInsideTheirTree(t *testing.T) {
	ext, outside := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(ext, "js", "lib"), 0o700)
	os.WriteFile(filepath.Join(ext, "manifest.json"), []byte("{}"), 0o644)
	os.WriteFile(filepath.Join(ext, "js", "lib", "a.js"), []byte("a"), 0o644)
	os.Symlink("lib/a.js", filepath.Join(ext, "js", "alias.js")) // inside: copied as a file
	os.Symlink("js/lib", filepath.Join(ext, "libs"))             // a folder inside: copied
	out, err := copyExtension(t, ext, newCopyBudget())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"manifest.json", "js/lib/a.js", "js/alias.js", "libs/a.js"} {
		fi, err := os.Lstat(filepath.Join(out, name))
		if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
			t.Errorf("copy of %s: %v %v, want a regular 0600 file", name, fi, err)
		}
	}

	// Links out of the tree, special files, loops and too many entries are
	// refused with a message naming the entry.
	os.Symlink(outside, filepath.Join(ext, "out"))
	if _, err := copyExtension(t, ext, newCopyBudget()); err == nil || !strings.Contains(err.Error(), "out is a symbolic link that leads out of the folder") {
		t.Errorf("a link out of the folder: %v", err)
	}
	os.Remove(filepath.Join(ext, "out"))
	os.Symlink("..", filepath.Join(ext, "js", "up")) // a loop
	if _, err := copyExtension(t, ext, newCopyBudget()); err == nil || !strings.Contains(err.Error(), "loop") {
		t.Errorf("a loop of links: %v", err)
	}
	os.Remove(filepath.Join(ext, "js", "up"))
	syscall.Mkfifo(filepath.Join(ext, "pipe"), 0o600)
	if _, err := copyExtension(t, ext, newCopyBudget()); err == nil || !strings.Contains(err.Error(), "pipe is a named pipe") {
		t.Errorf("a FIFO in the folder: %v", err)
	}
	os.Remove(filepath.Join(ext, "pipe"))
	if _, err := copyExtension(t, ext, &copyBudget{bytes: maxCopyBytes, entries: 3}); err == nil || !strings.Contains(err.Error(), "more than 20000 files and folders") {
		t.Errorf("too many entries: %v", err)
	}
	if _, err := copyExtension(t, ext, &copyBudget{bytes: 3, entries: 100}); err == nil || !strings.Contains(err.Error(), "too big") {
		t.Errorf("too many bytes: %v", err)
	}
}

// TestExtensionFolderSwappedAfterTheCheck swaps a folder of the extension
// for a link out of the roots after the path check, before the copy.
func TestExtensionFolderSwappedAfterTheCheck(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	ext := filepath.Join(root, "ext")
	os.MkdirAll(filepath.Join(ext, "js"), 0o700)
	os.WriteFile(filepath.Join(ext, "js", "a.js"), []byte("inside"), 0o600)
	os.WriteFile(filepath.Join(outside, "a.js"), []byte("outside"), 0o600)
	c := confinedCall(t, root)
	p, err := c.guard().PlaceFollowing(context.Background(), "path", ext, true)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	src, err := p.Root().OpenRoot(p.Rel())
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	os.Rename(filepath.Join(ext, "js"), filepath.Join(root, "js.old"))
	os.Symlink(outside, filepath.Join(ext, "js"))
	out := t.TempDir()
	d, _ := os.OpenRoot(out)
	defer d.Close()
	err = copyTree(context.Background(), src, ".", d, ".", 0, newCopyBudget())
	if data, _ := os.ReadFile(filepath.Join(out, "js", "a.js")); string(data) == "outside" || err == nil {
		t.Errorf("the copy followed the swapped-in link: %q, %v", data, err)
	}

	// A FIFO swapped in for a folder is refused without blocking.
	os.Remove(filepath.Join(ext, "js"))
	syscall.Mkfifo(filepath.Join(ext, "js"), 0o600)
	if err := noHang(t, "copying a FIFO as a folder", func() error { return copyTree(context.Background(), src, "js", d, ".", 0, newCopyBudget()) }); err == nil {
		t.Error("a FIFO was copied as a folder")
	}
	if err := noHang(t, "opening a FIFO as the folder", func() error {
		r, err := openFolder(src, "js")
		if err == nil {
			r.Close()
		}
		return err
	}); err == nil {
		t.Error("a FIFO was opened as the extension folder")
	}
}

// TestARootThatIsAFIFODoesNotBlock checks an allowed directory that is a
// FIFO (a client root planted as one): using it is refused at once.
func TestARootThatIsAFIFODoesNotBlock(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "work")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	c := confinedCall(t, fifo)
	err := noHang(t, "reading the FIFO root", func() error { _, err := c.readFile(context.Background(), "sourcePath", fifo); return err })
	if err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("reading a root that is a FIFO: %v", err)
	}
}

func TestUploadsAreBoundedInNumber(t *testing.T) {
	root := t.TempDir()
	paths := make([]string, maxExtensionEntries+1)
	for i := range paths {
		paths[i] = filepath.Join(root, "a.txt")
	}
	_, err := confinedCall(t, root).browserPaths(context.Background(), "filePaths", paths)
	if err == nil || !strings.Contains(err.Error(), "at most 20000") {
		t.Errorf("uploading %d files: %v", len(paths), err)
	}
}
