package audit

import (
	"net/url"
	"regexp"
	"strings"
)

// robotsRule is one Allow or Disallow line of a robots.txt group.
type robotsRule struct {
	pattern string
	allow   bool
	line    int // 1-based
}

// robotsTxt is a parsed robots.txt: each user agent's rules ("*" for
// the rest), lower-cased product tokens as keys.
type robotsTxt struct {
	origin string
	rules  map[string][]robotsRule
}

// parseRobots reads a robots.txt served at origin: consecutive
// User-agent lines open a group that the Allow and Disallow lines after
// them belong to; comments and unknown lines are skipped.
func parseRobots(origin, body string) *robotsTxt {
	r := &robotsTxt{origin: origin, rules: map[string][]robotsRule{}}
	var agents []string
	inRules := false
	for n, line := range strings.Split(body, "\n") {
		line, _, _ = strings.Cut(line, "#")
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		key, value = strings.ToLower(strings.TrimSpace(key)), strings.TrimSpace(value)
		switch key {
		case "user-agent":
			if inRules {
				agents, inRules = nil, false
			}
			a := robotsAgent(value)
			agents = append(agents, a)
			if r.rules[a] == nil {
				r.rules[a] = []robotsRule{}
			}
		case "allow", "disallow":
			inRules = true
			if value == "" {
				continue
			}
			for _, a := range agents {
				r.rules[a] = append(r.rules[a], robotsRule{pattern: upperEscapes(value), allow: key == "allow", line: n + 1})
			}
		}
	}
	return r
}

// robotsAgent is a user agent's product token as robots.txt groups are
// keyed: lower case, the version after "/" dropped.
func robotsAgent(ua string) string {
	ua = strings.ToLower(ua)
	ua, _, _ = strings.Cut(ua, "/")
	return strings.TrimSpace(ua)
}

// escapeRun matches a percent escape, to compare escapes in upper case.
var escapeRun = regexp.MustCompile(`%[0-9a-fA-F]{2}`)

func upperEscapes(s string) string { return escapeRun.ReplaceAllStringFunc(s, strings.ToUpper) }

// match returns the rule that decides whether a crawler ("" for any)
// may fetch rawURL: the longest matching pattern, Allow winning a tie;
// nil when none matches or the URL is of another origin.
func (r *robotsTxt) match(rawURL, agent string) *robotsRule {
	u, err := url.Parse(rawURL)
	if err != nil || u.Scheme+"://"+u.Host != r.origin {
		return nil
	}
	if agent == "" {
		agent = "*"
	}
	rules, ok := r.rules[robotsAgent(agent)]
	if !ok {
		rules = r.rules["*"]
	}
	path := upperEscapes(u.EscapedPath())
	if u.RawQuery != "" {
		path += "?" + u.RawQuery
	}
	var best *robotsRule
	for k := range rules {
		rule := &rules[k]
		if !robotsMatches(rule.pattern, path) {
			continue
		}
		if best == nil || len(rule.pattern) > len(best.pattern) || len(rule.pattern) == len(best.pattern) && rule.allow && !best.allow {
			best = rule
		}
	}
	return best
}

// robotsMatches reports whether a robots.txt path pattern ("*" any run
// of characters, a final "$" the end) matches the start of path.
func robotsMatches(pattern, path string) bool {
	anchored := strings.HasSuffix(pattern, "$")
	parts := strings.Split(strings.TrimSuffix(pattern, "$"), "*")
	if len(parts) == 1 {
		if anchored {
			return path == parts[0]
		}
		return strings.HasPrefix(path, parts[0])
	}
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	expr := "^" + strings.Join(parts, ".*")
	if anchored {
		expr += "$"
	}
	re, err := regexp.Compile(expr)
	return err == nil && re.MatchString(path)
}
