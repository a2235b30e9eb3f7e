// Package middleware holds what the server wraps around the tools' tool
// calls (jsonrpc.Middleware): a log line of how long each call took and
// how much of it was spent waiting on Chrome, and handing back to the
// system the memory of calls that allocated much.
package middleware
