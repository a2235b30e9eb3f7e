package e2e

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rootsClient is a client that shares root as its only root.
func rootsClient(root string) *mcp.Client {
	client := mcp.NewClient(&mcp.Implementation{Name: "roots", Version: "1"}, nil)
	//lint:ignore SA1019 roots are deprecated in the newest protocol, but the clients our users run send them.
	client.AddRoots(&mcp.Root{URI: "file://" + root})
	return client
}

// TestToolsCheckTheFinalPath covers the paths a tool rewrites or the kernel
// resolves differently from the text: filePath equal to the root (an
// extension appended lands beside it), and ".." after a symlink.
func TestToolsCheckTheFinalPath(t *testing.T) {
	site := pages(t, map[string]string{"/": `<title>Final</title><p>hello`})
	root, outside := t.TempDir(), t.TempDir()
	os.Mkdir(filepath.Join(outside, "sub"), 0o700)
	os.Symlink(filepath.Join(outside, "sub"), filepath.Join(root, "link"))
	s := startServerWith(t, rootsClient(root), headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL})

	mustContain(t, s.fails("take_screenshot", map[string]any{"filePath": root}), "outside")
	mustContain(t, s.fails("take_heapsnapshot", map[string]any{"filePath": root}), "outside")
	mustContain(t, s.fails("screencast_start", map[string]any{"filePath": root}), root)
	for _, p := range []string{root + ".png", root + ".heapsnapshot", root + ".mp4", root + ".webm", root + ".apng"} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s was written beside the root", p)
		}
	}

	dotdot := root + "/link/../x.txt" // the kernel opens outside/x.txt
	for _, tool := range []string{"take_snapshot", "take_screenshot", "evaluate_script"} {
		args := map[string]any{"filePath": dotdot}
		if tool == "evaluate_script" {
			args["function"] = "() => 1"
		}
		mustContain(t, s.fails(tool, args), "outside")
	}
	mustContain(t, s.fails("take_heapsnapshot", map[string]any{"filePath": root + "/link/../x"}), "outside")
	if entries, _ := os.ReadDir(outside); len(entries) != 1 {
		t.Errorf("files written outside the root: %v", entries)
	}
	// Through the link without "..", the target is outside as well.
	mustContain(t, s.fails("take_snapshot", map[string]any{"filePath": root + "/link/x.txt"}), "outside")
}

// TestFIFOsNeitherBlockCallsNorExit plants FIFOs where a file is read and
// written: the calls are refused at once, later calls on the page work, and
// the server still exits when its client goes away.
func TestFIFOsNeitherBlockCallsNorExit(t *testing.T) {
	site := pages(t, map[string]string{"/": `<title>Pipes</title>`})
	root := t.TempDir()
	for _, name := range []string{"snap.txt", "code.js", "shot.png", "heap.heapsnapshot"} {
		if err := syscall.Mkfifo(filepath.Join(root, name), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	s := startServerWith(t, rootsClient(root), headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	mustContain(t, s.fails("take_snapshot", map[string]any{"filePath": filepath.Join(root, "snap.txt")}), "named pipe")
	mustContain(t, s.fails("evaluate_script", map[string]any{"sourcePath": filepath.Join(root, "code.js")}), "named pipe")
	mustContain(t, s.fails("take_screenshot", map[string]any{"filePath": filepath.Join(root, "shot.png")}), "named pipe")
	mustContain(t, s.fails("take_heapsnapshot", map[string]any{"filePath": filepath.Join(root, "heap.heapsnapshot")}), "named pipe")
	mustContain(t, s.ok("evaluate_script", map[string]any{"function": "() => document.title"}), "Pipes")

	// Closing the client ends the server. The SDK's Close closes the
	// server's stdin and reaps it, signalling it only when it has not
	// exited on its own within 5 s: returning sooner means it ended on EOF.
	// (Close alone waits for the process: a Wait of our own would race it.)
	start := time.Now()
	closed := make(chan error, 1)
	go func() { closed <- s.session.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Logf("close: %v", err)
		}
		if took := time.Since(start); took >= 5*time.Second {
			t.Fatalf("the server exited only %v after its client went away, when signalled: stdin EOF did not end it", took)
		}
	case <-time.After(30 * time.Second):
		s.cmd.Process.Kill()
		t.Fatal("the server did not exit after its client went away")
	}
}

// TestOverwrittenFilesAreUserOnly checks that a file the server overwrites
// loses the permissions it had.
func TestOverwrittenFilesAreUserOnly(t *testing.T) {
	site := pages(t, map[string]string{"/": `<title>Modes</title>`})
	root := t.TempDir()
	path := filepath.Join(root, "snap.txt")
	os.WriteFile(path, []byte("old"), 0o600)
	os.Chmod(path, 0o644)
	s := startServerWith(t, rootsClient(root), headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	s.ok("take_snapshot", map[string]any{"filePath": path})
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("overwritten snapshot: %v %v, want mode 0600", fi, err)
	}
}

// TestFileURLsStayInsideRoots opens file: URLs with roots declared: inside
// them they load, elsewhere (other spellings included) they are refused.
func TestFileURLsStayInsideRoots(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "page.html"), []byte("<title>Inside</title>"), 0o600)
	s := startServerWith(t, rootsClient(root), headless...)
	mustContain(t, s.ok("new_page", map[string]any{"url": "file://" + root + "/page.html"}), "Inside")
	for _, u := range []string{"file:///etc/passwd", "file:///root/", "view-source:file:///etc/passwd", "FILE://localhost/etc/passwd", "file://" + root + "/%2e%2e/"} {
		mustContain(t, s.fails("new_page", map[string]any{"url": u}), "outside")
		mustContain(t, s.fails("navigate_page", map[string]any{"url": u}), "outside")
	}
}
