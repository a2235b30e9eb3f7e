package logfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLogFileIsNotWrittenThroughASymlink(t *testing.T) {
	target := filepath.Join(t.TempDir(), "bashrc")
	os.WriteFile(target, []byte("original\n"), 0o600)
	link := filepath.Join(t.TempDir(), "devtools.log")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if f, err := Open(link); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		f.Close()
		t.Fatalf("--logFile through a symlink: %v, want it refused", err)
	}
	if b, _ := os.ReadFile(target); string(b) != "original\n" {
		t.Errorf("the link's target became %q", b)
	}
	// A plain file is appended to, not truncated.
	plain := filepath.Join(t.TempDir(), "plain.log")
	os.WriteFile(plain, []byte("earlier run\n"), 0o600)
	f, err := Open(plain)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("later run\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if b, _ := os.ReadFile(plain); !strings.HasPrefix(string(b), "earlier run\n") || !strings.Contains(string(b), "later run") {
		t.Errorf("log file holds %q", b)
	}
}
