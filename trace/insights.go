package trace

import (
	"cmp"
	"fmt"
	"math"
	"net"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Insight is one finding about an insight set: what was measured, what it
// costs and what to change.
type Insight struct {
	Name        string // LCPBreakdown, RenderBlocking, ...
	Title       string
	Description string // one line: what the insight is about
	// Failed is set when the insight found something to fix; passing
	// insights are not listed in the summary but can still be analyzed.
	Failed bool
	// Informative insights (breakdowns) are listed whenever they apply.
	Informative bool
	Bounds      Bounds
	Savings     Savings
	// Details is the full explanation for performance_analyze_insight.
	Details string
}

// Savings are an insight's estimated gains; zero fields are unknown or none.
type Savings struct {
	FCP, LCP, INP Micro
	CLS           float64
	WastedBytes   int64
	// Metrics lists which metric savings were estimated, in order.
	Metrics []string
}

// Insight names, in the order they are computed and listed.
var insightNames = []string{
	"LCPBreakdown", "LCPDiscovery", "RenderBlocking", "DocumentLatency", "NetworkDependencyTree",
	"CLSCulprits", "INPBreakdown", "ThirdParties", "DOMSize", "Cache", "FontDisplay", "ImageDelivery",
	"ForcedReflow", "Viewport", "ModernHTTP", "CharacterSet", "SlowCSSSelector",
	"DuplicatedJavaScript", "LegacyJavaScript",
}

// insights computes every insight of the set.
func (s *set) insights() []Insight {
	gens := []func() *Insight{
		s.lcpBreakdown, s.lcpDiscovery, s.renderBlocking, s.documentLatency, s.networkTree,
		s.clsCulprits, s.inpBreakdown, s.thirdParties, s.domSize, s.cache, s.fontDisplay, s.imageDelivery,
		s.forcedReflow, s.viewport, s.modernHTTP, s.characterSet, s.slowSelectors,
		s.duplicatedJavaScript, s.legacyJavaScript,
	}
	out := make([]Insight, 0, len(gens))
	for i, g := range gens {
		if in := g(); in != nil {
			in.Name = insightNames[i]
			out = append(out, *in)
		}
	}
	return out
}

// rel is t relative to the set's start, in ms, as text.
func (s *set) rel(t Micro) string { return ms(t - s.start()) }

func (s *set) start() Micro {
	if s.nav != nil {
		return s.nav.Start
	}
	return s.bounds.Min
}

// inSet reports whether a request was issued during the set.
func (s *set) inSet(r *Request) bool { return s.bounds.Contains(r.Queued) }

func ms(m Micro) string {
	v := m.Ms()
	if math.Abs(v) < 10 && v != math.Trunc(v) {
		return strconv.FormatFloat(v, 'f', 1, 64) + " ms"
	}
	return strconv.FormatFloat(math.Round(v), 'f', 0, 64) + " ms"
}

func kB(n int64) string {
	switch {
	case n < 1000:
		return strconv.FormatInt(n, 10) + " B"
	case n < 1000*1000:
		return strconv.FormatFloat(float64(n)/1000, 'f', 1, 64) + " kB"
	}
	return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + " MB"
}

func pct(part, whole Micro) string {
	if whole <= 0 {
		return "0%"
	}
	return strconv.FormatFloat(100*float64(part)/float64(whole), 'f', 1, 64) + "%"
}

// requestLine describes a request in one line: URL, times and size.
func (s *set) requestLine(r *Request) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s", r.URL, cmp.Or(r.ResourceType, "request"))
	if r.StatusCode != 0 {
		fmt.Fprintf(&b, ", status %d", r.StatusCode)
	}
	fmt.Fprintf(&b, ", priority %s", cmp.Or(r.Priority, "unknown"))
	if r.InitialPriority != "" && r.InitialPriority != r.Priority {
		fmt.Fprintf(&b, " (initially %s)", r.InitialPriority)
	}
	if r.Protocol != "" {
		fmt.Fprintf(&b, ", %s", r.Protocol)
	}
	fmt.Fprintf(&b, "): queued at %s", s.rel(r.Queued))
	if r.ResponseStart > 0 {
		fmt.Fprintf(&b, ", first byte at %s", s.rel(r.ResponseStart))
	}
	if r.Finish > 0 {
		fmt.Fprintf(&b, ", done at %s (%s in all)", s.rel(r.Finish), ms(r.Finish-r.Queued))
	}
	if r.EncodedLength > 0 {
		fmt.Fprintf(&b, ", %s transferred", kB(r.EncodedLength))
	}
	if r.FromCache {
		b.WriteString(", from cache")
	}
	return b.String()
}

func (s *set) lcpBreakdown() *Insight {
	m := &s.m
	if m.LCP == None {
		return nil
	}
	in := &Insight{
		Title:       "LCP breakdown",
		Description: "Where the time until the largest paint went: server response, the wait before the LCP resource was requested, its download, and the delay until it was painted. Most of it should be download, not delays.",
		Informative: true,
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
	if !preloaded || lazy {
		in.Savings = Savings{LCP: max(0, r.Queued-earliest), Metrics: []string{"LCP"}}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The LCP image %s was requested at %s; the document's first byte arrived at %s, the earliest it could have been found.\n", r.URL, s.rel(r.Queued), s.rel(earliest))
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
	fmt.Fprintf(&b, "\nEstimated savings: FCP %s if they stopped blocking. ", ms(saving))
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
		Failed:      slow || redirect > 0 || wasted > 0,
		Bounds:      Bounds{r.Queued, max(r.Finish, r.ResponseStart)},
		Savings:     Savings{FCP: saving, LCP: saving, WastedBytes: wasted, Metrics: []string{"FCP", "LCP"}},
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Document request: %s\n", s.requestLine(r))
	check := func(ok bool, text string) {
		mark := "PASS"
		if !ok {
			mark = "FAIL"
		}
		fmt.Fprintf(&b, "- %s: %s\n", mark, text)
	}
	if redirect > 0 {
		check(false, fmt.Sprintf("%d redirect(s) cost %s (%s); link to the final URL directly.", len(r.Redirects), ms(redirect), strings.Join(r.Redirects, " -> ")))
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
// initial render: high priority, not an image or data fetch.
func critical(r *Request) bool {
	switch r.ResourceType {
	case "Image", "XHR", "Fetch", "EventSource", "Ping", "Preflight", "Media":
		return false
	}
	return r.Priority == "VeryHigh" || r.Priority == "High" || r.RenderBlocking == "blocking"
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
		Failed:      len(root.children) > 0,
		Bounds:      Bounds{s.doc.Queued, longest[len(longest)-1].Finish},
	}
	var d strings.Builder
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

// clsCulprits explains the worst cluster of layout shifts.
func (s *set) clsCulprits() *Insight {
	w := s.m.CLSWindow
	if len(w) == 0 {
		return nil
	}
	first, last := w[0], w[len(w)-1]
	in := &Insight{
		Title:       "Layout shift culprits",
		Description: "Elements moved without user input. Reserve space for late content (sizes on images and embeds, min-height on containers), and avoid inserting content above what is already shown.",
		Informative: true,
		Failed:      s.m.CLS >= 0.1,
		Bounds:      Bounds{first.TS, last.TS},
	}
	var b strings.Builder
	fmt.Fprintf(&b, "CLS: %.4f. The worst cluster of layout shifts has %d shift(s) from %s to %s.\n", s.m.CLS, len(w), s.rel(first.TS), s.rel(last.TS))
	for _, sh := range w {
		fmt.Fprintf(&b, "- Layout shift at %s (trace time %dµs), score %.4f", s.rel(sh.TS), sh.TS, sh.Score)
		var moved []string
		for _, n := range sh.Nodes {
			moved = append(moved, fmt.Sprintf("%s (node id %d)", cmp.Or(n.Name, "an element"), n.NodeID))
		}
		if len(moved) > 0 {
			fmt.Fprintf(&b, "; moved: %s", strings.Join(moved, ", "))
		}
		b.WriteString("\n")
		for _, c := range s.shiftCauses(sh) {
			fmt.Fprintf(&b, "    likely cause: %s\n", c)
		}
	}
	b.WriteString("\nTo fix: give images and embeds width and height (or aspect-ratio), reserve space for content inserted later, use font-display: optional or matched fallback fonts, and animate with transform instead of properties that change layout.\n")
	in.Details = b.String()
	return in
}

// shiftCauses guesses what caused a shift from what happened in the half
// second before it: fonts that finished loading, images without size, and
// scripts that ran.
func (s *set) shiftCauses(sh *LayoutShift) []string {
	const window = 500 * Micro(1000)
	var out []string
	for i := range s.t.Requests {
		r := &s.t.Requests[i]
		if r.ResourceType == "Font" && r.Finish < sh.TS && r.Finish >= sh.TS-window {
			out = append(out, "web font loaded just before: "+r.URL)
		}
	}
	for i := range s.t.Requests {
		r := &s.t.Requests[i]
		if r.ResourceType == "Image" && r.Finish < sh.TS && r.Finish >= sh.TS-window && !s.imageSized(r.URL) {
			out = append(out, "image without explicit size loaded just before: "+r.URL)
		}
	}
	if s.main >= 0 {
		var script string
		var at Micro
		s.t.walk(s.main, Bounds{sh.TS - window, sh.TS}, func(sl *slice, _ Micro, stack []*slice) {
			if sl.kind != kindScript || sl.end() > sh.TS || sl.end() < sh.TS-window || sl.start < at {
				return
			}
			if loc := s.scriptOf(sl, stack); loc != "" {
				script, at = loc, sl.start
			}
		})
		if script != "" {
			out = append(out, "script that changed the page just before: "+script)
		}
	}
	return out
}

// imageSized reports whether the image at u was laid out with a size
// before it loaded (no LayoutImageUnsized for the element showing it).
func (s *set) imageSized(u string) bool {
	for _, p := range s.t.imgPaints {
		if p.url == u && slices.Contains(s.t.unsized, p.nodeID) {
			return false
		}
	}
	return true
}

func (s *set) inpBreakdown() *Insight {
	in := s.m.Interaction
	if in == nil {
		return nil
	}
	phases := []Phase{
		{"Input delay", Bounds{in.Start, max(in.Start, in.ProcessingStart)}},
		{"Processing duration", Bounds{max(in.Start, in.ProcessingStart), max(in.Start, in.ProcessingEnd)}},
		{"Presentation delay", Bounds{max(in.Start, in.ProcessingEnd), in.End}},
	}
	ins := &Insight{
		Title:       "INP breakdown",
		Description: "How the slowest interaction's time splits into input delay, event handler processing, and the delay until the next paint.",
		Informative: true,
		Failed:      in.Dur() > 200*1000,
		Bounds:      Bounds{in.Start, in.End},
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The slowest interaction was a %s at %s (trace time %dµs) on DOM node id %d; it took %s until the next paint (INP %s).\n", in.Type, s.rel(in.Start), in.Start, in.NodeID, ms(in.Dur()), ms(s.m.INP))
	worst := phases[0]
	for _, p := range phases {
		fmt.Fprintf(&b, "- %s: %s (%s), bounds: %s\n", p.Name, ms(p.Dur()), pct(p.Dur(), in.Dur()), fmtBounds(p.Bounds))
		if p.Dur() > worst.Dur() {
			worst = p
		}
	}
	for _, t := range s.m.LongTasks {
		if t.Start < in.End && t.Start+t.Dur > in.Start {
			fmt.Fprintf(&b, "A %s task ran during it (at %s)%s.\n", ms(t.Dur), s.rel(t.Start), scriptsText(t.Scripts))
		}
	}
	switch worst.Name {
	case "Input delay":
		b.WriteString("Most of the time passed before the handlers ran: other tasks kept the main thread busy. Break long tasks up (yield with scheduler.yield() or setTimeout).\n")
	case "Processing duration":
		b.WriteString("Most of the time was spent in the event handlers. Do only the visible update in the handler and move the rest to a later task; avoid forced layouts in handlers.\n")
	default:
		b.WriteString("Most of the time passed after the handlers, rendering the result. Reduce the DOM and style work the update causes (see DOMSize and ForcedReflow).\n")
	}
	ins.Details = b.String()
	return ins
}

func scriptsText(parts []Part) string {
	if len(parts) == 0 {
		return ""
	}
	var names []string
	for _, p := range parts {
		names = append(names, fmt.Sprintf("%s %s", p.Name, ms(p.Dur)))
	}
	return "; scripts: " + strings.Join(names, ", ")
}

// entity names who runs a host: its registrable domain, roughly.
func entity(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.Hostname() == "" {
		return ""
	}
	h := p.Hostname()
	if net.ParseIP(h) != nil || !strings.Contains(h, ".") {
		return h
	}
	labels := strings.Split(h, ".")
	n := 2
	if len(labels) >= 3 && len(labels[len(labels)-1]) == 2 && len(labels[len(labels)-2]) <= 3 {
		n = 3 // co.uk, com.au, ...
	}
	if len(labels) < n {
		return h
	}
	return strings.Join(labels[len(labels)-n:], ".")
}

func (s *set) thirdParties() *Insight {
	first := entity(s.t.urlStart)
	if s.nav != nil {
		first = entity(s.nav.URL)
	}
	type usage struct {
		name     string
		bytes    int64
		mainTime Micro
		urls     []string
	}
	var us []*usage
	get := func(e string) *usage {
		for _, u := range us {
			if u.name == e {
				return u
			}
		}
		u := &usage{name: e}
		us = append(us, u)
		return u
	}
	for i := range s.t.Requests {
		r := &s.t.Requests[i]
		e := entity(r.URL)
		if !s.inSet(r) || e == "" || e == first || strings.HasPrefix(r.URL, "data:") {
			continue
		}
		u := get(e)
		u.bytes += r.EncodedLength
		if len(u.urls) < 5 {
			u.urls = append(u.urls, r.URL)
		}
	}
	if s.main >= 0 {
		s.t.walk(s.main, s.bounds, func(sl *slice, self Micro, stack []*slice) {
			d := s.t.detailOf(sl)
			if sl.kind != kindScript || d == nil || d.url == "" {
				return
			}
			for _, a := range stack {
				if ad := s.t.detailOf(a); a.kind == kindScript && ad != nil && ad.url != "" {
					return // counted at the outermost script with a URL
				}
			}
			if e := entity(d.url); e != "" && e != first {
				get(e).mainTime += sl.dur
			}
		})
	}
	in := &Insight{
		Title:       "Third parties",
		Description: "Code and content from other sites compete with the page for the network and the main thread. Load third parties late and drop the ones that are not worth their cost.",
		Failed:      len(us) > 0,
		Bounds:      s.bounds,
	}
	var b strings.Builder
	if len(us) == 0 {
		fmt.Fprintf(&b, "No third-party content: every request went to %s.\n", cmp.Or(first, "the page's own site"))
		in.Details = b.String()
		return in
	}
	slices.SortFunc(us, func(a, b *usage) int {
		return cmp.Or(cmp.Compare(b.mainTime, a.mainTime), cmp.Compare(b.bytes, a.bytes))
	})
	fmt.Fprintf(&b, "First party: %s. Third parties, by main-thread time:\n", first)
	for _, u := range us {
		fmt.Fprintf(&b, "- %s: %s transferred, %s of main-thread time; e.g. %s\n", u.name, kB(u.bytes), ms(u.mainTime), strings.Join(u.urls, ", "))
	}
	b.WriteString("Defer third-party scripts (async/defer, load after interaction), self-host what you can, and use facades for heavy embeds.\n")
	in.Details = b.String()
	return in
}

func (s *set) domSize() *Insight {
	var big *domStats
	for i := range s.t.doms {
		d := &s.t.doms[i]
		if !s.bounds.Contains(d.ts) || s.nav != nil && (d.frame != s.nav.Frame || d.pid != s.nav.PID) {
			continue
		}
		if big == nil || d.total > big.total {
			big = d
		}
	}
	const slow = 40 * Micro(1000)
	var large []string
	var bounds Bounds
	if s.main >= 0 {
		lo, hi := s.t.threadSlices(s.main)
		for i := lo; i < hi; i++ {
			sl := &s.t.slices[i]
			d := s.t.detailOf(sl)
			if d == nil || sl.dur < slow || !s.bounds.Contains(sl.start) {
				continue
			}
			switch {
			case sl.kind == kindLayout && d.count > 100:
				large = append(large, fmt.Sprintf("- Layout at %s took %s for %d objects", s.rel(sl.start), ms(sl.dur), d.count))
			case sl.kind == kindStyle && d.count > 300:
				large = append(large, fmt.Sprintf("- Style recalculation at %s took %s for %d elements", s.rel(sl.start), ms(sl.dur), d.count))
			default:
				continue
			}
			if bounds.Max == 0 {
				bounds.Min = sl.start
			}
			bounds.Max = sl.end()
		}
	}
	if big == nil && len(large) == 0 {
		return nil
	}
	if bounds.Max == 0 {
		bounds = s.bounds
	}
	in := &Insight{
		Title:       "Optimize DOM size",
		Description: "A large DOM makes style recalculation and layout slow and uses more memory. Render only what is visible and flatten deep nesting.",
		Failed:      len(large) > 0,
		Bounds:      bounds,
	}
	var b strings.Builder
	if big != nil {
		fmt.Fprintf(&b, "DOM size: %d elements; deepest nesting %d (%s); most children: %d under %s.\n", big.total, big.depth, big.depthNode, big.children, big.childrenOf)
	}
	if len(large) == 0 {
		b.WriteString("No style recalculation or layout was slow (over 40 ms) because of the DOM's size.\n")
	} else {
		b.WriteString("Slow updates of a large DOM:\n" + strings.Join(large, "\n") + "\n")
		b.WriteString("Reduce the number of elements (virtualize long lists, content-visibility: auto for off-screen parts) and limit how much of the tree each change invalidates.\n")
	}
	in.Details = b.String()
	return in
}

var maxAgeRE = regexp.MustCompile(`(?i)(?:^|[,\s])(s-)?max-age\s*=\s*"?(\d+)`)

// cacheTTL returns the cache lifetime of r in seconds, and false when the
// response deliberately is not cached.
func cacheTTL(r *Request) (float64, bool) {
	cc := strings.ToLower(r.Header("Cache-Control"))
	if cc == "" && strings.Contains(strings.ToLower(r.Header("Pragma")), "no-cache") {
		return 0, false
	}
	for _, d := range []string{"no-cache", "no-store", "must-revalidate", "private"} {
		if strings.Contains(cc, d) {
			return 0, false
		}
	}
	for _, m := range maxAgeRE.FindAllStringSubmatch(cc, -1) {
		if m[1] == "" {
			v, _ := strconv.ParseFloat(m[2], 64)
			return v, true
		}
	}
	return 0, true
}

// cacheHit is the chance a repeat visit falls within a lifetime of ttl
// seconds (interpolated over the age deciles of revalidated resources).
func cacheHit(ttl float64) float64 {
	hours := []float64{0, 0.2, 1, 3, 8, 12, 24, 48, 72, 168, 8760, math.Inf(1)}
	h := ttl / 3600
	i := slices.IndexFunc(hours, func(d float64) bool { return d >= h })
	switch i {
	case len(hours) - 1:
		return 1
	case 0:
		return 0
	}
	lo, hi := hours[i-1], hours[i]
	return (float64(i-1) + (h-lo)/(hi-lo)) / 10
}

func (s *set) cache() *Insight {
	type item struct {
		r      *Request
		ttl    float64
		wasted int64
	}
	var items []item
	var total int64
	for i := range s.t.Requests {
		r := &s.t.Requests[i]
		if !s.inSet(r) || r.FromCache || !(r.StatusCode == 200 || r.StatusCode == 203 || r.StatusCode == 206) {
			continue
		}
		switch r.ResourceType {
		case "Font", "Image", "Media", "Script", "Stylesheet":
		default:
			continue
		}
		if !strings.HasPrefix(r.URL, "http") {
			continue
		}
		ttl, ok := cacheTTL(r)
		if !ok || ttl >= 30*86400 {
			continue
		}
		p := cacheHit(ttl)
		if p > 0.925 {
			continue
		}
		w := int64((1 - p) * float64(r.EncodedLength))
		items = append(items, item{r, ttl, w})
		total += w
	}
	in := &Insight{
		Title:       "Use efficient cache lifetimes",
		Description: "Static resources without a long cache lifetime are downloaded again on repeat visits. Serve them with Cache-Control: max-age and versioned URLs.",
		Failed:      len(items) > 0,
		Bounds:      s.bounds,
		Savings:     Savings{WastedBytes: total},
	}
	var b strings.Builder
	if len(items) == 0 {
		b.WriteString("Every static resource has an efficient cache policy (or opts out of caching on purpose).\n")
		in.Details = b.String()
		return in
	}
	slices.SortFunc(items, func(a, b item) int { return cmp.Compare(b.wasted, a.wasted) })
	fmt.Fprintf(&b, "%d static resource(s) have a short or no cache lifetime, about %s to download again on a repeat visit:\n", len(items), kB(total))
	for _, it := range items {
		ttl := "none"
		if it.ttl > 0 {
			ttl = strconv.FormatFloat(it.ttl, 'f', 0, 64) + " s"
		}
		fmt.Fprintf(&b, "- %s: cache lifetime %s, %s\n", it.r.URL, ttl, kB(it.r.EncodedLength))
	}
	b.WriteString("Give versioned static files a long lifetime (Cache-Control: max-age=31536000, immutable) and change the URL when the content changes.\n")
	in.Details = b.String()
	return in
}

func (s *set) fontDisplay() *Insight {
	type font struct {
		url     string
		display string
		wasted  Micro
	}
	var fonts []font
	var worst Micro
	var bounds Bounds
	for _, f := range s.t.fonts {
		if !s.bounds.Contains(f.ts) {
			continue
		}
		r := s.byID[f.request]
		if r == nil {
			continue
		}
		var w Micro
		if f.display == "block" || f.display == "fallback" || f.display == "auto" {
			w = min(max(0, r.Finish-max(r.SendStart, r.Queued)), 3000*1000)
		}
		fonts = append(fonts, font{cmp.Or(f.url, r.URL), f.display, w})
		worst = max(worst, w)
		if bounds.Max == 0 {
			bounds.Min = r.Queued
		}
		bounds.Max = max(bounds.Max, r.Finish)
	}
	if len(fonts) == 0 {
		return nil
	}
	in := &Insight{
		Title:       "Font display",
		Description: "Web fonts with font-display block, fallback or auto hide text while they load. Use swap or optional so text shows at once.",
		Failed:      worst > 0,
		Bounds:      bounds,
		Savings:     Savings{FCP: worst, Metrics: []string{"FCP"}},
	}
	var b strings.Builder
	for _, f := range fonts {
		fmt.Fprintf(&b, "- %s: font-display %s, text invisible for up to %s\n", f.url, f.display, ms(f.wasted))
	}
	b.WriteString("Set font-display: swap (or optional) in the @font-face rules, and consider size-adjust/ascent-override on the fallback font so the swap does not shift layout.\n")
	in.Details = b.String()
	return in
}

func (s *set) imageDelivery() *Insight {
	const avifBytesPerPixel = 2.0 / 12
	type image struct {
		r       *Request
		savings int64
		advice  []string
	}
	var images []image
	var total int64
	for i := range s.t.Requests {
		r := &s.t.Requests[i]
		if !s.inSet(r) || r.ResourceType != "Image" || r.MimeType == "image/svg+xml" {
			continue
		}
		var paint *imagePaint
		for j := range s.t.imgPaints {
			p := &s.t.imgPaints[j]
			if p.url == r.URL && s.bounds.Contains(p.ts) && (paint == nil || p.dispW*p.dispH > paint.dispW*paint.dispH) {
				paint = p
			}
		}
		if paint == nil || paint.srcW*paint.srcH == 0 {
			continue
		}
		size := min(r.DecodedLength, r.EncodedLength)
		if size == 0 {
			size = max(r.DecodedLength, r.EncodedLength)
		}
		pixels := paint.srcW * paint.srcH
		var advice []string
		var formatSaving int64
		if r.MimeType == "image/gif" {
			if size > 100*1024 {
				formatSaving = int64(float64(size) * max(0, (29.1*math.Log10(float64(size))-100.7)/100))
				advice = append(advice, fmt.Sprintf("use a video format instead of an animated GIF (about %s less)", kB(formatSaving)))
			}
		} else if float64(size)/pixels > avifBytesPerPixel {
			formatSaving = size - int64(avifBytesPerPixel*pixels)
			if r.MimeType == "image/webp" || r.MimeType == "image/avif" {
				advice = append(advice, fmt.Sprintf("compress it more (about %s less)", kB(formatSaving)))
			} else {
				advice = append(advice, fmt.Sprintf("use a modern format (WebP, AVIF) or more compression (about %s less)", kB(formatSaving)))
			}
		}
		if formatSaving <= 4096 {
			advice, formatSaving = nil, 0
		}
		saving := formatSaving
		if wasted := 1 - paint.dispW*paint.dispH/pixels; wasted > 0 {
			resize := int64(wasted * float64(size))
			saving += int64(wasted * float64(size-formatSaving))
			if resize > 4096 {
				advice = append(advice, fmt.Sprintf("the file is %.0fx%.0f but shown at %.0fx%.0f: serve a responsive size (srcset) (about %s less)", paint.srcW, paint.srcH, paint.dispW, paint.dispH, kB(resize)))
			}
		}
		if len(advice) == 0 {
			continue
		}
		images = append(images, image{r, saving, advice})
		total += saving
	}
	if len(images) == 0 {
		return &Insight{Title: "Improve image delivery", Description: imageDeliveryText, Bounds: s.bounds, Details: "No image could be made meaningfully smaller.\n"}
	}
	slices.SortFunc(images, func(a, b image) int { return cmp.Compare(b.savings, a.savings) })
	in := &Insight{
		Title:       "Improve image delivery",
		Description: imageDeliveryText,
		Failed:      true,
		Bounds:      Bounds{images[0].r.Queued, images[0].r.Finish},
		Savings:     Savings{WastedBytes: total},
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d image(s) could be about %s smaller in all:\n", len(images), kB(total))
	for _, im := range images {
		fmt.Fprintf(&b, "- %s (%s): %s\n", im.r.URL, kB(im.r.EncodedLength), strings.Join(im.advice, "; "))
	}
	in.Details = b.String()
	return in
}

const imageDeliveryText = "Smaller images download faster and can improve LCP: use modern formats, compress well, and serve the size the page displays."

func (s *set) forcedReflow() *Insight {
	if s.main < 0 {
		return nil
	}
	var groups []Part
	var total Micro
	var bounds Bounds
	s.t.walk(s.main, s.bounds, func(sl *slice, _ Micro, stack []*slice) {
		if sl.kind != kindLayout && sl.kind != kindStyle {
			return
		}
		var script *slice
		for _, a := range stack {
			if a.kind == kindScript {
				script = a
			}
		}
		if script == nil {
			return
		}
		addPart(&groups, cmp.Or(s.scriptOf(script, stack), "(unknown script)"), sl.dur)
		total += sl.dur
		if bounds.Max == 0 {
			bounds.Min = sl.start
		}
		bounds.Max = max(bounds.Max, sl.end())
	})
	if len(groups) == 0 {
		return &Insight{Title: "Forced reflow", Description: forcedReflowText, Bounds: s.bounds, Details: "No script forced a synchronous layout or style recalculation.\n"}
	}
	slices.SortFunc(groups, func(a, b Part) int { return cmp.Compare(b.Dur, a.Dur) })
	in := &Insight{
		Title:       "Forced reflow",
		Description: forcedReflowText,
		Failed:      total >= 1000,
		Bounds:      bounds,
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Scripts forced %s of synchronous layout and style work:\n", ms(total))
	for _, g := range groups {
		fmt.Fprintf(&b, "- %s: %s\n", g.Name, ms(g.Dur))
	}
	b.WriteString("Reading layout (offsetWidth, getBoundingClientRect, getComputedStyle...) right after changing the DOM makes the browser lay out synchronously. Batch reads before writes, or read in requestAnimationFrame.\n")
	in.Details = b.String()
	return in
}

const forcedReflowText = "Scripts that read layout right after changing the page force the browser to recompute style and layout synchronously, blocking the main thread."

func (s *set) viewport() *Insight {
	frame := s.t.MainFrame
	if s.nav != nil {
		frame = s.nav.Frame
	}
	var meta *viewportMeta
	for i := range s.t.viewports {
		if v := &s.t.viewports[i]; v.frame == frame && s.bounds.Contains(v.ts) {
			meta = v
			break
		}
	}
	seen, optimized := 0, true
	for _, c := range s.t.commits {
		if c.frame != frame || !s.bounds.Contains(c.ts) || meta != nil && c.ts < meta.ts {
			continue
		}
		seen++
		optimized = optimized && c.mobile
	}
	if seen == 0 {
		return nil
	}
	in := &Insight{
		Title:       "Optimize viewport for mobile",
		Description: "Without a mobile viewport (<meta name=viewport content=\"width=device-width\">), mobile browsers may delay taps by up to 300 ms.",
		Failed:      !optimized,
		Bounds:      s.bounds,
	}
	var b strings.Builder
	if meta != nil {
		fmt.Fprintf(&b, "The page's viewport meta tag: content=%q.\n", meta.content)
	} else {
		b.WriteString("The page has no viewport meta tag.\n")
	}
	if optimized {
		b.WriteString("The viewport is optimized for mobile: taps are not delayed.\n")
	} else {
		in.Savings = Savings{INP: 300 * 1000, Metrics: []string{"INP"}}
		b.WriteString("The viewport is not optimized for mobile, so taps can wait up to 300 ms for a double-tap. Add <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">.\n")
	}
	in.Details = b.String()
	return in
}

// local reports whether u is served from this machine.
func local(u string) bool {
	p, err := url.Parse(u)
	if err != nil {
		return false
	}
	h := p.Hostname()
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

func (s *set) modernHTTP() *Insight {
	count := map[string]int{}
	static := func(r *Request) bool {
		switch r.ResourceType {
		case "Font", "Image", "Media", "Script", "Stylesheet", "Document":
			return !local(r.URL)
		}
		return false
	}
	for i := range s.t.Requests {
		if r := &s.t.Requests[i]; s.inSet(r) && static(r) {
			count[origin(r.URL)]++
		}
	}
	var old []*Request
	seen := map[string]bool{}
	for i := range s.t.Requests {
		r := &s.t.Requests[i]
		p := strings.ToLower(r.Protocol)
		if !s.inSet(r) || seen[r.URL] || r.FromServiceWorker || !(strings.HasPrefix(p, "http/1") || p == "http/0.9") || count[origin(r.URL)] < 6 {
			continue
		}
		seen[r.URL] = true
		old = append(old, r)
	}
	in := &Insight{
		Title:       "Modern HTTP",
		Description: "HTTP/2 and HTTP/3 send many requests over one connection; HTTP/1.1 queues them. Serve origins with many static files over a modern protocol.",
		Failed:      len(old) > 0,
		Bounds:      s.bounds,
	}
	var b strings.Builder
	if len(old) == 0 {
		b.WriteString("No origin served six or more static files over HTTP/1.1 (local development servers are not counted).\n")
	} else {
		fmt.Fprintf(&b, "%d request(s) used HTTP/1.1 from origins with six or more static files:\n", len(old))
		for _, r := range old {
			fmt.Fprintf(&b, "- %s (%s)\n", r.URL, r.Protocol)
		}
		b.WriteString("Enable HTTP/2 or HTTP/3 on these servers or their CDN.\n")
	}
	in.Details = b.String()
	return in
}

func (s *set) characterSet() *Insight {
	r := s.doc
	if s.nav == nil || r == nil || r.MimeType != "text/html" {
		return nil
	}
	if strings.Contains(strings.ToLower(r.Header("Content-Type")), "charset=") {
		return nil
	}
	return &Insight{
		Title:       "Declare a character set",
		Description: "Without a charset in the Content-Type header the browser must find one in the HTML, and may have to re-parse the page.",
		Bounds:      Bounds{r.Queued, r.Finish},
		Details:     fmt.Sprintf("The document %s was served as %q without a charset. Send Content-Type: text/html; charset=utf-8, or put <meta charset=\"utf-8\"> in the first 1024 bytes.\n", r.URL, r.Header("Content-Type")),
	}
}

func fmtBounds(b Bounds) string { return fmt.Sprintf("{min: %dµs, max: %dµs}", b.Min, b.Max) }

func (s *set) slowSelectors() *Insight {
	type cost struct {
		selector          string
		elapsed           Micro
		attempts, matches int64
	}
	var costs []cost
	at := map[int32]int{}
	var total Micro
	for _, st := range s.t.selTimes {
		if !s.bounds.Contains(st.ts) {
			continue
		}
		i, ok := at[st.selector]
		if !ok {
			i = len(costs)
			at[st.selector] = i
			costs = append(costs, cost{selector: s.t.selectors[st.selector]})
		}
		c := &costs[i]
		c.elapsed += st.elapsed
		c.attempts += st.attempts
		c.matches += st.matches
		total += st.elapsed
	}
	in := &Insight{
		Title:       "CSS selector costs",
		Description: "Selectors that take long to match slow down every style recalculation. Simplify the costliest ones or make them match fewer elements.",
		Bounds:      s.bounds,
	}
	if len(costs) == 0 {
		in.Details = "The trace has no CSS selector statistics: they are recorded only with the disabled-by-default-blink.debug trace category (DevTools' \"Enable CSS selector stats\" setting).\n"
		return in
	}
	slices.SortFunc(costs, func(a, b cost) int { return cmp.Compare(b.elapsed, a.elapsed) })
	in.Failed = costs[0].elapsed >= 50*1000
	var b strings.Builder
	fmt.Fprintf(&b, "Selector matching took %s in all. The costliest selectors:\n", ms(total))
	for _, c := range costs[:min(5, len(costs))] {
		fmt.Fprintf(&b, "- %s: %s, %d match attempts, %d matches\n", c.selector, ms(c.elapsed), c.attempts, c.matches)
	}
	b.WriteString("Selectors that are tried on many elements but match few are the ones to simplify: avoid broad descendant and universal selectors on the right, and prefer classes.\n")
	in.Details = b.String()
	return in
}
