package main

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/devtools-mcp/devtools-mcp/internal/config"
)

// TestURLPolicyWarnsOfItsGaps checks that a user who sets a URL policy is
// told, once and at start, which connections it cannot hold, and that no
// one else is.
func TestURLPolicyWarnsOfItsGaps(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  config.Config
		want string
	}{
		{"blocked", config.Config{BlockedURLPatterns: []string{"*://evil.test/*"}}, "--blockedUrlPattern"},
		{"allowed", config.Config{AllowedURLPatterns: []string{"http://127.0.0.1:*/*"}}, "--allowedUrlPattern"},
		{"none", config.Config{}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			warnURLPolicyGaps(&tc.cfg, slog.New(slog.NewTextHandler(&buf, nil)))
			got := buf.String()
			if tc.want == "" {
				if got != "" {
					t.Fatalf("warned without a URL policy: %s", got)
				}
				return
			}
			for _, w := range []string{"level=WARN", tc.want, "WebRTC", "WebTransport", "DNS lookups", "preconnects"} {
				if !strings.Contains(got, w) {
					t.Errorf("warning %q lacks %q", got, w)
				}
			}
			if n := strings.Count(got, "\n"); n != 1 {
				t.Errorf("%d lines, want one warning: %s", n, got)
			}
		})
	}
}
