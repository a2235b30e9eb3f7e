package e2e

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
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
	mux.HandleFunc("/framed", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`<title>Framed</title><iframe src="/"></iframe>`))
	})
	mux.HandleFunc("/xframed", func(w http.ResponseWriter, r *http.Request) {
		// localhost is another site than 127.0.0.1: Chrome puts the
		// iframe in a process (and a target) of its own.
		w.Write([]byte(`<title>Cross-site</title><iframe src="http://` + strings.Replace(r.Host, "127.0.0.1", "localhost", 1) + `/"></iframe>`))
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

// downloadSite serves a page with three ways to download: a link whose
// download attribute names a hostile path, an attachment whose
// Content-Disposition names report.csv, and a Blob saved as .bashrc.
func downloadSite(t *testing.T) (url string, served *atomic.Int32) {
	served = &atomic.Int32{}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`<title>Downloads</title>
<a id=hostile href="/file.bin" download="../../escaped.sh">hostile</a>
<a id=report href="/report">report</a>
<button id=blob onclick="blob()">blob</button>
<script>
function blob() {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob(['alias ls=rm\n'], {type: 'text/plain'}));
  a.download = '.bashrc';
  a.click();
}
</script>`))
	})
	mux.HandleFunc("/framed", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`<title>Framed</title><iframe src="/"></iframe>`))
	})
	mux.HandleFunc("/file.bin", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write([]byte("echo owned\n"))
		served.Add(1)
	})
	mux.HandleFunc("/report", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Disposition", `attachment; filename="report.csv"`)
		w.Write([]byte("a,b\n1,2\n"))
		served.Add(1)
	})
	site := httptest.NewServer(mux)
	t.Cleanup(site.Close)
	return site.URL, served
}

// awaitDownload calls list_pages until the answers (told, those of the
// calls before, then list_pages') tell of a download, and returns them.
func awaitDownload(t *testing.T, s *server, told *strings.Builder, want string) string {
	t.Helper()
	eventually(t, "an answer saying "+want, func() bool {
		if strings.Contains(told.String(), want) {
			return true
		}
		told.WriteString(s.ok("list_pages", nil))
		return false
	})
	return told.String()
}

// TestDownloadsIntoTheChosenDirectory turns downloads on for a page with
// emulate downloadPath and checks what a user would: each download is
// saved in that directory alone, under a name that neither leaves it nor
// hides (../../escaped.sh, .bashrc), readable only by the user, a second
// download of one name replaces nothing, the answer says where each went,
// another page of the same context still cannot download, a directory
// outside the roots is refused, and leaving downloadPath out refuses
// downloads again.
func TestDownloadsIntoTheChosenDirectory(t *testing.T) {
	url, served := downloadSite(t)
	home, root := t.TempDir(), t.TempDir()
	dir := filepath.Join(root, "dl")
	cmd := serverCommand(append(headless, "--filesystemRoot", root)...)
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_DOWNLOAD_DIR="+filepath.Join(home, "Downloads"))
	s := startCommand(t, mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil), cmd)
	var told strings.Builder // the answers since the last download checked
	click := func(id string) {
		t.Helper()
		told.WriteString(s.ok("evaluate_script", map[string]any{"function": "() => { document.getElementById('" + id + "').click(); return true }"}))
	}

	s.ok("navigate_page", map[string]any{"url": url})
	mustContain(t, s.fails("emulate", map[string]any{"downloadPath": home}), "is outside")
	mustContain(t, s.ok("emulate", map[string]any{"downloadPath": dir}), "Saving downloads to "+dir)
	// Chrome makes ../../escaped.sh _.._escaped.sh and .bashrc
	// bashrc.txt; the server's own guard against such names, should
	// Chrome let one through, is tested in internal/browser.
	click("hostile")
	awaitDownload(t, s, &told, "to "+filepath.Join(dir, "_.._escaped.sh."))
	told.Reset()
	click("report")
	awaitDownload(t, s, &told, `Downloaded report.csv (8 bytes) from page 1 to `+filepath.Join(dir, "report.csv."))
	told.Reset()
	click("report")
	awaitDownload(t, s, &told, "to "+filepath.Join(dir, "report (2).csv."))
	told.Reset()
	click("blob")
	awaitDownload(t, s, &told, "to "+filepath.Join(dir, "bashrc.txt."))

	// A download from an iframe of the page is the page's.
	s.ok("navigate_page", map[string]any{"url": url + "/framed"})
	told.Reset()
	told.WriteString(s.ok("evaluate_script", map[string]any{"function": "() => { frames[0].document.getElementById('report').click(); return true }"}))
	awaitDownload(t, s, &told, "to "+filepath.Join(dir, "report (3).csv."))
	s.ok("navigate_page", map[string]any{"url": url + "/xframed"})
	snap := s.ok("take_snapshot", nil)
	told.Reset()
	told.WriteString(s.ok("click", map[string]any{"uid": uidOf(t, snap, `link "report"`)}))
	awaitDownload(t, s, &told, "to "+filepath.Join(dir, "report (4).csv."))
	s.ok("navigate_page", map[string]any{"url": url})

	want := map[string]string{"report (3).csv": "a,b\n1,2\n", "report (4).csv": "a,b\n1,2\n", "_.._escaped.sh": "echo owned\n", "report.csv": "a,b\n1,2\n", "report (2).csv": "a,b\n1,2\n", "bashrc.txt": "alias ls=rm\n"}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(want) {
		t.Errorf("the download directory holds %v, want exactly %v", entries, want)
	}
	for name, content := range want {
		path := filepath.Join(dir, name)
		got, err := os.ReadFile(path)
		if err != nil || string(got) != content {
			t.Errorf("%s: got %q (%v), want %q", path, got, err, content)
			continue
		}
		if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want 0600", path, fi.Mode().Perm())
		}
	}

	// Another page of the same context did not ask: its download is
	// canceled, and the agent told.
	s.ok("new_page", map[string]any{"url": url})
	told.Reset()
	click("report")
	awaitDownload(t, s, &told, "a download of page 2 (\"report.csv\") was not saved: downloads are off for this page")

	// A page of an isolated context downloads into its own directory.
	iso := filepath.Join(root, "iso")
	s.ok("new_page", map[string]any{"url": url, "isolatedContext": "iso"})
	mustContain(t, s.ok("emulate", map[string]any{"downloadPath": iso}), "Saving downloads to "+iso)
	told.Reset()
	click("report")
	awaitDownload(t, s, &told, "from page 3 to "+filepath.Join(iso, "report.csv."))
	if got, err := os.ReadFile(filepath.Join(iso, "report.csv")); err != nil || string(got) != "a,b\n1,2\n" {
		t.Errorf("the isolated page's download: %q, %v", got, err)
	}
	os.RemoveAll(iso)

	// Leaving downloadPath out turns downloads off again.
	s.ok("select_page", map[string]any{"pageId": 1})
	mustContain(t, s.ok("emulate", map[string]any{}), "emulates nothing")
	before := served.Load()
	click("report")
	eventually(t, "the download to be requested", func() bool { return served.Load() > before })
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) {
		if answer := s.ok("list_pages", nil); strings.Contains(answer, "Downloaded") {
			t.Fatalf("a download was saved after downloads were turned off: %s", answer)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != len(want) {
		t.Errorf("the download directory holds %v after downloads were turned off", entries)
	}
	// Nothing anywhere else: not in ~/Downloads nor anywhere under HOME
	// (Chrome keeps a few files of its own there), not beside the
	// directory.
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Dir(p) != dir {
			t.Errorf("a download landed outside %s: %s", dir, p)
		}
		return nil
	})
	filepath.WalkDir(home, func(p string, d os.DirEntry, err error) error {
		if rel, _ := filepath.Rel(home, p); err == nil && !d.IsDir() && (strings.HasPrefix(rel, "Downloads") || strings.Contains(rel, "escaped") || strings.Contains(rel, "report") || strings.Contains(rel, "bashrc")) {
			t.Errorf("a download landed in HOME: %s", p)
		}
		return nil
	})
}

// TestAttachedDownloadsGoBackToTheUser attaches to a Chrome of the user's,
// whose downloads go to ~/Downloads. While the agent lets one of its pages
// download, that page's downloads go to the chosen directory and the
// user's are not saved anywhere; once the agent turns them off, and again
// after the server went away, the user's downloads are the user's again.
func TestAttachedDownloadsGoBackToTheUser(t *testing.T) {
	url, _ := downloadSite(t)
	home, root := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_DOWNLOAD_DIR", filepath.Join(home, "Downloads"))
	dir := filepath.Join(root, "dl")
	ws, _, _ := chromium(t)
	conn := openTabs(t, ws, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	tab, err := cdp.TargetCreateTarget.Call(ctx, conn.Session(""), cdp.CreateTargetParams{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	attached, err := cdp.TargetAttachToTarget.Call(ctx, conn.Session(""), cdp.AttachToTargetParams{TargetID: tab.TargetID, Flatten: true})
	if err != nil {
		t.Fatal(err)
	}
	userDownload := func() {
		t.Helper()
		if _, err := cdp.RuntimeEvaluate.Call(ctx, conn.Session(attached.SessionID), cdp.EvaluateParams{Expression: "document.getElementById('report').click()", UserGesture: true}); err != nil {
			t.Fatal(err)
		}
	}
	inDownloads := func() []os.DirEntry {
		entries, _ := os.ReadDir(filepath.Join(home, "Downloads"))
		return entries
	}

	s := startServer(t, "--browserUrl", browserURL(ws), "--filesystemRoot", root)
	s.ok("new_page", map[string]any{"url": url})
	mustContain(t, s.ok("emulate", map[string]any{"downloadPath": dir}), "Saving downloads to "+dir)
	var told strings.Builder
	told.WriteString(s.ok("evaluate_script", map[string]any{"function": "() => { document.getElementById('report').click(); return true }"}))
	awaitDownload(t, s, &told, "to "+filepath.Join(dir, "report.csv."))
	// The user's download is canceled, and the agent is not told of it.
	told.Reset()
	userDownload()
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) {
		told.WriteString(s.ok("list_pages", nil))
		time.Sleep(100 * time.Millisecond)
	}
	if strings.Contains(told.String(), "report.csv") {
		t.Errorf("the agent was told of the user's download:\n%s", told.String())
	}
	if got := inDownloads(); len(got) > 0 {
		t.Fatalf("while the agent's page could download, the user's download went to ~/Downloads: %v", got)
	}

	mustContain(t, s.ok("emulate", map[string]any{}), "emulates nothing")
	userDownload()
	eventually(t, "the user's download in ~/Downloads once the agent turned downloads off", func() bool { return len(inDownloads()) == 1 })

	s.ok("emulate", map[string]any{"downloadPath": dir})
	if err := s.session.Close(); err != nil {
		t.Fatal(err)
	}
	s.cmd.Wait()
	userDownload()
	eventually(t, "the user's download in ~/Downloads after the server exited", func() bool { return len(inDownloads()) == 2 })
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the agent's directory holds %v, want only its own report.csv", entries)
	}
}

// TestHTTPSessionsDownloadApart serves two MCP sessions over HTTP, each in
// a browser context of its own: each session's downloads land in its own
// directory and are told to it alone, and a session that did not ask
// still cannot download.
func TestHTTPSessionsDownloadApart(t *testing.T) {
	url, _ := downloadSite(t)
	root := t.TempDir()
	hs := startHTTPServer(t, append(headless, "--filesystemRoot", root)...)
	a, b, c := hs.connect(), hs.connect(), hs.connect()
	dirs := map[*server]string{a: filepath.Join(root, "a"), b: filepath.Join(root, "b")}
	for _, s := range []*server{a, b, c} {
		s.ok("navigate_page", map[string]any{"url": url})
	}
	for s, dir := range dirs {
		mustContain(t, s.ok("emulate", map[string]any{"downloadPath": dir}), "Saving downloads to "+dir)
	}
	clickReport := func(s *server) string {
		return s.ok("evaluate_script", map[string]any{"function": "() => { document.getElementById('report').click(); return true }"})
	}
	var toldA, toldB, toldC strings.Builder
	toldA.WriteString(clickReport(a))
	toldB.WriteString(clickReport(b))
	toldC.WriteString(clickReport(c))
	awaitDownload(t, a, &toldA, "to "+filepath.Join(dirs[a], "report.csv."))
	awaitDownload(t, b, &toldB, "to "+filepath.Join(dirs[b], "report.csv."))
	if strings.Contains(toldA.String(), dirs[b]) || strings.Contains(toldB.String(), dirs[a]) {
		t.Errorf("a session was told of the other's download:\nA: %s\nB: %s", toldA.String(), toldB.String())
	}
	for _, dir := range dirs {
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Errorf("%s holds %v, want its session's report.csv alone", dir, entries)
		}
	}
	toldC.WriteString(c.ok("list_pages", nil))
	if strings.Contains(toldC.String(), "Downloaded") {
		t.Errorf("the session that did not ask downloaded:\n%s", toldC.String())
	}
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Dir(p) != dirs[a] && filepath.Dir(p) != dirs[b] {
			t.Errorf("a download landed outside the sessions' directories: %s", p)
		}
		return nil
	})
}
