package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestClientGetsLogAndLogFileGetsCalls: a client that asked for info logs
// hears about the browser launch and a refused path, and --logFile gets one
// line per tool call without the text the agent typed.
func TestClientGetsLogAndLogFileGetsCalls(t *testing.T) {
	logs := make(chan string, 64)
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, &mcp.ClientOptions{
		//lint:ignore SA1019 logging is deprecated in the newest protocol, but the clients our users run still ask for it.
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			b, _ := json.Marshal(req.Params.Data)
			logs <- string(req.Params.Level) + " " + string(b)
		},
	})
	logFile := filepath.Join(t.TempDir(), "server.log")
	// --lazyLaunch: Chrome starts in the first call, after the client set
	// its log level; started in the background right after initialize, its
	// launch precedes any logging/setLevel and is not the client's to hear.
	s := startServerWith(t, client, append(headless, "--lazyLaunch", "--logFile", logFile)...)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	//lint:ignore SA1019 as above: the server serves logging/setLevel.
	if err := s.session.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	site := pages(t, map[string]string{"/": `<input id=q aria-label=Query>`})
	s.ok("navigate_page", map[string]any{"url": site.URL + "/"})
	waitLog(t, logs, "launched Chrome")
	uid := uidOf(t, s.ok("take_snapshot", nil), `textbox "Query"`)
	s.ok("fill", map[string]any{"uid": uid, "value": "hunter2-secret"})
	res := s.call("take_screenshot", map[string]any{"filePath": "/etc/devtools-mcp-refused.png"})
	if !res.IsError {
		t.Fatalf("a screenshot to /etc was not refused: %s", text(res))
	}
	waitLog(t, logs, "refused a file path")

	raw, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	log := string(raw)
	for _, want := range []string{"tool=navigate_page", "tool=take_snapshot", "tool=fill", "outcome=ok", "tool=take_screenshot", "outcome=error"} {
		if !strings.Contains(log, want) {
			t.Errorf("--logFile lacks %q:\n%s", want, log)
		}
	}
	if strings.Contains(log, "hunter2-secret") {
		t.Errorf("--logFile shows the text the agent filled in:\n%s", log)
	}
}

// waitLog waits for a log notification containing want.
func waitLog(t *testing.T, logs <-chan string, want string) {
	t.Helper()
	timeout := time.After(20 * time.Second)
	var seen []string
	for {
		select {
		case l := <-logs:
			if strings.Contains(l, want) {
				return
			}
			seen = append(seen, l)
		case <-timeout:
			t.Fatalf("no log notification with %q; got %q", want, seen)
		}
	}
}
