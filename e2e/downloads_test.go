package e2e

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestPagesCannotDownload has a page start downloads, by a download link
// and by a navigation to an attachment, in the default context and in an
// isolated one, and checks that nothing lands in ~/Downloads (or anywhere
// under HOME).
func TestPagesCannotDownload(t *testing.T) {
	var served atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`<title>Downloads</title><a id=a href="/file.bin" download="planted.sh">get</a>`))
	})
	mux.HandleFunc("/file.bin", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Disposition", `attachment; filename="planted.sh"`)
		w.Write([]byte("echo owned\n"))
		served.Add(1)
	})
	site := httptest.NewServer(mux)
	t.Cleanup(site.Close)

	home := t.TempDir()
	cmd := serverCommand(headless...)
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_DOWNLOAD_DIR="+filepath.Join(home, "Downloads"))
	s := startCommand(t, mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil), cmd)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	s.ok("evaluate_script", map[string]any{"function": "() => { document.getElementById('a').click(); return true }"})
	s.ok("new_page", map[string]any{"url": site.URL, "isolatedContext": "other"})
	s.ok("evaluate_script", map[string]any{"function": "() => { document.getElementById('a').click(); return true }"})
	s.call("navigate_page", map[string]any{"url": site.URL + "/file.bin"})
	eventually(t, "the downloads to be requested", func() bool { return served.Load() >= 3 })
	// Nothing announces a refused download to the page: give a download
	// that was let through the time to be written.
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		var found []string
		filepath.WalkDir(home, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && filepath.Ext(p) != ".tmp" {
				if rel, _ := filepath.Rel(home, p); filepath.Base(rel) == "planted.sh" || filepath.Dir(rel) == "Downloads" {
					found = append(found, rel)
				}
			}
			return nil
		})
		if len(found) > 0 {
			t.Fatalf("a page downloaded into HOME: %v", found)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
