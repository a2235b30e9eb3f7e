// Package jsonrpc is the MCP server loop: a small, dependency-free Model
// Context Protocol server (and the client side of its connections) that
// speaks JSON-RPC 2.0 over newline-delimited byte streams, such as the
// process's stdin and stdout or a daemon's socket, and over MCP's
// Streamable HTTP transport ([HTTPHandler]) for many clients at once.
//
// As in x/tools' jsonrpc2, framing, connection and handler are kept apart:
//
//   - framing (frame.go, message.go): one message per line with a hard size
//     cap, whole lines written under a mutex, and each line classified as
//     request, notification or response, malformed envelopes being
//     rejected with the right error code;
//   - connection (conn.go, caller.go): one per call to [Server.Serve],
//     every request on its own goroutine, cancellation both ways, and
//     requests to the other side matched to their responses by id;
//   - handler (methods.go, mcp.go): the built-in MCP methods (initialize,
//     ping, tools/list, tools/call, logging/setLevel) and the [Handler]
//     that supplies the tools;
//   - MCP 2026-07-28, the stateless revision (modern.go, mrtr.go,
//     listen.go): a request whose _meta names that version is served
//     without initialize, in a Session of its own built from its _meta;
//     server/discover, resultType and cache hints on results, elicitation
//     as a multi round-trip request, subscriptions/listen;
//   - Streamable HTTP (http.go, httpsession.go, sse.go, httpcheck.go): one
//     conn per Mcp-Session-Id, fed one POSTed message at a time; each
//     request carries a route in its context, so its response and what
//     the server sends while handling it reach that POST's response.
//
// A [Server] holds no client state, so it can serve many clients at once.
// What belongs to one client (its capabilities and clientInfo, the
// protocol version, its log level, its roots, requests to it such as
// elicitation) lives in the [Session] that each Serve, and each HTTP
// session, creates; handlers reach it with [SessionFrom], and a tool
// call's progress reporter with [ProgressFrom]. [Client] is the other end of a connection, for programs
// that drive a server.
package jsonrpc
