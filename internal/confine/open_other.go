//go:build !unix

package confine

import "io/fs"

// NoFollow is not available here; Lstat before opening still refuses
// directories.
const NoFollow = 0

// IsSymlinkLoop is never true where O_NOFOLLOW does not exist.
func IsSymlinkLoop(error) bool { return false }

// NonBlock does not exist here; special files are refused before opening.
const NonBlock = 0

// HardLinks is 1 where the link count is not at hand.
func HardLinks(fs.FileInfo) uint64 { return 1 }
