package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestGoSDKSpeaks2026 drives the server with the official Go SDK left to
// pick the protocol: it probes with server/discover, and then speaks the
// stateless 2026-07-28, answering the sensitive-page confirmation as a
// multi round-trip request through its elicitation handler.
func TestGoSDKSpeaks2026(t *testing.T) {
	site := pages(t, map[string]string{
		"/bank/": `<title>Bank</title><button onclick="document.title='paid'">Pay</button>`,
		"/hello": `<title>Hello</title><h1>Hi</h1>`,
	})
	config := t.TempDir()
	os.MkdirAll(filepath.Join(config, "devtools-mcp"), 0o700)
	os.WriteFile(filepath.Join(config, "devtools-mcp", "sensitive-patterns.txt"), []byte(site.URL+"/bank/*\n"), 0o600)
	t.Setenv("XDG_CONFIG_HOME", config)

	answer, asked := "decline", 0
	client := mcp.NewClient(&mcp.Implementation{Name: "sdk2026", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked++
			mustContain(t, req.Params.Message, "click", site.URL+"/bank/")
			return &mcp.ElicitResult{Action: answer}, nil
		},
	})
	s := startCommandWith(t, client, serverCommand(append(headless, "--sensitivePages=on")...), nil)
	if v := s.session.InitializeResult().ProtocolVersion; v != "2026-07-28" {
		t.Fatalf("the Go SDK agreed on %q, want 2026-07-28", v)
	}
	tools, err := s.session.ListTools(t.Context(), nil)
	if err != nil || len(tools.Tools) < 20 {
		t.Fatalf("tools/list: %v", err)
	}
	mustContain(t, s.ok("navigate_page", map[string]any{"url": site.URL + "/hello"}), "Hello")

	snap := s.open(site, "/bank/")
	pay := uidOf(t, snap, `button "Pay"`)
	mustContain(t, s.fails("click", map[string]any{"uid": pay}), "you declined")
	mustContain(t, s.ok("take_snapshot", nil), `RootWebArea "Bank"`)
	answer = "accept"
	s.ok("click", map[string]any{"uid": pay})
	mustContain(t, s.ok("take_snapshot", nil), `RootWebArea "paid"`)
	if asked != 2 {
		t.Fatalf("the user was asked %d times, want 2", asked)
	}

	// A 2026 client that cannot ask the user is told which capability is missing.
	plain := startCommandWith(t, mcp.NewClient(&mcp.Implementation{Name: "plain2026", Version: "1"}, nil),
		serverCommand(append(headless, "--sensitivePages=on")...), nil)
	snap = plain.open(site, "/bank/")
	_, err = plain.callErr("click", map[string]any{"uid": uidOf(t, snap, `button "Pay"`)})
	if err == nil || !strings.Contains(err.Error(), "elicitation") {
		t.Fatalf("click without elicitation: %v", err)
	}
	mustContain(t, plain.ok("take_snapshot", nil), `RootWebArea "Bank"`)
}
