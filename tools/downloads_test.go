package tools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDownloadDirStaysTheCheckedOne checks emulate's downloadPath: a
// missing directory is made 0700, a link out of the roots is refused,
// and a directory swapped for such a link after the check still gets the
// files, not the link's target.
func TestDownloadDirStaysTheCheckedOne(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	c := confinedCall(t, root)
	ctx := context.Background()

	made := filepath.Join(root, "new", "dl")
	d, err := c.downloadDir(ctx, made)
	if err != nil {
		t.Fatal(err)
	}
	d.Root.Close()
	if fi, err := os.Stat(made); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Errorf("downloadPath %s was made as %v (%v), want a 0700 directory", made, fi, err)
	}

	link := filepath.Join(root, "out")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	if d, err := c.downloadDir(ctx, link); err == nil {
		d.Root.Close()
		t.Errorf("downloadPath %s, a link to %s, was accepted", link, outside)
	} else if !strings.Contains(err.Error(), "outside") && !strings.Contains(err.Error(), "escapes") {
		t.Errorf("downloadPath through a link out: %v", err)
	}

	sub := filepath.Join(root, "sub")
	d, err = c.downloadDir(ctx, sub)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Root.Close()
	if err := os.Rename(sub, filepath.Join(root, "moved")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, sub); err != nil {
		t.Fatal(err)
	}
	if err := d.Root.WriteFile("x.bin", []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) > 0 {
		t.Errorf("a download went through the swapped-in link into %s", outside)
	}
	if _, err := os.Stat(filepath.Join(root, "moved", "x.bin")); err != nil {
		t.Errorf("the download is not in the checked directory: %v", err)
	}
}
