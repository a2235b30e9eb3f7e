package audit

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// informative turns an outcome with nothing found into not applicable, as
// Lighthouse reports informative axe rules that found nothing.
func informative(o Outcome) Outcome {
	if len(o.Failing) == 0 {
		return Outcome{NotApplicable: true}
	}
	return o
}

func checkInputButtonName(_ *Input, pg *page) Outcome {
	is := pg.visibleToAT(pg.where(func(i int) bool {
		n := pg.node(i)
		t := strings.ToLower(n.Attrs["type"])
		return n.Tag == "input" && (t == "button" || t == "submit" || t == "reset")
	}))
	return result(pg, is, func(i int) string { return pg.unnamed(i, "discernible text") })
}

func checkImageAlt(_ *Input, pg *page) Outcome {
	is := pg.visibleToAT(pg.where(func(i int) bool { return pg.node(i).Tag == "img" && pg.nameRequiredOrNone(i) }))
	return result(pg, is, func(i int) string {
		alt, ok := pg.attr(i, "alt")
		if ok && alt != "" && strings.TrimSpace(alt) == "" {
			return "Fix all of the following:\n  Element has an alt attribute containing only a space character"
		}
		if ok || pg.authorNamed(i) {
			return ""
		}
		if r := pg.role(i); r == "none" || r == "presentation" {
			return ""
		}
		return "Fix any of the following:\n  Element does not have an alt attribute\n  aria-label attribute does not exist or is empty\n  aria-labelledby attribute does not exist, references elements that do not exist or references elements that are empty\n  Element has no title attribute\n  Element's default semantics were not overridden with role=\"none\" or role=\"presentation\""
	})
}

func checkRedundantAlt(_ *Input, pg *page) Outcome {
	// axe-core fails an image whose name is exactly the visible text of
	// the button, link, paragraph, list item or cell it is in.
	var o Outcome
	for _, i := range pg.visibleToAT(pg.each("img")) {
		if r := pg.role(i); r == "none" || r == "presentation" {
			continue
		}
		p := pg.ancestor(i, func(j int) bool {
			n := pg.node(j)
			switch n.Tag {
			case "button", "p", "li", "td", "th":
				return true
			case "a":
				return hasAttr(n, "href")
			}
			return strings.TrimSpace(strings.ToLower(n.Attrs["role"])) == "button"
		})
		if p < 0 {
			continue
		}
		name := pg.name(i)
		if name == "" {
			name = strings.TrimSpace(pg.node(i).Attrs["alt"])
		}
		if v := strings.ToLower(pg.visibleText(p)); v != "" && v == strings.ToLower(strings.Join(strings.Fields(name), " ")) {
			o.Failing = append(o.Failing, pg.ref(i, "Fix all of the following:\n  Element does not have an alt attribute that duplicates nearby text"))
		}
	}
	return informative(o)
}

// visibleText returns the text element i shows on screen, white space
// collapsed.
func (pg *page) visibleText(i int) string {
	var b strings.Builder
	var walk func(j int)
	walk = func(j int) {
		n := pg.node(j)
		if !pg.rendered(j) || n.Tag == "script" || n.Tag == "style" {
			return
		}
		b.WriteString(" " + n.Text + " ")
		for _, c := range pg.children[j] {
			walk(c)
		}
	}
	walk(i)
	return strings.Join(strings.Fields(b.String()), " ")
}

// formField reports whether element i is a form field the label rule
// applies to.
func (pg *page) formField(i int) bool {
	n := pg.node(i)
	switch n.Tag {
	case "textarea":
		return true
	case "input":
		switch strings.ToLower(n.Attrs["type"]) {
		case "hidden", "button", "submit", "reset", "image":
			return false
		}
		return true
	}
	return false
}

func checkLabel(_ *Input, pg *page) Outcome {
	is := pg.visibleToAT(pg.where(func(i int) bool { return pg.formField(i) && !pg.presentational(i) }))
	return result(pg, is, func(i int) string {
		if pg.name(i) != "" {
			// Chrome names fields from placeholder too; axe does not
			// count a placeholder alone.
			n := pg.node(i)
			if strings.TrimSpace(n.Attrs["placeholder"]) == "" || pg.name(i) != strings.TrimSpace(n.Attrs["placeholder"]) {
				return ""
			}
			if _, t := n.Attrs["title"]; t {
				return ""
			}
			if strings.TrimSpace(n.Attrs["aria-placeholder"]) != "" {
				return ""
			}
			return ""
		}
		return "Fix any of the following:\n  Form element does not have an implicit (wrapped) <label>\n  Form element does not have an explicit <label>\n  aria-label attribute does not exist or is empty"
	})
}

func checkSelectName(_ *Input, pg *page) Outcome {
	is := pg.visibleToAT(pg.where(func(i int) bool { return pg.node(i).Tag == "select" && !pg.presentational(i) }))
	return result(pg, is, func(i int) string { return pg.unnamed(i, "an implicit (wrapped) <label> or an explicit <label>") })
}

func checkMultipleLabels(_ *Input, pg *page) Outcome {
	// Every field with several labels is listed: axe-core fails one
	// whose only shown label aria-labelledby picks and leaves the others
	// for review, which Lighthouse lists too (the audit is informative).
	var o Outcome
	for _, i := range pg.visibleToAT(pg.where(pg.formField)) {
		var labels []int
		if l := pg.ancestor(i, func(j int) bool { return pg.node(j).Tag == "label" }); l >= 0 {
			labels = append(labels, l)
		}
		if id := pg.node(i).Attrs["id"]; id != "" {
			for _, l := range pg.each("label") {
				if pg.node(l).Attrs["for"] == id && pg.node(l).Frame == pg.node(i).Frame && !slices.Contains(labels, l) {
					labels = append(labels, l)
				}
			}
		}
		if len(labels) < 2 {
			continue
		}
		o.Failing = append(o.Failing, pg.ref(i, "Fix all of the following:\n  Form field has multiple label elements"))
	}
	return informative(o)
}

func checkLinkName(_ *Input, pg *page) Outcome {
	is := pg.visibleToAT(pg.where(func(i int) bool { return pg.node(i).Tag == "a" && hasAttr(pg.node(i), "href") }))
	return result(pg, is, func(i int) string {
		if pg.contentText(i, true) != "" || pg.authorNamed(i) {
			return ""
		}
		return "Fix all of the following:\n  Element is in tab order and does not have accessible text\n\nFix any of the following:\n  Element does not have text that is visible to screen readers\n  aria-label attribute does not exist or is empty\n  aria-labelledby attribute does not exist, references elements that do not exist or references elements that are empty\n  Element has no title attribute"
	})
}

func checkFrameTitle(_ *Input, pg *page) Outcome {
	is := pg.visibleToAT(pg.each("iframe", "frame"))
	return result(pg, is, func(i int) string {
		if strings.TrimSpace(pg.node(i).Attrs["title"]) != "" || pg.name(i) != "" || pg.presentational(i) {
			return ""
		}
		return "Element has no title attribute"
	})
}

func checkObjectAlt(_ *Input, pg *page) Outcome {
	is := pg.visibleToAT(pg.each("object"))
	return result(pg, is, func(i int) string { return pg.unnamed(i, "text alternative") })
}

func checkSvgImgAlt(_ *Input, pg *page) Outcome {
	is := pg.visibleToAT(pg.where(func(i int) bool {
		r := pg.explicitRole(i)
		return pg.node(i).Tag == "svg" && (r == "img" || r == "graphics-document" || r == "graphics-symbol")
	}))
	return result(pg, is, func(i int) string {
		if pg.name(i) != "" {
			return ""
		}
		for _, c := range pg.children[i] {
			if pg.node(c).Tag == "title" && strings.TrimSpace(pg.text(c, 10)) != "" {
				return ""
			}
		}
		return "Element has no child that is a title"
	})
}

func checkDocumentTitle(in *Input, pg *page) Outcome {
	if pg.html < 0 {
		return Outcome{NotApplicable: true}
	}
	if strings.TrimSpace(in.Doc.Title) == "" {
		return Outcome{Failing: []Item{pg.ref(pg.html, "Document does not have a non-empty <title> element")}}
	}
	return Outcome{}
}

func checkHTMLHasLang(_ *Input, pg *page) Outcome {
	if pg.html < 0 {
		return Outcome{NotApplicable: true}
	}
	return result(pg, []int{pg.html}, func(i int) string {
		if strings.TrimSpace(pg.node(i).Attrs["lang"]) == "" && strings.TrimSpace(pg.node(i).Attrs["xml:lang"]) == "" {
			return "The <html> element does not have a lang attribute"
		}
		return ""
	})
}

// langRE is a BCP 47 primary language subtag and optional subtags.
var langRE = regexp.MustCompile(`^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{1,8})*$|^[a-zA-Z]{4,8}(-[a-zA-Z0-9]{1,8})*$|^[xXiI](-[a-zA-Z0-9]{1,8})+$`)

// validLang reports whether a lang value's primary subtag looks valid.
func validLang(v string) bool {
	v = strings.TrimSpace(v)
	if !langRE.MatchString(v) {
		return false
	}
	prim := strings.ToLower(strings.SplitN(v, "-", 2)[0])
	return len(prim) == 2 || len(prim) == 3 || prim == "x" || prim == "i"
}

func checkTabindex(_ *Input, pg *page) Outcome {
	is := pg.where(func(i int) bool { _, ok := pg.attr(i, "tabindex"); return ok })
	return result(pg, is, func(i int) string {
		if t, err := strconv.Atoi(strings.TrimSpace(pg.node(i).Attrs["tabindex"])); err == nil && t > 0 {
			return "Element has a tabindex greater than 0"
		}
		return ""
	})
}

func checkMetaRefresh(_ *Input, pg *page) Outcome {
	is := pg.where(func(i int) bool {
		return pg.node(i).Tag == "meta" && strings.EqualFold(pg.node(i).Attrs["http-equiv"], "refresh") && pg.node(i).Attrs["content"] != ""
	})
	return result(pg, is, func(i int) string {
		c := strings.TrimSpace(pg.node(i).Attrs["content"])
		num := strings.FieldsFunc(c, func(r rune) bool { return r == ';' || r == ',' })
		if len(num) == 0 {
			return ""
		}
		d, err := strconv.ParseFloat(strings.TrimSpace(num[0]), 64)
		if err == nil && d > 0 && d < 72000 {
			return "Page should not refresh automatically"
		}
		return ""
	})
}

func checkMetaViewport(_ *Input, pg *page) Outcome {
	is := pg.where(func(i int) bool {
		return pg.node(i).Tag == "meta" && strings.EqualFold(pg.node(i).Attrs["name"], "viewport") && pg.node(i).Attrs["content"] != ""
	})
	return result(pg, is, func(i int) string {
		for _, part := range strings.FieldsFunc(strings.ToLower(pg.node(i).Attrs["content"]), func(r rune) bool { return r == ',' || r == ';' }) {
			k, v, _ := strings.Cut(part, "=")
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			switch k {
			case "user-scalable":
				if v == "no" || v == "0" {
					return "user-scalable=no on <meta> tag disables zooming on mobile devices"
				}
			case "maximum-scale":
				if f, err := strconv.ParseFloat(v, 64); err == nil && f < 2 {
					// axe reports below 2 as a violation (and 2 to 5 as a
					// review item).
					return "maximum-scale on <meta> tag disables zooming on mobile devices"
				}
			}
		}
		return ""
	})
}

func checkAutocomplete(_ *Input, pg *page) Outcome {
	valid := setOf("off", "on", "name", "honorific-prefix", "given-name", "additional-name", "family-name", "honorific-suffix",
		"nickname", "email", "username", "new-password", "current-password", "one-time-code", "organization-title", "organization",
		"street-address", "address-line1", "address-line2", "address-line3", "address-level4", "address-level3", "address-level2",
		"address-level1", "country", "country-name", "postal-code", "cc-name", "cc-given-name", "cc-additional-name", "cc-family-name",
		"cc-number", "cc-exp", "cc-exp-month", "cc-exp-year", "cc-csc", "cc-type", "transaction-currency", "transaction-amount",
		"language", "bday", "bday-day", "bday-month", "bday-year", "sex", "url", "photo", "tel", "tel-country-code", "tel-national",
		"tel-area-code", "tel-local", "tel-local-prefix", "tel-local-suffix", "tel-extension", "impp", "webauthn",
		"shipping", "billing", "home", "work", "mobile", "fax", "pager")
	is := pg.where(func(i int) bool {
		n := pg.node(i)
		v, ok := n.Attrs["autocomplete"]
		return ok && strings.TrimSpace(v) != "" && (n.Tag == "input" || n.Tag == "select" || n.Tag == "textarea")
	})
	return result(pg, is, func(i int) string {
		for _, t := range strings.Fields(strings.ToLower(pg.node(i).Attrs["autocomplete"])) {
			if !valid[t] && !strings.HasPrefix(t, "section-") {
				return "The autocomplete attribute is incorrectly formatted"
			}
		}
		return ""
	})
}

// chromiumRoles are the elements Chromium gives a role of its own where
// HTML gives none.
var chromiumRoles = setOf("audio", "canvas", "dl", "embed", "iframe", "label", "meter", "object", "svg", "video")

func checkPresentationConflict(_ *Input, pg *page) Outcome {
	is := pg.visibleToAT(pg.where(func(i int) bool {
		n := pg.node(i)
		alt, ok := n.Attrs["alt"]
		r, hasRole := n.Attrs["role"]
		if !(n.Tag == "img" && ok && alt == "" || hasRole && (r == "none" || r == "presentation")) {
			return false
		}
		return chromiumRoles[n.Tag] || pg.implicitRoleIgnoringPresentation(i) != ""
	}))
	return result(pg, is, func(i int) string {
		if pg.hasGlobalAria(i) {
			return "Fix all of the following:\n  Element has a global ARIA attribute"
		}
		if pg.axeFocusable(i) {
			return "Fix all of the following:\n  Element is focusable"
		}
		return ""
	})
}

// implicitRoleIgnoringPresentation is element i's implicit role, an
// image with empty alt counting as one.
func (pg *page) implicitRoleIgnoringPresentation(i int) string {
	if pg.node(i).Tag == "img" {
		return "img"
	}
	return pg.implicitRole(i)
}

func duplicateAriaIDs(_ *Input, pg *page) Outcome {
	refd := map[string]bool{}
	for _, n := range pg.in.Nodes {
		for _, a := range []string{"aria-labelledby", "aria-describedby", "aria-controls", "aria-owns", "aria-activedescendant", "for"} {
			for _, id := range strings.Fields(n.Attrs[a]) {
				refd[id] = true
			}
		}
	}
	var o Outcome
	for id := range refd {
		if len(pg.ids[id]) > 1 {
			o.Failing = append(o.Failing, pg.ref(pg.ids[id][0], "Document has multiple elements referenced with ARIA with the same id attribute: "+id))
		}
	}
	return informative(o)
}

// Lighthouse lists what axe-core leaves for review as an informative
// audit's items; these rules are such (axe-core 4.12 never fails them).

func checkVideoCaption(in *Input, pg *page) Outcome {
	return informative(videosWithoutCaptions(in, pg))
}

func checkThHasDataCells(in *Input, pg *page) Outcome {
	return informative(headersWithoutCells(in, pg))
}

func checkDuplicateIDAria(in *Input, pg *page) Outcome {
	return informative(duplicateAriaIDs(in, pg))
}
