//go:build !unix

package logfile

// noFollow does not exist here; Open checks for a link after a
// failure only.
const noFollow = 0
