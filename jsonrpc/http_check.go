package jsonrpc

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// browserAllowed reports why a request may not proceed, or "" when it
// may. It stands between web pages and the server: a page the user (or the
// agent, in the controlled browser) opened must not start a session or
// call a tool, whatever it sends.
//
//   - Host must name this machine when the connection came in on a
//     loopback address (localhost or a loopback IP literal, any port
//     spelling), or an allowed origin's host: a page whose name was
//     rebound to 127.0.0.1 sends its own name.
//   - Origin, which browsers send on every POST, must be the server's
//     own origin (http, a loopback name, the port the connection came in
//     on) or one of HTTPOptions.AllowedOrigins. Other loopback ports are
//     other origins: a dev server's page is not the MCP client.
//   - Sec-Fetch-Mode, which only browsers send and scripts cannot set,
//     must not be no-cors or navigate: a request made so cannot read the
//     answer, so no real client sends one, but it would still reach the
//     server.
func (h *HTTPHandler) browserAllowed(r *http.Request) string {
	local := localAddr(r)
	if !h.hostAllowed(r.Host, local) {
		return fmt.Sprintf("host %q is not this server's address (DNS rebinding?)", r.Host)
	}
	if origin := r.Header.Values("Origin"); len(origin) > 0 && !h.originAllowed(origin, r.Host, local) {
		return fmt.Sprintf("origin %q is not allowed to call this server", strings.Join(origin, ", "))
	}
	switch mode := strings.ToLower(r.Header.Get("Sec-Fetch-Mode")); mode {
	case "", "cors", "same-origin":
	default:
		return fmt.Sprintf("a browser's %s request cannot call this server", mode)
	}
	return ""
}

// localAddr returns the address the request's connection came in on, or
// nil when the server did not record it.
func localAddr(r *http.Request) *net.TCPAddr {
	a, _ := r.Context().Value(http.LocalAddrContextKey).(*net.TCPAddr)
	return a
}

// hostAllowed reports whether the Host header names the server: on a
// loopback connection only loopback names and the allowed origins' hosts
// do; on another one (--httpAllowRemote) any name does, since the
// machine's names are not known here, and the token is the guard.
func (h *HTTPHandler) hostAllowed(host string, local *net.TCPAddr) bool {
	if local != nil && !local.IP.IsLoopback() {
		return true
	}
	name := hostName(host)
	return isLoopbackName(name) || h.hosts[name]
}

// hostName returns the lower-cased host of a Host header or URL host,
// without port or IPv6 brackets.
func hostName(hostport string) string {
	hostport = strings.ToLower(strings.TrimSpace(hostport))
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return strings.TrimSuffix(strings.TrimPrefix(hostport, "["), "]")
}

// isLoopbackName reports whether name is localhost or a loopback IP
// literal.
func isLoopbackName(name string) bool {
	if name == "localhost" {
		return true
	}
	ip := net.ParseIP(name)
	return ip != nil && ip.IsLoopback()
}

// originAllowed reports whether a request with these Origin headers (one,
// in practice) may proceed: an origin from HTTPOptions.AllowedOrigins, or
// the server's own, which is http on the port the connection came in on
// and on a loopback name, or, on a remote listener, the Host the request
// names. "null", sent by sandboxed and file:// pages, never is.
func (h *HTTPHandler) originAllowed(values []string, host string, local *net.TCPAddr) bool {
	if len(values) != 1 {
		return false
	}
	origin := normalizeOrigin(values[0])
	if h.origins[origin] {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Scheme != "http" || u.User != nil || u.Path != "" || u.RawQuery != "" || u.Host == "" {
		return false
	}
	port := u.Port()
	if port == "" {
		port = "80"
	}
	if local == nil {
		return isLoopbackName(u.Hostname())
	}
	if port != strconv.Itoa(local.Port) {
		return false
	}
	if local.IP.IsLoopback() {
		return isLoopbackName(u.Hostname())
	}
	return u.Hostname() == hostName(host)
}

// normalizeOrigin makes origins comparable: scheme and host are
// case-insensitive, and a trailing slash is not part of an origin.
func normalizeOrigin(o string) string {
	return strings.TrimSuffix(strings.ToLower(strings.TrimSpace(o)), "/")
}

// authorized checks the bearer token, when one is configured, and answers
// 401 when it is missing or wrong. The tokens are compared as SHA-256
// digests in constant time, so neither their content nor their length
// shows in the timing.
func (h *HTTPHandler) authorized(w http.ResponseWriter, r *http.Request) bool {
	if h.opts.BearerToken == "" {
		return true
	}
	const scheme = "bearer "
	auth := r.Header.Get("Authorization")
	given, hasToken := "", len(auth) > len(scheme) && strings.EqualFold(auth[:len(scheme)], scheme)
	if hasToken {
		given = strings.TrimSpace(auth[len(scheme):])
	}
	want := sha256.Sum256([]byte(h.opts.BearerToken))
	got := sha256.Sum256([]byte(given))
	if hasToken && subtle.ConstantTimeCompare(want[:], got[:]) == 1 {
		return true
	}
	challenge := `Bearer realm="mcp"`
	if hasToken {
		challenge += `, error="invalid_token"`
	}
	w.Header().Set("WWW-Authenticate", challenge)
	writeHTTPError(w, http.StatusUnauthorized, CodeInvalidRequest,
		"unauthorized: send the server's token as \"Authorization: Bearer <token>\"")
	return false
}

// accepts reports whether the request's Accept header admits the media
// type want, directly or through a wildcard. A request without Accept
// admits anything, as HTTP defines.
func accepts(r *http.Request, want string) bool {
	values := r.Header.Values("Accept")
	if len(values) == 0 {
		return true
	}
	wantType, _, _ := strings.Cut(want, "/")
	for _, v := range values {
		for part := range strings.SplitSeq(v, ",") {
			mt, _, _ := strings.Cut(part, ";")
			mt = strings.ToLower(strings.TrimSpace(mt))
			if mt == want || mt == "*/*" || mt == wantType+"/*" {
				return true
			}
		}
	}
	return false
}

// jsonContent reports whether a POST body is declared as JSON. The
// header is required: a page's simple request sends a form, text or an
// untyped body, never a declared application/json one of its own.
func jsonContent(r *http.Request) bool {
	ct := r.Header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && mt == "application/json"
}

// writeHTTPError answers a request that failed before reaching the MCP
// session with status and a JSON-RPC error response that has no id, as
// the specification suggests.
func writeHTTPError(w http.ResponseWriter, status, code int, format string, args ...any) {
	body, err := encodeLine(struct {
		JSONRPC string `json:"jsonrpc"`
		Error   *Error `json:"error"`
	}{"2.0", errorf(code, format, args...)})
	if err != nil { // a string and two ints always encode
		http.Error(w, http.StatusText(status), status)
		return
	}
	writeJSON(w, status, body)
}

// writeJSON sends body, one JSON value, with status.
func writeJSON(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body) // the client going away is not our error to report
}
