package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/devtools-mcp/devtools-mcp/internal/browser"
	"github.com/devtools-mcp/devtools-mcp/internal/urlpattern"
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
	// UserPatterns come from the user's sensitive-patterns.txt, which main
	// reads: the server reads no configuration file itself.
	UserPatterns []string
	// CloseUserTabs lets close_page close tabs the agent did not open.
	CloseUserTabs bool
}

// sensitivePatterns gathers the built-in patterns, the flag's and those of
// the user's sensitive-patterns.txt.
func sensitivePatterns(o GuardOptions) urlpattern.List {
	return urlpattern.Compile(slices.Concat(defaultSensitivePatterns, o.ExtraPatterns, o.UserPatterns))
}

// guard asks the user, through the calling session's client, before a
// state-changing tool acts on a sensitive page, and returns an error saying
// why the call was refused. A tool that runs the caller's JavaScript is
// guarded on every page of a sensitive page's origin too: its script can
// reach that page through fetch, an iframe or a window.open handle.
func (s *Server) guard(ctx context.Context, t *Tool, p *browser.Page, args map[string]json.RawMessage) error {
	if !s.opts.Guard.Sensitive || !t.Guarded {
		return nil
	}
	url := p.Info().URL
	if pattern, ok := s.sensitive.Match(url); ok {
		return s.confirm(ctx, fmt.Sprintf("%s on %s, which matches the sensitive page pattern %q", t.Name, url, pattern))
	}
	if pattern, ok := s.sensitive.MatchOrigin(url); ok && t.RunsCallerCode {
		return s.confirm(ctx, fmt.Sprintf("%s on %s, whose scripts can reach the pages of its origin that match the sensitive page pattern %q", t.Name, url, pattern))
	}
	return s.guardFrames(ctx, t, p, args)
}

// guardNavigation is guard for navigate_page and navigate, which are not
// guarded as a whole: leaving a sensitive page for another URL is harmless.
// What acts on the page is: a javascript: URL (it runs in the page), a
// reload (which can submit the page's form again), and an init script
// (it runs in the next document, so the target's URL counts too).
func (s *Server) guardNavigation(ctx context.Context, tool string, p *browser.Page, nav browser.Navigation) error {
	if !s.opts.Guard.Sensitive {
		return nil
	}
	var what string
	switch {
	case urlpattern.RunsScript(nav.URL):
		what = tool + " to a javascript: URL"
	case nav.Type == "reload":
		what = tool + " reload"
	case nav.InitScript != "":
		what = tool + " with an initScript"
		if pattern, ok := s.sensitive.Match(nav.URL); ok {
			return s.confirm(ctx, fmt.Sprintf("%s to %s, which matches the sensitive page pattern %q", what, nav.URL, pattern))
		}
	default:
		return nil
	}
	url := p.Info().URL
	if pattern, ok := s.sensitive.Match(url); ok {
		return s.confirm(ctx, fmt.Sprintf("%s on %s, which matches the sensitive page pattern %q", what, url, pattern))
	}
	return nil
}

// confirm asks the user, through the calling session's client
// (elicitation), whether the agent may do what, and returns an error saying
// why not when the answer is no or cannot be had. It is the one place the
// server asks for a confirmation.
func (s *Server) confirm(ctx context.Context, what string) error {
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
