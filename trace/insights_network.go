package trace

// The resource insights: third parties, caching, fonts, images, HTTP
// versions, character set and CSS selector costs.

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
		// Like DevTools, third parties are listed, not failed.
		Informative: len(us) > 0,
		Bounds:      s.bounds,
	}
	in.setKey("entities", float64(len(us)))
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
	in.setKey("requests", float64(len(items)))
	in.setKey("wastedBytes", float64(total))
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
	in.setKey("fonts", float64(len(fonts)))
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
	in.setKey("images", float64(len(images)))
	in.setKey("wastedBytes", float64(total))
	var b strings.Builder
	fmt.Fprintf(&b, "%d image(s) could be about %s smaller in all:\n", len(images), kB(total))
	for _, im := range images {
		fmt.Fprintf(&b, "- %s (%s): %s\n", im.r.URL, kB(im.r.EncodedLength), strings.Join(im.advice, "; "))
	}
	in.Details = b.String()
	return in
}

const imageDeliveryText = "Smaller images download faster and can improve LCP: use modern formats, compress well, and serve the size the page displays."

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

// charsetRE finds a charset parameter in a Content-Type header.
var charsetRE = regexp.MustCompile(`(?i)charset\s*=\s*[a-z0-9\-_:.()]{2,}`)

// characterSet checks that the document declares its encoding early: in
// the Content-Type header, or with <meta charset> in its first 1024 bytes
// (Blink's MetaCharsetCheck says where it found one).
func (s *set) characterSet() *Insight {
	r := s.doc
	if s.nav == nil || r == nil {
		return nil
	}
	header := r.Header("Content-Type")
	inHeader := charsetRE.MatchString(header)
	meta := ""
	for _, m := range s.t.metaCharsets {
		if m.frame == s.nav.Frame && s.bounds.Contains(m.ts) {
			meta = m.disposition
		}
	}
	early := meta == "found-in-first-1024-bytes"
	in := &Insight{
		Title:       "Declare a character set",
		Description: "Without a charset in the Content-Type header or a <meta charset> early in the HTML, the browser may have to guess the encoding or re-parse the page.",
		Failed:      !inHeader && !early,
		Bounds:      Bounds{r.Queued, max(r.Finish, r.Queued)},
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The document %s was served as %q.\n", r.URL, header)
	if inHeader {
		b.WriteString("- PASS: the Content-Type header declares a charset.\n")
	} else {
		b.WriteString("- FAIL: the Content-Type header declares no charset.\n")
	}
	switch meta {
	case "found-in-first-1024-bytes":
		b.WriteString("- PASS: <meta charset> is in the first 1024 bytes of the HTML.\n")
	case "found-after-first-1024-bytes":
		b.WriteString("- FAIL: <meta charset> comes after the first 1024 bytes of the HTML: move it to the top of <head>.\n")
	case "not-found":
		b.WriteString("- FAIL: the HTML has no <meta charset>.\n")
	default:
		if !inHeader { // Blink looks for <meta charset> only without one in the header
			b.WriteString("- FAIL: the trace does not say whether the HTML has a <meta charset>.\n")
		}
	}
	if in.Failed {
		b.WriteString("Send Content-Type: text/html; charset=utf-8, or put <meta charset=\"utf-8\"> first in <head>.\n")
	}
	in.Details = b.String()
	return in
}

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
	// Like DevTools, selector costs are listed whenever they were measured.
	in.Informative = costs[0].elapsed > 0
	var b strings.Builder
	fmt.Fprintf(&b, "Selector matching took %s in all. The costliest selectors:\n", ms(total))
	for _, c := range costs[:min(5, len(costs))] {
		fmt.Fprintf(&b, "- %s: %s, %d match attempts, %d matches\n", c.selector, ms(c.elapsed), c.attempts, c.matches)
	}
	b.WriteString("Selectors that are tried on many elements but match few are the ones to simplify: avoid broad descendant and universal selectors on the right, and prefer classes.\n")
	in.Details = b.String()
	return in
}
