// Package e2e holds the end-to-end tests and benchmarks of devtools-mcp: each
// builds the real binary from the root module and drives it over stdio (with
// the official MCP Go SDK as the client, or raw JSON-RPC lines) against a real
// headless Chromium and pages served on 127.0.0.1.
//
// It is a module of its own so that the SDK and other test-only dependencies
// stay out of the root go.mod, which lists only what the shipped binary uses.
package e2e
