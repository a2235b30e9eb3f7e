//go:build !unix

package chrome

import (
	"os"
	"os/exec"
)

// SetProcessGroup is a no-op where process groups do not exist.
func SetProcessGroup(*exec.Cmd) {}

// KillProcessGroup kills the Chrome process.
func KillProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

// processAlive is conservative where it cannot be checked: a profile is
// never taken for stale.
func processAlive(int) bool { return true }

// ownedByMe cannot be checked here either.
func ownedByMe(os.FileInfo) bool { return false }
