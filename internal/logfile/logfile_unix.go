//go:build unix

package logfile

import "syscall"

// noFollow makes opening a symlink at the last path component fail.
const noFollow = syscall.O_NOFOLLOW
