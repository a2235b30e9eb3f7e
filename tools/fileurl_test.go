package tools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFileNavigationsStayInsideTheWorkspace(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(root, "page.html"), []byte("<p>ok"), 0o600)
	os.Symlink(outside, filepath.Join(root, "link"))
	c := confinedCall(t, root)
	ctx := context.Background()
	for _, u := range []string{
		"file://" + root + "/page.html",
		"file://" + root + "/",
		"file://" + root,
		"file://localhost" + root + "/page.html",
		"view-source:file://" + root + "/page.html",
	} {
		if err := c.checkNavigation(ctx, u); err != nil {
			t.Errorf("%s: %v, want it allowed", u, err)
		}
	}
	for _, u := range []string{
		"file:///etc/shadow",
		"file:///root/",
		"FILE:///etc/passwd",
		" file:///etc/passwd",
		"fi\tle:///etc/passwd",
		"file:/etc/passwd",
		"file:etc/passwd",
		"file://localhost/etc/passwd",
		"file://other-host/share/x",
		"file://" + root + "/../" + filepath.Base(outside) + "/x",
		"file://" + root + "/%2e%2e/" + filepath.Base(outside) + "/x",
		"file://" + root + "/link/x.html",
		"view-source:file:///etc/passwd",
		"view-source:view-source:file:///etc/passwd",
		"blob:file:///etc/passwd",
		"filesystem:file:///etc/passwd",
	} {
		if err := c.checkNavigation(ctx, u); err == nil || !strings.Contains(err.Error(), "outside") {
			t.Errorf("%s: %v, want it refused as outside the workspace", u, err)
		}
	}
	// Without a workspace or client roots, file: URLs are Chrome's business.
	free := &Call{Server: &Server{paths: newPathGuard(false, nil)}}
	if err := free.checkNavigation(ctx, "file:///etc/hostname"); err != nil {
		t.Errorf("no roots: %v", err)
	}
	// --no-file-navigations refuses them all, inside the workspace too.
	strict := confinedCall(t, root)
	strict.Server.opts.NoFileNavigations = true
	if err := strict.checkNavigation(ctx, "file://"+root+"/page.html"); err == nil {
		t.Error("--no-file-navigations let a file: URL through")
	}
}
