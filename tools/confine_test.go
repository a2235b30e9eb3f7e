//go:build unix

package tools

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// confinedCall is a call whose server allows only root.
func confinedCall(t *testing.T, root string) *Call {
	t.Helper()
	return &Call{Server: &Server{paths: newPathGuard(false, []string{root})}}
}

func TestDotDotAfterASymlinkIsResolvedAsTheKernelDoes(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	if err := os.Mkdir(filepath.Join(outside, "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "sub"), filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	c := confinedCall(t, root)
	ctx := context.Background()
	for _, p := range []string{
		root + "/link/../x.txt",     // the kernel: outside/x.txt
		root + "//link/./../x.txt",  // with extra separators and dots
		root + "/link/../sub/y.txt", // back into the link's target
		root + "/link/../../x.txt",  // further up
		root + "/./link/../x.txt/",  // a trailing slash
	} {
		if _, err := c.guard().Check(ctx, "filePath", p); err == nil || !strings.Contains(err.Error(), "outside") {
			t.Errorf("check %s: %v, want it refused as outside the root", p, err)
		}
		if err := c.writeFile(ctx, "filePath", p, []byte("x")); err == nil {
			t.Errorf("writeFile %s succeeded", p)
		}
	}
	if _, err := os.Stat(filepath.Join(outside, "x.txt")); err == nil {
		t.Error("a file was written outside the root through link/..")
	}
	// Relative spellings resolve from the working directory, the same way.
	t.Chdir(root)
	if _, err := c.guard().Check(ctx, "filePath", "link/../x.txt"); err == nil {
		t.Error("link/../x.txt relative to the root was allowed")
	}
	if real, err := c.guard().Check(ctx, "filePath", "a/b.txt"); err != nil || real != filepath.Join(root, "a", "b.txt") {
		t.Errorf("a/b.txt (a does not exist yet) = %q, %v", real, err)
	}
	if _, err := c.guard().Check(ctx, "filePath", "missing/../x.txt"); err == nil {
		t.Error("missing/../x.txt resolved although the kernel cannot resolve it")
	}
}

func TestTheRootItselfIsNoFile(t *testing.T) {
	root := t.TempDir()
	c := confinedCall(t, root)
	ctx := context.Background()
	// A tool that appends an extension to filePath=root checks the result.
	if err := c.writeFile(ctx, "filePath", root+".png", []byte("x")); err == nil || !strings.Contains(err.Error(), "outside") {
		t.Errorf("writing %s.png: %v, want it refused", root, err)
	}
	if _, err := os.Stat(root + ".png"); err == nil {
		t.Errorf("%s.png was written beside the root", root)
	}
	if err := c.writeFile(ctx, "filePath", root, []byte("x")); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("writing the root itself: %v, want a directory error", err)
	}
	p, err := c.place(ctx, "filePath", root)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := p.Parent(); err == nil {
		t.Error("the root's parent was given out")
	}
}

func TestADirectorySwappedForASymlinkAfterTheCheckIsNotFollowedOut(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	sub := filepath.Join(root, "sub")
	if err := os.Mkdir(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	c := confinedCall(t, root)
	// The check happens when the call starts (a trace with autoStop, a
	// recording, a heap snapshot); the write comes later.
	p, err := c.place(context.Background(), "filePath", filepath.Join(sub, "trace.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := os.Remove(sub); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, sub); err != nil {
		t.Fatal(err)
	}
	f, err := p.Create()
	if err == nil {
		f.Close()
	}
	if _, serr := os.Stat(filepath.Join(outside, "trace.json")); serr == nil {
		t.Fatalf("the delayed write went through the swapped-in symlink to %s (create: %v)", outside, err)
	}
	// The same for the temporary file and rename of a heap snapshot.
	_ = p.Replace(func(w io.Writer) error { _, err := w.Write([]byte("{}")); return err })
	if entries, _ := os.ReadDir(outside); len(entries) > 0 {
		t.Fatalf("the delayed replace wrote %s into %s", entries[0].Name(), outside)
	}
}

func TestOverwrittenFilesBecomeUserOnly(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "snap.txt")
	if err := os.WriteFile(path, []byte("old contents, longer than the new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o666); err != nil {
		t.Fatal(err)
	}
	c := confinedCall(t, root)
	if err := c.writeFile(context.Background(), "filePath", path, []byte("new")); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v after overwriting, want 0600", fi.Mode().Perm())
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Errorf("contents %q, want %q", b, "new")
	}
}

// noHang fails the test when f does not return within a generous bound:
// a blocked open never returns at all.
func noHang(t *testing.T, what string, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(20 * time.Second):
		t.Fatalf("%s blocked", what)
		return nil
	}
}

func TestFIFOsAndDevicesAreRefusedWithoutBlocking(t *testing.T) {
	root := t.TempDir()
	fifo := filepath.Join(root, "pipe.txt")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	c := confinedCall(t, root)
	ctx := context.Background()
	err := noHang(t, "writing to a FIFO", func() error { return c.writeFile(ctx, "filePath", fifo, []byte("x")) })
	if err == nil || !strings.Contains(err.Error(), "named pipe") {
		t.Errorf("writing to a FIFO: %v, want it refused as a named pipe", err)
	}
	err = noHang(t, "reading a FIFO", func() error { _, err := c.readFile(ctx, "sourcePath", fifo); return err })
	if err == nil || !strings.Contains(err.Error(), "named pipe") {
		t.Errorf("reading a FIFO: %v, want it refused as a named pipe", err)
	}
	// A symlink to it (inside the root) is no way around.
	if err := os.Symlink(fifo, filepath.Join(root, "alias.js")); err != nil {
		t.Fatal(err)
	}
	err = noHang(t, "reading a FIFO through a link", func() error {
		_, err := c.readFile(ctx, "sourcePath", filepath.Join(root, "alias.js"))
		return err
	})
	if err == nil || !strings.Contains(err.Error(), "named pipe") {
		t.Errorf("reading a FIFO through a link: %v", err)
	}
	// Devices are refused too, even where paths are unrestricted.
	u := &Call{Server: &Server{paths: newPathGuard(true, nil)}}
	if _, err := u.readFile(ctx, "sourcePath", "/dev/zero"); err == nil || !strings.Contains(err.Error(), "device") {
		t.Errorf("reading /dev/zero: %v, want it refused as a device", err)
	}
	if err := u.writeFile(ctx, "filePath", "/dev/null", []byte("x")); err == nil || !strings.Contains(err.Error(), "device") {
		t.Errorf("writing /dev/null: %v, want it refused as a device", err)
	}
	// The heap snapshot tools read through the same checks.
	heapFIFO := filepath.Join(root, "pipe.heapsnapshot")
	if err := syscall.Mkfifo(heapFIFO, 0o600); err != nil {
		t.Fatal(err)
	}
	c.Server.heaps = newHeapCache(0)
	err = noHang(t, "loading a FIFO as a heap snapshot", func() error { _, err := c.heapSnapshot(ctx, heapFIFO); return err })
	if err == nil || !strings.Contains(err.Error(), "named pipe") {
		t.Errorf("loading a FIFO as a heap snapshot: %v, want it refused as a named pipe", err)
	}
}

// TestHeapSnapshotsAreReadThroughTheCheckedHandle swaps a directory of the
// checked path for a symlink out of the root after the check, before the
// snapshot is loaded: the analysis must still read the checked file.
func TestHeapSnapshotsAreReadThroughTheCheckedHandle(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	dir := filepath.Join(root, "snaps")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "s.heapsnapshot"), []byte(tinySnapshot), 0o600); err != nil {
		t.Fatal(err)
	}
	secret := strings.Replace(tinySnapshot, "3,1,3,32,0,0", "3,1,3,4242,0,0", 1) // its object is bigger
	if err := os.WriteFile(filepath.Join(outside, "s.heapsnapshot"), []byte(secret), 0o600); err != nil {
		t.Fatal(err)
	}
	s := NewServer(Options{Conditions: map[Condition]bool{ConditionMemoryDebugging: true}, FilesystemRoots: []string{root}}, nil, nil)
	s.heaps.beforeLoad = func(string) {
		if err := os.Rename(dir, dir+".old"); err != nil {
			t.Error(err)
		}
		if err := os.Symlink(outside, dir); err != nil {
			t.Error(err)
		}
	}
	res, err := s.CallTool(context.Background(), "get_heapsnapshot_summary", []byte(`{"filePath":"`+filepath.Join(dir, "s.heapsnapshot")+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	got := res.Content[0].Text
	if !strings.Contains(got, `"totalSize": 32`) {
		t.Errorf("the summary does not describe the checked snapshot (want totalSize 32, not the outside one's 4242):\n%s", got)
	}
}
