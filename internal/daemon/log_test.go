package daemon

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRestartKeepsTheLog checks that a new daemon appends to the log of the
// one before (whose crash is why it restarts), rotates it once it is big,
// and never writes through a symlink planted at its path.
func TestRestartKeepsTheLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "default.log")
	f, _, err := openLog(path)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("panic: the first daemon crashed\n")
	f.Close()
	f, start, err := openLog(path)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("the second daemon failed\n")
	f.Close()
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), "the first daemon crashed") {
		t.Errorf("the restart lost the first daemon's log:\n%s", data)
	}
	if got := tail(path, start); strings.Contains(got, "first daemon") || !strings.Contains(got, "second daemon") {
		t.Errorf("the start's tail is %q, want only the second daemon's lines", got)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("log mode %v", fi.Mode().Perm())
	}

	if err := os.Truncate(path, maxLog+1); err != nil {
		t.Fatal(err)
	}
	f, _, err = openLog(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if fi, err := os.Stat(path + ".1"); err != nil || fi.Size() != maxLog+1 {
		t.Errorf("the big log was not rotated to .1: %v %v", fi, err)
	}
	if fi, _ := os.Stat(path); fi.Size() > 1024 {
		t.Errorf("the log after rotation holds %d bytes", fi.Size())
	}

	target := filepath.Join(t.TempDir(), "victim")
	link := filepath.Join(t.TempDir(), "link.log")
	os.Symlink(target, link)
	if f, _, err := openLog(link); err == nil {
		f.Close()
		t.Error("the log was opened through a symlink")
	}
	if _, err := os.Stat(target); err == nil {
		t.Error("the symlink's target was created")
	}
}
