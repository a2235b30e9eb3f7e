package main

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
)

// openLogFile opens --logFile for appending, readable only by the user. It
// never follows a symlink at the path: one planted there (in /tmp, say)
// would otherwise have the log appended to whatever it points at.
func openLogFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND|noFollow, 0o600)
	if err != nil {
		if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&os.ModeSymlink != 0 || errors.Is(err, syscall.ELOOP) {
			return nil, fmt.Errorf("open --logFile: %s is a symbolic link; refusing to write through it", path)
		}
		return nil, fmt.Errorf("open --logFile: %w", err)
	}
	return f, nil
}

// rawProtocolLog reports whether the user asked for every CDP message in
// the log, raw (DEBUG naming "protocol", as DEBUG=protocol or
// DEBUG=*,protocol): the only way cookies, tokens and page content reach it.
func rawProtocolLog() bool {
	return strings.Contains(os.Getenv("DEBUG"), "protocol")
}
