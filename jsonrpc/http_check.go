package jsonrpc

import (
	"crypto/sha256"
	"crypto/subtle"
	"mime"
	"net/http"
	"net/url"
	"strings"
)

// originAllowed reports whether a request with this Origin header may
// proceed: no header (not a browser page), an origin from
// HTTPOptions.AllowedOrigins, or, without that list, a loopback origin.
func (h *HTTPHandler) originAllowed(origin string) bool {
	if origin == "" {
		return true
	}
	if h.origins != nil {
		return h.origins[normalizeOrigin(origin)]
	}
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false // includes "null", sent by sandboxed and file:// pages
	}
	switch u.Hostname() {
	case "localhost", "127.0.0.1", "::1":
		return true
	}
	return false
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

// jsonContent reports whether a POST body is declared as JSON; a missing
// Content-Type is let through.
func jsonContent(r *http.Request) bool {
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return true
	}
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
