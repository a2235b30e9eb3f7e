// Package logfile opens the server's --logFile safely: for appending,
// readable only by the user, and never through a symbolic link planted at
// its path.
package logfile

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// Open opens --logFile for appending, readable only by the user. It
// never follows a symlink at the path: one planted there (in /tmp, say)
// would otherwise have the log appended to whatever it points at.
func Open(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND|noFollow, 0o600)
	if err != nil {
		if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&os.ModeSymlink != 0 || errors.Is(err, syscall.ELOOP) {
			return nil, fmt.Errorf("open --logFile: %s is a symbolic link; refusing to write through it", path)
		}
		return nil, fmt.Errorf("open --logFile: %w", err)
	}
	return f, nil
}
