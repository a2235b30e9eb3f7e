package config

// The flags of serving MCP over Streamable HTTP (--port and the rest).
// The reference serves stdio only, so these names are ours; they stay out
// of its way by all naming the transport except --port and --host.

import (
	"net"
	"os"
	"strconv"
	"strings"
)

// tokenEnv is the environment variable the bearer token may come from
// instead of --httpToken, which other users can read in the process list.
const tokenEnv = "DEVTOOLS_MCP_HTTP_TOKEN"

// HTTPConfig is the part of the command line about serving over HTTP.
type HTTPConfig struct {
	// Serve is set by --port: serve MCP over Streamable HTTP instead of stdio.
	Serve bool
	// Port is the TCP port (--port); 0 picks a free one.
	Port int
	// Host is the address to listen on (--host); "" means 127.0.0.1.
	Host string
	// AllowRemote lets Host be other than a loopback address
	// (--httpAllowRemote).
	AllowRemote bool
	// Token, when set, must come as "Authorization: Bearer <token>"
	// (--httpToken, or $DEVTOOLS_MCP_HTTP_TOKEN).
	Token string
	// AllowedOrigins are the browser origins allowed besides none
	// (--httpAllowedOrigin, repeatable), besides the server's own.
	AllowedOrigins []string
	// MaxSessions bounds the live MCP sessions (--httpMaxSessions); 0
	// means the transport's default.
	MaxSessions int
	// MaxBodyBytes bounds a POST body (--httpMaxBodyBytes); 0 means the
	// message size limit.
	MaxBodyBytes int
	// IdleTimeoutS closes sessions idle this many seconds
	// (--httpIdleTimeout); 0 means the transport's default.
	IdleTimeoutS int
	// GoneTimeoutS ends a session this many seconds after its client let
	// its GET stream go (--httpGoneTimeout); 0 means the transport's default.
	GoneTimeoutS int
}

// httpFlags are the flags of HTTPConfig, listed under groupServe.
func httpFlags() []*flagSpec {
	return []*flagSpec{
		{name: "port", kind: kindString, group: groupServe, arg: "PORT", example: "8931",
			def:     "stdio",
			desc:    "Serve MCP over Streamable HTTP at http://HOST:PORT/mcp instead of stdio; 0 picks a free port. Every MCP session gets a browser context of its own.",
			convert: convertPort},
		{name: "host", kind: kindString, group: groupServe, arg: "HOST", example: "127.0.0.1",
			def:   "127.0.0.1",
			desc:  "Address to listen on with --port. Anything but a loopback address also needs --httpAllowRemote.",
			field: func(c *Config) any { return &c.HTTP.Host }},
		{name: "httpAllowRemote", kind: kindBool, group: groupServe,
			desc:  "Let --host be an address other machines reach. Set --httpToken too: anyone who reaches the port drives the browser.",
			field: func(c *Config) any { return &c.HTTP.AllowRemote }},
		{name: "httpToken", kind: kindString, group: groupServe, arg: "TOKEN", example: "s3cret",
			def:   "$" + tokenEnv + ", else none",
			desc:  "Require \"Authorization: Bearer TOKEN\" on every HTTP request. Prefer the environment variable: the process list shows flags.",
			field: func(c *Config) any { return &c.HTTP.Token }},
		{name: "httpAllowedOrigin", kind: kindList, group: groupServe, arg: "ORIGIN", example: "https://app.example.com",
			def:   "the server's own",
			desc:  "Origin (scheme://host:port) whose web pages may call the server besides its own; requests from other origins, other loopback ports included, get 403. Repeat for more.",
			field: func(c *Config) any { return &c.HTTP.AllowedOrigins }},
		{name: "httpMaxSessions", kind: kindInt, group: groupServe, arg: "N", min: 1,
			def:   "64",
			desc:  "Most MCP sessions at once; a further initialize gets 503.",
			field: func(c *Config) any { return &c.HTTP.MaxSessions }},
		{name: "httpMaxBodyBytes", kind: kindInt, group: groupServe, arg: "BYTES", min: 1,
			def:   "67108864",
			desc:  "Largest POST body; a longer one gets 413.",
			field: func(c *Config) any { return &c.HTTP.MaxBodyBytes }},
		{name: "httpIdleTimeout", kind: kindInt, group: groupServe, arg: "SECONDS", min: 1,
			def:   "1800",
			desc:  "End an MCP session, and dispose of its browser context, after this many seconds without a request.",
			field: func(c *Config) any { return &c.HTTP.IdleTimeoutS }},
		{name: "httpGoneTimeout", kind: kindInt, group: groupServe, arg: "SECONDS", min: 1,
			def:   "30",
			desc:  "End an MCP session, and dispose of its browser context, this many seconds after its client closed the session's GET event stream without reopening it, with no request running: the client is gone.",
			field: func(c *Config) any { return &c.HTTP.GoneTimeoutS }},
	}
}

// convertPort parses --port: a TCP port, 0 for any free one.
func convertPort(c *Config, name, value string) error {
	n, err := strconv.Atoi(value)
	if err != nil || n < 0 || n > 65535 || strings.TrimSpace(value) != value {
		return usageErrorf("%s expects a TCP port from 0 to 65535 (0 picks a free one), got %s", name, shown(value))
	}
	c.HTTP.Serve, c.HTTP.Port = true, n
	return nil
}

// checkHTTPConflicts reports HTTP flags given without --port, and a
// non-loopback --host without --httpAllowRemote.
func checkHTTPConflicts(c *Config) error {
	h := c.HTTP
	if !h.Serve {
		for _, f := range []struct {
			set  bool
			name string
		}{
			{h.Host != "", "--host"}, {h.AllowRemote, "--httpAllowRemote"}, {h.Token != "", "--httpToken"},
			{h.AllowedOrigins != nil, "--httpAllowedOrigin"}, {h.MaxSessions != 0, "--httpMaxSessions"},
			{h.MaxBodyBytes != 0, "--httpMaxBodyBytes"}, {h.IdleTimeoutS != 0, "--httpIdleTimeout"},
			{h.GoneTimeoutS != 0, "--httpGoneTimeout"},
		} {
			if f.set {
				return usageErrorf("%s configures serving over HTTP; add --port or drop it", f.name)
			}
		}
		return nil
	}
	if !h.AllowRemote && !isLoopbackHost(h.Host) {
		return usageErrorf("--host %s is reachable from other machines, and whoever reaches it drives the browser; pass --httpAllowRemote (and set --httpToken) if that is what you want, or use --host 127.0.0.1", shown(h.Host))
	}
	for _, o := range h.AllowedOrigins {
		if !strings.Contains(o, "://") {
			return usageErrorf("--httpAllowedOrigin expects an origin such as https://app.example.com, got %s", shown(o))
		}
	}
	return nil
}

// isLoopbackHost reports whether host ("" means 127.0.0.1) names only this
// machine: localhost or a loopback IP. An empty host in net.Listen would
// mean every interface, which is why "" is not passed on as is.
func isLoopbackHost(host string) bool {
	if host == "" || strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// Loopback reports whether the server listens only on this machine.
func (h HTTPConfig) Loopback() bool { return isLoopbackHost(h.Host) }

// BearerToken is the token clients must send: --httpToken, else
// $DEVTOOLS_MCP_HTTP_TOKEN, else "" for none.
func (h HTTPConfig) BearerToken() string {
	if h.Token != "" {
		return h.Token
	}
	return os.Getenv(tokenEnv)
}

// ListenAddr is where --host and --port say to listen: 127.0.0.1 when no
// host is given (never every interface), an IPv6 host with or without
// brackets.
func (h HTTPConfig) ListenAddr() string {
	host := strings.TrimSuffix(strings.TrimPrefix(h.Host, "["), "]") // JoinHostPort adds them
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, strconv.Itoa(h.Port))
}
