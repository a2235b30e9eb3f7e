//go:build unix

package confine

import (
	"errors"
	"io/fs"
	"syscall"
)

// NoFollow makes opening a symlink at the last path component fail.
const NoFollow = syscall.O_NOFOLLOW

// IsSymlinkLoop reports the error O_NOFOLLOW gives for a symlink.
func IsSymlinkLoop(err error) bool { return errors.Is(err, syscall.ELOOP) }

// NonBlock keeps opening a FIFO or a device from blocking.
const NonBlock = syscall.O_NONBLOCK

// HardLinks returns how many hard links (names) the file fi describes has.
func HardLinks(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
