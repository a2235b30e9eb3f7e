package urlpattern

import (
	"strings"
	"testing"
)

func TestLogURLDropsCredentials(t *testing.T) {
	for _, raw := range []string{
		"wss://chrome.example/devtools/browser/1?token=s3cret",
		"https://me:s3cret@grid.example/wd/hub",
		"ws://127.0.0.1:9222/devtools/browser/x#s3cret",
		"ws://[::1/s3cret",
	} {
		if got := LogSafe(raw); strings.Contains(got, "s3cret") {
			t.Errorf("LogSafe(%q) = %q", raw, got)
		}
	}
	if got := LogSafe("ws://127.0.0.1:9222/devtools/browser/abc"); got != "ws://127.0.0.1:9222/devtools/browser/abc" {
		t.Errorf("a plain endpoint changed: %q", got)
	}
}
