// Command devtools-mcp is a Chrome DevTools MCP server: it gives coding
// agents a live Chrome to drive and inspect over the Model Context Protocol
// on stdio. It is a drop-in replacement for chrome-devtools-mcp, shipped as
// one static binary that sends nothing anywhere.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/devtools-mcp/devtools-mcp/internal/browser"
	"github.com/devtools-mcp/devtools-mcp/internal/chrome"
	"github.com/devtools-mcp/devtools-mcp/internal/cli"
	"github.com/devtools-mcp/devtools-mcp/internal/config"
	"github.com/devtools-mcp/devtools-mcp/internal/logfile"
	"github.com/devtools-mcp/devtools-mcp/internal/middleware"
	"github.com/devtools-mcp/devtools-mcp/internal/urlpattern"
	"github.com/devtools-mcp/devtools-mcp/jsonrpc"
	"github.com/devtools-mcp/devtools-mcp/tools"
)

// version is the release; builds may override it with -ldflags "-X main.version=...".
var version = "0.1.0"

func main() {
	if cli.IsChromeDevtools(os.Args[0]) {
		os.Exit(cli.RunChromeDevtools(os.Args[1:], os.Stdout, os.Stderr, version))
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// serverInfo names the server in initialize answers, as the reference does,
// so clients that key settings on the name keep working.
func serverInfo() jsonrpc.ServerInfo {
	return jsonrpc.ServerInfo{Name: "chrome_devtools", Title: "Chrome DevTools MCP server", Version: version}
}

// run is main with its inputs and outputs explicit; it returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		if args[0] == "daemon" {
			return runDaemon(args[1:], stderr) // see daemon.go
		}
		return cli.Run(args, stdout, stderr, version) // a subcommand or tool
	}
	cfg, err := config.LoadConfig(args, config.ProcessEnviron())
	if err != nil {
		var ue *config.UsageError
		if errors.As(err, &ue) {
			fmt.Fprintf(stderr, "devtools-mcp: %v\nRun devtools-mcp --help for the list of flags.\n", err)
			return 2
		}
		fmt.Fprintf(stderr, "devtools-mcp: %v\n", err)
		return 1
	}
	for _, w := range cfg.Warnings {
		fmt.Fprintf(stderr, "devtools-mcp: warning: %s\n", w)
	}
	if cfg.Help {
		fmt.Fprint(stdout, config.Usage())
		return 0
	}
	if cfg.Version {
		fmt.Fprintln(stdout, version)
		return 0
	}
	a, err := newApp(cfg, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "devtools-mcp: %v\n", err)
		return 1
	}
	defer a.close()
	opts := append([]jsonrpc.Option{jsonrpc.WithLogger(a.log)}, mcpOptions(cfg, a)...)
	srv := jsonrpc.NewServer(serverInfo(), a.handler(), opts...)
	if cfg.HTTP.Serve {
		err = serveHTTP(a, cfg, srv, stderr)
	} else {
		a.log.Debug("serving MCP on stdio", "version", version)
		if cli.IsTerminal(stdin) {
			fmt.Fprintf(stderr, "devtools-mcp %s: an MCP server on stdin and stdout, meant to be started by an MCP client (see docs/clients.md); for commands in a shell use `devtools-mcp help`. Serving anyway; Ctrl-D ends it.\n", version)
		}
		err = srv.Serve(a.ctx, stdin, stdout)
	}
	closeCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	a.closeBrowser(closeCtx)
	if err != nil && a.ctx.Err() == nil {
		a.log.Error("server stopped", "err", err)
		return 1
	}
	return 0
}

// app is what stdio and daemon modes share: the logger, a context that
// ends on SIGINT/SIGTERM/SIGHUP, and the browser manager and tool server
// the flags describe.
type app struct {
	log *slog.Logger
	// rootsWarned is set once the log has warned that a client shares no
	// roots: with many clients over HTTP, later ones say so at debug level.
	rootsWarned atomic.Bool
	ctx         context.Context
	mgr         *browser.Manager
	tools       *tools.Server
	warm        browser.WarmUp // the browser's start ahead of the first call
	close       func()
}

// newApp builds the app for cfg; nothing starts until a client initializes.
func newApp(cfg *config.Config, stderr io.Writer) (*app, error) {
	log, closeLog, err := newLogger(cfg.LogFile, stderr)
	if err != nil {
		return nil, err
	}
	warnURLPolicyGaps(cfg, log)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	a := &app{log: log, ctx: ctx, mgr: browser.NewManager(browserOptions(cfg, log)), close: func() { stop(); closeLog() }}
	topts := cfg.ToolOptions()
	topts.Guard.UserPatterns = userSensitivePatterns()
	if cfg.HTTP.Serve {
		topts.SessionBrowsers = sessionBrowsers(a, cfg)
	}
	a.tools = tools.NewServer(topts, a.mgr, log)
	return a, nil
}

// urlPolicyGaps is what --blockedUrlPattern / --allowedUrlPattern cannot
// hold: Chrome lets no client decide on these connections, and they are
// not refused wholesale as WebSockets are.
const urlPolicyGaps = "WebRTC, WebTransport, DNS lookups and preconnects"

// warnURLPolicyGaps says once, at start, what a URL policy leaves open, so
// that a user who relies on it to keep pages from reaching the network
// learns it before a page does.
func warnURLPolicyGaps(cfg *config.Config, log *slog.Logger) {
	flag := "--blockedUrlPattern"
	switch {
	case len(cfg.AllowedURLPatterns) > 0:
		flag = "--allowedUrlPattern"
	case len(cfg.BlockedURLPatterns) == 0:
		return
	}
	log.Warn(flag + " checks every HTTP(S) request and refuses every WebSocket; it does not cover " + urlPolicyGaps + ", which pages can still use to reach any host")
	if cfg.AutoConnect || cfg.BrowserURL != "" || cfg.WSEndpoint != "" {
		// The launched browser's profile gets preloading turned off; the
		// user's own Chrome keeps its setting, and Chrome's speculative
		// loads pass beside every DevTools interception: the speculation
		// guard keeps the rules from Chrome, all but those it learns of
		// only once Chrome has them.
		log.Warn(flag + " keeps the speculation rules (prefetch and prerender) of pages from a Chrome it attaches to as they load, but not an immediate prefetch asked for inside a shadow root or by a page loaded before the server attached: turn off Settings > Performance > Preload pages in that Chrome to stop every speculative load")
	}
}

// handler is the tools as the MCP server calls them: timed, and handing
// back the memory of big calls.
func (a *app) handler() jsonrpc.Handler {
	return jsonrpc.Wrap(a.tools, middleware.Timed(a.log), middleware.ReturnMemory())
}

// newLogger logs to stderr, and also to logFile when given. The file also
// gets one line per tool call (tools.LevelCall), which stderr does not.
// DEBUG=* (or any non-empty DEBUG, or NODE_DEBUG as the reference spells
// it) turns on debug messages in both; CDP messages, which hold cookies,
// tokens and page content, only with DEBUG=protocol (rawProtocolLog).
func newLogger(logFile string, stderr io.Writer) (*slog.Logger, func(), error) {
	level, fileLevel := slog.LevelInfo, tools.LevelCall
	if os.Getenv("DEBUG") != "" || os.Getenv("NODE_DEBUG") != "" {
		level, fileLevel = slog.LevelDebug, slog.LevelDebug
	}
	h := slog.Handler(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	closeFn := func() {}
	if logFile != "" {
		f, err := logfile.Open(logFile)
		if err != nil {
			return nil, nil, err
		}
		h = slog.NewMultiHandler(h, slog.NewTextHandler(f, &slog.HandlerOptions{Level: fileLevel}))
		closeFn = func() { f.Close() }
	}
	log := slog.New(jsonrpc.LogHandler(h, "devtools-mcp"))
	if rawProtocolLog() {
		log.Warn("DEBUG=protocol: every CDP message is logged raw, cookies, tokens and page content included")
	}
	return log, closeFn, nil
}

// discoverInstructions is the short guide server/discover (MCP
// 2026-07-28) gives a client for its model; initialize sends none, as the
// reference does.
const discoverInstructions = "Drives a Chrome browser through the DevTools protocol. Open pages with new_page or navigate_page, read them with take_snapshot (its uids name elements), act with click, fill and press_key on those uids, and debug with the console, network and performance tools. Pass pageId to keep to your own pages when the server is shared, and isolatedContext to new_page for pages that share no cookies or storage with others. Files are read and written only inside the configured --workspace or --filesystemRoot directories, else the temp directory."

// mcpOptions configure the MCP server of stdio and daemon mode alike
// (each adds its logger). Once a client has initialized, the browser starts
// in the background (warmBrowser).
func mcpOptions(cfg *config.Config, a *app) []jsonrpc.Option {
	return []jsonrpc.Option{
		jsonrpc.WithDiscoverInstructions(discoverInstructions),
		// A 2026-07-28 client's probe is where a 2025 one would initialize.
		jsonrpc.WithDiscoverHandler(func(context.Context) { a.warmBrowser(cfg) }),
		jsonrpc.WithNotificationHandler("notifications/initialized", func(ctx context.Context, _ json.RawMessage) {
			clientInitialized(ctx, cfg, a.log, &a.rootsWarned)
			a.warmBrowser(cfg)
		}),
	}
}

// clientInitialized logs who connected, and tells each session's client
// when it has no roots: its tools then read and write files only in the
// temp directory. The log warns of it once (warned is set then) and says
// it at debug level after that.
func clientInitialized(ctx context.Context, cfg *config.Config, log *slog.Logger, warned *atomic.Bool) {
	ss := jsonrpc.SessionFrom(ctx)
	info := ss.ClientInfo()
	log.Debug("MCP client initialized", "client", info.Name, "clientVersion", info.Version, "protocol", ss.ProtocolVersion())
	if ss.HasCapability("roots") || cfg.AllowUnrestrictedPaths || cfg.FilesystemRoots != nil {
		return
	}
	msg := "the MCP client shares no roots: tools read and write files only in the temp directory " + os.TempDir() + "; add roots in the client, or pass --workspace=<folder> (--workspace=/ for every path)"
	if warned.CompareAndSwap(false, true) {
		log.Warn(msg)
	} else {
		log.Debug(msg, "client", info.Name)
	}
	ss.Log("warning", "devtools-mcp", msg)
}

// browserOptions maps the command line to how the browser is launched or attached.
func browserOptions(cfg *config.Config, log *slog.Logger) browser.Options {
	return browser.Options{
		Logger:      log,
		ProtocolLog: rawProtocolLog(),
		Launch: chrome.LaunchOptions{
			ExecutablePath:      cfg.ExecutablePath,
			Channel:             cfg.Channel,
			UserDataDir:         cfg.UserDataDir,
			Isolated:            cfg.Isolated,
			Headless:            cfg.Headless,
			ViewportWidth:       cfg.ViewportWidth,
			ViewportHeight:      cfg.ViewportHeight,
			ProxyServer:         cfg.ProxyServer,
			AcceptInsecureCerts: cfg.AcceptInsecureCerts,
			Args:                cfg.ChromeArgs,
			IgnoreDefaultArgs:   cfg.IgnoreDefaultChromeArgs,
			Devtools:            cfg.ExperimentalDevtools,
			ExtraFeatures:       launchFeatures(cfg),
			EnableExtensions:    cfg.Categories["extensions"],
		},
		WebDriver:          chrome.WebDriverOptions{URL: cfg.WebDriverURL, Capabilities: cfg.WebDriverCapabilities},
		BlockedURLPatterns: cfg.BlockedURLPatterns,
		AllowedURLPatterns: cfg.AllowedURLPatterns,
		IncludeAllPages:    cfg.ExperimentalIncludeAllPages,
		Navigation:         urlpattern.NavigationPolicy{NoJavaScript: cfg.NoJavaScriptEvaluation, NoFiles: cfg.NoFileNavigations},
		NoSourceMaps:       cfg.NoSourceMaps,
		Attach: chrome.AttachOptions{
			BrowserURL:  cfg.BrowserURL,
			WSEndpoint:  cfg.WSEndpoint,
			WSHeaders:   cfg.WSHeaders,
			AutoConnect: cfg.AutoConnect,
			UserDataDir: cfg.UserDataDir,
			Channel:     cfg.Channel,
		},
	}
}

// launchFeatures are the Chrome features the enabled tool categories need.
func launchFeatures(cfg *config.Config) []string {
	if cfg.Categories["experimentalWebmcp"] {
		return []string{"WebMCP"}
	}
	return nil
}

// userSensitivePatterns reads the sensitive page patterns of the user's
// sensitive-patterns.txt, in the devtools-mcp folder of the user's config
// directory; none when there is no such file.
func userSensitivePatterns() []string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return nil
	}
	patterns, _ := urlpattern.ReadFile(filepath.Join(dir, "devtools-mcp", "sensitive-patterns.txt"))
	return patterns
}

// rawProtocolLog reports whether the user asked for every CDP message in
// the log, raw (DEBUG naming "protocol", as DEBUG=protocol or
// DEBUG=*,protocol): the only way cookies, tokens and page content reach it.
func rawProtocolLog() bool {
	return strings.Contains(os.Getenv("DEBUG"), "protocol")
}

// warmBrowser starts the browser ahead of the first call, unless
// --lazyLaunch says to wait for it; with one browser for all (stdio), its
// first page too.
func (a *app) warmBrowser(cfg *config.Config) {
	if !cfg.LazyLaunch {
		a.warm.Start(a.ctx, a.mgr, !cfg.HTTP.Serve, a.log)
	}
}

// closeBrowser stops the warm-up, then closes the browser.
func (a *app) closeBrowser(ctx context.Context) {
	a.warm.Stop()
	a.mgr.Close(ctx)
}
