package urlpattern

import (
	"net/url"
	"regexp"
	"strings"
)

// Pattern is one URL pattern: `*` matches any run of characters; a pattern
// without "://" matches the URL without its scheme.
type Pattern struct {
	text     string
	re       *regexp.Regexp
	noScheme bool
	// origin matches the origins (scheme://host:port, or host:port when
	// noScheme) of the URLs the pattern can match; nil when that is every
	// origin (the pattern's host is only "*").
	origin *regexp.Regexp
}

// compile turns pattern text t into a matcher.
func compile(t string) Pattern {
	canon := canonicalPattern(t)
	quoted := strings.ReplaceAll(regexp.QuoteMeta(canon), `\*`, `.*`)
	return Pattern{text: t, re: regexp.MustCompile("^" + quoted + "$"), noScheme: !strings.Contains(canon, "://"), origin: originRegexp(canon)}
}

// String returns the pattern as it was written.
func (p Pattern) String() string { return p.text }

// originRegexp compiles the part of pattern t before its path into a
// matcher of origins, where "*" stops at "/"; nil when the host part is a
// bare "*", which any origin matches.
func originRegexp(t string) *regexp.Regexp {
	scheme, rest, ok := strings.Cut(t, "://")
	if !ok {
		scheme, rest = "", t
	}
	host, _, _ := strings.Cut(rest, "/")
	if strings.Trim(host, "*:") == "" {
		return nil
	}
	glob := host
	if ok {
		glob = scheme + "://" + host
	}
	quoted := strings.ReplaceAll(regexp.QuoteMeta(glob), `\*`, `[^/]*`)
	return regexp.MustCompile("^" + quoted + "$")
}

// match reports whether u, spelled by Canonical, matches p.
func (p Pattern) match(u string) bool {
	if p.noScheme {
		if _, rest, ok := strings.Cut(u, "://"); ok {
			u = rest
		}
	}
	return p.re.MatchString(u)
}

// List is a list of URL patterns in the syntax of --blockedUrlPattern.
type List []Pattern

// Compile compiles patterns ("*" matches any run of characters; a pattern
// without "://" ignores the scheme).
func Compile(patterns []string) List {
	out := make(List, 0, len(patterns))
	for _, t := range patterns {
		out = append(out, compile(t))
	}
	return out
}

// Strings returns the patterns as they were written.
func (ps List) Strings() []string {
	texts := make([]string, len(ps))
	for i, p := range ps {
		texts[i] = p.text
	}
	return texts
}

// Match returns the first pattern u matches, comparing u without its
// fragment and in its canonical spelling.
func (ps List) Match(u string) (pattern string, ok bool) {
	u, _, _ = strings.Cut(u, "#")
	u = Canonical(u)
	for _, p := range ps {
		if p.match(u) {
			return p.text, true
		}
	}
	return "", false
}

// MatchOrigin returns the first pattern that can match a URL of u's origin
// (its scheme, host and port). Patterns whose host is a bare "*" are left
// out: every origin could hold such a page.
func (ps List) MatchOrigin(u string) (pattern string, ok bool) {
	parsed, err := url.Parse(Canonical(u))
	if err != nil || parsed.Host == "" {
		return "", false
	}
	for _, p := range ps {
		origin := parsed.Scheme + "://" + parsed.Host
		if p.noScheme {
			origin = parsed.Host
		}
		if p.origin != nil && p.origin.MatchString(origin) {
			return p.text, true
		}
	}
	return "", false
}
