package audit

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// headingLevel returns element i's heading level, 0 when it is no heading.
func (pg *page) headingLevel(i int) int {
	n := pg.node(i)
	if r := pg.explicitRole(i); r == "heading" {
		if l, err := strconv.Atoi(n.Attrs["aria-level"]); err == nil && l > 0 {
			return l
		}
		return 2
	} else if r != "" {
		return 0
	}
	if len(n.Tag) == 2 && n.Tag[0] == 'h' && n.Tag[1] >= '1' && n.Tag[1] <= '6' {
		return int(n.Tag[1] - '0')
	}
	return 0
}

func checkHeadingOrder(_ *Input, pg *page) Outcome {
	is := pg.visibleToAT(pg.where(func(i int) bool { return pg.headingLevel(i) > 0 }))
	prev := 0
	return result(pg, is, func(i int) string {
		l := pg.headingLevel(i)
		defer func() { prev = l }()
		if prev > 0 && l > prev+1 {
			return "Heading order invalid"
		}
		return ""
	})
}

func checkEmptyHeading(_ *Input, pg *page) Outcome {
	var o Outcome
	for _, i := range pg.visibleToAT(pg.where(func(i int) bool { return pg.headingLevel(i) > 0 })) {
		if pg.contentText(i, true) == "" && !pg.authorNamed(i) {
			o.Failing = append(o.Failing, pg.ref(i, "Fix any of the following:\n  Element does not have text that is visible to screen readers"))
		}
	}
	return informative(o)
}

func checkList(_ *Input, pg *page) Outcome {
	is := pg.visibleToAT(pg.where(func(i int) bool {
		t := pg.node(i).Tag
		return (t == "ul" || t == "ol") && pg.explicitRole(i) == ""
	}))
	return result(pg, is, func(i int) string {
		for _, c := range pg.children[i] {
			ct := pg.node(c).Tag
			r := pg.explicitRole(c)
			if (ct == "li" && (r == "" || r == "listitem")) || ct == "script" || ct == "template" || pg.hiddenFromAT(c) {
				continue
			}
			return "List element has direct children that are not allowed: " + ct
		}
		return ""
	})
}

func checkListitem(_ *Input, pg *page) Outcome {
	is := pg.visibleToAT(pg.where(func(i int) bool { return pg.node(i).Tag == "li" && pg.explicitRole(i) == "" }))
	return result(pg, is, func(i int) string {
		p := pg.node(i).Parent
		if p < 0 {
			return "List item does not have a <ul>, <ol> parent element"
		}
		pt, pr := pg.node(p).Tag, pg.explicitRole(p)
		if (pt == "ul" || pt == "ol" || pt == "menu") && (pr == "" || pr == "list") || pr == "list" {
			return ""
		}
		return "List item does not have a <ul>, <ol> parent element"
	})
}

func checkDefinitionList(_ *Input, pg *page) Outcome {
	is := pg.visibleToAT(pg.where(func(i int) bool { return pg.node(i).Tag == "dl" && pg.explicitRole(i) == "" }))
	return result(pg, is, func(i int) string {
		kids := pg.dlKids(i)
		sawDT, pair := false, false
		for _, c := range kids {
			switch pg.node(c).Tag {
			case "dt":
				sawDT = true
			case "dd":
				if !sawDT {
					return "List element has direct children that are not allowed: dd before any dt"
				}
				pair = true
			case "script", "template":
			default:
				return "List element has direct children that are not allowed: " + pg.node(c).Tag
			}
		}
		if len(kids) > 0 && !pair {
			return "When not empty, element does not have at least one <dt> element followed by at least one <dd> element"
		}
		return ""
	})
}

// dlKids returns a dl's items: its children, through div wrappers.
func (pg *page) dlKids(i int) []int {
	var out []int
	for _, c := range pg.children[i] {
		if pg.hiddenFromAT(c) && pg.node(c).Tag != "script" && pg.node(c).Tag != "template" {
			continue
		}
		if pg.node(c).Tag == "div" && pg.explicitRole(c) == "" {
			out = append(out, pg.children[c]...)
			continue
		}
		out = append(out, c)
	}
	return out
}

func checkDlitem(_ *Input, pg *page) Outcome {
	is := pg.visibleToAT(pg.each("dt", "dd"))
	return result(pg, is, func(i int) string {
		p := pg.node(i).Parent
		if p >= 0 && pg.node(p).Tag == "div" && pg.explicitRole(p) == "" {
			p = pg.node(p).Parent
		}
		if p >= 0 && pg.node(p).Tag == "dl" && pg.explicitRole(p) == "" {
			return ""
		}
		return "Description list item does not have a <dl> parent element"
	})
}

// landmark reports whether element i is a landmark of one of the roles.
func (pg *page) isMain(i int) bool {
	return pg.explicitRole(i) == "main" || pg.node(i).Tag == "main" && pg.explicitRole(i) == ""
}

// checkLandmarkOneMain judges the page and each frame document axe-core
// reaches: a main landmark in any of them passes them all, as axe-core's
// page-level check does; otherwise each document's root fails.
func checkLandmarkOneMain(_ *Input, pg *page) Outcome {
	if pg.html < 0 {
		return Outcome{NotApplicable: true}
	}
	var o Outcome
	for _, h := range pg.reachedDocs() {
		o.Failing = append(o.Failing, pg.ref(h, "Fix all of the following:\n  Document does not have a main landmark"))
	}
	for i := range pg.in.Nodes {
		if pg.isMain(i) && !pg.hiddenFromAT(i) && pg.frameReached(i) {
			return Outcome{}
		}
	}
	return o
}

// reachedDocs returns the root elements of the page's document and of
// the frames' documents axe-core enters.
func (pg *page) reachedDocs() []int {
	return pg.where(func(i int) bool {
		return pg.node(i).Tag == "html" && pg.docRoot(i) && (pg.node(i).Frame == 0 || pg.frameReached(i))
	})
}

// checkBypass judges, as axe-core's page-level rule does, the page and
// its frames' documents together: the page counts when it has links,
// each frame's document reached (not hidden from assistive technology)
// counts always, and a skip link, heading or main landmark in any of
// those judged passes all. Otherwise the first of them in document order is left
// for review, which Lighthouse lists (the audit is informative).
func checkBypass(_ *Input, pg *page) Outcome {
	var judged []int
	skippable := false
	for _, h := range pg.reachedDocs() {
		frame := pg.node(h).Frame
		links, skips := false, false
		for i := range pg.in.Nodes {
			n := pg.node(i)
			if n.Frame != frame {
				continue
			}
			href, ok := n.Attrs["href"]
			links = links || n.Tag == "a" && ok
			switch pg.explicitRole(i) {
			case "navigation", "banner", "contentinfo", "region", "complementary", "search":
				skips = true
			}
			skips = skips || pg.headingLevel(i) > 0 || pg.isMain(i) || strings.HasPrefix(href, "#") && len(href) > 1
		}
		if frame != 0 || links {
			judged = append(judged, h)
			skippable = skippable || skips
		}
	}
	if skippable || len(judged) == 0 {
		return Outcome{NotApplicable: true}
	}
	first := slices.MinFunc(judged, func(a, b int) int { return slices.Compare(pg.orderKey(a), pg.orderKey(b)) })
	return Outcome{Failing: []Item{pg.ref(first, "No valid skip link found; page does not have a heading; page does not have a landmark")}}
}

// docRoot reports whether element i is a document's root element (the
// page's, or a frame's under its frame element).
func (pg *page) docRoot(i int) bool {
	p := pg.node(i).Parent
	return p < 0 || pg.node(p).Frame != pg.node(i).Frame
}

// frameReached reports whether axe-core enters the frame document whose
// root is element h: none of the frame elements above it is hidden from
// assistive technology.
func (pg *page) frameReached(h int) bool {
	for j := h; j >= 0; j = pg.node(j).Parent {
		if p := pg.node(j).Parent; p >= 0 && pg.node(p).Frame != pg.node(j).Frame && pg.hiddenFromAT(p) {
			return false
		}
	}
	return true
}

// orderKey places element i in document order across frames: its index
// among its parent's children, from the page's root down (a frame's
// document after its frame element's children).
func (pg *page) orderKey(i int) []int {
	var key []int
	for j := i; pg.node(j).Parent >= 0; j = pg.node(j).Parent {
		key = append(key, slices.Index(pg.children[pg.node(j).Parent], j))
	}
	slices.Reverse(key)
	return key
}

func checkSkipLink(_ *Input, pg *page) Outcome {
	is := pg.where(func(i int) bool {
		h := pg.node(i).Attrs["href"]
		if pg.node(i).Tag != "a" || len(h) < 2 || !strings.HasPrefix(h, "#") || strings.HasPrefix(h, "#!") || strings.HasPrefix(h, "#/") {
			return false
		}
		b := pg.node(i).Box
		// Skip links are hidden off screen until focused.
		return b != nil && (b[0]+b[2] <= 0 || b[1]+b[3] <= 0 || b[2] <= 1 && b[3] <= 1)
	})
	return result(pg, is, func(i int) string {
		if len(pg.byID(i, pg.node(i).Attrs["href"][1:])) == 0 {
			return "The skip-link target does not exist"
		}
		return ""
	})
}

func videosWithoutCaptions(_ *Input, pg *page) Outcome {
	var o Outcome
	for _, i := range pg.visibleToAT(pg.each("video")) {
		ok := false
		for _, c := range pg.children[i] {
			if pg.node(c).Tag == "track" && strings.EqualFold(pg.node(c).Attrs["kind"], "captions") {
				ok = true
			}
		}
		if !ok {
			o.Failing = append(o.Failing, pg.ref(i, "The video element has no captions track"))
		}
	}
	return informative(o)
}

// tableOf returns the table element i sits in, -1 when none.
func (pg *page) tableOf(i int) int {
	return pg.ancestor(i, func(j int) bool { return pg.node(j).Tag == "table" })
}

func headersWithoutCells(_ *Input, pg *page) Outcome {
	// A header cell with text that no cell names in headers or
	// aria-labelledby and that no data cell below it in its column (or
	// after it in its row) takes as its header, as axe-core finds them.
	var o Outcome
	for _, t := range pg.visibleToAT(pg.each("table")) {
		if !pg.isDataTable(t) {
			continue
		}
		g := pg.grid(t)
		named := map[string]bool{}
		var heads []int
		for _, r := range pg.rows(t) {
			for _, c := range pg.cells(r) {
				for _, a := range []string{"headers", "aria-labelledby"} {
					for _, id := range strings.Fields(pg.node(c).Attrs[a]) {
						named[id] = true
					}
				}
				role := pg.ariaRole(c, false)
				if pg.visibleText(c) != "" && (pg.node(c).Tag == "th" || role == "columnheader" || role == "rowheader") {
					heads = append(heads, c)
				}
			}
		}
		for _, h := range heads {
			if id := pg.node(h).Attrs["id"]; id != "" && named[id] {
				continue
			}
			y, x := pg.position(g, h)
			sc := pg.scope(h, g)
			// As axe-core looks: down the header's column from the
			// header itself, then along its row, up to a hole in the
			// grid, for a cell that is not itself such a header and
			// has it among its headers.
			heads := func(cell int, col bool) bool {
				cs := pg.scope(cell, g)
				if cs == "auto" || col && cs == "col" || !col && cs == "row" {
					return false
				}
				return slices.Contains(pg.headers(cell, g), h)
			}
			at := func(r, k int) int {
				if r >= 0 && r < len(g) && k < len(g[r]) {
					return g[r][k]
				}
				return -1
			}
			found := false
			if sc == "col" || sc == "auto" {
				for r := y; at(r, x) >= 0 && !found; r++ {
					found = heads(at(r, x), true)
				}
			}
			if !found && (sc == "row" || sc == "auto") {
				for k := x; at(y, k) >= 0 && !found; k++ {
					found = heads(at(y, k), false)
				}
			}
			if !found {
				o.Failing = append(o.Failing, pg.ref(t, "Fix all of the following:\n  Table data cells are missing or empty"))
				break
			}
		}
	}
	return informative(o)
}

func checkTableFakeCaption(_ *Input, pg *page) Outcome {
	var applies []int
	for _, t := range pg.visibleToAT(pg.each("table")) {
		if !pg.presentational(t) && pg.isDataTable(t) {
			applies = append(applies, t)
		}
	}
	return result(pg, applies, func(t int) string {
		for _, d := range pg.descendants(t) {
			if pg.node(d).Tag == "tr" {
				cells := 0
				span := 0
				for _, k := range pg.children[d] {
					if pg.node(k).Tag == "td" || pg.node(k).Tag == "th" {
						cells++
						span, _ = strconv.Atoi(pg.node(k).Attrs["colspan"])
					}
				}
				if cells == 1 && span > 1 {
					return "The first row of a table should not be used as a caption"
				}
				return ""
			}
		}
		return ""
	})
}

func checkTableDuplicateName(_ *Input, pg *page) Outcome {
	var o Outcome
	for _, t := range pg.each("table") {
		sum := strings.TrimSpace(pg.node(t).Attrs["summary"])
		for _, c := range pg.children[t] {
			if pg.node(c).Tag == "caption" && sum != "" && strings.EqualFold(pg.text(c, 500), sum) {
				o.Failing = append(o.Failing, pg.ref(t, "The summary attribute and caption have the same text"))
			}
		}
	}
	return informative(o)
}

func checkLabelContentMismatch(_ *Input, pg *page) Outcome {
	// Widgets named from their content but labelled by the author: the
	// label must contain the text they show (compared without
	// punctuation; a text of one character is left for review).
	is := pg.visibleToAT(pg.where(func(i int) bool {
		d, _ := modelOf(pg.role(i))
		return d.kind == "widget" && d.fromContent && pg.authorLabel(i) != "" && pg.visibleText(i) != ""
	}))
	return result(pg, is, func(i int) string {
		shown, label := curated(pg.visibleText(i)), curated(pg.authorLabel(i))
		if len([]rune(shown)) <= 1 || len([]rune(label)) <= 1 || strings.Contains(label, shown) {
			return ""
		}
		return "Fix all of the following:\n  Element has text that is not part of the accessible name"
	})
}

// authorLabel is element i's aria-label, or else the text of what its
// aria-labelledby names.
func (pg *page) authorLabel(i int) string {
	if l := strings.TrimSpace(pg.node(i).Attrs["aria-label"]); l != "" {
		return l
	}
	var parts []string
	for _, id := range strings.Fields(pg.node(i).Attrs["aria-labelledby"]) {
		for _, j := range pg.byID(i, id)[:min(1, len(pg.byID(i, id)))] {
			if l := strings.TrimSpace(pg.node(j).Attrs["aria-label"]); l != "" {
				parts = append(parts, l)
			} else {
				parts = append(parts, pg.contentText(j, false))
			}
		}
	}
	return strings.TrimSpace(strings.Join(parts, " "))
}

// curated lowers s and drops punctuation and symbols, white space
// collapsed, for comparing a label with shown text.
func curated(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsPunct(r) || unicode.IsSymbol(r) || r > 0xFFFF {
			return ' '
		}
		return unicode.ToLower(r)
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// targets are the elements the target-size rule measures: rendered
// widgets that are not links inside running text.
func (pg *page) targets() []int {
	return pg.where(func(i int) bool {
		n := pg.node(i)
		if !pg.rendered(i) || pg.hiddenFromAT(i) || n.Box[2] == 0 || n.Box[3] == 0 || !pg.widgetType(i) || !pg.axeFocusable(i) {
			return false
		}
		if n.Tag == "area" || !pg.htmlElement(i) || offscreen(n.Box) {
			return false
		}
		if !pg.inTabOrder(i) && pg.ancestor(i, func(j int) bool { return pg.widgetType(j) && pg.inTabOrder(j) }) >= 0 {
			return false
		}
		return !pg.inTextBlock(i, true, true)
	})
}

// offscreen reports whether a box lies wholly above or left of the page
// (moved out of sight, as skip links are until focused).
func offscreen(b *[4]float64) bool {
	return b[0]+b[2] <= 0 || b[1]+b[3] <= 0
}

// widgetType reports whether element i's role is a widget role.
func (pg *page) widgetType(i int) bool {
	d, ok := modelOf(pg.role(i))
	return ok && d.kind == "widget"
}

// inTabOrder reports whether element i takes focus from the keyboard: it
// can take focus and its tabindex is not negative.
func (pg *page) inTabOrder(i int) bool {
	if v, ok := pg.attr(i, "tabindex"); ok {
		if t, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && t < 0 {
			return false
		}
	}
	return pg.axeFocusable(i)
}

// blockish reports whether a display value starts a block of text, as
// axe-core tells blocks (inline-block is not one).
func blockish(display string) bool {
	switch display {
	case "block", "list-item", "table", "flex", "grid":
		return true
	}
	return strings.HasPrefix(display, "table-")
}

// widget reports whether element i is an interactive control (its text
// counts as a control's, not as running text).
func (pg *page) widget(i int) bool {
	n := pg.node(i)
	if r := pg.explicitRole(i); r != "" {
		return widgetRoles[r]
	}
	switch n.Tag {
	case "a", "area":
		_, ok := n.Attrs["href"]
		return ok
	case "button", "input", "select", "textarea", "summary":
		return true
	}
	return false
}

// inTextBlock reports whether element i sits in running text, as axe
// decides it: in the run of its block's text around i (cut at nested
// blocks and <br>), the text outside controls must be non-empty
// (anyText) or longer than the controls' text.
func (pg *page) inTextBlock(i int, anyText, inlineBlock bool) bool {
	s := pg.node(i).Style
	if s == nil {
		return false
	}
	if blockish(s.Display) || !inlineBlock && (s.Display == "inline-block" || s.Display == "inline-flex" || s.Display == "inline-grid") {
		return false
	}
	block := pg.ancestor(i, func(j int) bool {
		st := pg.node(j).Style
		return st == nil || blockish(st.Display)
	})
	if block < 0 {
		return false
	}
	var text, ctl strings.Builder
	state := 0 // 0: before i, 1: after i, 2: run ended
	var walk func(j int)
	walk = func(j int) {
		for _, c := range pg.children[j] {
			if state == 2 {
				return
			}
			n := pg.node(c)
			if n.Style == nil {
				continue
			}
			if c == i {
				state = 1
			}
			if blockish(n.Style.Display) || n.Tag == "br" || n.Tag == "hr" {
				if state == 0 {
					text.Reset()
					ctl.Reset()
				} else if c != i {
					state = 2
				}
				continue
			}
			if c == i || pg.widget(c) {
				ctl.WriteString(pg.text(c, 2000))
				continue
			}
			text.WriteString(n.Text)
			walk(c)
		}
	}
	text.WriteString(pg.node(block).Text)
	walk(block)
	t := strings.Join(strings.Fields(text.String()), " ")
	if anyText {
		return t != ""
	}
	return len(t) > len(strings.Join(strings.Fields(ctl.String()), " "))
}
