// Package docsite serves local documentation trees over HTTP, so that a
// corpus page loads as it would from a web server: its relative links,
// styles and scripts resolve, and nothing outside the listed trees is
// reachable.
package docsite

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
)

// Dirs is a set of absolute directories. As a handler it serves a
// request's path as the file of that name when the file is a regular
// file below one of the directories, and 404 otherwise (no directory
// listings, no index.html redirects).
type Dirs map[string]bool

// ServeHTTP serves the file named by the request path.
func (d Dirs) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name := filepath.Clean(r.URL.Path)
	if !d.holds(name) {
		http.NotFound(w, r)
		return
	}
	f, err := os.Open(name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		http.NotFound(w, r)
		return
	}
	http.ServeContent(w, r, name, fi.ModTime(), f)
}

// holds reports whether name lies below one of the directories.
func (d Dirs) holds(name string) bool {
	for dir := range d {
		if strings.HasPrefix(name, dir+"/") {
			return true
		}
	}
	return false
}
