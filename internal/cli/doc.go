// Package cli is devtools-mcp's command line over a background daemon:
// `devtools-mcp <tool> ...` and start, stop, status and help, and the same
// commands in the grammar of the reference's chrome-devtools client, for
// the binary installed under that name. Both grammars share one dispatch;
// they differ in how arguments are read and answers printed (grammar).
//
// Tool names and arguments come from the daemon's tools/list, so the
// command line always matches the server. The daemon itself is the MCP
// server that main wires; this package starts it (internal/daemon) with
// the user's server flags.
package cli
