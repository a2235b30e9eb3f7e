package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// answerWithin runs a tool and fails the test unless it answers (success
// or tool error) before limit: a hung call is the bug these tests catch.
func (s *server) answerWithin(limit time.Duration, name string, args map[string]any) *mcp.CallToolResult {
	s.t.Helper()
	if args == nil {
		args = map[string]any{}
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	res, err := s.session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		s.t.Fatalf("%s %v did not answer within %v: %v", name, args, limit, err)
	}
	return res
}

// spinPage runs an endless loop from a timer once it has loaded: its main
// thread never comes back.
const spinPage = `<title>spin</title><h1>Spinning</h1><script>
	addEventListener("load", () => setTimeout(() => { while (true) {} }, 100));
</script>`

// TestBusyPageIsReported checks that tools on a page whose JavaScript never
// yields answer that the page is busy within their time, instead of
// waiting for it forever with the page locked, and that the agent can
// still navigate the page away or close it.
func TestBusyPageIsReported(t *testing.T) {
	site := pages(t, map[string]string{"/spin": spinPage, "/calm": `<title>calm</title><h1>Calm</h1>`})
	s := startServer(t, append([]string{"--scriptTimeout", "3000"}, headless...)...)
	s.answerWithin(30*time.Second, "navigate_page", map[string]any{"url": site.URL + "/spin"})
	for _, tool := range []string{"wait_for", "take_snapshot", "take_screenshot", "list_console_messages", "evaluate_script"} {
		args := map[string]any{}
		switch tool {
		case "wait_for":
			args["text"] = []string{"never"}
		case "evaluate_script":
			args["function"] = "() => 1"
		}
		res := s.answerWithin(30*time.Second, tool, args)
		if tool == "list_console_messages" {
			if res.IsError {
				t.Errorf("%s on a busy page failed: %s", tool, text(res))
			}
			continue
		}
		if !res.IsError {
			t.Errorf("%s on a busy page succeeded: %q", tool, text(res))
			continue
		}
		if tool != "evaluate_script" { // it waits up to --scriptTimeout, then says it stopped the script
			mustContain(t, text(res), "busy")
		}
	}
	// The page can be taken away from its loop.
	if res := s.answerWithin(30*time.Second, "navigate_page", map[string]any{"url": site.URL + "/calm"}); res.IsError {
		t.Fatalf("navigate_page away from the busy page failed: %s", text(res))
	}
	mustContain(t, s.ok("take_snapshot", nil), `"Calm"`)

	s.answerWithin(30*time.Second, "navigate_page", map[string]any{"url": site.URL + "/spin"})
	busy := pageID(t, s.ok("list_pages", nil), "[selected]")
	s.ok("new_page", map[string]any{"url": site.URL + "/calm"})
	res := s.answerWithin(30*time.Second, "close_page", map[string]any{"pageId": busy})
	if res.IsError {
		t.Fatalf("close_page on the busy page failed: %s", text(res))
	}
	if list := s.ok("list_pages", nil); pageLine(list, "/spin") != "" {
		t.Fatalf("the busy page is still open:\n%s", list)
	}
}

// TestScriptTimeoutCoversTimers checks that a script that leaves an endless
// loop behind in a timer is bounded by --scriptTimeout like one that loops
// itself.
func TestScriptTimeoutCoversTimers(t *testing.T) {
	site := pages(t, map[string]string{"/calm": `<title>calm</title><h1>Calm</h1>`})
	s := startServer(t, append([]string{"--scriptTimeout", "2000"}, headless...)...)
	s.ok("navigate_page", map[string]any{"url": site.URL + "/calm"})
	res := s.answerWithin(20*time.Second, "evaluate_script", map[string]any{"function": "() => { setTimeout(() => { while (true) {} }, 0); return 7 }"})
	mustContain(t, fmt.Sprintf("%q", text(res)), "busy")
	res = s.answerWithin(20*time.Second, "evaluate_script", map[string]any{"function": "() => { while (true) {} }"})
	if !res.IsError {
		t.Fatalf("an endless script succeeded: %s", text(res))
	}
}

// TestDialogDuringACallIsReported checks that a dialog the page opens while
// a call waits is reported at once, not after the call's whole timeout.
func TestDialogDuringACallIsReported(t *testing.T) {
	site := pages(t, map[string]string{"/late": `<title>late</title><h1>Late</h1><script>
		addEventListener("load", () => setTimeout(() => alert("too late"), 500));
	</script>`})
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL + "/late"})
	res := s.answerWithin(15*time.Second, "wait_for", map[string]any{"text": []string{"never"}, "timeout": 60000})
	if !res.IsError {
		t.Fatalf("wait_for succeeded: %s", text(res))
	}
	mustContain(t, text(res), "dialog", "too late", "handle_dialog")
	s.ok("handle_dialog", map[string]any{"action": "accept"})
	mustContain(t, s.ok("take_snapshot", nil), `"Late"`)
}
