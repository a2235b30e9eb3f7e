package tools

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devtools-mcp/devtools-mcp/internal/confine"
	"github.com/devtools-mcp/devtools-mcp/jsonrpc"
)

// checkPath is a Handler with one tool, "check", that runs the path guard
// on its "path" argument in the calling session.
type checkPath struct{ g *confine.Guard }

func (checkPath) ListTools() []jsonrpc.Tool { return nil }

func (h checkPath) CallTool(ctx context.Context, _ string, args json.RawMessage) (*jsonrpc.CallToolResult, error) {
	var a struct{ Path string }
	if err := json.Unmarshal(args, &a); err != nil {
		return nil, err
	}
	if _, err := h.g.Check(ctx, "filePath", a.Path); err != nil {
		return errorResult(err), nil
	}
	return &jsonrpc.CallToolResult{Content: []jsonrpc.Content{jsonrpc.TextContent("allowed")}}, nil
}

// rootsClient is an MCP client on pipes that shares roots: it answers
// every roots/list with its roots while it waits for a tool's answer.
type rootsClient struct {
	t     *testing.T
	in    io.WriteCloser
	out   *bufio.Reader
	roots []string
}

// serveClient runs one session of srv for a client with roots (none
// declared when roots is nil).
func serveClient(t *testing.T, srv *jsonrpc.Server, roots []string) *rootsClient {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- srv.Serve(context.Background(), inR, outW)
		outW.Close()
	}()
	t.Cleanup(func() {
		inW.Close()
		if err := <-served; err != nil {
			t.Error(err)
		}
	})
	c := &rootsClient{t: t, in: inW, out: bufio.NewReader(outR), roots: roots}
	caps := map[string]any{}
	if roots != nil {
		caps["roots"] = map[string]any{"listChanged": true}
	}
	c.send(map[string]any{"id": 0, "method": "initialize", "params": map[string]any{"protocolVersion": "2025-06-18", "capabilities": caps}})
	c.answer(0)
	return c
}

func (c *rootsClient) send(msg map[string]any) {
	c.t.Helper()
	msg["jsonrpc"] = "2.0"
	b, _ := json.Marshal(msg)
	if _, err := c.in.Write(append(b, '\n')); err != nil {
		c.t.Fatal(err)
	}
}

// answer reads until the response to id, answering roots/list meanwhile,
// and returns the text of a tool result.
func (c *rootsClient) answer(id int) string {
	c.t.Helper()
	for {
		line, err := c.out.ReadBytes('\n')
		if err != nil {
			c.t.Fatalf("reading from the server: %v", err)
		}
		var m struct {
			ID     *int
			Method string
			Result struct {
				Content []struct{ Text string }
			}
		}
		if err := json.Unmarshal(line, &m); err != nil {
			c.t.Fatal(err)
		}
		switch {
		case m.Method == "roots/list":
			var roots []map[string]string
			for _, r := range c.roots {
				roots = append(roots, map[string]string{"uri": "file://" + r})
			}
			c.send(map[string]any{"id": *m.ID, "result": map[string]any{"roots": roots}})
		case m.ID != nil && *m.ID == id:
			if len(m.Result.Content) == 0 {
				return ""
			}
			return m.Result.Content[0].Text
		}
	}
}

// check asks the server whether path may be used.
func (c *rootsClient) check(id int, path string) string {
	c.t.Helper()
	c.send(map[string]any{"id": id, "method": "tools/call", "params": map[string]any{"name": "check", "arguments": map[string]string{"path": path}}})
	return c.answer(id)
}

func TestPathsFollowEachSessionsRoots(t *testing.T) {
	rootA, rootB := t.TempDir(), t.TempDir()
	srv := jsonrpc.NewServer(jsonrpc.ServerInfo{Name: "paths", Version: "1"}, checkPath{newPathGuard(false, nil)})
	a := serveClient(t, srv, []string{rootA})
	b := serveClient(t, srv, []string{rootB})
	none := serveClient(t, srv, nil)

	inA, inB := filepath.Join(rootA, "trace.json"), filepath.Join(rootB, "trace.json")
	inTemp := filepath.Join(os.TempDir(), "devtools-mcp-paths-test.json")
	for _, tc := range []struct {
		who  string
		c    *rootsClient
		path string
		ok   bool
	}{
		{"a", a, inA, true},
		{"a", a, inB, false},
		{"b", b, inB, true},
		{"b", b, inA, false},
		{"no roots", none, inTemp, true},
		{"no roots", none, "/etc/passwd", false},
	} {
		got := tc.c.check(1, tc.path)
		if tc.ok != (got == "allowed") {
			t.Errorf("client %s, %s: %q, want allowed=%v", tc.who, tc.path, got, tc.ok)
		}
		if !tc.ok && !strings.Contains(got, "--allowUnrestrictedPaths") {
			t.Errorf("client %s, %s: the refusal %q does not say how to allow it", tc.who, tc.path, got)
		}
	}

	// New roots apply after the client says they changed.
	a.roots = []string{rootB}
	a.send(map[string]any{"method": "notifications/roots/list_changed"})
	if got := a.check(2, inB); got != "allowed" {
		t.Errorf("client a after its roots changed, %s: %q", inB, got)
	}
	if got := b.check(2, inB); got != "allowed" {
		t.Errorf("client b, %s: %q", inB, got)
	}
}

// TestFilesystemRootsCombineWithClientRoots checks --filesystemRoot: its
// directories are allowed besides the client's roots, the temp directory
// is then no longer allowed by default, and "/" allows every path.
func TestFilesystemRootsCombineWithClientRoots(t *testing.T) {
	work, clientRoot := t.TempDir(), t.TempDir()
	// A symlink to the configured root counts as the root itself.
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(work, link); err != nil {
		t.Fatal(err)
	}
	g := newPathGuard(false, []string{link})
	srv := jsonrpc.NewServer(jsonrpc.ServerInfo{Name: "paths", Version: "1"}, checkPath{g})
	withRoots := serveClient(t, srv, []string{clientRoot})
	none := serveClient(t, srv, nil)
	inTemp := filepath.Join(os.TempDir(), "devtools-mcp-paths-test.json")
	for _, tc := range []struct {
		who  string
		c    *rootsClient
		path string
		ok   bool
	}{
		{"roots", withRoots, filepath.Join(work, "a.png"), true},
		{"roots", withRoots, filepath.Join(link, "a.png"), true},
		{"roots", withRoots, filepath.Join(clientRoot, "a.png"), true},
		{"roots", withRoots, "/etc/passwd", false},
		{"no roots", none, filepath.Join(work, "sub", "a.png"), true},
		{"no roots", none, filepath.Join(clientRoot, "a.png"), false},
		{"no roots", none, inTemp, false},
		{"no roots", none, work + "-sibling/a.png", false},
	} {
		got := tc.c.check(1, tc.path)
		if tc.ok != (got == "allowed") {
			t.Errorf("client %s, %s: %q, want allowed=%v", tc.who, tc.path, got, tc.ok)
		}
		if !tc.ok && !strings.Contains(got, "--filesystemRoot directories") {
			t.Errorf("client %s, %s: the refusal %q does not name the --filesystemRoot directories", tc.who, tc.path, got)
		}
	}

	for _, roots := range [][]string{{"/"}, {work, "/"}, {"/tmp/../"}} {
		g := newPathGuard(false, roots)
		if _, err := g.Check(context.Background(), "filePath", "/etc/hostname"); err != nil {
			t.Errorf("--workspace=%q: %v, want every path allowed", roots, err)
		}
	}
}
