package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/devtools-mcp/devtools-mcp/jsonrpc"
)

// counter is a tool server with one tool, "count", whose state lives across
// connections.
type counter struct{ n atomic.Int64 }

func (c *counter) ListTools() []jsonrpc.Tool {
	return []jsonrpc.Tool{{Name: "count", Description: "Counts calls."}, {Name: "whoami", Description: "Names the calling client."}}
}

func (c *counter) CallTool(ctx context.Context, name string, _ json.RawMessage) (*jsonrpc.CallToolResult, error) {
	switch name {
	case "count":
		return &jsonrpc.CallToolResult{StructuredContent: c.n.Add(1)}, nil
	case "whoami":
		return &jsonrpc.CallToolResult{StructuredContent: jsonrpc.SessionFrom(ctx).ClientInfo().Version}, nil
	case "progress":
		jsonrpc.ProgressFrom(ctx)(1, 2, "half way")
		return &jsonrpc.CallToolResult{StructuredContent: "done"}, nil
	}
	return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "unknown tool " + name}
}

// session returns the paths of a session in a fresh runtime directory.
func session(t *testing.T) Paths {
	t.Helper()
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	p, err := SessionPaths("test")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// serve runs a daemon in this process until the test ends; it returns
// Serve's error channel.
func serve(t *testing.T, p Paths, cfg Config) <-chan error {
	t.Helper()
	cfg.Paths = p
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, cfg)
		close(done) // so that both the test and the cleanup can wait
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return done
}

// dial connects once the daemon listens.
func dial(t *testing.T, p Paths) *Client {
	t.Helper()
	return dialAs(t, p, "test")
}

// dialAs is dial with the client version to send in initialize.
func dialAs(t *testing.T, p Paths, version string) *Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		c, err := Running(ctx, p, version)
		if err == nil {
			t.Cleanup(func() { c.Close() })
			return c
		}
		if !errors.Is(err, ErrNotRunning) {
			t.Fatal(err)
		}
		select {
		case <-ctx.Done():
			t.Fatal("the daemon did not start listening")
		case <-time.After(pollInterval):
		}
	}
}

func count(t *testing.T, c *Client) int {
	t.Helper()
	raw, err := c.CallTool(t.Context(), "count", nil)
	if err != nil {
		t.Fatal(err)
	}
	var res struct{ StructuredContent int }
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	return res.StructuredContent
}

func TestServeSharesOneHandlerAcrossConnections(t *testing.T) {
	p := session(t)
	shutdown := make(chan struct{})
	done := serve(t, p, Config{
		Handler:  &counter{},
		Details:  func(context.Context) string { return "browser: none" },
		Shutdown: func(context.Context) { close(shutdown) },
	})
	a, b := dial(t, p), dial(t, p)
	if got := count(t, a); got != 1 {
		t.Fatalf("first count = %d", got)
	}
	if got := count(t, b); got != 2 {
		t.Fatalf("count on a second connection = %d, want 2: the handler must be shared", got)
	}
	tools, err := a.Tools(t.Context())
	if err != nil || len(tools) != 2 || tools[0].Name != "count" {
		t.Fatalf("tools/list = %v, %v; the control tools must not be listed", tools, err)
	}
	if _, err := a.CallTool(t.Context(), "nope", nil); err == nil || !strings.Contains(err.Error(), "unknown tool nope") {
		t.Fatalf("unknown tool: err = %v", err)
	}

	st, err := a.Status(t.Context())
	if err != nil || st.PID != os.Getpid() || st.Details != "browser: none" {
		t.Fatalf("status = %+v, %v", st, err)
	}
	if _, err := b.Stop(t.Context()); err != nil {
		t.Fatal(err)
	}
	select {
	case <-shutdown:
	default:
		t.Fatal("Stop returned before Shutdown ran")
	}
	if err := <-done; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	for _, f := range []string{p.Socket, p.PID} {
		if _, err := os.Lstat(f); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s left behind (err %v)", f, err)
		}
	}
	if _, err := Running(t.Context(), p, "test"); !errors.Is(err, ErrNotRunning) {
		t.Errorf("after stop: Running err = %v, want ErrNotRunning", err)
	}
}

func TestConnectionsKeepTheirOwnSession(t *testing.T) {
	p := session(t)
	serve(t, p, Config{Handler: &counter{}})
	a, b := dialAs(t, p, "client-a"), dialAs(t, p, "client-b")
	for _, tc := range []struct {
		c    *Client
		want string
	}{{a, "client-a"}, {b, "client-b"}, {a, "client-a"}} {
		raw, err := tc.c.CallTool(t.Context(), "whoami", nil)
		if err != nil {
			t.Fatal(err)
		}
		var res struct{ StructuredContent string }
		if err := json.Unmarshal(raw, &res); err != nil || res.StructuredContent != tc.want {
			t.Fatalf("whoami = %s (%v), want %s: each connection is its own session", raw, err, tc.want)
		}
	}
}

func TestServeRefusesSecondDaemonAndReplacesStaleSocket(t *testing.T) {
	p := session(t)
	// A stale socket path and pid file, as a killed daemon leaves them.
	for _, f := range []string{p.Socket, p.PID} {
		if err := os.WriteFile(f, []byte("12345\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	serve(t, p, Config{Handler: &counter{}})
	c := dial(t, p)
	if got := count(t, c); got != 1 {
		t.Fatalf("count = %d", got)
	}
	pid, err := os.ReadFile(p.PID)
	if err != nil || string(pid) != strconv.Itoa(os.Getpid())+"\n" {
		t.Fatalf("pid file = %q, %v; want our pid", pid, err)
	}
	fi, err := os.Stat(p.Socket)
	if err != nil || fi.Mode().Perm() != 0o600 || fi.Mode()&os.ModeSocket == 0 {
		t.Fatalf("socket: %v, %v", fi.Mode(), err)
	}

	err = Serve(t.Context(), Config{Paths: p, Handler: &counter{}})
	if err == nil || !strings.Contains(err.Error(), "already runs") {
		t.Fatalf("a second Serve: err = %v, want 'already runs'", err)
	}
	if got := count(t, c); got != 2 {
		t.Fatalf("the first daemon stopped serving after the second was refused: count = %d", got)
	}
}

func TestRuntimeDir(t *testing.T) {
	xdg := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", xdg)
	dir, err := RuntimeDir()
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(dir)
	if err != nil || dir != filepath.Join(xdg, "devtools-mcp") || fi.Mode().Perm() != 0o700 {
		t.Fatalf("RuntimeDir = %s (%v, %v), want a new 0700 directory in XDG_RUNTIME_DIR", dir, fi.Mode(), err)
	}
	if err := os.Chmod(dir, 0o722); err != nil {
		t.Fatal(err)
	}
	if _, err := RuntimeDir(); err == nil || !strings.Contains(err.Error(), "has mode 722") {
		t.Fatalf("group-writable: err = %v", err)
	}

	t.Setenv("XDG_RUNTIME_DIR", "")
	dir, err = RuntimeDir()
	if err != nil || !strings.HasPrefix(dir, os.TempDir()) || !strings.HasSuffix(dir, "devtools-mcp-"+strconv.Itoa(os.Getuid())) {
		t.Fatalf("without XDG_RUNTIME_DIR: %s, %v", dir, err)
	}

	for _, bad := range []string{"", "../x", "a/b", ".hidden", strings.Repeat("x", 65)} {
		if _, err := SessionPaths(bad); err == nil {
			t.Errorf("session name %q accepted", bad)
		}
	}
}

func TestCallToolProgress(t *testing.T) {
	p := session(t)
	serve(t, p, Config{Handler: &counter{}, Details: func(context.Context) string { return "" }, Shutdown: func(context.Context) {}})
	c := dial(t, p)
	var got []Progress
	raw, err := c.CallToolProgress(t.Context(), "progress", nil, func(p Progress) { got = append(got, p) })
	if err != nil || !strings.Contains(string(raw), "done") {
		t.Fatalf("CallToolProgress = %s, %v", raw, err)
	}
	// The notification precedes the answer on the connection, so it has
	// been handled by the time the call returns.
	if len(got) != 1 || got[0] != (Progress{Progress: 1, Total: 2, Message: "half way"}) {
		t.Errorf("progress = %+v, want the tool's one report", got)
	}
}
