package chrometest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFindHonoursChromePath checks that CHROME_PATH wins and that one
// pointing nowhere is reported as no Chromium, with the path it named,
// rather than falling back to whatever the PATH holds.
func TestFindHonoursChromePath(t *testing.T) {
	exe := filepath.Join(t.TempDir(), "chrome")
	if err := os.WriteFile(exe, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CHROME_PATH", exe)
	if got, err := find(); err != nil || got != exe {
		t.Errorf("find() with CHROME_PATH=%s = %q, %v", exe, got, err)
	}
	nowhere := filepath.Join(t.TempDir(), "missing")
	t.Setenv("CHROME_PATH", nowhere)
	if got, err := find(); err == nil || !strings.Contains(err.Error(), nowhere) {
		t.Errorf("find() with CHROME_PATH=%s = %q, %v; want an error naming it", nowhere, got, err)
	}
}

// TestFindWithoutChromeSaysWhereItLooked empties the PATH and checks the
// error names what it looked for.
func TestFindWithoutChromeSaysWhereItLooked(t *testing.T) {
	if _, err := os.Stat(candidates[0]); err == nil {
		t.Skipf("%s is installed", candidates[0])
	}
	t.Setenv("CHROME_PATH", "")
	t.Setenv("PATH", t.TempDir())
	if got, err := find(); err == nil || !strings.Contains(err.Error(), "chromium") {
		t.Errorf("find() with an empty PATH = %q, %v; want an error listing chromium", got, err)
	}
}

// TestInCI checks the spellings of the CI variable.
func TestInCI(t *testing.T) {
	for v, want := range map[string]bool{"": false, "true": true, "1": true, "yes": true, "false": false, "0": false, " ": false} {
		t.Setenv("CI", v)
		if got := inCI(); got != want {
			t.Errorf("CI=%q: inCI() = %v, want %v", v, got, want)
		}
	}
}
