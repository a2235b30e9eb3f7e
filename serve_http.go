package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/devtools-mcp/devtools-mcp/internal/browser"
	"github.com/devtools-mcp/devtools-mcp/internal/config"
	"github.com/devtools-mcp/devtools-mcp/jsonrpc"
	"github.com/devtools-mcp/devtools-mcp/tools"
)

// mcpPath is where the Streamable HTTP endpoint is mounted.
const mcpPath = "/mcp"

// sessionCloseTimeout bounds disposing of one ended session's browser.
const sessionCloseTimeout = 10 * time.Second

// sessionBrowsers returns how each HTTP session gets a browser of its own:
// a browser context of the one browser the flags describe, or with
// --webdriverUrl a browser of the grid, created on the session's first
// tool call, so that N agents use N grid browsers.
func sessionBrowsers(a *app, cfg *config.Config) func(string) tools.SessionBrowsers {
	if cfg.WebDriverURL != "" {
		return func(string) tools.SessionBrowsers { return browser.NewManager(browserOptions(cfg, a.log)) }
	}
	return func(string) tools.SessionBrowsers { return a.mgr.NewScope() }
}

// httpOptions maps the command line to the transport's options.
func httpOptions(cfg *config.Config, a *app) jsonrpc.HTTPOptions {
	return jsonrpc.HTTPOptions{
		AllowedOrigins: cfg.HTTP.AllowedOrigins,
		BearerToken:    cfg.HTTP.BearerToken(),
		MaxSessions:    cfg.HTTP.MaxSessions,
		MaxBodyBytes:   int64(cfg.HTTP.MaxBodyBytes),
		IdleTimeout:    time.Duration(cfg.HTTP.IdleTimeoutS) * time.Second,
		GoneTimeout:    time.Duration(cfg.HTTP.GoneTimeoutS) * time.Second,
		OnSessionClose: func(ss *jsonrpc.Session) {
			ctx, cancel := context.WithTimeout(context.Background(), sessionCloseTimeout)
			defer cancel()
			a.tools.EndSession(ctx, ss.ID())
			a.log.Debug("MCP session ended; its browser context is gone", "session", ss.ID())
		},
	}
}

// serveHTTP serves srv over Streamable HTTP at cfg's address until a.ctx
// ends (a signal), then ends every session and returns.
func serveHTTP(a *app, cfg *config.Config, srv *jsonrpc.Server, stderr io.Writer) error {
	ln, err := net.Listen("tcp", cfg.HTTP.ListenAddr())
	if err != nil {
		return fmt.Errorf("--port: %w", err)
	}
	opts := httpOptions(cfg, a)
	if opts.BearerToken == "" {
		fmt.Fprintln(stderr, noTokenWarning(cfg.HTTP.Loopback()))
	}
	h := jsonrpc.NewHTTPHandler(srv, opts)
	mux := http.NewServeMux()
	mux.Handle(mcpPath, h)
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(a.log.Handler(), slog.LevelDebug)}
	// Clients and tests read the address from this line (port 0 picks one).
	fmt.Fprintf(stderr, "devtools-mcp: serving MCP over Streamable HTTP at http://%s%s\n", ln.Addr(), mcpPath)

	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err = <-served:
	case <-a.ctx.Done():
	}
	h.Close() // ends the sessions, disposing of their browser contexts
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = hs.Shutdown(ctx)
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// noTokenWarning is printed when --port serves without a bearer token:
// web pages are kept out, but any program that reaches the port (on a
// loopback address, any local user's) drives the browser.
func noTokenWarning(loopback bool) string {
	who := "any program of any user on this machine"
	if !loopback {
		who = "anyone who reaches the port"
	}
	return "devtools-mcp: warning: serving without --httpToken (or $DEVTOOLS_MCP_HTTP_TOKEN): " + who + " can drive the browser"
}
