//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package daemon

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// supported reports whether this system has what the daemon needs: Unix
// domain sockets, flock and setsid.
const supported = false

var errUnsupported = errors.New("the command-line mode needs Unix domain sockets and file locks, which this build has only on Linux, macOS and the BSDs; run devtools-mcp as an MCP server instead")

// noFollow does not exist here.
const noFollow = 0

func ownedByUser(fs.FileInfo) bool { return false }

func tryLock(*os.File) (bool, error) { return false, errUnsupported }

func detached() *syscall.SysProcAttr { return nil }

func closeOnExec(int) {}
