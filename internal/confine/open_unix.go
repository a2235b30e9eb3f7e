//go:build unix

package confine

import (
	"errors"
	"syscall"
)

// NoFollow makes opening a symlink at the last path component fail.
const NoFollow = syscall.O_NOFOLLOW

// IsSymlinkLoop reports the error O_NOFOLLOW gives for a symlink.
func IsSymlinkLoop(err error) bool { return errors.Is(err, syscall.ELOOP) }

// NonBlock keeps opening a FIFO or a device from blocking.
const NonBlock = syscall.O_NONBLOCK
