//go:build unix

package tools

import (
	"errors"
	"syscall"
)

// noFollow makes opening a symlink at the last path component fail.
const noFollow = syscall.O_NOFOLLOW

// isSymlinkLoop reports the error O_NOFOLLOW gives for a symlink.
func isSymlinkLoop(err error) bool { return errors.Is(err, syscall.ELOOP) }

// nonBlock keeps opening a FIFO or a device from blocking.
const nonBlock = syscall.O_NONBLOCK
