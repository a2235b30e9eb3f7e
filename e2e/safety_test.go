package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestFilePathsStayInsideRoots(t *testing.T) {
	site := pages(t, map[string]string{"/": `<title>Paths</title><input type=file aria-label="Pick">`})
	root := t.TempDir()
	outside := t.TempDir() // in the temp dir, but not a root
	os.Symlink("/etc", filepath.Join(root, "link"))
	client := mcp.NewClient(&mcp.Implementation{Name: "roots", Version: "1"}, nil)
	//lint:ignore SA1019 roots are deprecated in the newest protocol, but the clients our users run send them.
	client.AddRoots(&mcp.Root{URI: "file://" + root})
	s := startServerWith(t, client, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL})

	inside := filepath.Join(root, "snap.txt")
	mustContain(t, s.ok("take_snapshot", map[string]any{"filePath": inside}), "Saved snapshot")
	if fi, err := os.Stat(inside); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("snapshot file: %v %v, want mode 0600", fi, err)
	}
	for _, bad := range []string{
		filepath.Join(outside, "x.txt"),
		filepath.Join(root, "..", filepath.Base(outside), "x.txt"),
		filepath.Join(root, "link", "x.txt"),
		"/etc/devtools-mcp-test",
	} {
		out := s.fails("take_snapshot", map[string]any{"filePath": bad})
		mustContain(t, out, "outside your MCP client's roots", root, "--allowUnrestrictedPaths")
	}
	// Reading is confined too.
	secret := filepath.Join(outside, "secret.txt")
	os.WriteFile(secret, []byte("x"), 0o600)
	snap := s.ok("take_snapshot", nil)
	mustContain(t, s.fails("upload_file", map[string]any{"uid": uidOf(t, snap, `"Pick"`), "filePaths": []string{secret}}), "outside")
	mustContain(t, s.fails("evaluate_script", map[string]any{"sourcePath": secret}), "outside")

	// A symlink at the last component is not written through.
	os.Symlink(filepath.Join(outside, "target"), filepath.Join(root, "trap"))
	mustContain(t, s.fails("take_snapshot", map[string]any{"filePath": filepath.Join(root, "trap")}), "symbolic link")
	if _, err := os.Stat(filepath.Join(outside, "target")); err == nil {
		t.Fatal("a file was written through the symlink")
	}
	// A directory is never overwritten.
	mustContain(t, s.fails("take_snapshot", map[string]any{"filePath": root}), "directory")

	// Roots that change mid-session apply to the next call.
	//lint:ignore SA1019 as above: roots still drive the path guard.
	client.AddRoots(&mcp.Root{URI: "file://" + outside})
	eventually(t, "the new root to be honoured", func() bool {
		return !s.call("take_snapshot", map[string]any{"filePath": filepath.Join(outside, "x.txt")}).IsError
	})
}

func TestClientWithoutRootsGetsTheTempDir(t *testing.T) {
	site := pages(t, map[string]string{"/": `<title>Paths</title>`})
	noRoots := func() *mcp.Client {
		return mcp.NewClient(&mcp.Implementation{Name: "plain", Version: "1"}, &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
	}
	s := startServerWith(t, noRoots(), headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	mustContain(t, s.ok("take_snapshot", map[string]any{"filePath": filepath.Join(t.TempDir(), "ok.txt")}), "Saved")
	mustContain(t, s.fails("take_snapshot", map[string]any{"filePath": "/var/devtools-mcp-test.txt"}), "the temp directory", "--allowUnrestrictedPaths")
	eventually(t, "the warning about missing roots", func() bool { return strings.Contains(s.stderr.String(), "shares no roots") })

	u := startServerWith(t, noRoots(), append(headless, "--allowUnrestrictedPaths")...)
	u.ok("navigate_page", map[string]any{"url": site.URL})
	// The working directory is outside the temp directory.
	dir, err := os.MkdirTemp(".", "unrestricted-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	mustContain(t, u.ok("take_snapshot", map[string]any{"filePath": filepath.Join(dir, "x.txt")}), "Saved")
}

func TestURLBlockAndAllowLists(t *testing.T) {
	site := pages(t, map[string]string{
		"/":             `<title>Host</title><iframe src="/ads/frame"></iframe><img id=i src="/ads/pixel.png" onerror="document.title='img blocked'">`,
		"/ads/frame":    `<title>Ad frame</title><button>Ad button</button>`,
		"/ads/page":     `<title>Ad page</title>`,
		"/docs/welcome": `<title>Docs</title>`,
	})
	s := startServer(t, append(headless, "--blockedUrlPattern", "*/ads/*")...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	if got := s.eval("() => document.title"); got != `"img blocked"` {
		t.Fatalf("the blocked image loaded: title %s", got)
	}
	if strings.Contains(s.ok("take_snapshot", nil), "Ad button") {
		t.Fatal("the blocked iframe loaded")
	}
	s.eval("() => { window.open('/ads/page'); }")
	var list string
	eventually(t, "the popup in list_pages", func() bool {
		list = s.ok("list_pages", nil)
		return strings.Count(list, "\n") >= 2 // two pages
	})
	if strings.Contains(list, "Ad page (") {
		t.Fatalf("the blocked popup loaded:\n%s", list)
	}
	out := s.ok("navigate_page", map[string]any{"url": site.URL + "/ads/page"})
	mustContain(t, out, "Unable to navigate in the selected page: ", `--blockedUrlPattern "*/ads/*"`)
	if line := pageLine(out, "[selected]"); !strings.Contains(line, "("+site.URL+"/ads/page)") {
		t.Fatalf("after the blocked navigation the page is listed as %q, want its URL", line)
	}

	a := startServer(t, append(headless, "--allowedUrlPattern", site.URL+"/docs/*")...)
	a.ok("navigate_page", map[string]any{"url": site.URL + "/docs/welcome"})
	mustContain(t, a.ok("navigate_page", map[string]any{"url": site.URL + "/ads/page"}), "Unable to navigate in the selected page: ", "matches no --allowedUrlPattern")
}

func TestUserTabsInAttachedBrowser(t *testing.T) {
	site := pages(t, map[string]string{"/": `<title>Agent page</title>`})
	ws, _, _ := chromium(t)
	openTabs(t, ws, 1) // the user's own tab, besides Chromium's first one
	s := startServer(t, "--browserUrl", browserURL(ws))
	list := s.ok("list_pages", nil)
	user := pageID(t, list, "1:")
	out := s.ok("new_page", map[string]any{"url": site.URL})
	mustContain(t, pageLine(out, "Agent page"), "[opened by agent]")
	if strings.Contains(pageLine(out, fmt.Sprintf("%d:", user)), "opened by agent") {
		t.Fatalf("a user tab is marked as the agent's:\n%s", out)
	}
	mustContain(t, s.fails("close_page", map[string]any{"pageId": user}), "one of your own tabs", "--allowCloseUserTabs")
	s.ok("close_page", map[string]any{"pageId": pageID(t, out, "Agent page")})
}

func TestSensitivePagesNeedConfirmation(t *testing.T) {
	site := pages(t, map[string]string{"/bank/": `<title>Bank</title><button onclick="document.title='paid'">Pay</button>`})
	config := t.TempDir()
	os.MkdirAll(filepath.Join(config, "devtools-mcp"), 0o700)
	os.WriteFile(filepath.Join(config, "devtools-mcp", "sensitive-patterns.txt"),
		[]byte("# my bank\n\n"+site.URL+"/bank/*\n"), 0o600)
	t.Setenv("XDG_CONFIG_HOME", config)

	answer := "accept"
	asked := ""
	client := mcp.NewClient(&mcp.Implementation{Name: "elicit", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked = req.Params.Message
			return &mcp.ElicitResult{Action: answer}, nil
		},
	})
	s := startServerWith(t, client, append(headless, "--sensitivePages=on")...)
	snap := s.open(site, "/bank/")
	pay := uidOf(t, snap, `button "Pay"`)
	s.ok("click", map[string]any{"uid": pay})
	mustContain(t, asked, "click", site.URL+"/bank/", site.URL+"/bank/*")
	if got := s.eval("() => document.title", "waitForStableDom", false); got != `"paid"` {
		t.Fatalf("accepted click did not run: %s", got)
	}
	answer = "decline"
	mustContain(t, s.fails("click", map[string]any{"uid": pay}), "you declined", site.URL+"/bank/*")
	// Reading tools are never blocked.
	s.ok("take_snapshot", nil)
	s.ok("list_console_messages", nil)

	plain := mcp.NewClient(&mcp.Implementation{Name: "plain", Version: "1"}, nil)
	p := startServerWith(t, plain, append(headless, "--sensitivePages=on")...)
	snap = p.open(site, "/bank/")
	mustContain(t, p.fails("click", map[string]any{"uid": uidOf(t, snap, `button "Pay"`)}), "cannot ask you", "--sensitivePages=off")

	off := startServer(t, append(headless, "--sensitivePages=off")...)
	snap = off.open(site, "/bank/")
	off.ok("click", map[string]any{"uid": uidOf(t, snap, `button "Pay"`)})
}
