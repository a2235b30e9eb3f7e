package audit

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"net"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/devtools-mcp/devtools-mcp/internal/english"
)

func practiceChecks(m map[string]check) {
	m["is-on-https"] = checkIsOnHTTPS
	m["redirects-http"] = checkRedirectsHTTP
	m["geolocation-on-start"] = violationCheck("geolocation")
	m["notification-on-start"] = violationCheck("notification permission")
	m["paste-preventing-inputs"] = checkPastePreventing
	m["image-aspect-ratio"] = checkImageAspectRatio
	m["image-size-responsive"] = checkImageSizeResponsive
	m["doctype"] = checkDoctype
	m["charset"] = checkCharset
	m["deprecations"] = checkDeprecations
	m["third-party-cookies"] = checkThirdPartyCookies
	m["errors-in-console"] = checkErrorsInConsole
	m["inspector-issues"] = checkInspectorIssues
	m["valid-source-maps"] = checkSourceMaps
	m["baseline"] = checkBaseline
	m["js-libraries"] = checkJSLibraries
	m["csp-xss"] = headerInfo("content-security-policy", "No CSP found in enforcement mode")
	m["has-hsts"] = headerInfo("strict-transport-security", "No HSTS header found")
	m["origin-isolation"] = headerInfo("cross-origin-opener-policy", "No COOP header found")
	m["clickjacking-mitigation"] = headerInfo("x-frame-options", "No frame control policy found")
	m["trusted-types-xss"] = headerInfo("content-security-policy", "No `Content-Security-Policy` header with Trusted Types directive found")
}

// secureURL reports whether a URL counts as secure: https, wss, data,
// blob, chrome and friends, or any scheme on localhost.
func secureURL(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return true
	}
	switch u.Scheme {
	case "http", "ws":
		h := u.Hostname()
		return h == "localhost" || h == "127.0.0.1" || h == "::1" || strings.HasSuffix(h, ".localhost")
	}
	return true
}

func checkIsOnHTTPS(in *Input, _ *page) Outcome {
	var o Outcome
	o.Headings = []Heading{{Key: "url", ValueType: "url", Label: "Insecure URL"}, {Key: "resolution", ValueType: "text", Label: "Request Resolution"}}
	seen := map[string]bool{}
	all := append([]Response{}, in.Requests...)
	if in.Main != nil {
		all = append(all, *in.Main)
	}
	all = append(all, Response{URL: in.FinalURL})
	for _, r := range all {
		if !secureURL(r.URL) && !seen[r.URL] {
			seen[r.URL] = true
			o.Failing = append(o.Failing, Item{"url": r.URL, "resolution": "Allowed"})
		}
	}
	if len(o.Failing) > 0 {
		o.DisplayValue = english.Count(len(o.Failing), "insecure request found", "insecure requests found")
	}
	return o
}

func checkRedirectsHTTP(in *Input, _ *page) Outcome {
	u, err := url.Parse(in.URL)
	if err != nil || u.Scheme != "http" || secureURL(in.URL) {
		return Outcome{NotApplicable: true}
	}
	if f, err := url.Parse(in.FinalURL); err == nil && f.Scheme == "https" {
		return Outcome{}
	}
	return Outcome{Explanation: "Does not redirect HTTP traffic to HTTPS"}
}

// violationCheck fails when Chrome logged, with a location, that the
// page used an API it discourages whose message names what (asking for a
// permission without a user gesture), one item per place.
func violationCheck(what string) check {
	return func(in *Input, _ *page) Outcome {
		var o Outcome
		o.Headings = []Heading{{Key: "source", ValueType: "source-location", Label: "Source"}}
		seen := map[string]bool{}
		for _, c := range in.Console {
			if c.Source != "violation" || c.URL == "" || !strings.Contains(c.Text, what) {
				continue
			}
			if k := fmt.Sprint(c.URL, "!", c.Line, "!", c.Column); !seen[k] {
				seen[k] = true
				o.Failing = append(o.Failing, Item{"source": sourceLocation(c)})
			}
		}
		return o
	}
}

// sourceLocation is Lighthouse's source-location value.
func sourceLocation(c Console) map[string]any {
	return map[string]any{"type": "source-location", "url": c.URL, "urlProvider": "network", "line": c.Line, "column": c.Column}
}

func checkPastePreventing(_ *Input, pg *page) Outcome {
	var o Outcome
	for i, n := range pg.in.Nodes {
		if n.Prop != nil && n.Prop.PreventsPaste {
			o.Failing = append(o.Failing, pg.ref(i, ""))
		}
	}
	return o
}

// imageURL returns an img's source URL.
func (pg *page) imageURL(i int) string {
	n := pg.node(i)
	if n.Prop != nil && n.Prop.Src != "" {
		return n.Prop.Src
	}
	return n.Attrs["src"]
}

// plainImage reports whether img i is a rendered raster image with a
// known natural size that the image checks look at.
func (pg *page) plainImage(i int) bool {
	n := pg.node(i)
	if !pg.rendered(i) || n.Prop == nil || n.Prop.NaturalWidth == 0 || n.Prop.NaturalHeight == 0 || n.Box[2] == 0 || n.Box[3] == 0 {
		return false
	}
	src := strings.ToLower(pg.imageURL(i))
	if strings.HasSuffix(strings.SplitN(src, "?", 2)[0], ".svg") || strings.HasPrefix(src, "data:image/svg") {
		return false
	}
	return n.Style == nil || n.Style.ObjectFit == "" || n.Style.ObjectFit == "fill"
}

func checkImageAspectRatio(_ *Input, pg *page) Outcome {
	var o Outcome
	o.Headings = []Heading{{Key: "node", ValueType: "node", Label: ""}, {Key: "url", ValueType: "url", Label: "URL"}, {Key: "displayedAspectRatio", ValueType: "text", Label: "Aspect Ratio (Displayed)"}, {Key: "actualAspectRatio", ValueType: "text", Label: "Aspect Ratio (Actual)"}}
	for _, i := range pg.each("img") {
		if !pg.plainImage(i) {
			continue
		}
		n := pg.node(i)
		actual := n.Prop.NaturalWidth / n.Prop.NaturalHeight
		shown := n.Box[2] / n.Box[3]
		// Lighthouse tolerates rounding of the displayed size.
		target := n.Box[2] / actual
		if math.Abs(target-n.Box[3]) > 2 && math.Abs(actual-shown)/actual > 0.05 {
			o.Failing = append(o.Failing, Item{"node": pg.nodeRef(i, ""), "url": pg.imageURL(i),
				"displayedAspectRatio": fmt.Sprintf("%.0f x %.0f (%.2f)", n.Box[2], n.Box[3], shown),
				"actualAspectRatio":    fmt.Sprintf("%.0f x %.0f (%.2f)", n.Prop.NaturalWidth, n.Prop.NaturalHeight, actual)})
		}
	}
	return o
}

func checkImageSizeResponsive(in *Input, pg *page) Outcome {
	var o Outcome
	o.Headings = []Heading{{Key: "node", ValueType: "node", Label: ""}, {Key: "url", ValueType: "url", Label: "URL"}, {Key: "displayedSize", ValueType: "text", Label: "Displayed size"}, {Key: "actualSize", ValueType: "text", Label: "Actual size"}, {Key: "expectedSize", ValueType: "text", Label: "Expected size"}}
	// Lighthouse quantizes the density to 1, 1.5 or 2 and allows images
	// above 64px a quarter fewer pixels.
	dpr := 1.0
	if in.Device == "mobile" {
		dpr = 1.5
	}
	seen := map[string]bool{}
	for _, i := range pg.each("img") {
		if !pg.plainImage(i) || strings.Contains(pg.node(i).Attrs["srcset"], "x") && regexpDensity.MatchString(pg.node(i).Attrs["srcset"]) {
			continue
		}
		n := pg.node(i)
		w, h := math.Round(n.Box[2]), math.Round(n.Box[3])
		top, left := n.Box[1], n.Box[0]
		if w <= 1 || h <= 1 || top > in.ViewportHeight || top+h < 0 || left > in.ViewportWidth || left+w < 0 || h > in.ViewportHeight || w > in.ViewportWidth {
			continue
		}
		f := 1.0
		if w > 64 || h > 64 {
			f = 0.75
		}
		if n.Prop.NaturalWidth >= math.Ceil(f*dpr*w) && n.Prop.NaturalHeight >= math.Ceil(f*dpr*h) {
			continue
		}
		u := pg.imageURL(i)
		if seen[u] {
			continue
		}
		seen[u] = true
		o.Failing = append(o.Failing, Item{"node": pg.nodeRef(i, ""), "url": u,
			"displayedSize": fmt.Sprintf("%.0f x %.0f", w, h),
			"actualSize":    fmt.Sprintf("%.0f x %.0f", n.Prop.NaturalWidth, n.Prop.NaturalHeight),
			"expectedSize":  fmt.Sprintf("%.0f x %.0f", math.Ceil(dpr*w), math.Ceil(dpr*h))})
	}
	return o
}

// regexpDensity matches srcset density descriptors (" 2x").
var regexpDensity = regexp.MustCompile(` \d+(\.\d+)?x`)

func checkDoctype(in *Input, _ *page) Outcome {
	d := in.Doc
	switch {
	case !d.HasDoctype:
		return Outcome{Explanation: "Document must contain a doctype"}
	case d.CompatMode == "CSS1Compat" && in.Mode == "navigation" && limitedQuirks(d):
		// Lighthouse learns of limited quirks from the issue Chrome
		// raises during a load, so a snapshot passes these.
		return Outcome{Explanation: "Document contains a `doctype` that triggers `limited-quirks-mode`"}
	case d.CompatMode == "CSS1Compat":
	case d.DoctypePub != "":
		return Outcome{Explanation: "Expected publicId to be an empty string"}
	case d.DoctypeSys != "":
		return Outcome{Explanation: "Expected systemId to be an empty string"}
	case !strings.EqualFold(d.DoctypeName, "html"):
		return Outcome{Explanation: "Doctype name must be the string `html`"}
	default:
		return Outcome{Explanation: "Document contains a `doctype` that triggers `quirks-mode`"}
	}
	return Outcome{}
}

// limitedQuirks reports whether a doctype puts the document in the HTML
// standard's limited-quirks mode.
func limitedQuirks(d Document) bool {
	pub := strings.ToLower(d.DoctypePub)
	if strings.HasPrefix(pub, "-//w3c//dtd xhtml 1.0 frameset//") || strings.HasPrefix(pub, "-//w3c//dtd xhtml 1.0 transitional//") {
		return true
	}
	return d.DoctypeSys != "" && (strings.HasPrefix(pub, "-//w3c//dtd html 4.01 frameset//") || strings.HasPrefix(pub, "-//w3c//dtd html 4.01 transitional//"))
}

func checkCharset(in *Input, pg *page) Outcome {
	if in.Main != nil {
		for k, v := range in.Main.Headers {
			if strings.EqualFold(k, "content-type") && strings.Contains(strings.ToLower(v), "charset=") {
				return Outcome{}
			}
		}
	}
	head := strings.ToLower(in.Doc.HeadHTML)
	if len(head) > 1024 {
		head = head[:1024]
	}
	if strings.HasPrefix(in.Doc.HeadHTML, "\ufeff") {
		return Outcome{}
	}
	if strings.Contains(head, "<meta") && (strings.Contains(head, "charset=") || strings.Contains(head, "charset =")) {
		return Outcome{}
	}
	return Outcome{Explanation: "Charset declaration is missing or occurs too late in the HTML"}
}

func checkDeprecations(in *Input, _ *page) Outcome {
	var o Outcome
	o.Headings = []Heading{{Key: "value", ValueType: "text", Label: "Deprecation / Warning"}, {Key: "source", ValueType: "source-location", Label: "Source"}}
	for _, is := range in.Issues {
		if is.Code == "DeprecationIssue" {
			o.Failing = append(o.Failing, Item{"value": issueSummary(is)})
		}
	}
	if len(o.Failing) > 0 {
		o.DisplayValue = english.Count(len(o.Failing), "warning found", "warnings found")
	}
	return o
}

// issueSummary names an issue from its details.
func issueSummary(is Issue) string {
	s := string(is.Details)
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return is.Code + ": " + s
}

// checkThirdPartyCookies lists, as Lighthouse does, the cookies Chrome
// warned would be (or excluded as) blocked by the phasing out of
// third-party cookies, once each (by domain, path and name).
func checkThirdPartyCookies(in *Input, _ *page) Outcome {
	var o Outcome
	o.Headings = []Heading{{Key: "name", ValueType: "text", Label: "Name"}, {Key: "url", ValueType: "url", Label: "URL"}}
	seen := map[string]bool{}
	for _, is := range in.Issues {
		var wrap struct {
			Details struct {
				Cookie *struct {
					Name   string `json:"name"`
					Domain string `json:"domain"`
					Path   string `json:"path"`
				} `json:"cookie"`
				RawCookieLine string   `json:"rawCookieLine"`
				Warnings      []string `json:"cookieWarningReasons"`
				Exclusions    []string `json:"cookieExclusionReasons"`
				URL           string   `json:"cookieUrl"`
			} `json:"cookieIssueDetails"`
		}
		if is.Code != "CookieIssue" || json.Unmarshal(is.Details, &wrap) != nil {
			continue
		}
		c := wrap.Details
		if !slices.Contains(c.Warnings, "WarnThirdPartyPhaseout") && !slices.Contains(c.Exclusions, "ExcludeThirdPartyPhaseout") {
			continue
		}
		name, id := c.RawCookieLine, cmp.Or(c.RawCookieLine, "no-cookie-info")
		if c.Cookie != nil {
			name, id = cmp.Or(c.Cookie.Name, c.RawCookieLine), c.Cookie.Domain+";"+c.Cookie.Path+";"+c.Cookie.Name
		}
		if name == "" || seen[id] {
			continue
		}
		seen[id] = true
		o.Failing = append(o.Failing, Item{"name": name, "url": c.URL})
	}
	if len(o.Failing) > 0 {
		o.DisplayValue = english.Count(len(o.Failing), "cookie found", "cookies found")
	}
	return o
}

func checkErrorsInConsole(in *Input, _ *page) Outcome {
	var o Outcome
	o.Headings = []Heading{{Key: "sourceLocation", ValueType: "source-location", Label: "Source"}, {Key: "description", ValueType: "code", Label: "Description"}}
	for _, c := range in.Console {
		if c.Level != "error" || c.Source == "violation" || c.Source == "intervention" {
			continue
		}
		o.Failing = append(o.Failing, Item{"source": c.Source, "description": c.Text, "sourceLocation": sourceLocation(c)})
	}
	return o
}

// inspectorIssueTypes are the DevTools issue kinds the inspector-issues
// audit reports.
var inspectorIssueTypes = setOf("MixedContentIssue", "CookieIssue", "BlockedByResponseIssue", "HeavyAdIssue",
	"ContentSecurityPolicyIssue")

func checkInspectorIssues(in *Input, _ *page) Outcome {
	var o Outcome
	o.Headings = []Heading{{Key: "issueType", ValueType: "text", Label: "Issue type"}}
	kinds := map[string]bool{}
	for _, is := range in.Issues {
		if inspectorIssueTypes[is.Code] {
			kinds[is.Code] = true
		}
	}
	for _, k := range sortedIDs(kinds) {
		o.Failing = append(o.Failing, Item{"issueType": strings.TrimSuffix(k, "Issue")})
	}
	return o
}

// checkSourceMaps is valid-source-maps as Lighthouse 13 defines it: the
// page fails when a first-party http(s) script of 500 KiB or more has no
// source map, or one that does not load or parse; the scripts with a map
// are listed, each with what went wrong with it. First party is the main
// document's site (its root domain). Scripts inline in the page are not
// measured (Lighthouse counts those too, under the document's URL).
func checkSourceMaps(in *Input, _ *page) Outcome {
	if !in.ScriptsKnown {
		for _, r := range in.Requests {
			if r.Resource == "script" {
				return Outcome{NotApplicable: true, Reason: "Not computed by devtools-mcp: the page's scripts could not all be read."}
			}
		}
		return Outcome{}
	}
	o := Outcome{Headings: []Heading{{Key: "scriptUrl", ValueType: "url", Label: "URL", SubItemsHeading: &SubHeading{Key: "error"}},
		{Key: "sourceMapUrl", ValueType: "url", Label: "Map URL"}}}
	site := rootDomain(in.FinalURL)
	missing := false
	var first, rest []Item
	for _, sc := range in.Scripts {
		large := sc.Length >= 500*1024 && site != "" && rootDomain(sc.URL) == site
		errs := []Item{}
		if sc.MapError != "" {
			errs = append(errs, Item{"error": sc.MapError})
		}
		if large && (sc.MapURL == "" || sc.MapError != "") {
			missing = true
			errs = append(errs, Item{"error": "Large JavaScript file is missing a source map"})
		}
		if sc.MapURL == "" && len(errs) == 0 {
			continue
		}
		it := Item{"scriptUrl": sc.URL, "subItems": &SubItems{Type: "subitems", Items: errs}}
		if sc.MapURL != "" {
			it["sourceMapUrl"] = sc.MapURL
		}
		if large && len(errs) > 0 {
			first = append(first, it)
		} else {
			rest = append(rest, it)
		}
	}
	o.Failing = append(first, rest...)
	score := 1.0
	if missing {
		score = 0
	}
	o.Score = &score
	return o
}

// rootDomain is the site Lighthouse takes a URL's host to belong to: an
// IP address or a one-label host itself, else its last two labels (three
// when the second last is a common second-level label such as co or
// com), "" for a URL without a host.
func rootDomain(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	h := strings.ToLower(u.Hostname())
	labels := strings.Split(h, ".")
	if h == "" || net.ParseIP(h) != nil || len(labels) < 2 {
		return h
	}
	n := 2
	if len(labels) > 2 && secondLevels[labels[len(labels)-2]] {
		n = 3
	}
	return strings.Join(labels[len(labels)-n:], ".")
}

// secondLevels are the labels Lighthouse treats as part of a public suffix
// when second to last (example.co.uk's site is example.co.uk).
var secondLevels = setOf("com", "co", "gov", "edu", "ac", "org", "go", "gob", "or", "net", "in", "ne", "nic", "gouv", "web",
	"spb", "blog", "jus", "kiev", "mil", "wi", "qc", "ca", "bel", "on")

// headerInfo reports, informatively, whether the main document sets a
// security header.
func headerInfo(header, missing string) check {
	return func(in *Input, _ *page) Outcome {
		var o Outcome
		o.Headings = []Heading{{Key: "description", ValueType: "text", Label: "Description"}, {Key: "severity", ValueType: "text", Label: "Severity"}}
		if in.Main != nil {
			for k := range in.Main.Headers {
				if strings.EqualFold(k, header) {
					return o
				}
			}
		}
		o.Failing = append(o.Failing, Item{"description": missing, "severity": "High"})
		return o
	}
}

// checkJSLibraries cannot be decided here: Lighthouse lists the libraries
// the library detector it bundles (js-library-detector) recognises by
// running some hundred tests in the page, each reading globals and
// markers of one library and its version; that catalogue is data
// devtools-mcp does not ship. The audit is informative (weight 0).
func checkJSLibraries(*Input, *page) Outcome {
	return Outcome{NotApplicable: true, Reason: "Not computed by devtools-mcp: the libraries come from the catalogue of tests of the library detector Lighthouse bundles, which devtools-mcp does not ship."}
}

// checkBaseline cannot be decided here: Lighthouse lists the web platform
// features a page used, read from a trace's feature counters, with each
// feature's Baseline status from the web-features data set it bundles,
// which devtools-mcp does not ship. The audit is informative (weight 0),
// so no score depends on it.
func checkBaseline(*Input, *page) Outcome {
	return Outcome{NotApplicable: true, Reason: "Not computed by devtools-mcp: the Baseline status of the features a page uses comes from the web-features data set Lighthouse bundles, which Chrome does not give."}
}
