package tools

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/devtools-mcp/devtools-mcp/internal/browser"
	"github.com/devtools-mcp/devtools-mcp/jsonrpc"
)

// defaultSensitivePatterns are pages where a mistaken or injected action
// costs money or access: banks, payments, account security, cloud consoles
// and admin back-offices.
var defaultSensitivePatterns = []string{
	"*://*.bank.*/*", "*://*.bank/*",
	"*://*.paypal.com/*", "*://paypal.com/*", "*://dashboard.stripe.com/*", "*://*.alipay.com/*", "*://pay.google.com/*",
	"*://github.com/settings/*", "*://gitlab.com/-/profile/*", "*://myaccount.google.com/*", "*://accounts.google.com/*",
	"*://account.microsoft.com/*", "*://account.live.com/*", "*://appleid.apple.com/*",
	"*://console.cloud.google.com/*", "*://console.aws.amazon.com/*", "*://*.console.aws.amazon.com/*", "*://portal.azure.com/*",
	"*://admin.*/*", "*://*/wp-admin/*",
}

// GuardOptions configure the protections for a browser that is the user's own.
type GuardOptions struct {
	// Sensitive turns the sensitive page guard on; main decides it from
	// --sensitivePages and whether the browser is attached.
	Sensitive bool
	// ExtraPatterns come from --sensitiveUrlPattern.
	ExtraPatterns []string
	// CloseUserTabs lets close_page close tabs the agent did not open.
	CloseUserTabs bool
}

// sensitivePatterns gathers the built-in patterns, the flag's and those of
// the user's sensitive-patterns.txt (one glob a line, # comments).
func sensitivePatterns(extra []string) browser.URLPatterns {
	all := append(append([]string{}, defaultSensitivePatterns...), extra...)
	if dir, err := os.UserConfigDir(); err == nil {
		if f, err := os.Open(filepath.Join(dir, "devtools-mcp", "sensitive-patterns.txt")); err == nil {
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				if line := strings.TrimSpace(sc.Text()); line != "" && !strings.HasPrefix(line, "#") {
					all = append(all, line)
				}
			}
			f.Close()
		}
	}
	return browser.NewURLPatterns(all)
}

// guard asks the user, through the calling session's client
// (elicitation), before a state-changing tool acts on a sensitive page, and
// returns an error saying why the call was refused.
func (s *Server) guard(ctx context.Context, t *Tool, p *browser.Page) error {
	if !s.opts.Guard.Sensitive || !t.Guarded {
		return nil
	}
	url := p.Info().URL
	pattern, ok := s.sensitive.Match(url)
	if !ok {
		return nil
	}
	what := fmt.Sprintf("%s on %s, which matches the sensitive page pattern %q", t.Name, url, pattern)
	if ss := jsonrpc.SessionFrom(ctx); ss != nil {
		res, err := ss.Elicit(ctx, fmt.Sprintf("The agent wants to run %s. Allow this one call?", what), nil)
		switch {
		case errors.Is(err, errors.ErrUnsupported):
			// The client cannot ask: refused below.
		case err != nil:
			return fmt.Errorf("refused %s: asking you for confirmation failed: %w", what, err)
		case res.Action == "accept":
			return nil
		default:
			return fmt.Errorf("refused %s: you declined", what)
		}
	}
	return fmt.Errorf("refused %s: this client cannot ask you for confirmation. Do it yourself in the browser, or start the server with --sensitivePages=off", what)
}
