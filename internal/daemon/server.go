package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"sync"
	"time"

	"github.com/devtools-mcp/devtools-mcp/jsonrpc"
)

// The control tools are answered by the daemon itself and are not listed by
// tools/list; only this package's client calls them.
const (
	statusTool = "devtools-mcp/status"
	stopTool   = "devtools-mcp/stop"
)

// A client that spawns the daemon (see spawn) hands it the locked pid file
// as descriptor 3 and a pipe as descriptor 4, to which the daemon writes
// "ready" once it accepts connections; handoffEnv tells the daemon so.
const (
	lockFD     = 3
	readyFD    = 4
	handoffEnv = "DEVTOOLS_MCP_DAEMON_HANDOFF"
)

// Config is what a daemon serves and how it ends.
type Config struct {
	Paths Paths
	// Info introduces the server in each connection's initialize result.
	Info jsonrpc.ServerInfo
	// Handler serves the tools; one Handler serves every connection, so
	// what a tool leaves behind (pages, cookies, snapshots) is there for the
	// next command.
	Handler jsonrpc.Handler
	// Options configure the MCP server, after a logger writing to Log.
	Options []jsonrpc.Option
	Log     *slog.Logger
	// Details, when set, adds to the status answer (e.g. browser and pages).
	Details func(ctx context.Context) string
	// Shutdown, when set, runs once the daemon accepts no more connections
	// and before it ends the open ones, e.g. to close the browser.
	Shutdown func(ctx context.Context)
}

// Status is what a running daemon says about itself.
type Status struct {
	PID     int       `json:"pid"`
	Since   time.Time `json:"since"`
	Details string    `json:"details,omitempty"`
}

// Serve runs the daemon: it takes the session's lock (handed over by the
// client that spawned it, or on its own), replaces a stale socket, writes
// the pid file, and serves MCP on every connection until ctx ends or a
// client asks it to stop. It then closes the listener, runs cfg.Shutdown,
// ends the connections and removes its files.
func Serve(ctx context.Context, cfg Config) error {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	p := cfg.Paths
	lock, ready, err := takeLock(p)
	if err != nil {
		if errors.Is(err, errLocked) {
			return fmt.Errorf("a daemon already runs for session %q (see %s)", p.Session, p.PID)
		}
		return err
	}
	defer lock.Close()
	if ready != nil {
		defer ready.Close()
	}
	if err := os.Remove(p.Socket); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove the stale socket: %w", err)
	}
	ln, err := net.Listen("unix", p.Socket)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	defer ln.Close() // also removes the socket file
	if err := os.Chmod(p.Socket, 0o600); err != nil {
		return fmt.Errorf("restrict the socket: %w", err)
	}
	if err := writePID(lock); err != nil {
		return err
	}
	cfg.Log.Info("daemon listening", "session", p.Session, "socket", p.Socket, "pid", os.Getpid())
	if ready != nil {
		if _, err := ready.WriteString("ready\n"); err != nil {
			cfg.Log.Warn("could not tell the client the daemon is ready", "err", err)
		}
		ready.Close() // now: the client reads up to EOF
	}

	d := &daemon{cfg: cfg, since: time.Now(), stopping: make(chan struct{})}
	// One server for every connection, each its own session: clients share
	// the tools (and so the browser), never their capabilities or roots.
	opts := append([]jsonrpc.Option{jsonrpc.WithLogger(cfg.Log)}, cfg.Options...)
	d.srv = jsonrpc.NewServer(cfg.Info, control{cfg.Handler, d}, opts...)
	go func() {
		select {
		case <-ctx.Done():
		case <-d.stopping:
		}
		ln.Close()
	}()
	// Connections outlive ctx: they end only after Shutdown, so a client
	// that asked to stop learns when the browser is closed.
	connCtx, endConns := context.WithCancel(context.WithoutCancel(ctx))
	defer endConns()
	var wg sync.WaitGroup
	for {
		conn, err := ln.Accept()
		if errors.Is(err, net.ErrClosed) {
			break
		}
		if err != nil {
			cfg.Log.Warn("accept failed", "err", err)
			time.Sleep(50 * time.Millisecond) // e.g. out of descriptors: do not spin
			continue
		}
		wg.Go(func() { d.serveConn(connCtx, conn) })
	}
	cfg.Log.Info("daemon stopping")
	if cfg.Shutdown != nil {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		cfg.Shutdown(sctx)
		cancel()
	}
	// Remove the pid file while still holding its lock (see lockPID), and
	// before ending the connections: a client that asked to stop sees its
	// connection close once the browser and our files are gone.
	if err := os.Remove(p.PID); err != nil {
		cfg.Log.Warn("could not remove the pid file", "err", err)
	}
	endConns()
	wg.Wait()
	return nil
}

// takeLock returns the pid file locked by the client that spawned us, with
// the pipe to tell it we are ready, or else locks the pid file itself.
func takeLock(p Paths) (lock, ready *os.File, err error) {
	if os.Getenv(handoffEnv) == "" {
		lock, err = lockPID(p.PID)
		return lock, nil, err
	}
	os.Unsetenv(handoffEnv)
	// Keep the lock from leaking into the browser we launch, which could
	// outlive us and hold it.
	closeOnExec(lockFD)
	closeOnExec(readyFD)
	lock, ready = os.NewFile(lockFD, p.PID), os.NewFile(readyFD, "ready")
	if !isFile(lock, p.PID) {
		ready.Close()
		return nil, nil, fmt.Errorf("descriptor %d is not the pid file %s; start the daemon with devtools-mcp start", lockFD, p.PID)
	}
	return lock, ready, nil
}

// daemon is the state shared by the connections of one Serve.
type daemon struct {
	cfg      Config
	srv      *jsonrpc.Server
	since    time.Time
	stopOnce sync.Once
	stopping chan struct{} // closed when a client asked to stop
}

// serveConn runs one MCP session on conn.
func (d *daemon) serveConn(ctx context.Context, conn net.Conn) {
	defer conn.Close()
	if err := d.srv.Serve(ctx, conn, conn); err != nil && ctx.Err() == nil {
		d.cfg.Log.Debug("connection ended", "err", err)
	}
}

// status describes the daemon, with the details cfg adds.
func (d *daemon) status(ctx context.Context, details bool) *jsonrpc.CallToolResult {
	s := Status{PID: os.Getpid(), Since: d.since}
	if details && d.cfg.Details != nil {
		s.Details = d.cfg.Details(ctx)
	}
	text, _ := json.Marshal(s) // cannot fail: plain fields
	return &jsonrpc.CallToolResult{Content: []jsonrpc.Content{jsonrpc.TextContent(string(text))}, StructuredContent: s}
}

// control adds the daemon's control tools to the served tools.
type control struct {
	jsonrpc.Handler
	d *daemon
}

// CallTool answers the control tools and passes every other call on.
func (c control) CallTool(ctx context.Context, name string, args json.RawMessage) (*jsonrpc.CallToolResult, error) {
	switch name {
	case statusTool:
		return c.d.status(ctx, true), nil
	case stopTool:
		c.d.cfg.Log.Info("a client asked the daemon to stop")
		c.d.stopOnce.Do(func() { close(c.d.stopping) })
		return c.d.status(ctx, false), nil
	}
	return c.Handler.CallTool(ctx, name, args)
}
