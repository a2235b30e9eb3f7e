package urlpattern

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestReadFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sensitive-patterns.txt")
	if _, err := ReadFile(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v, want ErrNotExist", err)
	}
	if err := os.WriteFile(path, []byte("# banks\n*://bank.test/*\n\n  *://*/admin/*  \r\n#*://commented.test/*\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(path)
	if want := []string{"*://bank.test/*", "*://*/admin/*"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("ReadFile = %q, %v; want %q", got, err, want)
	}
}
