package chrome

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// isolatedPrefix names the temporary profiles of --isolated browsers.
const isolatedPrefix = "devtools-mcp-profile-"

// OwnerFile, inside an isolated profile, holds the pid of the server that
// made it. A server killed with SIGKILL cannot remove its profile; the next
// one that starts finds the file, sees that pid gone, and removes it.
const OwnerFile = ".devtools-mcp-owner"

// newIsolatedProfile creates a temporary profile owned by this process,
// first removing the ones that dead servers left behind.
func newIsolatedProfile(log *slog.Logger) (string, error) {
	removeStaleProfiles(os.TempDir(), log)
	dir, err := NewOwnedDir(isolatedPrefix)
	if err != nil {
		return "", fmt.Errorf("create isolated profile: %w", err)
	}
	return dir, nil
}

// NewOwnedDir creates a temporary directory named with prefix, only this
// user's (0700), holding the owner file of this process.
func NewOwnedDir(prefix string) (string, error) {
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, OwnerFile), []byte(strconv.Itoa(os.Getpid())), 0o600); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	return dir, nil
}

// removeStaleProfiles removes, from dir, the isolated profiles of servers
// that are no longer running (see RemoveStale).
func removeStaleProfiles(dir string, log *slog.Logger) {
	RemoveStale(dir, isolatedPrefix, "isolated profile", log)
}

// RemoveStale removes, from dir, the directories named with prefix (what,
// in log lines) of servers that are no longer running. It touches only what a server of this user
// made: a real directory (not a symbolic link) owned by this user, with an
// owner file naming a pid that is gone and no Chrome still using it. A
// profile another user planted, or one whose server may still live (its
// pid now taken by another process), is left alone.
func RemoveStale(dir, prefix, what string, log *slog.Logger) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), prefix) || !e.IsDir() || e.Type()&os.ModeSymlink != 0 {
			continue
		}
		path := filepath.Join(dir, e.Name())
		if !staleProfile(path) {
			continue
		}
		if err := os.RemoveAll(path); err != nil {
			log.Debug("could not remove a stale "+what, "dir", path, "err", err)
			continue
		}
		log.Info("removed the "+what+" of a server that was killed", "dir", path)
	}
}

func staleProfile(path string) bool {
	fi, err := os.Lstat(path)
	if err != nil || !fi.IsDir() || !ownedByMe(fi) {
		return false
	}
	raw, err := os.ReadFile(filepath.Join(path, OwnerFile))
	if err != nil {
		return false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(raw)))
	if err != nil || pid <= 0 || pid == os.Getpid() || processAlive(pid) {
		return false
	}
	// Chrome's SingletonLock is a symbolic link to "host-pid".
	if lock, err := os.Readlink(filepath.Join(path, "SingletonLock")); err == nil {
		if i := strings.LastIndexByte(lock, '-'); i >= 0 {
			if cpid, err := strconv.Atoi(lock[i+1:]); err == nil && processAlive(cpid) {
				return false
			}
		}
	}
	return true
}
