package e2e

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// warmServer is the binary on raw stdio with a marker switch for the Chrome
// it launches, so the test can find that Chrome's processes, whoever their
// parent is by then.
type warmServer struct {
	*rawServer
	cmd      *exec.Cmd
	marker   string
	launched chan struct{} // closed when the server logs that Chrome runs
}

func startWarmServer(t *testing.T, args ...string) *warmServer {
	t.Helper()
	marker := fmt.Sprintf("--devtools-mcp-test-marker=%d", time.Now().UnixNano())
	cmd := exec.Command(binary, append(append([]string{}, headless...), append(args, "--chromeArg="+marker)...)...)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w := &warmServer{rawServer: &rawServer{t: t, stdin: stdin, out: bufio.NewReader(stdout)}, cmd: cmd, marker: marker, launched: make(chan struct{})}
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "launched Chrome") {
				close(w.launched)
				break
			}
		}
		io.Copy(io.Discard, stderr)
	}()
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	w.roundTrip(initLine("2025-06-18"))
	io.WriteString(stdin, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	return w
}

// exit closes stdin and waits for the server to end.
func (w *warmServer) exit() {
	w.t.Helper()
	w.stdin.Close()
	exited := make(chan error, 1)
	go func() { exited <- w.cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			w.t.Fatalf("server exited with %v", err)
		}
	case <-time.After(15 * time.Second):
		w.t.Fatal("server still running 15 s after stdin closed")
	}
}

// chromes lists the live processes other than the server that have the
// server's marker on their command line.
func (w *warmServer) chromes() []string {
	var found []string
	cmdlines, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, f := range cmdlines {
		data, err := os.ReadFile(f)
		pid := filepath.Base(filepath.Dir(f))
		if err == nil && strings.Contains(string(data), w.marker) && atoi(pid) != w.cmd.Process.Pid && alive(atoi(pid)) {
			found = append(found, pid)
		}
	}
	return found
}

func atoi(s string) int {
	var n int
	fmt.Sscan(s, &n)
	return n
}

// TestBrowserStartsAfterInitialize checks that a launched Chrome starts once
// the client has initialized, before any tool call, and that a client that
// never calls a tool leaves nothing behind: not when it leaves after the
// start, nor when it leaves during it.
func TestBrowserStartsAfterInitialize(t *testing.T) {
	w := startWarmServer(t)
	select {
	case <-w.launched:
	case <-time.After(30 * time.Second):
		t.Fatal("Chrome did not start after initialize")
	}
	if len(w.chromes()) == 0 {
		t.Fatal("the server says Chrome runs, but no process has its marker")
	}
	w.exit()
	if left := w.chromes(); len(left) > 0 {
		t.Errorf("Chrome processes %v still run after the server exited", left)
	}

	w = startWarmServer(t)
	w.exit() // while Chrome is starting
	if left := w.chromes(); len(left) > 0 {
		t.Errorf("Chrome processes %v still run after the server exited during the start-up", left)
	}
}

// TestLazyLaunchWaitsForTheFirstCall checks that --lazyLaunch starts no
// browser until a tool needs one.
func TestLazyLaunchWaitsForTheFirstCall(t *testing.T) {
	w := startWarmServer(t, "--lazyLaunch")
	// Answered after the notification before it was handled.
	w.roundTrip(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if got := w.chromes(); len(got) > 0 {
		t.Fatalf("with --lazyLaunch Chrome runs (%v) before any tool call", got)
	}
	w.roundTrip(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_pages","arguments":{}}}`)
	if len(w.chromes()) == 0 {
		t.Fatal("no Chrome after the first tool call")
	}
	w.exit()
}
