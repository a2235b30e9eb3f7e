//go:build unix

package tools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
	path, err := copyUpload(ctx, dst, f, "a.txt", budget)
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
	_, err = copyUpload(ctx, dst, f, "a.txt", &copyBudget{bytes: 4})
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
	if err != nil || len(got) != 1 || got[0] != resolve(src) {
		t.Errorf("unrestricted upload paths %v, %v; want [%s]", got, err, resolve(src))
	}
}
