//go:build !unix

package chrome

import (
	"os"
	"os/exec"
)

// setProcessGroup is a no-op where process groups do not exist.
func setProcessGroup(*exec.Cmd) {}

// killProcessGroup kills the Chrome process.
func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

// processAlive is conservative where it cannot be checked: a profile is
// never taken for stale.
func processAlive(int) bool { return true }

// ownedByMe cannot be checked here either.
func ownedByMe(os.FileInfo) bool { return false }
