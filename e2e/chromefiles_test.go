package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestUploadedFilesCannotBeSwappedOut uploads a file inside the roots,
// then swaps its directory for a symlink to one outside them, with a file
// of the same name, size and time: the page reads a File when it likes,
// and must still get what was checked, not the outside file.
func TestUploadedFilesCannotBeSwappedOut(t *testing.T) {
	site := pages(t, map[string]string{"/": `<title>Upload</title><input type=file aria-label="Pick">`})
	root, outside := t.TempDir(), t.TempDir()
	dir := filepath.Join(root, "docs")
	os.Mkdir(dir, 0o700)
	stamp := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	for path, text := range map[string]string{filepath.Join(dir, "note.txt"): "inside-secret!", filepath.Join(outside, "note.txt"): "OUTSIDE-SECRET"} {
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(path, stamp, stamp)
	}
	tmp, err := os.MkdirTemp("", "x")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	cmd := serverCommand(append(headless, "--filesystemRoot="+root)...)
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	s := startCommand(t, mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil), cmd)
	snap := s.open(site, "/")
	s.ok("upload_file", map[string]any{"uid": uidOf(t, snap, `"Pick"`), "filePaths": []string{filepath.Join(dir, "note.txt")}})
	if err := os.Rename(dir, dir+".old"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, dir); err != nil {
		t.Fatal(err)
	}
	got := s.eval(`async () => { const f = document.querySelector('input').files[0]; return f.name + ":" + f.lastModified + ":" + await f.text(); }`)
	if want := `"note.txt:` + strconv.FormatInt(stamp.UnixMilli(), 10) + `:inside-secret!"`; got != want {
		t.Fatalf("after the swap the page read %s, want %s (the checked file)", got, want)
	}

	// The copy the browser read is the user's alone, goes with its page,
	// and with the server.
	copies, _ := filepath.Glob(filepath.Join(tmp, "devtools-mcp-files-*", "page-*", "upload-*", "note.txt"))
	if len(copies) != 1 {
		t.Fatalf("copies of the upload in TMPDIR: %v, want one", copies)
	}
	files := filepath.Dir(filepath.Dir(filepath.Dir(copies[0])))
	for path, mode := range map[string]os.FileMode{copies[0]: 0o600, filepath.Dir(copies[0]): 0o700, files: 0o700} {
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != mode {
			t.Errorf("%s: %v %v, want mode %v", path, fi, err, mode)
		}
	}
	s.ok("new_page", map[string]any{"url": site.URL})
	other := filepath.Join(dir+".old", "note.txt")
	s.ok("upload_file", map[string]any{"uid": uidOf(t, s.ok("take_snapshot", nil), `"Pick"`), "filePaths": []string{other}})
	second, _ := filepath.Glob(filepath.Join(files, "page-2", "upload-*", "note.txt"))
	if len(second) != 1 {
		t.Fatalf("the second page's copy: %v, want one in %s/page-2", second, files)
	}
	s.ok("close_page", map[string]any{"pageId": 2})
	eventually(t, "the closed page's copies to go", func() bool {
		_, err := os.Stat(filepath.Join(files, "page-2"))
		return os.IsNotExist(err)
	})
	if _, err := os.Stat(copies[0]); err != nil {
		t.Errorf("closing page 2 removed page 1's copy: %v", err)
	}
	if err := s.session.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(files); err == nil {
		t.Errorf("the copies are still in %s after the server exited", tmp)
	}
}

// TestExtensionFilesCannotBeSwappedOut installs an extension from inside
// the roots, then swaps one of its folders for a symlink out of them:
// Chrome reads an extension's files while it runs, and must keep reading
// the ones that were checked.
func TestExtensionFilesCannotBeSwappedOut(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	ext := filepath.Join(root, "ext")
	if err := os.CopyFS(ext, os.DirFS("testdata/extension")); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(ext, "data"), 0o700)
	os.WriteFile(filepath.Join(ext, "data", "info.txt"), []byte("inside-extension"), 0o600)
	os.WriteFile(filepath.Join(outside, "info.txt"), []byte("OUTSIDE-EXTENSION"), 0o600)
	s := startServer(t, append(headless, "--categoryExtensions", "--filesystemRoot="+root)...)
	installed := s.ok("install_extension", map[string]any{"path": ext})
	id := regexp.MustCompile(`Id: ([a-p]{32})`).FindStringSubmatch(installed)[1]
	if err := os.Rename(filepath.Join(ext, "data"), filepath.Join(root, "data.old")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(ext, "data")); err != nil {
		t.Fatal(err)
	}
	var sw string
	eventually(t, "the extension's service worker", func() bool {
		m := regexp.MustCompile(`(?m)^(sw-\d+): chrome-extension://` + id + `/`).FindStringSubmatch(s.ok("list_pages", nil))
		if m != nil {
			sw = m[1]
		}
		return m != nil
	})
	out := s.ok("evaluate_script", map[string]any{"function": "async () => (await fetch(chrome.runtime.getURL('data/info.txt'))).text()", "serviceWorkerId": sw})
	if !strings.Contains(out, `"inside-extension"`) {
		t.Fatalf("after the swap the extension read:\n%s", out)
	}

	// Reloading copies the folder again, as it is now: the link out is refused.
	mustContain(t, s.fails("reload_extension", map[string]any{"id": id}), "was not reloaded", "data", "leads out of the folder")
	// A folder holding a link out of the roots is refused at install too.
	mustContain(t, s.fails("install_extension", map[string]any{"path": ext}), "data", "leads out of the folder")
}
