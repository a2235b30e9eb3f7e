package audit

import (
	"net/url"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"
)

// checkIdenticalLinks is identical-links-same-purpose as axe-core 4.12
// decides it and Lighthouse 13 reports it. The links (a and area
// elements with an href, elements whose role attribute is "link") that
// have an accessible name and no role other than link are grouped by
// that name, lowered, without emoji, symbols and punctuation, white
// space collapsed. Where a group's other links do not all go where its
// first one goes (URLs compared as axe-core does: http and https alike,
// default ports and index files dropped, query parameters in any order,
// fragments only when they are routes), axe-core leaves the first link
// for review with the others as its related nodes; Lighthouse lists what
// axe leaves for review as this informative audit's items. A page whose
// only link has a name that is nothing but such characters is left for
// review too, as axe-core does.
func checkIdenticalLinks(in *Input, pg *page) Outcome {
	var links []int
	for _, i := range pg.flatOrder() {
		if pg.linkLike(i) && pg.linkName(i) != "" {
			if r := pg.role(i); r == "" || r == "link" {
				links = append(links, i)
			}
		}
	}
	const why = "Fix all of the following:\n  Check that links have the same purpose, or are intentionally ambiguous."
	var o Outcome
	if len(links) == 1 {
		if linkPurposeName(pg.linkName(links[0])) == "" {
			o.Failing = append(o.Failing, pg.ref(links[0], why))
		}
		return informative(o)
	}
	groups := map[string][]int{}
	var names []string
	for _, i := range links {
		name := linkPurposeName(pg.linkName(i))
		if name == "" {
			continue // axe-core drops these from the comparison
		}
		if groups[name] == nil {
			names = append(names, name)
		}
		groups[name] = append(groups[name], i)
	}
	for _, name := range names {
		g := groups[name]
		first := linkTarget(in, pg, g[0])
		same := true
		for _, j := range g[1:] {
			if t := linkTarget(in, pg, j); t == nil || first == nil || !reflect.DeepEqual(*t, *first) {
				same = false
			}
		}
		if len(g) < 2 || same {
			continue
		}
		it := pg.ref(g[0], why)
		var related []Item
		for _, j := range g[1:] {
			related = append(related, Item{"relatedNode": pg.nodeRef(j, "")})
		}
		it["subItems"] = &SubItems{Type: "subitems", Items: related}
		o.Failing = append(o.Failing, it)
	}
	if len(o.Failing) > 0 {
		o.Headings = []Heading{{Key: "node", ValueType: "node", Label: "Failing Elements",
			SubItemsHeading: &SubHeading{Key: "relatedNode", ValueType: "node"}}}
	}
	return informative(o)
}

// linkLike reports whether element i is one the rule looks at: an a or
// area element with an href attribute, or one whose role attribute is
// exactly "link".
func (pg *page) linkLike(i int) bool {
	n := pg.node(i)
	if _, ok := n.Attrs["href"]; ok && (n.Tag == "a" || n.Tag == "area") {
		return true
	}
	return n.Attrs["role"] == "link"
}

// linkName is element i's accessible name, "" when it is hidden from
// assistive technology. Chrome gives image map areas no accessibility
// node of their own: an area is shown when its map has a name and every
// image using the map is, and is named by its aria-labelledby,
// aria-label, alt or title.
func (pg *page) linkName(i int) string {
	if pg.node(i).Tag != "area" {
		if pg.hiddenFromAT(i) {
			return ""
		}
		return pg.name(i)
	}
	if !pg.areaShown(i) {
		return ""
	}
	n := pg.node(i)
	var parts []string
	for _, id := range strings.Fields(n.Attrs["aria-labelledby"]) {
		if js := pg.byID(i, id); len(js) > 0 {
			parts = append(parts, pg.contentText(js[0], false))
		}
	}
	if l := strings.TrimSpace(strings.Join(parts, " ")); l != "" {
		return l
	}
	for _, k := range []string{"aria-label", "alt", "title"} {
		if v := strings.TrimSpace(n.Attrs[k]); v != "" {
			return v
		}
	}
	return ""
}

// areaShown reports whether area element i is shown to assistive
// technology: not under aria-hidden or inert, in a named map of its
// document's own tree that images use, each of them shown.
func (pg *page) areaShown(i int) bool {
	for j := i; j >= 0; j = pg.node(j).Parent {
		if v := pg.node(j).Attrs["aria-hidden"]; strings.EqualFold(strings.TrimSpace(v), "true") || hasAttr(pg.node(j), "inert") {
			return false
		}
	}
	m := pg.ancestor(i, func(j int) bool { return pg.node(j).Tag == "map" })
	if m < 0 || pg.node(m).Shadow != 0 || pg.node(m).Attrs["name"] == "" {
		return false
	}
	use := "#" + pg.node(m).Attrs["name"]
	imgs := pg.where(func(j int) bool {
		n := pg.node(j)
		return n.Tag == "img" && n.Frame == pg.node(i).Frame && n.Attrs["usemap"] == use
	})
	return len(imgs) > 0 && !slices.ContainsFunc(imgs, pg.hiddenFromAT)
}

// flatOrder lists the elements in the order of the flat tree, each
// frame's document where its frame element is (axe-core's order, in
// which the first link of a group is the one reported).
func (pg *page) flatOrder() []int {
	out := make([]int, 0, len(pg.in.Nodes))
	var walk func(j int)
	walk = func(j int) {
		out = append(out, j)
		for _, c := range pg.children[j] {
			walk(c)
		}
	}
	for i, n := range pg.in.Nodes {
		if n.Parent < 0 || n.Parent >= len(pg.in.Nodes) {
			walk(i)
		}
	}
	return out
}

// linkPurposeName is an accessible name as the rule compares it: emoji,
// the symbol blocks, private-use and format characters and punctuation
// removed, runs of white space made one space, trimmed, lower case.
func linkPurposeName(s string) string {
	var b strings.Builder
	for k := 0; k < len(s); {
		r, size := utf8.DecodeRuneInString(s[k:])
		if n := emojiAt(s[k:]); n > 0 {
			k += n
			continue
		}
		k += size
		if nonTextRune(r) {
			continue
		}
		b.WriteRune(r)
	}
	t := strings.ReplaceAll(b.String(), "\u00a0", " ")
	return strings.ToLower(strings.Join(strings.Fields(t), " "))
}

// emojiAt returns the length of the emoji s starts with (with its
// variation selector, or a keycap sequence, or a pair of regional
// indicators), 0 when it starts with none.
func emojiAt(s string) int {
	r, n := utf8.DecodeRuneInString(s)
	rest := s[n:]
	switch {
	case r == '#' || r == '*' || r >= '0' && r <= '9':
		m := 0
		if strings.HasPrefix(rest, "\ufe0f") {
			m = len("\ufe0f")
		}
		if strings.HasPrefix(rest[m:], "\u20e3") {
			return n + m + len("\u20e3")
		}
		return 0
	case r >= 0x1F1E6 && r <= 0x1F1FF:
		if r2, n2 := utf8.DecodeRuneInString(rest); r2 >= 0x1F1E6 && r2 <= 0x1F1FF {
			return n + n2
		}
		return 0
	case !emojiRune(r):
		return 0
	}
	if strings.HasPrefix(rest, "\ufe0f") {
		n += len("\ufe0f")
	}
	return n
}

// emojiRanges are the code points axe-core's emoji pattern removes on
// their own that its other patterns (symbol blocks, punctuation) leave.
var emojiRanges = [][2]rune{{0xa9, 0xa9}, {0xae, 0xae}, {0x2934, 0x2935}, {0x2b05, 0x2b07}, {0x2b1b, 0x2b1c}, {0x2b50, 0x2b50},
	{0x2b55, 0x2b55}, {0x3030, 0x3030}, {0x303d, 0x303d}, {0x3297, 0x3297}, {0x3299, 0x3299}, {0x1f004, 0x1f004}, {0x1f0cf, 0x1f0cf},
	{0x1f170, 0x1f171}, {0x1f17e, 0x1f17f}, {0x1f18e, 0x1f18e}, {0x1f191, 0x1f19a}, {0x1f201, 0x1f202}, {0x1f21a, 0x1f21a},
	{0x1f22f, 0x1f22f}, {0x1f232, 0x1f23a}, {0x1f250, 0x1f251}, {0x1f300, 0x1f321}, {0x1f324, 0x1f393}, {0x1f396, 0x1f397},
	{0x1f399, 0x1f39b}, {0x1f39e, 0x1f3f0}, {0x1f3f3, 0x1f3f5}, {0x1f3f7, 0x1f4fd}, {0x1f4ff, 0x1f53d}, {0x1f549, 0x1f54e},
	{0x1f550, 0x1f567}, {0x1f56f, 0x1f570}, {0x1f573, 0x1f57a}, {0x1f587, 0x1f587}, {0x1f58a, 0x1f58d}, {0x1f590, 0x1f590},
	{0x1f595, 0x1f596}, {0x1f5a4, 0x1f5a5}, {0x1f5a8, 0x1f5a8}, {0x1f5b1, 0x1f5b2}, {0x1f5bc, 0x1f5bc}, {0x1f5c2, 0x1f5c4},
	{0x1f5d1, 0x1f5d3}, {0x1f5dc, 0x1f5de}, {0x1f5e1, 0x1f5e1}, {0x1f5e3, 0x1f5e3}, {0x1f5e8, 0x1f5e8}, {0x1f5ef, 0x1f5ef},
	{0x1f5f3, 0x1f5f3}, {0x1f5fa, 0x1f64f}, {0x1f680, 0x1f6c5}, {0x1f6cb, 0x1f6d2}, {0x1f6d5, 0x1f6d8}, {0x1f6dc, 0x1f6e5},
	{0x1f6e9, 0x1f6e9}, {0x1f6eb, 0x1f6ec}, {0x1f6f0, 0x1f6f0}, {0x1f6f3, 0x1f6fc}, {0x1f7e0, 0x1f7eb}, {0x1f7f0, 0x1f7f0},
	{0x1f90c, 0x1f93a}, {0x1f93c, 0x1f945}, {0x1f947, 0x1f9ff}, {0x1fa70, 0x1fa7c}, {0x1fa80, 0x1fa8a}, {0x1fa8e, 0x1fac6},
	{0x1fac8, 0x1fac8}, {0x1facd, 0x1fadc}, {0x1fadf, 0x1faea}, {0x1faef, 0x1faf8}}

// emojiRune reports whether r is in emojiRanges.
func emojiRune(r rune) bool {
	for _, g := range emojiRanges {
		if r >= g[0] && r <= g[1] {
			return true
		}
	}
	return false
}

// nonTextRune reports whether the rule's name comparison drops r: the
// phonetic, combining, currency, letterlike, number form, arrow, math,
// technical, box, shape, dingbat and private-use blocks, the general and
// supplemental punctuation blocks, ASCII punctuation and a few signs, and
// the invisible format characters (soft hyphen, bidi marks, tags...).
func nonTextRune(r rune) bool {
	switch {
	case r >= 0x1d00 && r <= 0x1dff, r >= 0x20a0 && r <= 0x24ff, r >= 0x2500 && r <= 0x27bf, r >= 0xe000 && r <= 0xf8ff:
		return true
	case r >= 0x2000 && r <= 0x206f, r >= 0x2e00 && r <= 0x2e7f:
		return true
	case r < 0x80 && strings.ContainsRune("\\'!\"#$%&()*+,-./:;<=>?@[]^_`{|}~", r):
		return true
	case r == 0xa3, r == 0xa2, r == 0xa5, r == 0xa7, r == 0x20ac, r == 0xb1:
		return true
	case r >= 0xf0000: // supplementary private use planes
		return true
	case r == 0xad, r >= 0x600 && r <= 0x605, r == 0x61c, r == 0x6dd, r == 0x70f, r == 0x8e2, r == 0x180e, r == 0xfeff,
		r >= 0xfff9 && r <= 0xfffb, r == 0x110bd, r == 0x110cd, r >= 0x13430 && r <= 0x13438, r >= 0x1bca0 && r <= 0x1bca3,
		r >= 0x1d173 && r <= 0x1d17a, r == 0xe0001, r >= 0xe0020 && r <= 0xe007f:
		return true
	}
	return false
}

// linkDest is where a link goes, in the parts axe-core compares.
type linkDest struct {
	Protocol, Hostname, Port, Pathname, Hash, Filename string
	Search                                             map[string]string
}

// linkTarget resolves element i's href against its document's base URL
// into the parts axe-core compares; nil when it has no href (axe-core
// then never counts two links as going to the same place).
func linkTarget(in *Input, pg *page, i int) *linkDest {
	href, ok := pg.attr(i, "href")
	if !ok {
		return nil
	}
	// The URL parser drops leading and trailing C0 controls and spaces,
	// and tabs and newlines anywhere.
	href = strings.Trim(href, "\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b\x0c\r\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f ")
	href = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(href)
	u, err := url.Parse(href)
	if err == nil {
		if base, err2 := url.Parse(in.baseURL(pg.node(i).Frame)); err2 == nil && base.IsAbs() {
			u = base.ResolveReference(u)
		}
	}
	d := &linkDest{Protocol: ":", Pathname: "/", Search: map[string]string{}}
	if err != nil || !u.IsAbs() {
		return d // an invalid URL: the element has no parts
	}
	d.Protocol = strings.ToLower(u.Scheme) + ":"
	switch d.Protocol {
	case "https:":
		d.Protocol = "http:"
	case "ftps:":
		d.Protocol = "ftp:"
	}
	d.Hostname = strings.ToLower(u.Hostname())
	d.Port = u.Port()
	if d.Port == "80" || d.Port == "443" || d.Port == "21" && strings.EqualFold(u.Scheme, "ftp") {
		d.Port = ""
	}
	path := u.Opaque
	if path == "" {
		path = u.EscapedPath()
	}
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	if file := path[strings.LastIndex(path, "/")+1:]; strings.Contains(file, ".") {
		path = strings.Replace(path, file, "", 1)
		if k := strings.Index(file, "index"); k < 0 || k+len("index.") > len(file) {
			d.Filename = file
		}
	}
	if !strings.HasSuffix(path, "/") {
		path += "/"
	}
	d.Pathname = path
	if u.RawQuery != "" {
		for _, pair := range strings.Split(u.RawQuery, "&") {
			parts := strings.SplitN(pair, "=", 3)
			k, v := parts[0], ""
			if len(parts) > 1 {
				v = parts[1]
			}
			d.Search[unescape(k)] = unescape(v)
		}
	}
	if f := u.EscapedFragment(); strings.HasPrefix(f, "/") || strings.HasPrefix(f, "!") {
		d.Hash = "#" + f
	}
	return d
}

// unescape decodes percent escapes as decodeURIComponent does (a plus
// stays a plus); a malformed escape leaves the text as it is.
func unescape(s string) string {
	if v, err := url.PathUnescape(s); err == nil {
		return v
	}
	return s
}
