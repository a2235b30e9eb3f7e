package urlpattern

import (
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"
)

// URL patterns are matched against URLs in one canonical spelling, so that
// another spelling of the same host or path does not slip past a pattern
// (nor past the sensitive page guard). Chrome already reports the URLs it
// requests canonically (lower case, punycode, dotted IPv4); the rest is what
// it keeps distinct although the request reaches the same place:
//   - userinfo (http://user@host/) is dropped;
//   - a trailing dot on the host (localhost.) is dropped;
//   - an IPv4-mapped IPv6 address ([::ffff:127.0.0.1]) becomes the IPv4
//     address, and other IPv6 addresses take their shortest form;
//   - the scheme's default port (:80, :443) is dropped;
//   - percent-encoded unreserved characters in the path and query
//     (/%61ds/ for /ads/) are decoded, and other escapes upper-cased.
//
// Patterns get the same treatment where they are literal, plus what Chrome
// would do to a URL typed that way: lower case, internationalised names in
// punycode, IPv4 in any of the URL standard's spellings (2130706433,
// 0x7f.1, 0177.0.0.1) dotted.

// Canonical returns u in the spelling patterns are matched against; u
// unchanged when it does not parse or has no host.
func Canonical(u string) string {
	// Dropping an empty port or a dot can leave a host that parses
	// differently again ("a://::" becomes "a://:", then "a://").
	c := canonicalOnce(u)
	for range 8 {
		next := canonicalOnce(c)
		if next == c {
			break
		}
		c = next
	}
	return c
}

// canonicalOnce is one pass of Canonical.
func canonicalOnce(u string) string {
	parsed, err := url.Parse(u)
	if err != nil || parsed.Host == "" || parsed.Opaque != "" {
		return u
	}
	scheme := strings.ToLower(parsed.Scheme)
	host := canonicalHost(parsed.Hostname())
	if port := parsed.Port(); port != "" && port != defaultPort(scheme) {
		host += ":" + port
	}
	rest := ""
	if after, ok := strings.CutPrefix(u[len(parsed.Scheme):], "://"); ok {
		if i := strings.IndexAny(after, "/?#"); i >= 0 {
			rest = after[i:]
		}
	}
	return scheme + "://" + host + canonicalEscapes(rest)
}

// canonicalPattern returns pattern t with its scheme, host and port
// spelled as Canonical spells them, where they hold no "*".
func canonicalPattern(t string) string {
	scheme, rest, hasScheme := strings.Cut(t, "://")
	if !hasScheme {
		scheme, rest = "", t
	}
	authority, path := rest, ""
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		authority, path = rest[:i], rest[i:]
	}
	if at := strings.LastIndexByte(authority, '@'); at >= 0 && !strings.Contains(authority[:at], "*") {
		authority = authority[at+1:]
	}
	if !strings.Contains(scheme, "*") {
		scheme = strings.ToLower(scheme)
	}
	// Dropping a dot or a port can leave another one to drop.
	host := authority
	for range 8 {
		next := canonicalAuthority(scheme, host)
		if next == host {
			break
		}
		host = next
	}
	out := host + canonicalEscapes(path)
	if hasScheme {
		out = scheme + "://" + out
	}
	return out
}

// canonicalAuthority is canonicalPattern's host and port.
func canonicalAuthority(scheme, authority string) string {
	host, port := splitPort(authority)
	if port == defaultPort(scheme) {
		port = ""
	}
	if strings.Contains(host, "*") {
		host = canonicalLabels(host)
	} else {
		host = canonicalHost(host)
	}
	if port != "" {
		host += ":" + port
	}
	return host
}

// splitPort splits "host:port" when port is digits or "*" (or empty);
// IPv6 hosts keep their brackets.
func splitPort(authority string) (host, port string) {
	if strings.HasPrefix(authority, "[") {
		end := strings.IndexByte(authority, ']')
		if end < 0 {
			return authority, ""
		}
		rest := authority[end+1:]
		if p, ok := strings.CutPrefix(rest, ":"); ok && strings.Trim(p, "0123456789*") == "" {
			return authority[:end+1], p
		}
		if rest == "" {
			return authority, ""
		}
		return authority, ""
	}
	if i := strings.LastIndexByte(authority, ':'); i >= 0 && strings.Trim(authority[i+1:], "0123456789*") == "" {
		if i == len(authority)-1 {
			return strings.TrimRight(authority, ":"), "" // empty ports
		}
		return authority[:i], authority[i+1:]
	}
	return authority, ""
}

// defaultPort is the port a scheme's URLs omit.
func defaultPort(scheme string) string {
	switch scheme {
	case "http", "ws":
		return "80"
	case "https", "wss":
		return "443"
	case "ftp":
		return "21"
	}
	return ""
}

// canonicalHost spells a host as Chrome does, and as the network sees it:
// IPv4 dotted, IPv6 in brackets and shortest, IPv4-mapped IPv6 as IPv4,
// names in lower case and punycode without a trailing dot. h may be an IPv6
// address with or without brackets; what does not parse is only
// lower-cased.
func canonicalHost(h string) string {
	if inner, ok := strings.CutPrefix(h, "["); ok {
		inner, ok = strings.CutSuffix(inner, "]")
		if !ok || !strings.Contains(inner, ":") {
			return strings.ToLower(h)
		}
		h = inner
	}
	if strings.Contains(h, ":") {
		a, err := netip.ParseAddr(h)
		if err != nil {
			return strings.ToLower(h)
		}
		if a = a.WithZone("").Unmap(); a.Is4() {
			return a.String()
		}
		return "[" + a.String() + "]"
	}
	if unescaped, err := url.PathUnescape(h); err == nil && !strings.ContainsAny(unescaped, ":[]/?#@") {
		h = unescaped
	}
	h = canonicalLabels(h)
	if v4, ok := parseIPv4(h); ok {
		return v4
	}
	return h
}

// canonicalLabels lower-cases a host name, maps the full stops and
// full-width letters that Chrome maps, spells internationalised labels in
// punycode and drops a trailing dot. Labels holding "*" are only
// lower-cased.
func canonicalLabels(h string) string {
	h = strings.Map(mapFullWidth, strings.ToLower(h))
	h = strings.TrimRight(h, ".")
	labels := strings.Split(h, ".")
	for i, l := range labels {
		if !isASCII(l) && !strings.Contains(l, "*") {
			if enc, ok := punycode(l); ok {
				labels[i] = "xn--" + enc
			}
		}
	}
	return strings.Join(labels, ".")
}

// mapFullWidth maps the ideographic and full-width full stops to ".", and
// full-width ASCII to ASCII, as the URL standard's IDNA mapping does.
func mapFullWidth(r rune) rune {
	switch {
	case r == '\u3002' || r == '\uff0e' || r == '\uff61':
		return '.'
	case r >= '\uff01' && r <= '\uff5e':
		return r - 0xff01 + '!'
	}
	return r
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// parseIPv4 reads h as the URL standard's IPv4 parser does, when its last
// label is a number: one to four parts, each decimal, 0x hex or 0-prefixed
// octal, the last one filling the remaining bytes.
func parseIPv4(h string) (string, bool) {
	parts := strings.Split(h, ".")
	if len(parts) > 4 || !isIPv4Number(parts[len(parts)-1]) {
		return "", false
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		n, ok := ipv4Number(p)
		if !ok {
			return "", false
		}
		nums[i] = n
	}
	var v uint64
	for i, n := range nums[:len(nums)-1] {
		if n > 255 {
			return "", false
		}
		v |= n << (8 * (3 - i))
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return "", false
	}
	v |= last
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}).String(), true
}

// isIPv4Number reports whether label is a number in the URL standard's
// sense (which makes the host an IPv4 address or invalid).
func isIPv4Number(label string) bool {
	if label == "" {
		return false
	}
	if strings.Trim(label, "0123456789") == "" {
		return true
	}
	_, ok := ipv4Number(label)
	return ok
}

// ipv4Number parses one part of an IPv4 address.
func ipv4Number(p string) (uint64, bool) {
	base := 10
	switch {
	case strings.HasPrefix(p, "0x") || strings.HasPrefix(p, "0X"):
		p, base = p[2:], 16
		if p == "" {
			return 0, true
		}
	case len(p) > 1 && p[0] == '0':
		p, base = p[1:], 8
	}
	if p == "" || strings.ContainsAny(p, "+-") {
		return 0, false
	}
	n, err := strconv.ParseUint(p, base, 64)
	return n, err == nil && n <= 1<<32
}

// canonicalEscapes decodes percent-escapes of unreserved characters (which
// mean the same decoded) and upper-cases the hex digits of the others.
func canonicalEscapes(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			c := unhex(s[i+1])<<4 | unhex(s[i+2])
			if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
				b.WriteByte(c)
			} else {
				b.WriteString(strings.ToUpper(s[i : i+3]))
			}
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// punycode encodes a label by RFC 3492 (without the "xn--" prefix).
func punycode(label string) (string, bool) {
	const (
		base, tmin, tmax, skew, damp = 36, 1, 26, 38, 700
		initialBias, initialN        = 72, 128
	)
	runes := []rune(label)
	var out []byte
	for _, r := range runes {
		if r < 0x80 {
			out = append(out, byte(r))
		}
	}
	basic := len(out)
	handled := basic
	if basic > 0 {
		out = append(out, '-')
	}
	digit := func(d int) byte {
		if d < 26 {
			return byte('a' + d)
		}
		return byte('0' + d - 26)
	}
	adapt := func(delta, numPoints int, first bool) int {
		if first {
			delta /= damp
		} else {
			delta /= 2
		}
		delta += delta / numPoints
		k := 0
		for delta > ((base-tmin)*tmax)/2 {
			delta /= base - tmin
			k += base
		}
		return k + (base-tmin+1)*delta/(delta+skew)
	}
	n, delta, bias := initialN, 0, initialBias
	for handled < len(runes) {
		m := int(^uint(0) >> 1)
		for _, r := range runes {
			if int(r) >= n && int(r) < m {
				m = int(r)
			}
		}
		if (m-n)*(handled+1) > 1<<30 {
			return "", false // overflow
		}
		delta += (m - n) * (handled + 1)
		n = m
		for _, r := range runes {
			if int(r) < n {
				delta++
			}
			if int(r) == n {
				q := delta
				for k := base; ; k += base {
					t := k - bias
					if t < tmin {
						t = tmin
					} else if t > tmax {
						t = tmax
					}
					if q < t {
						break
					}
					out = append(out, digit(t+(q-t)%(base-t)))
					q = (q - t) / (base - t)
				}
				out = append(out, digit(q))
				bias = adapt(delta, handled+1, handled == basic)
				delta = 0
				handled++
			}
		}
		delta++
		n++
	}
	return string(out), true
}
