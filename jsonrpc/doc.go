// Package jsonrpc is a small, dependency-free Model Context Protocol (MCP)
// server that speaks JSON-RPC 2.0 over a newline-delimited byte stream,
// normally the process's stdin and stdout.
//
// The package is split the way gopls' jsonrpc2 splits its concerns:
//
//   - framing (frame.go): reading one message per line with a hard size cap
//     and writing whole lines under a mutex;
//   - messages (message.go): classifying a line as request, notification or
//     response and rejecting malformed envelopes with the right error code;
//   - connection and handler (server.go, methods.go): one session per call
//     to [Server.Serve], every request on its own goroutine, cancellation,
//     server-to-client requests and notifications, and the built-in MCP
//     methods (initialize, ping, tools/list, tools/call, logging/setLevel).
//
// Tools are supplied by a [Handler]. Everything else about MCP that the
// DevTools server needs (progress, logging, roots) is exposed through
// [Server] methods and [ProgressFrom].
package jsonrpc
