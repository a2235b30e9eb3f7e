//go:build unix

package browser

import (
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/devtools-mcp/devtools-mcp/internal/chrome"
)

// deadPID is the pid of a process that has exited and been reaped.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

// TestFilesDirIsPrivateAndGoesWithTheBrowser checks the directory of the
// copies a browser reads: 0700, the stale ones of killed servers removed
// when it is made, itself removed when the browser is released.
func TestFilesDirIsPrivateAndGoesWithTheBrowser(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	stale := filepath.Join(tmp, filesPrefix+"stale")
	if err := os.Mkdir(stale, 0o700); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(stale, chrome.OwnerFile), []byte(strconv.Itoa(deadPID(t))), 0o600)
	b := &Browser{log: slog.New(slog.DiscardHandler)}
	root, err := b.FilesDir()
	if err != nil {
		t.Fatal(err)
	}
	if again, err := b.FilesDir(); err != nil || again != root {
		t.Errorf("a second FilesDir gave %v, %v; want the same directory", again, err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the files of a killed server are still there (%v)", err)
	}
	dir := root.Name()
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 || filepath.Dir(dir) != tmp {
		t.Fatalf("files dir %s: %v %v, want a 0700 directory in TMPDIR", dir, fi, err)
	}
	if err := root.WriteFile("copy.txt", []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A Scope's view has a directory of its own for its pages' files, and
	// shares its browser's for what the whole browser reads.
	view := &Browser{log: b.log, view: true, base: b}
	own, err := view.FilesDir()
	if err != nil || own == root {
		t.Errorf("a view's FilesDir: %v, %v; want a directory of its own", own, err)
	}
	if shared, err := view.SharedFilesDir(); err != nil || shared != root {
		t.Errorf("a view's SharedFilesDir: %v, %v; want its browser's", shared, err)
	}
	view.files.remove()
	if _, err := os.Stat(dir); err != nil {
		t.Errorf("releasing a view removed its browser's files: %v", err)
	}
	b.files.remove()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the files dir outlived the browser (%v)", err)
	}
	if _, err := b.FilesDir(); err == nil {
		t.Error("FilesDir of a released browser made a new directory")
	}
}
