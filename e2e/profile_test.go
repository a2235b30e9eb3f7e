package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestKilledServersProfileIsRemovedAtNextStart: --isolated removes its
// profile on exit, but a server killed with SIGKILL cannot; the next server
// to start removes it.
func TestKilledServersProfileIsRemovedAtNextStart(t *testing.T) {
	// A short TMPDIR: Chrome puts its singleton socket there, and a Unix
	// socket path is limited to about 100 bytes.
	tmp, err := os.MkdirTemp("", "dm")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	start := func() *server {
		cmd := serverCommand(headless...)
		cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
		s := startCommand(t, mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil), cmd)
		s.ok("list_pages", nil)
		return s
	}
	first := start()
	profiles, _ := filepath.Glob(filepath.Join(tmp, "devtools-mcp-profile-*"))
	if len(profiles) != 1 {
		t.Fatalf("isolated profiles in TMPDIR: %v, want one", profiles)
	}
	old := profiles[0]
	if err := first.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	waitChromeGone(t, old)
	if _, err := os.Stat(old); err != nil {
		t.Fatalf("the killed server's profile is already gone (%v): the test shows nothing", err)
	}

	start()
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("the killed server's profile %s is still there after the next start (%v)", old, err)
	}
	profiles, _ = filepath.Glob(filepath.Join(tmp, "devtools-mcp-profile-*"))
	if len(profiles) != 1 || profiles[0] == old {
		t.Errorf("isolated profiles now: %v, want only the new server's", profiles)
	}
}

// waitChromeGone waits until the Chrome that used profile has exited (it
// does once the pipe to the killed server closes), killing it after 20 s.
func waitChromeGone(t *testing.T, profile string) {
	t.Helper()
	lock, err := os.Readlink(filepath.Join(profile, "SingletonLock"))
	if err != nil {
		return // no Chrome holds it
	}
	pid, err := strconv.Atoi(lock[strings.LastIndexByte(lock, '-')+1:])
	if err != nil {
		t.Fatalf("SingletonLock %q", lock)
	}
	deadline := time.Now().Add(20 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			syscall.Kill(-pid, syscall.SIGKILL)
			t.Fatalf("Chrome %d outlived its killed server by 20 s", pid)
		}
		time.Sleep(50 * time.Millisecond) // polling a pid: there is no event to wait on
	}
}
