package daemon

import (
	"errors"
	"fmt"
	"os"
	"strconv"
)

// errLocked means a daemon holds the session's lock: it runs, starts or
// stops right now.
var errLocked = errors.New("the session's daemon holds its lock")

// lockPID opens the pid file, creating it with mode 0600 and never through
// a symbolic link, and takes its lock. It returns errLocked when a live
// daemon holds it. Whatever the file says is stale once the lock is ours.
func lockPID(path string) (*os.File, error) {
	for range 5 {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|noFollow, 0o600)
		if err != nil {
			return nil, fmt.Errorf("open the pid file: %w", err)
		}
		ok, err := tryLock(f)
		if err != nil || !ok {
			f.Close()
			if err == nil {
				err = errLocked
			}
			return nil, err
		}
		// A stopping daemon removes the file while holding its lock; if it
		// did so between our open and our lock, we locked a file nobody
		// else will ever open, so try again.
		if isFile(f, path) {
			return f, nil
		}
		f.Close()
	}
	return nil, errLocked
}

// isFile reports whether f is the file at path right now.
func isFile(f *os.File, path string) bool {
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	pi, err := os.Lstat(path)
	return err == nil && os.SameFile(fi, pi) && fi.Mode().IsRegular()
}

// writePID replaces the pid file's content with our pid.
func writePID(f *os.File) error {
	if err := f.Truncate(0); err != nil {
		return fmt.Errorf("write the pid file: %w", err)
	}
	if _, err := f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0); err != nil {
		return fmt.Errorf("write the pid file: %w", err)
	}
	return nil
}
