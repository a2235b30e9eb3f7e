//go:build unix

package chrome

import (
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
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

func TestRemoveStaleProfiles(t *testing.T) {
	tmp := t.TempDir()
	dead := deadPID(t)
	profile := func(name string, owner int) string {
		dir := filepath.Join(tmp, isolatedPrefix+name)
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if owner != 0 {
			if err := os.WriteFile(filepath.Join(dir, OwnerFile), []byte(strconv.Itoa(owner)), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	stale := profile("stale", dead)
	live := profile("live", os.Getppid())
	mine := profile("mine", os.Getpid())
	foreign := profile("nomarker", 0)
	chromeAlive := profile("chrome", dead)
	if err := os.Symlink("host-"+strconv.Itoa(os.Getpid()), filepath.Join(chromeAlive, "SingletonLock")); err != nil {
		t.Fatal(err)
	}
	// A symbolic link with the profile name, pointing at a directory
	// that looks stale: neither it nor its target may be removed.
	target := filepath.Join(t.TempDir(), "victim")
	if err := os.Mkdir(target, 0o700); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(target, OwnerFile), []byte(strconv.Itoa(dead)), 0o600)
	link := filepath.Join(tmp, isolatedPrefix+"link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}

	removeStaleProfiles(tmp, slog.New(slog.DiscardHandler))

	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the profile of a dead server is still there (%v)", err)
	}
	for _, kept := range []string{live, mine, foreign, chromeAlive, link, target} {
		if _, err := os.Lstat(kept); err != nil {
			t.Errorf("%s was removed: %v", filepath.Base(kept), err)
		}
	}
}
