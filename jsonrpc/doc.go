// Package jsonrpc is the MCP server: a small, dependency-free Model Context
// Protocol server (and the client side of its connections) that speaks
// JSON-RPC 2.0 over newline-delimited byte streams, such as the process's
// stdin and stdout or a daemon's socket, and over MCP's Streamable HTTP
// transport ([HTTPHandler]) for many clients at once. Besides the JSON-RPC
// loop it holds all of MCP that is not a tool: sessions, progress and
// logging, elicitation, the tasks extension and the stateless 2026-07-28
// revision. The tools themselves come from a [Handler].
//
// As in x/tools' jsonrpc2, the layers are kept apart, each in its own set
// of files, named by prefix, whose first file opens with what the layer
// does and what it may rely on:
//
//   - framing (frame*.go): one message per line with a hard size cap,
//     whole lines written under a mutex, each line classified as request,
//     notification or response, malformed envelopes rejected with the
//     right error code, and [Error], the error object of the wire. It
//     knows nothing of connections or MCP.
//   - connection (conn*.go): one conn per call to [Server.Serve] (and per
//     HTTP session), long requests on goroutines of their own,
//     cancellation both ways, requests to the other side matched to their responses by id
//     (conn_caller.go), and [Client], the other end of a stream
//     connection (conn_client.go). It hands each request to the method
//     layer; of MCP it knows only which requests run concurrently and the
//     notifications it handles itself.
//   - MCP methods (mcp*.go): the protocol's types and the [Handler] that
//     supplies the tools (mcp.go); the built-in methods initialize, ping,
//     tools/list, tools/call and logging/setLevel (mcp_methods.go); the
//     per-client [Session] (mcp_session.go), progress (mcp_progress.go)
//     and logging ([LogHandler], mcp_log.go); tasks (mcp_tasks.go); and
//     MCP 2026-07-28, the stateless revision, where a request whose _meta
//     names that version is served without initialize, in a Session built
//     from its _meta, with server/discover, resultType and cache hints
//     (mcp_modern.go), elicitation as a multi round-trip request
//     (mcp_mrtr.go) and subscriptions/listen (mcp_listen.go).
//   - the HTTP transport (http*.go): Streamable HTTP, one conn per
//     Mcp-Session-Id fed one POSTed message at a time, each request
//     carrying a route in its context so that its response and what the
//     server sends while handling it reach that POST's response
//     (http.go, http_session.go), the event streams (http_sse.go), origin,
//     token and content checks (http_check.go), and 2026-07-28's
//     sessionless requests (http_stateless.go).
//
// server.go ties them together: [NewServer] and its options, and
// [Server.Serve], which runs framing and a conn over one stream.
//
// A [Server] holds no client state, so it can serve many clients at once.
// What belongs to one client (its capabilities and clientInfo, the
// protocol version, its log level, its roots, requests to it such as
// elicitation) lives in the [Session] that each Serve, and each HTTP
// session, creates; handlers reach it with [SessionFrom], and a tool
// call's progress reporter with [ProgressFrom]. [Client] is the other end
// of a connection, for programs that drive a server.
package jsonrpc
