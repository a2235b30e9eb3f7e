//go:build linux

package cli

import (
	"os"
	"testing"

	"github.com/devtools-mcp/devtools-mcp/internal/daemon"
)

func TestIsTerminal(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if IsTerminal(r) || IsTerminal(null) {
		t.Error("a pipe or /dev/null taken for a terminal: a client's server would print the hand-start line")
	}
	// The master side of a new pseudo-terminal stands in for a terminal.
	tty, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Fatalf("open /dev/ptmx: %v", err)
	}
	defer tty.Close()
	if !IsTerminal(tty) {
		t.Error("a terminal not recognised")
	}
}

func TestProgressLine(t *testing.T) {
	for _, tc := range []struct {
		p    daemon.Progress
		want string
	}{
		{daemon.Progress{Progress: 3, Message: "navigate_page: still running after 3s"}, "navigate_page: still running after 3s"},
		{daemon.Progress{Progress: 5, Total: 10, Message: "reading"}, "navigate_page [##########..........]  50% reading"},
		{daemon.Progress{Progress: 12, Total: 10}, "navigate_page [####################] 100% "},
	} {
		if got := progressLine("navigate_page", tc.p); got != tc.want {
			t.Errorf("progressLine(%+v) = %q, want %q", tc.p, got, tc.want)
		}
	}
}
