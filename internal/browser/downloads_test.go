package browser

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
	"github.com/devtools-mcp/devtools-mcp/internal/cdptest"
	"github.com/devtools-mcp/devtools-mcp/internal/chrome"
)

// TestSafeFileNameStaysInTheDirectory feeds the names a hostile page
// would suggest, should Chrome let them through, and checks that each
// becomes one plain, visible file name.
func TestSafeFileNameStaysInTheDirectory(t *testing.T) {
	long := strings.Repeat("é", 300)
	for suggested, want := range map[string]string{
		"report.csv":           "report.csv",
		"../../x":              "x",
		`..\..\evil.bat`:       "evil.bat",
		"/etc/passwd":          "passwd",
		".bashrc":              "bashrc",
		"...":                  "download",
		"..":                   "download",
		"":                     "download",
		"dir/":                 "download",
		"a\nDownloaded x.txt":  "aDownloaded x.txt",
		"invoice\u202Etxt.exe": "invoicetxt.exe",
		"name. . .":            "name",
		" .hidden ":            "hidden",
		"nul\x00byte":          "nulbyte",
		long + ".pdf":          long[:maxFileName-4] + ".pdf",
	} {
		got := safeFileName(suggested)
		if got != want {
			t.Errorf("safeFileName(%q) = %q, want %q", suggested, got, want)
		}
		if filepath.Base(got) != got || len(got) > maxFileName {
			t.Errorf("safeFileName(%q) = %q is not one short file name", suggested, got)
		}
	}
}

// TestCreateUniqueReplacesNothing checks that a download named like a file
// already there, or like a symlink pointing out of the directory, gets a
// new name, and that the file is readable only by the user.
func TestCreateUniqueReplacesNothing(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("mine"), 0o644)
	os.Symlink(filepath.Join(outside, "target"), filepath.Join(dir, "a (2).txt"))
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	f, name, err := createUnique(root, "a.txt")
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("download"))
	f.Close()
	if name != "a (3).txt" {
		t.Errorf("saved as %q, want a (3).txt", name)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "mine" {
		t.Errorf("the existing a.txt now holds %q", b)
	}
	if _, err := os.Lstat(filepath.Join(outside, "target")); err == nil {
		t.Error("the download was written through the symlink, out of the directory")
	}
	if fi, _ := os.Stat(filepath.Join(dir, name)); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
}

// TestDownloadDirIsPrivateAndStaleOnesGo checks the directory Chrome saves
// downloads in: 0700, in the temp directory, the stale ones of killed
// servers removed when it is made, itself removed when downloads end.
func TestDownloadDirIsPrivateAndStaleOnesGo(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	stale := filepath.Join(tmp, downloadsPrefix+"stale")
	if err := os.Mkdir(stale, 0o700); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(stale, chrome.OwnerFile), []byte(strconv.Itoa(deadPID(t))), 0o600)
	os.WriteFile(filepath.Join(stale, "0f1e2d3c-aaaa-bbbb-cccc-000000000000"), []byte("a download"), 0o600)
	b := &Browser{log: slog.New(slog.DiscardHandler), conn: cdp.NewConn(cdptest.NewFake(t, &cdptest.Recording{}))}
	b.dl.mu.Lock()
	err := b.openDownloadDirLocked()
	dir := b.dl.dir
	b.dl.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the downloads of a killed server are still there (%v)", err)
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 || filepath.Dir(dir) != tmp {
		t.Fatalf("download dir %s: %v %v, want a 0700 directory in TMPDIR", dir, fi, err)
	}
	b.endDownloads(t.Context())
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the download dir outlived the browser (%v)", err)
	}
}

// silentBrowser is a Chrome that receives commands (sent on writes) and
// answers none, until the connection closes.
type silentBrowser struct {
	writes chan []byte
	closed chan struct{}
	once   sync.Once
}

func (s *silentBrowser) Read() ([]byte, error) {
	<-s.closed
	return nil, errors.New("closed")
}

func (s *silentBrowser) Write(_ context.Context, msg []byte) error {
	s.writes <- msg
	return nil
}

func (s *silentBrowser) Close() error {
	s.once.Do(func() { close(s.closed) })
	return nil
}

// TestDownloadEventsDoNoRoundTrips checks that the download events'
// handler returns while the cancellation it asks for is still unanswered:
// a refused download is canceled in the background, so the events after
// it are not held up by Chrome (here one that never answers).
func TestDownloadEventsDoNoRoundTrips(t *testing.T) {
	chrome := &silentBrowser{writes: make(chan []byte, 8), closed: make(chan struct{})}
	log := slog.New(slog.DiscardHandler)
	b := &Browser{log: log, bg: newBackground(log), conn: cdp.NewConn(chrome), pages: map[string]*Page{}}
	defer b.bg.stop()
	defer chrome.Close()
	b.dl.allowed = map[string]string{"ctx": "CTX"}
	handled := make(chan struct{})
	go func() {
		b.onDownloadEvent(cdp.RawEvent{Method: cdp.BrowserDownloadWillBegin.Method,
			Params: []byte(`{"frameId":"F","guid":"0f1e2d3c-aaaa-bbbb-cccc-000000000000","url":"http://x/a","suggestedFilename":"a"}`)})
		close(handled)
	}()
	select {
	case <-handled:
	case <-time.After(3 * time.Second): // the old handler waited 5 s for Chrome
		t.Fatal("the download event's handler waits for Chrome's answer")
	}
	select {
	case msg := <-chrome.writes:
		if !strings.Contains(string(msg), cdp.BrowserCancelDownload.Method) || !strings.Contains(string(msg), "CTX") {
			t.Errorf("sent %s, want a cancellation in context CTX", msg)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the refused download was not canceled")
	}
}
