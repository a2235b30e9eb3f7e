package cli

import (
	"io"
	"os"
)

// IsTerminal reports whether r is an interactive terminal: someone started
// the server by hand rather than through a client's pipe. /dev/null, also a
// character device, is not one.
func IsTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(fi, null)
}
