package trace

// The page-load insights: LCP, render-blocking requests, the document
// request and the critical request chains.

import (
	"cmp"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strings"
)

func (s *set) lcpBreakdown() *Insight {
	m := &s.m
	if m.LCP == None {
		return nil
	}
	in := &Insight{
		Title:       "LCP breakdown",
		Description: "Where the time until the largest paint went: server response, the wait before the LCP resource was requested, its download, and the delay until it was painted. Most of it should be download, not delays.",
		Informative: true,
		Failed:      m.LCP > lcpGood,
		Bounds:      Bounds{s.nav.Start, m.LCPEvent},
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The Largest Contentful Paint (LCP) of this navigation was %s (at trace time %dµs).\n", ms(m.LCP), m.LCPEvent)
	fmt.Fprintf(&b, "The LCP element is %s, DOM node id %d", s.lcpElement(), m.LCPNode)
	if m.LCPImage != "" {
		fmt.Fprintf(&b, ", an image loaded from %s", m.LCPImage)
	}
	b.WriteString(".\n")
	if r := m.LCPRequest; r != nil {
		fmt.Fprintf(&b, "LCP resource request: %s\n", s.requestLine(r))
	}
	if len(m.LCPParts) == 0 {
		b.WriteString("\nThe document's response time is missing from the trace, so LCP cannot be broken down.\n")
		in.Details = b.String()
		return in
	}
	fmt.Fprintf(&b, "\nThe LCP time breaks down into %d phases:\n", len(m.LCPParts))
	worst := m.LCPParts[0]
	for _, p := range m.LCPParts {
		fmt.Fprintf(&b, "- %s: %s (%s of LCP), bounds: %s\n", p.Name, ms(p.Dur()), pct(p.Dur(), m.LCP), fmtBounds(p.Bounds))
		if p.Dur() > worst.Dur() {
			worst = p
		}
	}
	fmt.Fprintf(&b, "\nThe largest phase is %s. ", worst.Name)
	switch worst.Name {
	case "TTFB":
		b.WriteString("Make the server answer faster (caching, less server work, a CDN) and avoid redirects; see DocumentLatency.")
	case "Load delay":
		b.WriteString("The browser found the LCP resource late. Reference it directly in the HTML (an <img> with src, or <link rel=preload>) rather than from CSS or script, give it fetchpriority=high, and don't lazy-load it; see LCPDiscovery.")
	case "Load duration":
		b.WriteString("The LCP resource itself took long to download. Make it smaller (modern formats, right dimensions, compression; see ImageDelivery) or serve it from a faster or closer origin.")
	case "Render delay":
		b.WriteString("The element was ready but painted late: render-blocking stylesheets and scripts (see RenderBlocking) or long main-thread tasks held the paint back. Defer non-critical CSS and JS and split long tasks.")
	}
	b.WriteString("\n")
	in.Details = b.String()
	return in
}

func (s *set) lcpElement() string {
	if s.m.LCPNodeName != "" {
		return s.m.LCPNodeName
	}
	return "a " + cmp.Or(s.m.LCPType, "content") + " element"
}

func (s *set) lcpDiscovery() *Insight {
	m := &s.m
	r := m.LCPRequest
	if m.LCP == None || r == nil || s.doc == nil {
		return nil
	}
	preloaded := r.IsLinkPreload || r.Initiator.Type == "parser" && r.Initiator.URL == s.doc.URL
	lazy := m.lcpLoading == "lazy"
	high := r.FetchPriorityHint == "high"
	earliest := s.doc.ResponseStart
	in := &Insight{
		Title:       "LCP request discovery",
		Description: "Whether the LCP image could be found in the HTML right away, was requested with high priority and was not lazy-loaded.",
		Failed:      !preloaded || lazy || !high,
		Bounds:      Bounds{earliest, max(earliest, r.Finish)},
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The LCP image %s was requested at %s; the document's first byte arrived at %s, the earliest it could have been found.\n", r.URL, s.rel(r.Queued), s.rel(earliest))
	if d := r.Queued - earliest; d > 0 && (!preloaded || lazy) {
		// Like DevTools, no saving is estimated: finding the image earlier
		// helps only as far as the network and the main thread allow.
		fmt.Fprintf(&b, "It was found %s after that.\n", ms(d))
	}
	check := func(ok bool, pass, fail string) {
		if ok {
			fmt.Fprintf(&b, "- PASS: %s\n", pass)
		} else {
			fmt.Fprintf(&b, "- FAIL: %s\n", fail)
		}
	}
	check(high, "fetchpriority=high was applied.", "fetchpriority=high was not applied: add it to the LCP <img> so the browser fetches it before other images.")
	check(preloaded, "the request can be discovered in the initial document.", fmt.Sprintf("the request was not discoverable in the initial document (initiator: %s %s): put the image in the HTML as <img src> or add <link rel=preload as=image>.", cmp.Or(r.Initiator.Type, "unknown"), r.Initiator.URL))
	check(!lazy, "lazy loading was not applied.", "the LCP image has loading=lazy: remove it, lazy images are fetched only after layout.")
	in.Details = b.String()
	return in
}

// firstPaint is the navigation's first paint time, 0 if none.
func (s *set) firstPaint() Micro {
	if s.nav == nil {
		return 0
	}
	for _, p := range s.t.paints {
		if p.nav == s.nav.ID {
			return p.ts
		}
	}
	return 0
}

// renderBlocking lists the requests that held the first paint back.
func (s *set) renderBlockingRequests() []*Request {
	fp := s.firstPaint()
	if fp == 0 {
		return nil
	}
	var out []*Request
	for i := range s.t.Requests {
		r := &s.t.Requests[i]
		if r.Frame != s.nav.Frame || !s.inSet(r) || r.Finish == 0 || r.Finish > fp || r == s.doc {
			continue
		}
		switch r.RenderBlocking {
		case "blocking":
		case "in_body_parser_blocking":
			if r.Priority != "VeryHigh" && !(r.ResourceType == "Script" && r.Priority == "High") {
				continue
			}
		default:
			continue
		}
		out = append(out, r)
	}
	slices.SortStableFunc(out, func(a, b *Request) int { return cmp.Compare(b.Finish-b.Queued, a.Finish-a.Queued) })
	return out
}

func (s *set) renderBlocking() *Insight {
	reqs := s.renderBlockingRequests()
	if s.nav == nil {
		return nil
	}
	in := &Insight{
		Title:       "Render-blocking requests",
		Description: "Stylesheets and scripts the page had to download before it could paint anything, which delays FCP and LCP. Inline what is critical, defer or load the rest asynchronously.",
		Failed:      len(reqs) > 0,
	}
	var b strings.Builder
	if len(reqs) == 0 {
		b.WriteString("No request blocked the first paint of this navigation.\n")
		in.Details = b.String()
		return in
	}
	in.Bounds = Bounds{reqs[0].Queued, reqs[0].Finish}
	var last Micro
	for _, r := range reqs {
		in.Bounds.Min = min(in.Bounds.Min, r.Queued)
		in.Bounds.Max = max(in.Bounds.Max, r.Finish)
		last = max(last, r.Finish)
	}
	// Without the blocking requests, the paint could have come as soon as
	// the document was in.
	docDone := s.nav.Start
	if s.doc != nil {
		docDone = max(s.doc.Finish, s.doc.ResponseStart)
	}
	saving := max(0, last-docDone)
	if s.m.FCP != None {
		saving = min(saving, s.m.FCP)
	}
	in.Savings = Savings{FCP: saving, Metrics: []string{"FCP", "LCP"}}
	if s.m.LCPImage == "" {
		in.Savings.LCP = saving
	}
	fmt.Fprintf(&b, "%d request(s) blocked the first paint (at %s):\n", len(reqs), s.rel(s.firstPaint()))
	for _, r := range reqs {
		fmt.Fprintf(&b, "- %s; blocked rendering for %s (render blocking status: %s)\n", s.requestLine(r), ms(r.Finish-r.Queued), r.RenderBlocking)
	}
	in.setKey("requests", float64(len(reqs)))
	fmt.Fprintf(&b, "\nEstimated savings: FCP %s if they stopped blocking. ", ms(saving))
	b.WriteString("(Measured on this load: from when the document had arrived to when the last blocking request was done, at most the FCP. It is an upper bound: DevTools simulates the load without the blocking requests, which gives less when parsing, style and layout also held the paint back.) ")
	b.WriteString("Inline the CSS needed for the first screen and load the rest with media queries or rel=preload; give scripts async or defer, or move them to the end of <body>.\n")
	in.Details = b.String()
	return in
}

// compressible estimates the bytes compression would save on r, 0 when it
// is compressed or not worth it.
func compressible(r *Request) int64 {
	if r.Header("Content-Encoding") != "" {
		return 0
	}
	var f float64
	switch r.MimeType {
	case "text/css":
		f = 0.8
	case "text/html", "text/javascript":
		f = 0.67
	case "text/plain", "text/xml", "application/javascript", "application/json", "application/xml", "application/xhtml+xml", "image/svg+xml", "font/ttf", "font/otf":
		f = 0.5
	}
	n := int64(math.Round(float64(r.DecodedLength) * f))
	if n < 1400 {
		return 0
	}
	return n
}

func (s *set) documentLatency() *Insight {
	r := s.doc
	if s.nav == nil || r == nil || r.ResponseStart == 0 {
		return nil
	}
	server := r.ResponseStart - r.SendStart
	if r.SendStart == 0 {
		server = r.ResponseStart - r.Queued
	}
	var redirect Micro
	if r.Redirected > 0 {
		redirect = r.Redirected - r.Queued
	}
	wasted := compressible(r)
	slow := server > 600*1000
	saving := redirect
	if slow {
		saving += server - 100*1000
	}
	in := &Insight{
		Title:       "Document request latency",
		Description: "The first request is the most important one: everything waits for it. Avoid redirects, make the server answer fast and compress the HTML.",
		Failed:      slow || len(r.Redirects) > 0 || wasted > 0,
		Bounds:      Bounds{r.Queued, max(r.Finish, r.ResponseStart)},
		Savings:     Savings{FCP: saving, LCP: saving, WastedBytes: wasted, Metrics: []string{"FCP", "LCP"}},
	}
	in.setKey("redirectMs", redirect.Ms())
	if slow {
		in.setKey("serverMs", server.Ms())
	}
	in.setKey("wastedBytes", float64(wasted))
	var b strings.Builder
	fmt.Fprintf(&b, "Document request: %s\n", s.requestLine(r))
	check := func(ok bool, text string) {
		mark := "PASS"
		if !ok {
			mark = "FAIL"
		}
		fmt.Fprintf(&b, "- %s: %s\n", mark, text)
	}
	if len(r.Redirects) > 0 {
		check(false, fmt.Sprintf("%d redirect(s) cost %s (%s -> %s); link to the final URL directly.", len(r.Redirects), ms(redirect), strings.Join(slices.Compact(slices.Clone(r.Redirects)), " -> "), r.URL))
	} else {
		check(true, "no redirects.")
	}
	if slow {
		check(false, fmt.Sprintf("the server took %s to respond (aim for under 100 ms; over 600 ms is slow): cache rendered pages, reduce server work, or use a CDN.", ms(server)))
	} else {
		check(true, fmt.Sprintf("the server responded in %s.", ms(server)))
	}
	if wasted > 0 {
		check(false, fmt.Sprintf("the %s response is not compressed; gzip or brotli would save about %s.", kB(r.DecodedLength), kB(wasted)))
	} else {
		check(true, "the response is compressed, or too small to matter.")
	}
	fmt.Fprintf(&b, "Estimated savings: FCP %s, LCP %s.\n", ms(saving), ms(saving))
	in.Details = b.String()
	return in
}

// critical reports whether a request is on the critical path of the
// initial render, as DevTools decides it: started by something (it has an
// initiator URL), not a preload, an image or a data fetch, and either of
// at least medium priority or not declared non-blocking.
func critical(r *Request) bool {
	switch r.ResourceType {
	case "Image", "XHR", "Fetch", "EventSource":
		return false
	}
	if r.IsLinkPreload || strings.HasPrefix(r.MimeType, "image/") || r.Initiator.URL == "" {
		return false
	}
	switch r.Priority {
	case "VeryHigh", "High", "Medium":
		return true
	}
	switch r.RenderBlocking {
	case "non_blocking", "dynamically_injected_non_blocking", "potentially_blocking":
		return false
	}
	return true
}

func (s *set) networkTree() *Insight {
	if s.nav == nil || s.doc == nil {
		return nil
	}
	// Chains: each critical request hangs under its initiator.
	type node struct {
		r        *Request
		children []*node
	}
	root := &node{r: s.doc}
	byURL := map[string]*node{s.doc.URL: root}
	var longest []*Request
	var chain []*Request
	for i := range s.t.Requests {
		r := &s.t.Requests[i]
		if r == s.doc || !s.inSet(r) || r.Frame != s.nav.Frame || !critical(r) || r.Finish == 0 {
			continue
		}
		parent := byURL[r.Initiator.URL]
		if parent == nil {
			continue
		}
		n := &node{r: r}
		parent.children = append(parent.children, n)
		if _, ok := byURL[r.URL]; !ok {
			byURL[r.URL] = n
		}
	}
	var b strings.Builder
	var walk func(n *node, depth int)
	walk = func(n *node, depth int) {
		chain = append(chain, n.r)
		fmt.Fprintf(&b, "%s- %s (%s, done at %s, %s)\n", strings.Repeat("  ", depth), n.r.URL, cmp.Or(n.r.ResourceType, "request"), s.rel(n.r.Finish), kB(n.r.EncodedLength))
		if len(n.children) == 0 && (len(longest) == 0 || n.r.Finish > longest[len(longest)-1].Finish) {
			longest = slices.Clone(chain)
		}
		for _, c := range n.children {
			walk(c, depth+1)
		}
		chain = chain[:len(chain)-1]
	}
	walk(root, 0)
	in := &Insight{
		Title:       "Network dependency tree",
		Description: "Chains of critical requests, each found only after the previous one loaded. Shorten them, make the resources smaller, or preload what comes late.",
		// Each redirect hop is a request the next one waited for: a chain.
		Failed: len(root.children) > 0 || len(s.doc.Redirects) > 0,
		Bounds: Bounds{s.doc.Queued, longest[len(longest)-1].Finish},
	}
	var d strings.Builder
	if n := len(s.doc.Redirects); n > 0 {
		fmt.Fprintf(&d, "The document came through %d redirect(s): each hop waited for the one before it (see DocumentLatency).\n", n)
	}
	if len(root.children) == 0 {
		d.WriteString("No critical request depends on another: only the document is on the critical path.\n")
	} else {
		fmt.Fprintf(&d, "Critical request chains (what each request waited for):\n%s", b.String())
		fmt.Fprintf(&d, "\nThe longest chain is %d requests deep and ends at %s (%s after navigation start):\n", len(longest), longest[len(longest)-1].URL, s.rel(longest[len(longest)-1].Finish))
		for i, r := range longest {
			fmt.Fprintf(&d, "%d. %s\n", i+1, r.URL)
		}
		origins := map[string]bool{}
		docOrigin := origin(s.doc.URL)
		for _, r := range longest[1:] {
			if o := origin(r.URL); o != docOrigin && !origins[o] {
				origins[o] = true
				fmt.Fprintf(&d, "Consider <link rel=preconnect href=%q>: a critical request goes to that origin.\n", o)
			}
		}
		d.WriteString("Avoid chaining critical requests: reference late-found resources from the HTML with <link rel=preload>, inline small critical CSS, and reduce the size of each request.\n")
	}
	in.Details = d.String()
	return in
}

func origin(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return ""
	}
	return p.Scheme + "://" + p.Host
}
