// Package chrometest is the one gate in front of every unit test that
// launches a real Chromium. Such a test calls [Require] first: under
// go test -short it is skipped, so the fast suite needs no browser; on a
// machine without Chrome it is skipped with a note saying how to get one,
// except in CI (the CI environment variable set, as .ci/run sets it),
// where a missing Chrome fails the test instead, so a broken CI machine
// cannot pass by running none of them.
//
// Tests that call Require live in files of their own, named *_chrome_test.go,
// so the tests that need a browser are visible from the file list.
package chrometest

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// Require returns the Chrome binary the test is about to launch, or ends
// the test: skipped under -short, skipped without Chrome, failed without
// Chrome in CI. It looks where the launcher does when no path is given:
// $CHROME_PATH, then the stable channel's Google Chrome, then Chromium or
// Chrome on the PATH.
func Require(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("launches Chromium; skipped under -short")
	}
	path, err := find()
	if err == nil {
		return path
	}
	if inCI() {
		t.Fatalf("CI is set, so this test must run, but it cannot launch Chromium: %v", err)
	}
	t.Skipf("%v (install Chromium, e.g. apt-get install chromium, or set CHROME_PATH; go test -short skips these tests)", err)
	return ""
}

// candidates are the binaries tried, in order, when $CHROME_PATH is unset.
var candidates = []string{"/opt/google/chrome/chrome", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// find locates Chrome as chrome.FindExecutable (internal/chrome) does for the
// stable channel, and says where it looked when there is none.
func find() (string, error) {
	if env := os.Getenv("CHROME_PATH"); env != "" {
		if _, err := os.Stat(env); err != nil {
			return "", fmt.Errorf("no Chromium: CHROME_PATH=%s: %w", env, err)
		}
		return env, nil
	}
	for _, name := range candidates {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("no Chromium found (looked for %s)", strings.Join(candidates, ", "))
}

// inCI reports whether the CI environment variable says this is a CI run:
// set to anything that is not false (CI=true, CI=1, CI=yes).
func inCI() bool {
	v := strings.TrimSpace(os.Getenv("CI"))
	if v == "" {
		return false
	}
	if b, err := strconv.ParseBool(v); err == nil {
		return b
	}
	return true
}
