package e2e

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// clientProcessEnv, when set to an MCP endpoint, makes the test binary a
// client process instead (see TestMain): it connects over Streamable HTTP
// with the Go SDK, which opens the session's GET stream, opens the page
// in clientPageEnv, says "ready" and waits to be killed.
const (
	clientProcessEnv = "DTMCP_E2E_CLIENT_URL"
	clientPageEnv    = "DTMCP_E2E_CLIENT_PAGE"
)

// runClientProcess is the body of that client process; it returns the
// exit code and only on failure.
func runClientProcess(endpoint string) int {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e-doomed", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint}, legacySession)
	if err != nil {
		fmt.Fprintln(os.Stderr, "connect:", err)
		return 1
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "new_page", Arguments: map[string]any{"url": os.Getenv(clientPageEnv)}})
	if err != nil || res.IsError {
		fmt.Fprintln(os.Stderr, "new_page:", err, text(res))
		return 1
	}
	fmt.Println("ready")
	<-ctx.Done() // the test kills the process long before
	return 1
}

// startClientProcess runs the test binary as a client of endpoint that
// opens page, and returns once its page is open.
func startClientProcess(t *testing.T, endpoint, page string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), clientProcessEnv+"="+endpoint, clientPageEnv+"="+page)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if strings.TrimSpace(line) != "ready" {
		t.Fatalf("the client process did not open its page: %q, %v", line, err)
	}
	return cmd
}

// TestHTTPKilledClientFreesItsContext SIGKILLs a client process in the
// middle of its session (no DELETE, its sockets closed by the kernel) and
// checks, through the attached Chromium's own target list, that its page
// is gone within a minute with the default flags, while another
// session's page stays and keeps working.
func TestHTTPKilledClientFreesItsContext(t *testing.T) {
	site := pages(t, map[string]string{"/doomed": `<title>Doomed</title>`, "/survivor": `<title>Survivor</title><p>still here</p>`})
	ws, _, _ := chromium(t)
	hs := startHTTPServer(t, "--wsEndpoint", ws)
	survivor := hs.connect()
	survivor.ok("navigate_page", map[string]any{"url": site.URL + "/survivor"})

	client := startClientProcess(t, hs.url, site.URL+"/doomed")
	if got := targets(t, ws); !strings.Contains(got, site.URL+"/doomed") {
		t.Fatalf("Chromium has no page of the client's session; its pages:\n%s", got)
	}
	client.Process.Signal(syscall.SIGKILL)
	client.Wait()
	killed := time.Now()

	// The disposal happens inside the server; Chromium's target list is
	// the only outside view of it, so it is polled.
	for strings.Contains(targets(t, ws), site.URL+"/doomed") {
		if time.Since(killed) > time.Minute {
			t.Fatalf("the killed client's page is still open a minute later; Chromium's pages:\n%s", targets(t, ws))
		}
		time.Sleep(250 * time.Millisecond)
	}
	t.Logf("the killed client's context was disposed %v after the kill", time.Since(killed).Round(100*time.Millisecond))
	if got := targets(t, ws); !strings.Contains(got, site.URL+"/survivor") {
		t.Errorf("the other session's page went with the killed client's; Chromium's pages:\n%s", got)
	}
	mustContain(t, survivor.ok("take_snapshot", nil), "still here")
}

// TestHTTPIdleClientKeepsItsSession idles a live client for several
// times the gone timeout, with an HTTP client that drops idle keep-alive
// connections quickly (as Go's does after 90 s), and checks that its
// session, page and selected page survive: no TCP connection between
// calls is no sign of a vanished client while the GET stream is held.
func TestHTTPIdleClientKeepsItsSession(t *testing.T) {
	site := pages(t, map[string]string{"/kept": `<title>Kept</title><p>kept text</p>`})
	hs := startHTTPServer(t, append([]string{"--httpGoneTimeout", "1"}, headless...)...)
	var dials atomic.Int32
	transport := &http.Transport{
		IdleConnTimeout: 100 * time.Millisecond,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			dials.Add(1)
			return (&net.Dialer{}).DialContext(ctx, network, addr)
		},
	}
	t.Cleanup(transport.CloseIdleConnections)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e-idle", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.url, HTTPClient: &http.Client{Transport: transport}}, legacySession)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	s := &server{t: t, session: cs, stderr: hs.log}
	s.ok("new_page", map[string]any{"url": site.URL + "/kept"})

	before := dials.Load()
	// Idling is the scenario itself: nothing happens for four gone timeouts.
	time.Sleep(4 * time.Second)
	mustContain(t, s.ok("list_pages", nil), "1: Kept ("+site.URL+"/kept) [selected]")
	mustContain(t, s.ok("take_snapshot", nil), "kept text")
	if dials.Load() == before {
		t.Errorf("the client kept its connection while idle; the test needs it dropped to show that does not end the session")
	}
}
