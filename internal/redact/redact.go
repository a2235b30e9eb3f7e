package redact

import (
	"bytes"
	"encoding/json"
	"mime"
	"net/url"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Value replaces what --redactNetworkHeaders hides.
const Value = "<redacted>"

// The redaction rule (--redactNetworkHeaders), for header names, URL query
// and fragment parameters, form fields and JSON keys alike: a name is
// sensitive when, lower-cased, it contains one of sensitiveParts, or one
// of its words (split at punctuation and camelCase humps) is one of
// sensitiveWords. A header value is hidden as well when it carries an
// authorization scheme (Bearer, Basic, ...) or looks like a JWT, whatever
// its header's name.
var (
	sensitiveParts = []string{"token", "secret", "passw", "passphrase", "csrf", "xsrf", "cookie", "apikey", "credential", "session", "signature", "bearer", "private"}
	sensitiveWords = map[string]bool{
		"auth": true, "authorization": true, "authentication": true, "authn": true, "authz": true,
		"key": true, "sid": true, "sig": true, "jwt": true, "otp": true, "pwd": true, "pass": true, "pin": true,
		"code": true, "ticket": true, "nonce": true, "saml": true, "samlresponse": true, "assertion": true,
	}
	secretValue = regexp.MustCompile(`(?i)^\s*(bearer|basic|digest|negotiate|ntlm|token|aws4-hmac-sha256|hawk|mac)\s+\S|^eyJ[\w-]*\.[\w-]*\.`)
)

// sensitiveName reports whether a header, parameter or field named name
// holds credentials by the rule above.
func sensitiveName(name string) bool {
	l := strings.ToLower(name)
	for _, p := range sensitiveParts {
		if strings.Contains(l, p) {
			return true
		}
	}
	for _, w := range nameWords(name) {
		if sensitiveWords[w] {
			return true
		}
	}
	return false
}

// nameWords splits a name into lower-case words at anything but letters
// and digits, and where a lower-case letter meets an upper-case one
// (apiKey, X-Access-Key, ocp_apim_subscription_key).
func nameWords(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	prev := rune(0)
	for _, r := range name {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
		prev = r
	}
	flush()
	return words
}

// Header returns the value of header name as redaction shows it.
func Header(name, value string) string {
	if sensitiveName(name) || secretValue.MatchString(value) {
		return Value
	}
	return value
}

// Headers returns h with sensitive values hidden.
func Headers(h map[string]string) map[string]string {
	if h == nil {
		return nil
	}
	out := make(map[string]string, len(h))
	for n, v := range h {
		out[n] = Header(n, v)
	}
	return out
}

// URL hides a URL's password and the values of its sensitive query
// and fragment parameters (?access_token=, #id_token=), keeping the rest
// as written.
func URL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Opaque != "" {
		return raw
	}
	changed := false
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "redacted")
		changed = true
	}
	if q, ok := redactPairs(u.RawQuery); ok {
		u.RawQuery, changed = q, true
	}
	if strings.Contains(u.EscapedFragment(), "=") {
		if f, ok := redactPairs(u.EscapedFragment()); ok {
			if frag, err := url.PathUnescape(f); err == nil {
				u.Fragment, u.RawFragment, changed = frag, f, true
			}
		}
	}
	if !changed {
		return raw
	}
	return u.String()
}

// redactPairs hides the sensitive values of name=value&... (a query, a
// fragment, a form body), keeping order and spelling, and reports whether
// it hid any. A ";" separates pairs too, as many servers take it.
func redactPairs(s string) (string, bool) {
	if s == "" {
		return s, false
	}
	var b strings.Builder
	changed := false
	for s != "" {
		end := strings.IndexAny(s, "&;")
		if end < 0 {
			end = len(s)
		}
		p := s[:end]
		name, _, ok := strings.Cut(p, "=")
		if n, err := url.QueryUnescape(name); err == nil {
			name = n
		}
		if ok && sensitiveName(strings.TrimSpace(name)) {
			p = p[:strings.IndexByte(p, '=')+1] + url.QueryEscape(Value)
			changed = true
		} else if ok {
			if v, hid := redactValue(p[strings.IndexByte(p, '=')+1:]); hid {
				p = p[:strings.IndexByte(p, '=')+1] + v
				changed = true
			}
		}
		b.WriteString(p)
		if end < len(s) {
			b.WriteByte(s[end])
			end++
		}
		s = s[end:]
	}
	return b.String(), changed
}

// redactValue hides the credentials inside one escaped form or query
// value (JSON, or name=value text, sent as a field), re-escaped, and
// reports whether it hid any.
func redactValue(escaped string) (string, bool) {
	v, err := url.QueryUnescape(escaped)
	if err != nil || !strings.ContainsAny(v, "=:") {
		return escaped, false
	}
	out := string(textBody(Body([]byte(v), ""), ""))
	if out == v {
		return escaped, false
	}
	return url.QueryEscape(out), true
}

// Body hides credentials in a request or response body: the values
// of sensitive fields in a form (application/x-www-form-urlencoded, and
// multipart/form-data, see redactMultipart) and of sensitive keys anywhere
// in JSON. Other bodies are returned as they are.
func Body(body []byte, contentType string) []byte {
	mt, params, _ := mime.ParseMediaType(contentType)
	switch {
	case mt == "application/x-www-form-urlencoded":
		if out, ok := redactPairs(string(body)); ok {
			return []byte(out)
		}
	case strings.HasPrefix(mt, "multipart/"):
		if out, ok := redactMultipart(body, boundaryOf(contentType, params, body)); ok {
			return out
		}
	case mt == "application/json" || strings.HasSuffix(mt, "+json") || json.Valid(body) && len(bytes.TrimSpace(body)) > 0 && strings.ContainsAny(string(bytes.TrimSpace(body)[:1]), "{["):
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) != nil {
			return body
		}
		if !redactJSON(v) {
			return body
		}
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if enc.Encode(v) != nil {
			return body
		}
		return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
	}
	return body
}

// RequestBody is Body for a request body, which a page composed: what
// the content type says it is does not bind the page, so a text body has
// its credentials hidden as free text is too (see Text), after the form
// or JSON rule: a form with ";" between its fields, JSON lines, JSON sent
// as text/plain, a form sent as JSON.
func RequestBody(body []byte, contentType string) []byte {
	return textBody(Body(body, contentType), contentType)
}

// ResponseBody is Body for a text response body, which the free-text
// rule applies to as well: a server echoing a login form back as
// text/plain or HTML shows its fields.
func ResponseBody(body []byte, contentType string) []byte {
	return textBody(Body(body, contentType), contentType)
}

// textBody applies the free-text rule to body unless it is a multipart
// body with a boundary (whose parts redactMultipart already went through)
// or not UTF-8 text.
func textBody(body []byte, contentType string) []byte {
	mt, params, _ := mime.ParseMediaType(contentType)
	if strings.HasPrefix(mt, "multipart/") && boundaryOf(contentType, params, body) != "" || !utf8.Valid(body) {
		return body
	}
	if t := Text(string(body)); t != string(body) {
		return []byte(t)
	}
	return body
}

// redactJSON replaces the values of sensitive keys in v, reporting whether
// it replaced any.
func redactJSON(v any) bool {
	changed := false
	switch x := v.(type) {
	case map[string]any:
		name, named := fieldName(x) // before "key" itself is hidden
		for k, e := range x {
			if sensitiveName(k) && e != nil {
				x[k] = Value
				changed = true
				continue
			}
			if str, ok := e.(string); ok {
				if t := Text(str); t != str {
					x[k], changed = t, true
				}
				continue
			}
			changed = redactJSON(e) || changed
		}
		// A field as {"name": "password", "value": "..."} (a form's
		// serializeArray, many APIs' field lists) is named by a value.
		if named && sensitiveName(name) {
			for _, k := range []string{"value", "val", "content", "data"} {
				if e, ok := x[k]; ok && e != nil && e != Value {
					x[k] = Value
					changed = true
				}
			}
		}
	case []any:
		for i, e := range x {
			if str, ok := e.(string); ok {
				if t := Text(str); t != str {
					x[i], changed = t, true
				}
				continue
			}
			changed = redactJSON(e) || changed
		}
	}
	return changed
}

// fieldName returns the name an object gives itself as a form field: its
// "name", "key", "field" or "id" string.
func fieldName(x map[string]any) (string, bool) {
	for _, k := range []string{"name", "key", "field", "id"} {
		if n, ok := x[k].(string); ok {
			return n, true
		}
	}
	return "", false
}
