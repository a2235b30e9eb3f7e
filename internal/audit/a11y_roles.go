package audit

import (
	"sort"
	"strings"
)

// The checks of roles against the elements that carry them and of ARIA
// attributes against roles, and the name checks of buttons, following
// axe-core's rules of the same ids.

// htmlElement reports whether element i is in the HTML namespace, not
// inside an <svg> or <math>.
func (pg *page) htmlElement(i int) bool {
	for j := i; j >= 0; j = pg.node(j).Parent {
		if t := pg.node(j).Tag; t == "svg" || t == "math" {
			return false
		}
	}
	return true
}

// nameRequiredOrNone reports whether a name rule for native elements
// applies to element i: it has no explicit role, a presentational one, or
// one that needs a name, or it takes focus.
func (pg *page) nameRequiredOrNone(i int) bool {
	r := pg.ariaRole(i, false)
	if r == "" || r == "none" || r == "presentation" {
		return true
	}
	d, _ := modelOf(r)
	return d.namePlease || pg.axeFocusable(i)
}

func checkButtonName(_ *Input, pg *page) Outcome {
	is := pg.visibleToAT(pg.where(func(i int) bool { return pg.node(i).Tag == "button" && pg.nameRequiredOrNone(i) }))
	return result(pg, is, func(i int) string {
		if pg.contentText(i, true) != "" || pg.authorNamed(i) || pg.labelText(i) {
			return ""
		}
		if r := pg.role(i); r == "none" || r == "presentation" {
			return ""
		}
		return "Fix any of the following:\n  Element does not have inner text that is visible to screen readers\n  aria-label attribute does not exist or is empty\n  aria-labelledby attribute does not exist, references elements that do not exist or references elements that are empty\n  Element has no title attribute or the title attribute is empty\n  Element's default semantics were not overridden with role=\"none\" or role=\"presentation\""
	})
}

func checkInputImageAlt(_ *Input, pg *page) Outcome {
	is := pg.visibleToAT(pg.where(func(i int) bool {
		return pg.node(i).Tag == "input" && strings.EqualFold(pg.node(i).Attrs["type"], "image") && pg.nameRequiredOrNone(i)
	}))
	return result(pg, is, func(i int) string {
		if strings.TrimSpace(pg.node(i).Attrs["alt"]) != "" || pg.authorNamed(i) || pg.labelText(i) {
			return ""
		}
		return "Fix any of the following:\n  Element has no alt attribute or the alt attribute is empty\n  aria-label attribute does not exist or is empty\n  aria-labelledby attribute does not exist, references elements that do not exist or references elements that are empty\n  Element has no title attribute or the title attribute is empty"
	})
}

func checkAllowedRole(_ *Input, pg *page) Outcome {
	// Hidden elements are judged too: axe-core leaves a wrong role on one
	// for review, which Lighthouse lists as well (the audit is
	// informative).
	is := pg.where(func(i int) bool { return len(pg.roleTokens(i)) > 0 })
	return result(pg, is, func(i int) string {
		if !pg.htmlElement(i) {
			return ""
		}
		var bad []string
		for _, r := range pg.roleTokens(i) {
			if !pg.roleAllowedOn(i, r) {
				bad = append(bad, r)
			}
		}
		if len(bad) == 0 {
			return ""
		}
		return "Fix any of the following:\n  ARIA role " + strings.Join(bad, ", ") + " is not allowed for given element"
	})
}

func checkAriaAllowedAttr(_ *Input, pg *page) Outcome {
	is := pg.visibleToAT(pg.ariaElements())
	return result(pg, is, func(i int) string {
		n := pg.node(i)
		role := pg.role(i)
		var bad []string
		for k, v := range n.Attrs {
			if ariaAttrs[k] == "" || allowedAttr(role, k) {
				continue
			}
			if k == "aria-required" && v == "false" || k == "aria-multiline" && v == "false" && hasAttr(n, "contenteditable") {
				continue
			}
			bad = append(bad, k+`="`+v+`"`)
		}
		if pg.ariaRole(i, true) == "" && (n.Tag == "br" || n.Tag == "wbr") {
			for k, v := range n.Attrs {
				if globalAttrs[k] && k != "aria-hidden" {
					bad = append(bad, k+`="`+v+`"`)
				}
			}
		}
		if len(bad) == 0 || role == "" && !pg.htmlElement(i) && !pg.axeFocusable(i) {
			return ""
		}
		sort.Strings(bad)
		return "Fix all of the following:\n  ARIA attribute is not allowed: " + strings.Join(bad, ", ")
	})
}

// rowOnlyInTreegrid are the attributes a row may have only in a treegrid.
var rowOnlyInTreegrid = []string{"aria-posinset", "aria-setsize", "aria-expanded", "aria-level"}

func checkAriaConditional(_ *Input, pg *page) Outcome {
	is := pg.visibleToAT(pg.ariaElements())
	return result(pg, is, func(i int) string {
		n := pg.node(i)
		switch pg.role(i) {
		case "row":
			var bad []string
			for _, a := range rowOnlyInTreegrid {
				if hasAttr(n, a) {
					bad = append(bad, a)
				}
			}
			if len(bad) == 0 {
				return ""
			}
			owner := pg.ancestor(i, func(j int) bool {
				t, r := pg.node(j).Tag, pg.ariaRole(j, false)
				return t == "table" && !hasAttr(pg.node(j), "role") || r == "treegrid" || r == "table" || r == "grid"
			})
			if owner < 0 || pg.role(owner) == "treegrid" {
				return ""
			}
			return "Fix all of the following:\n  " + strings.Join(bad, ", ") + " not allowed on a row outside a treegrid"
		case "checkbox", "radio":
			v := strings.ToLower(n.Attrs["aria-checked"])
			if n.Tag != "input" || v == "" {
				return ""
			}
			typ := strings.ToLower(n.Attrs["type"])
			if typ != "checkbox" && typ != "radio" {
				return ""
			}
			if v != "true" && (v != "mixed" || typ == "radio") {
				v = "false"
			}
			// The live state when the page was read; the checked
			// attribute (the default state) where it was not (inputs
			// in frames and shadow trees, recorded inputs).
			state, live := "false", n.Prop != nil
			if live && n.Prop.Checked || !live && hasAttr(n, "checked") {
				state = "true"
			}
			if live && n.Prop.Indeterminate && typ == "checkbox" {
				state = "mixed"
			}
			if v != state {
				return "Fix all of the following:\n  Remove aria-checked, or set it to \"" + state + "\" to match the actual state"
			}
		}
		return ""
	})
}
