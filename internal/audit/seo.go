package audit

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/devtools-mcp/devtools-mcp/internal/english"
)

func seoChecks(m map[string]check) {
	m["is-crawlable"] = checkIsCrawlable
	m["meta-description"] = checkMetaDescription
	m["http-status-code"] = checkHTTPStatus
	m["link-text"] = checkLinkText
	m["crawlable-anchors"] = checkCrawlableAnchors
	m["robots-txt"] = checkRobotsTxt
	m["hreflang"] = checkHreflang
	m["canonical"] = checkCanonical
}

// crawlerAgents are the crawlers is-crawlable asks about, "" for any
// crawler: the page fails only when every one of them is blocked.
var crawlerAgents = []string{"", "Googlebot", "bingbot", "DuckDuckBot", "archive.org_bot"}

// checkIsCrawlable asks, for each crawler, whether the page blocks it: by
// its robots meta element in the head (the one named for the crawler,
// else "robots"), an X-Robots-Tag header for any crawler or named for
// it (noindex, none and an unavailable_after date that has passed
// block), or a robots.txt rule that disallows the page for it.
// It fails when every crawler is blocked, listing what blocks them all.
func checkIsCrawlable(in *Input, pg *page) Outcome {
	var o Outcome
	o.Headings = []Heading{{Key: "source", ValueType: "code", Label: "Blocking Directive Source"}}
	metas := map[string]int{}
	for _, i := range pg.each("meta") {
		name := strings.ToLower(pg.node(i).Attrs["name"])
		if _, seen := metas[name]; !seen && pg.node(i).Frame == 0 && pg.inHead(i) {
			metas[name] = i
		}
	}
	var robots *robotsTxt
	var robotsURL string
	if u, err := url.Parse(in.FinalURL); err == nil && in.Robots != nil && in.Robots.Status < 400 && in.Robots.Body != "" {
		origin := u.Scheme + "://" + u.Host
		robots, robotsURL = parseRobots(origin, in.Robots.Body), origin+"/robots.txt"
	}
	blocked := 0
	for _, agent := range crawlerAgents {
		var items []Item
		m, ok := metas[strings.ToLower(agent)]
		if !ok || agent == "" {
			m, ok = metas["robots"]
		}
		if ok && blocksIndexing(pg.node(m).Attrs["content"], time.Now()) {
			items = append(items, Item{"source": pg.nodeRef(m, "")})
		}
		if in.Main != nil {
			for _, k := range sortedIDs(in.Main.Headers) {
				if !strings.EqualFold(k, "x-robots-tag") {
					continue
				}
				v := in.Main.Headers[k]
				for _, line := range strings.Split(v, "\n") { // repeated headers arrive joined
					who := headerAgent(line)
					if who != "" && who != agent {
						continue
					}
					directives := line
					if who != "" {
						directives = strings.TrimPrefix(strings.TrimSpace(line), who+":")
					}
					if blocksIndexing(directives, time.Now()) {
						items = append(items, Item{"source": k + ": " + line})
					}
				}
			}
		}
		if robots != nil {
			if rule := robots.match(in.FinalURL, agent); rule != nil && !rule.allow {
				// The line Lighthouse shows is that of the rule for any
				// crawler, 0-based.
				line := 0
				if any := robots.match(in.FinalURL, ""); any != nil {
					line = any.line - 1
				}
				items = append(items, Item{"source": map[string]any{"type": "source-location", "url": robotsURL, "urlProvider": "network", "line": line, "column": 0}})
			}
		}
		if len(items) > 0 {
			blocked++
		}
		if agent == "" {
			o.Failing = items
		}
	}
	if blocked < len(crawlerAgents) {
		o.Failing = nil
	}
	return o
}

// headerAgent is the crawler an X-Robots-Tag value names before its
// directives ("googlebot: noindex"), "" when it names none.
func headerAgent(v string) string {
	head, _, ok := strings.Cut(v, ":")
	if !ok || strings.ContainsRune(head, ',') || strings.EqualFold(strings.TrimSpace(head), "unavailable_after") {
		return ""
	}
	return head
}

// blocksIndexing reports whether a robots directive list keeps the page
// out of the index at time now.
func blocksIndexing(v string, now time.Time) bool {
	for _, d := range strings.Split(v, ",") {
		d = strings.TrimSpace(d)
		low := strings.ToLower(d)
		if low == "noindex" || low == "none" {
			return true
		}
		if strings.HasPrefix(low, "unavailable_after:") {
			if t, ok := parseRobotsDate(strings.TrimSpace(d[len("unavailable_after:"):])); ok && t.Before(now) {
				return true
			}
		}
	}
	return false
}

// robotsDateLayouts are the date forms unavailable_after is read in (the
// RFC 850 and ISO 8601 forms crawlers document, and their usual kin).
var robotsDateLayouts = []string{time.RFC1123, time.RFC1123Z, time.RFC850, time.ANSIC, time.RFC3339, "2006-01-02T15:04:05",
	"2006-01-02", "2 Jan 2006 15:04:05 MST", "2 Jan 2006 15:04:05", "2 Jan 2006", "02-Jan-2006 15:04:05 MST",
	"January 2, 2006", "Jan 2, 2006", "2 January 2006"}

// parseRobotsDate reads an unavailable_after date.
func parseRobotsDate(s string) (time.Time, bool) {
	for _, l := range robotsDateLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

func checkMetaDescription(_ *Input, pg *page) Outcome {
	for _, i := range pg.each("meta") {
		if strings.EqualFold(pg.node(i).Attrs["name"], "description") {
			if strings.TrimSpace(pg.node(i).Attrs["content"]) == "" {
				return Outcome{Explanation: "Description text is empty."}
			}
			return Outcome{}
		}
	}
	return Outcome{Explanation: "No meta description found."}
}

func checkHTTPStatus(in *Input, _ *page) Outcome {
	if in.Main == nil || in.Main.Status == 0 {
		return Outcome{NotApplicable: true, Reason: "The main document's response was not seen."}
	}
	if in.Main.Status >= 400 {
		return Outcome{Explanation: fmt.Sprintf("The page returned HTTP status %d.", in.Main.Status), DisplayValue: fmt.Sprintf("%d", in.Main.Status)}
	}
	return Outcome{}
}

// genericLinkText are link texts that do not say where the link goes
// (English; Lighthouse checks a few other languages too).
var genericLinkText = setOf("click here", "click this", "go", "here", "information", "learn more", "more", "more info",
	"more information", "right here", "read more", "see more", "start", "this", "link", "learn more.", "read more.",
	"click", "continue", "details", "page")

func checkLinkText(in *Input, pg *page) Outcome {
	var o Outcome
	o.Headings = []Heading{{Key: "href", ValueType: "url", Label: "Link destination"}, {Key: "text", ValueType: "text", Label: "Link Text"}}
	base, _ := url.Parse(in.FinalURL)
	for _, i := range pg.each("a") {
		n := pg.node(i)
		href, ok := n.Attrs["href"]
		if !ok || strings.Contains(strings.ToLower(n.Attrs["rel"]), "nofollow") {
			continue
		}
		u, err := url.Parse(strings.TrimSpace(href))
		if err != nil || strings.HasPrefix(strings.ToLower(href), "javascript:") {
			continue
		}
		if base != nil {
			u = base.ResolveReference(u)
			if u.Fragment != "" && u.Scheme == base.Scheme && u.Host == base.Host && u.Path == base.Path {
				continue // in-page link
			}
		}
		text := strings.ToLower(strings.TrimSpace(pg.text(i, 100)))
		if genericLinkText[text] {
			o.Failing = append(o.Failing, Item{"href": u.String(), "text": pg.text(i, 100)})
		}
	}
	if len(o.Failing) > 0 {
		o.DisplayValue = english.Count(len(o.Failing), "link found", "links found")
	}
	return o
}

// javascriptVoid matches hrefs that go nowhere.
var javascriptVoid = regexp.MustCompile(`javascript:void(\(|)0(\)|)`)

func checkCrawlableAnchors(in *Input, pg *page) Outcome {
	var o Outcome
	o.Headings = []Heading{{Key: "node", ValueType: "node", Label: "Uncrawlable Link"}}
	for _, i := range pg.each("a") {
		n := pg.node(i)
		raw := strings.Join(strings.Fields(n.Attrs["href"]), "")
		if strings.TrimSpace(n.Attrs["role"]) != "" || strings.HasPrefix(raw, "mailto:") {
			continue
		}
		_, hasHref := n.Attrs["href"]
		if raw == "" && n.Attrs["id"] != "" {
			continue
		}
		bad := false
		switch {
		case strings.HasPrefix(raw, "file:"):
			bad = true
		case strings.TrimSpace(n.Attrs["name"]) != "":
		case !hasHref:
			// Anchors without href are crawlable problems only with
			// click handlers, which we do not see: left alone.
		case javascriptVoid.MatchString(raw):
			bad = true
		default:
			if _, err := url.Parse(raw); err != nil {
				bad = true
			}
		}
		if bad {
			o.Failing = append(o.Failing, pg.ref(i, ""))
		}
	}
	return o
}

func checkRobotsTxt(in *Input, _ *page) Outcome {
	r := in.Robots
	if r == nil {
		return Outcome{NotApplicable: true, Reason: "robots.txt was not fetched."}
	}
	switch {
	case r.Status >= 500:
		return Outcome{Explanation: "robots.txt request failed", DisplayValue: fmt.Sprintf("Request for robots.txt returned HTTP status: %d", r.Status)}
	case r.Status >= 400 || r.Status > 0 && r.Body == "":
		return Outcome{NotApplicable: true}
	case r.Status == 0:
		return Outcome{Explanation: "Lighthouse-compatible check: robots.txt could not be downloaded."}
	}
	var o Outcome
	o.Headings = []Heading{{Key: "index", ValueType: "text", Label: "Line #"}, {Key: "line", ValueType: "code", Label: "Content"}, {Key: "message", ValueType: "code", Label: "Error"}}
	known := setOf("user-agent", "disallow", "allow", "sitemap", "crawl-delay", "clean-param", "host", "request-rate", "visit-time", "noindex")
	inGroup := false
	for n, line := range strings.Split(r.Body, "\n") {
		line = strings.TrimSpace(strings.SplitN(line, "#", 2)[0])
		if line == "" {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		k, v = strings.ToLower(strings.TrimSpace(k)), strings.TrimSpace(v)
		msg := ""
		switch {
		case !ok:
			msg = "Syntax not understood"
		case !known[k]:
			msg = "Unknown directive"
		case k == "user-agent":
			inGroup = true
			if v == "" {
				msg = "No user-agent specified"
			}
		case (k == "allow" || k == "disallow") && !inGroup:
			msg = "No user-agent specified"
		case (k == "allow" || k == "disallow") && v != "" && !strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "*"):
			msg = "Pattern should either be empty, start with \"/\" or \"*\""
		case k == "sitemap":
			if u, err := url.Parse(v); err != nil || u.Scheme == "" {
				msg = "Invalid sitemap URL"
			}
		}
		if msg != "" {
			o.Failing = append(o.Failing, Item{"index": fmt.Sprint(n + 1), "line": line, "message": msg})
		}
	}
	if len(o.Failing) > 0 {
		o.DisplayValue = english.Count(len(o.Failing), "error found", "errors found")
	}
	return o
}

func checkHreflang(_ *Input, pg *page) Outcome {
	var o Outcome
	o.Headings = []Heading{{Key: "source", ValueType: "code", Label: ""}}
	for _, i := range pg.each("link") {
		n := pg.node(i)
		hl, ok := n.Attrs["hreflang"]
		if !ok || !strings.EqualFold(n.Attrs["rel"], "alternate") {
			continue
		}
		hl = strings.TrimSpace(hl)
		if !strings.EqualFold(hl, "x-default") && !validLang(hl) {
			o.Failing = append(o.Failing, Item{"source": pg.nodeRef(i, "Unexpected language code")})
			continue
		}
		if u, err := url.Parse(n.Attrs["href"]); err != nil || !u.IsAbs() {
			o.Failing = append(o.Failing, Item{"source": pg.nodeRef(i, "Relative href value")})
		}
	}
	return o
}

func checkCanonical(in *Input, pg *page) Outcome {
	var hrefs []string
	for _, i := range pg.each("link") {
		// Lighthouse reads canonical links in the head only.
		if strings.EqualFold(strings.TrimSpace(pg.node(i).Attrs["rel"]), "canonical") && pg.node(i).Frame == 0 && pg.inHead(i) {
			hrefs = append(hrefs, strings.TrimSpace(pg.node(i).Attrs["href"]))
		}
	}
	if len(hrefs) == 0 {
		return Outcome{NotApplicable: true}
	}
	uniq := setOf(hrefs...)
	if len(uniq) > 1 {
		return Outcome{Explanation: "Multiple conflicting URLs (" + strings.Join(sortedIDs(uniq), ", ") + ")"}
	}
	u, err := url.Parse(hrefs[0])
	if err != nil || hrefs[0] == "" {
		return Outcome{Explanation: "Invalid URL (" + hrefs[0] + ")"}
	}
	if !u.IsAbs() {
		return Outcome{Explanation: "Is not an absolute URL (" + hrefs[0] + ")"}
	}
	if base, err := url.Parse(in.FinalURL); err == nil && u.Host != base.Host && !strings.HasSuffix(u.Host, "."+base.Host) && !strings.HasSuffix(base.Host, "."+u.Host) {
		return Outcome{} // another domain: allowed
	}
	if fu, err := url.Parse(in.FinalURL); err == nil && u.Path == "/" && fu.Path != "/" && u.Host == fu.Host {
		return Outcome{Explanation: "Points to the domain's root URL (the homepage), instead of an equivalent page of content"}
	}
	return Outcome{}
}
