//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package daemon

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// supported reports whether this system has what the daemon needs: Unix
// domain sockets, flock and setsid.
const supported = true

// errUnsupported is returned where the daemon cannot run; never here.
var errUnsupported error

// noFollow makes opening a symbolic link at the last path component fail.
const noFollow = syscall.O_NOFOLLOW

// ownedByUser reports whether fi belongs to the user running us.
func ownedByUser(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}

// tryLock takes an exclusive lock on f without waiting; it reports false
// when another open file holds it. The kernel drops the lock when the
// holder dies, however it dies.
func tryLock(f *os.File) (bool, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return false, err
	}
	var lerr error
	if err := rc.Control(func(fd uintptr) {
		lerr = syscall.Flock(int(fd), syscall.LOCK_EX|syscall.LOCK_NB)
	}); err != nil {
		return false, err
	}
	if errors.Is(lerr, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return lerr == nil, lerr
}

// detached makes the daemon the leader of a new session, without a
// controlling terminal, so that the terminal's signals and hang-up do not
// reach it.
func detached() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true}
}

// closeOnExec keeps fd from being inherited by the programs we start.
func closeOnExec(fd int) { syscall.CloseOnExec(fd) }
