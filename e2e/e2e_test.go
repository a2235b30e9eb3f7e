package e2e

// End-to-end harness: every test here drives the real devtools-mcp binary over
// stdio with the official MCP Go SDK as the client, against a real headless
// Chromium and pages served from httptest on 127.0.0.1.

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/devtools-mcp/devtools-mcp/e2e/internal/mcptext"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// binary is the devtools-mcp built once for the whole test run.
var binary string

// version is stamped into that binary, so that tests of --version and
// serverInfo know what to expect.
const version = "0.0.0-e2e"

func TestMain(m *testing.M) {
	if endpoint := os.Getenv(clientProcessEnv); endpoint != "" {
		os.Exit(runClientProcess(endpoint)) // a client for TestHTTPKilledClientFreesItsContext
	}
	flag.Parse()
	selectQuick()
	dir, err := os.MkdirTemp("", "devtools-mcp-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "devtools-mcp")
	// The binary is built from the root module, with a version stamp the
	// tests can recognise.
	build := exec.Command("go", "build", "-ldflags", "-X main.version="+version, "-o", binary, ".")
	build.Dir = ".."
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build devtools-mcp: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// serverCommand starts the server under test: the binary built for this
// run, or the command in $BENCH_SERVER (space-separated), so benchmarks can
// measure another server, such as the reference, the same way.
func serverCommand(args ...string) *exec.Cmd {
	if cmdline := strings.Fields(os.Getenv("BENCH_SERVER")); len(cmdline) > 0 {
		return exec.Command(cmdline[0], append(cmdline[1:], args...)...)
	}
	return exec.Command(binary, args...)
}

// headless are the flags every test server gets: a throwaway profile and no window.
var headless = []string{"--headless", "--isolated"}

// server is a running devtools-mcp with a connected MCP client.
type server struct {
	t       testing.TB
	session *mcp.ClientSession
	cmd     *exec.Cmd
	stderr  *syncBuffer

	// selected is the selected page id, tracked only for servers that
	// require pageId on every page tool (the reference, via $BENCH_SERVER).
	selected int
}

// startServer runs the binary with args and connects a client to it. The
// server is shut down (stdin closed) when the test ends.
func startServer(t testing.TB, args ...string) *server {
	t.Helper()
	return startServerWith(t, mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil), args...)
}

// startServerWith is startServer with a client of the test's own (roots,
// capabilities, handlers).
func startServerWith(t testing.TB, client *mcp.Client, args ...string) *server {
	t.Helper()
	return startCommand(t, client, serverCommand(args...))
}

// legacySession pins a client to MCP 2025-11-25: the Go SDK would
// otherwise probe with server/discover and speak the stateless 2026-07-28
// with a server that answers it, as this one does. The tests are written
// for 2025-era clients, which the server must keep serving unchanged;
// modern_test.go and sdk2026_test.go cover 2026-07-28.
var legacySession = &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}

// startCommand connects client to the server that cmd starts (the binary,
// or a launcher such as npx that runs it), as a 2025-era client.
func startCommand(t testing.TB, client *mcp.Client, cmd *exec.Cmd) *server {
	t.Helper()
	return startCommandWith(t, client, cmd, legacySession)
}

// startCommandWith is startCommand with the client's session options (nil:
// the newest protocol the SDK speaks).
func startCommandWith(t testing.TB, client *mcp.Client, cmd *exec.Cmd, opts *mcp.ClientSessionOptions) *server {
	t.Helper()
	args := cmd.Args[1:]
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, opts)
	if err != nil {
		t.Fatalf("connect to devtools-mcp %v: %v", args, err)
	}
	s := &server{t: t, session: session, cmd: cmd, stderr: stderr}
	if os.Getenv("BENCH_SERVER") != "" {
		s.selected = -1
		s.selected = pageID(t, s.ok("list_pages", nil), "[selected]")
	}
	t.Cleanup(func() {
		if err := session.Close(); err != nil {
			t.Logf("close session: %v", err)
		}
		if t.Failed() {
			t.Logf("server stderr:\n%s", s.stderr.String())
		}
	})
	return s
}

// call runs a tool and returns its result; protocol errors fail the test.
func (s *server) call(name string, args map[string]any) *mcp.CallToolResult {
	s.t.Helper()
	res, err := s.callErr(name, args)
	if err != nil {
		s.t.Fatalf("call %s: %v", name, err)
	}
	return res
}

// callErr runs a tool and returns the protocol error, if any.
func (s *server) callErr(name string, args map[string]any) (*mcp.CallToolResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if args == nil {
		args = map[string]any{}
	}
	if s.selected > 0 && !browserTools[name] && args["pageId"] == nil {
		args["pageId"] = s.selected
	}
	res, err := s.session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if s.selected > 0 && err == nil && browserTools[name] {
		fmt.Sscanf(pageLine(text(res), "[selected]"), "%d:", &s.selected)
	}
	return res, err
}

// ok runs a tool that must succeed and returns its text.
func (s *server) ok(name string, args map[string]any) string {
	s.t.Helper()
	res := s.call(name, args)
	if res.IsError {
		s.t.Fatalf("%s %v failed: %s", name, args, text(res))
	}
	return text(res)
}

// fails runs a tool that must report an error and returns its text.
func (s *server) fails(name string, args map[string]any) string {
	s.t.Helper()
	res := s.call(name, args)
	if !res.IsError {
		s.t.Fatalf("%s %v succeeded, want an error; got: %s", name, args, text(res))
	}
	return text(res)
}

// browserTools act on the browser, not on one page: they take no pageId.
var browserTools = map[string]bool{"list_pages": true, "new_page": true, "select_page": true, "close_page": true}

// text joins the text content of a result.
func text(res *mcp.CallToolResult) string { return mcptext.Join(res) }

// mustContain fails the test unless got contains every one of want.
func mustContain(t testing.TB, got string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Fatalf("answer lacks %q; got:\n%s", w, got)
		}
	}
}

// pages serves test pages on 127.0.0.1: path -> HTML.
func pages(t testing.TB, routes map[string]string) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	for path, body := range routes {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, body)
		})
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// syncBuffer collects the server's stderr so it can be read while written.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (w *syncBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *syncBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}
