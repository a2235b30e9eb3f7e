//go:build unix

package tools

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devtools-mcp/devtools-mcp/internal/confine"
)

// plantHardLink writes contents to a file outside the root (mode 0644)
// and links name inside the root to it.
func plantHardLink(t *testing.T, root, outside, name, contents string) (inside, out string) {
	t.Helper()
	out = filepath.Join(outside, name)
	if err := os.WriteFile(out, []byte(contents), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(out, 0o644); err != nil {
		t.Fatal(err)
	}
	inside = filepath.Join(root, name)
	if err := os.Link(out, inside); err != nil {
		t.Fatal(err)
	}
	return inside, out
}

func TestWritesReplaceAHardLinkInsteadOfWritingThroughIt(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	c := confinedCall(t, root)
	ctx := context.Background()
	check := func(what, inside, out, want string) {
		t.Helper()
		if b, _ := os.ReadFile(out); string(b) != "outside" {
			t.Errorf("%s: the outside file holds %q", what, b)
		}
		if fi, _ := os.Stat(out); fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: the outside file's mode is %v", what, fi.Mode().Perm())
		}
		if b, _ := os.ReadFile(inside); string(b) != want {
			t.Errorf("%s: the name inside holds %q, want %q", what, b, want)
		}
		if fi, _ := os.Stat(inside); fi.Mode().Perm() != 0o600 || confine.HardLinks(fi) != 1 {
			t.Errorf("%s: the name inside has mode %v and %d links, want a file of its own, 0600", what, fi.Mode().Perm(), confine.HardLinks(fi))
		}
	}
	inside, out := plantHardLink(t, root, outside, "snap.txt", "outside")
	if err := c.writeFile(ctx, "filePath", inside, []byte("new")); err != nil {
		t.Fatal(err)
	}
	check("writeFile", inside, out, "new")

	// The delayed writers (traces, screencasts) hold the place and create
	// later; the heap snapshot renames over the name.
	inside, out = plantHardLink(t, root, outside, "trace.json", "outside")
	p, err := c.place(ctx, "filePath", inside)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	f, err := p.Create()
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("trace")
	f.Close()
	check("create", inside, out, "trace")

	inside, out = plantHardLink(t, root, outside, "heap.heapsnapshot", "outside")
	q, err := c.place(ctx, "filePath", inside)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	if err := q.Replace(func(w io.Writer) error { _, err := io.WriteString(w, "heap"); return err }); err != nil {
		t.Fatal(err)
	}
	check("replace", inside, out, "heap")
}

func TestReadsRefuseAHardLinkedFile(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	c := confinedCall(t, root)
	ctx := context.Background()
	inside, out := plantHardLink(t, root, outside, "code.js", "outside")
	if b, err := c.readFile(ctx, "sourcePath", inside); err == nil || !strings.Contains(err.Error(), "2 hard links") {
		t.Errorf("reading a hard link to %s: %q, %v; want it refused", out, b, err)
	}
	// Through a symlink inside the root to the link: the same file.
	if err := os.Symlink(inside, filepath.Join(root, "alias.js")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.readFile(ctx, "sourcePath", filepath.Join(root, "alias.js")); err == nil {
		t.Error("reading a hard-linked file through a symlink was allowed")
	}
	c.Server.heaps = newHeapCache(0)
	heap, _ := plantHardLink(t, root, outside, "h.heapsnapshot", "{}")
	if _, err := c.heapSnapshot(ctx, heap); err == nil || !strings.Contains(err.Error(), "hard links") {
		t.Errorf("loading a hard-linked heap snapshot: %v, want it refused", err)
	}
	// An extension folder holding one is not copied for the browser.
	ext := filepath.Join(root, "ext")
	if err := os.Mkdir(ext, 0o700); err != nil {
		t.Fatal(err)
	}
	plantHardLink(t, ext, outside, "manifest.json", "{}")
	src, err := os.OpenRoot(ext)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenRoot(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	if err := copyTree(ctx, src, ".", dst, ".", 0, newCopyBudget()); err == nil || !strings.Contains(err.Error(), "hard links") {
		t.Errorf("copying an extension with a hard link: %v, want it refused", err)
	}

	// A file of one link reads, and with unrestricted paths a linked one
	// does too: there is nothing to escape.
	if err := os.Remove(out); err != nil {
		t.Fatal(err)
	}
	if b, err := c.readFile(ctx, "sourcePath", inside); err != nil || string(b) != "outside" {
		t.Errorf("reading a file of one link: %q, %v", b, err)
	}
	plantHardLink(t, root, outside, "free.js", "free")
	u := &Call{Server: &Server{paths: newPathGuard(true, nil)}}
	if b, err := u.readFile(ctx, "sourcePath", filepath.Join(root, "free.js")); err != nil || string(b) != "free" {
		t.Errorf("unrestricted read of a hard link: %q, %v", b, err)
	}
}
