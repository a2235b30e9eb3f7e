//go:build unix

package browser

import (
	"os/exec"
	"syscall"
)

// setProcessGroup puts Chrome and its helpers in their own process group, so
// a terminal's Ctrl-C reaches only us and killProcessGroup stops them all.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killProcessGroup kills Chrome's whole process group.
func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		_ = cmd.Process.Kill()
	}
}
