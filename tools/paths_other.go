//go:build !unix

package tools

// noFollow is not available here; Lstat before opening still refuses
// directories.
const noFollow = 0

// isSymlinkLoop is never true where O_NOFOLLOW does not exist.
func isSymlinkLoop(error) bool { return false }

// nonBlock does not exist here; special files are refused before opening.
const nonBlock = 0
