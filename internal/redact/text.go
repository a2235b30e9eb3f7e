package redact

import (
	"bytes"
	"mime"
	"regexp"
	"strings"
	"unicode/utf8"
)

// The redaction rule applied to free text a page wrote (console messages,
// their arguments and stack traces, text request bodies, the values of
// multipart parts), where there are no header or field names to go by:
//   - URLs lose their password and their sensitive query and fragment
//     parameters, as in network output;
//   - name=value and name: value pairs (also "name": "value" in JSON and
//     JavaScript) hide the value when the name is sensitive by the rule of
//     redact.go, the whole credential when the value is an authorization
//     scheme (Authorization: Bearer …);
//   - a value after an authorization scheme word (Bearer, Basic, ...)
//     that looks like a credential (8 characters or more, not all
//     letters) is hidden wherever it is;
//   - anything shaped like a JWT is hidden.
var (
	textURL    = regexp.MustCompile(`\b[A-Za-z][A-Za-z0-9+.-]*://[^\s"'<>` + "`" + `]+`)
	textPair   = regexp.MustCompile(`([A-Za-z_$][A-Za-z0-9_.$-]*)(["']?[ \t]*[:=][ \t]*["']?)([^\s&"'` + "`" + `,;<>(){}\[\]]+)`)
	textScheme = regexp.MustCompile(`(?i)\b(bearer|basic|digest|negotiate|ntlm)(\s+)([A-Za-z0-9._~+/=-]{8,})`)
	textJWT    = regexp.MustCompile(`\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*`)
	schemeWord = regexp.MustCompile(`(?i)^(bearer|basic|digest|negotiate|ntlm|token)$`)
	nextWord   = regexp.MustCompile(`^\s+[^\s"'` + "`" + `,;<>]+`)
)

// Text hides the credentials in free text by the rule above.
func Text(s string) string {
	s = textURL.ReplaceAllStringFunc(s, URL)
	s = redactTextPairs(s)
	s = textScheme.ReplaceAllStringFunc(s, func(m string) string {
		sub := textScheme.FindStringSubmatch(m)
		if strings.Trim(sub[3], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") == "" {
			return m // a word of prose: "Basic authentication"
		}
		return sub[1] + sub[2] + Value
	})
	return textJWT.ReplaceAllString(s, Value)
}

// redactTextPairs hides the values of sensitive name=value and name: value
// pairs. A pair whose name is not sensitive is passed over from its
// separator on, so that a pair inside its value (a query in a URL) is
// still looked at.
func redactTextPairs(s string) string {
	var b strings.Builder
	pos, changed := 0, false
	for pos < len(s) {
		m := textPair.FindStringSubmatchIndex(s[pos:])
		if m == nil {
			break
		}
		name := s[pos+m[2] : pos+m[3]]
		valStart, valEnd := pos+m[6], pos+m[7]
		if !sensitiveName(name) || s[valStart:valEnd] == Value {
			b.WriteString(s[pos : pos+m[5]])
			pos += m[5]
			continue
		}
		b.WriteString(s[pos:valStart])
		b.WriteString(Value)
		pos, changed = valEnd, true
		if schemeWord.MatchString(s[valStart:valEnd]) {
			// Authorization: Bearer abc: the credential is the next word.
			if n := nextWord.FindStringIndex(s[pos:]); n != nil {
				pos += n[1]
			}
		}
	}
	if !changed {
		return s
	}
	b.WriteString(s[pos:])
	return b.String()
}

// redactMultipart hides, in a multipart/form-data body, the content of the
// parts whose field name (or file name) is sensitive, and the credentials
// in the text of the others, keeping the layout byte for byte otherwise.
func redactMultipart(body []byte, boundary string) ([]byte, bool) {
	if boundary == "" {
		return body, false
	}
	delim := []byte("--" + boundary)
	chunks := bytes.Split(body, delim)
	changed := false
	for i := 1; i < len(chunks); i++ { // chunks[0] is the preamble
		c := chunks[i]
		end := bytes.Index(c, []byte("\r\n\r\n"))
		if end < 0 {
			continue // the closing "--"
		}
		head, content := c[:end+4], c[end+4:]
		trail := []byte{}
		if bytes.HasSuffix(content, []byte("\r\n")) {
			content, trail = content[:len(content)-2], []byte("\r\n")
		}
		name, file := partNames(head)
		var out []byte
		switch {
		case sensitiveName(name) || file != "" && sensitiveName(file):
			out = []byte(Value)
		case utf8.Valid(content):
			out = []byte(Text(string(content)))
		default:
			continue
		}
		if !bytes.Equal(out, content) {
			chunks[i] = append(append(append([]byte{}, head...), out...), trail...)
			changed = true
		}
	}
	if !changed {
		return body, false
	}
	return bytes.Join(chunks, delim), true
}

// boundaryOf returns the boundary of a multipart body: its Content-Type's
// boundary parameter, also when MIME parsing refused it (an unquoted value
// with "=" or ":", such as ----=_Part_0:1, which servers take), or else,
// when the body does not hold the one declared, the body's first
// delimiter line; "" when there is none.
func boundaryOf(contentType string, params map[string]string, body []byte) string {
	b := params["boundary"]
	if b == "" {
		for p := range strings.SplitSeq(contentType, ";") {
			k, v, ok := strings.Cut(p, "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "boundary") {
				b = strings.Trim(strings.TrimSpace(v), `"`)
				break
			}
		}
	}
	if b != "" && bytes.Contains(body, []byte("--"+b)) {
		return b
	}
	if line, _, ok := bytes.Cut(bytes.TrimLeft(body, "\r\n"), []byte("\r\n")); ok && bytes.HasPrefix(line, []byte("--")) && len(line) > 2 {
		return string(bytes.TrimSpace(line[2:]))
	}
	return ""
}

// partNames reads the field name and file name of a multipart part from
// its Content-Disposition header.
func partNames(head []byte) (name, file string) {
	for line := range strings.SplitSeq(string(head), "\r\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok || !strings.EqualFold(strings.TrimSpace(k), "Content-Disposition") {
			continue
		}
		if _, params, err := mime.ParseMediaType(strings.TrimSpace(v)); err == nil {
			return params["name"], params["filename"]
		}
	}
	return "", ""
}
