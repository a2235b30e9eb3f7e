package audit

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The aria-valid-attr-value check: each ARIA attribute's value against
// its type, as axe-core judges it. Some invalid values are left for a
// person to review rather than failed (an aria-labelledby or
// aria-describedby naming no element, aria-current with an unknown
// token, an empty value where one is needed); the audit counts only the
// failures, as Lighthouse does.

// attrMin are the least values of the integer attributes.
var attrMin = map[string]int{"aria-colcount": -1, "aria-rowcount": -1, "aria-setsize": -1, "aria-rowspan": 0,
	"aria-colindex": 1, "aria-colspan": 1, "aria-level": 1, "aria-posinset": 1, "aria-rowindex": 1}

// emptyAllowed are the attributes an empty value is valid for.
var emptyAllowed = setOf("aria-braillelabel", "aria-brailleroledescription", "aria-controls", "aria-current", "aria-describedby",
	"aria-description", "aria-details", "aria-errormessage", "aria-flowto", "aria-haspopup", "aria-keyshortcuts", "aria-label",
	"aria-labelledby", "aria-owns", "aria-placeholder", "aria-roledescription", "aria-valuetext")

// decimalRE is a decimal number as ARIA's value types allow it.
var decimalRE = regexp.MustCompile(`^[-+]?([0-9]*)\.?([0-9]*)$`)

// intRE is an integer.
var intRE = regexp.MustCompile(`^[-+]?[0-9]+$`)

// validValue reports whether attribute name of element i has a value its
// type allows.
func (pg *page) validValue(i int, name, v string) bool {
	kind := ariaAttrs[name]
	if emptyAllowed[name] && strings.TrimSpace(v) == "" {
		return true
	}
	switch {
	case kind == "bool":
		lv := strings.ToLower(v)
		return lv == "true" || lv == "false"
	case kind == "int":
		n, err := strconv.Atoi(strings.TrimPrefix(v, "+"))
		return intRE.MatchString(v) && err == nil && n >= attrMin[name]
	case kind == "number":
		m := decimalRE.FindStringSubmatch(v)
		return m != nil && (m[1] != "" || m[2] != "")
	case kind == "idref" || name == "aria-details" || name == "aria-errormessage":
		return v != "" && len(pg.byID(i, v)) > 0
	case kind == "idrefs":
		for _, id := range strings.Fields(v) {
			if len(pg.byID(i, id)) > 0 {
				return true
			}
		}
		return false
	case kind == "string":
		return strings.TrimSpace(v) != ""
	case strings.HasPrefix(kind, "token:"):
		return slices.Contains(strings.Split(kind[6:], ","), strings.ToLower(v))
	case strings.HasPrefix(kind, "tokens:"):
		toks := strings.Fields(v)
		for _, t := range toks {
			if !slices.Contains(strings.Split(kind[7:], ","), t) {
				return false
			}
		}
		return len(toks) > 0
	}
	return true
}

// reviewOnly are the attributes whose invalid value axe-core leaves for
// review.
var reviewOnly = setOf("aria-current", "aria-describedby", "aria-labelledby")

func checkAriaValidValue(_ *Input, pg *page) Outcome {
	is := pg.visibleToAT(pg.ariaElements())
	return result(pg, is, func(i int) string {
		n := pg.node(i)
		var bad []string
		for _, k := range sortedIDs(n.Attrs) {
			v := n.Attrs[k]
			if ariaAttrs[k] == "" || k == "aria-errormessage" || pg.validValue(i, k, v) || reviewOnly[k] {
				continue
			}
			switch k {
			case "aria-controls":
				if hp := n.Attrs["aria-haspopup"]; hasAttr(n, "aria-haspopup") && hp != "false" || n.Attrs["aria-expanded"] == "false" || n.Attrs["aria-selected"] == "false" {
					continue
				}
			case "aria-owns":
				if n.Attrs["aria-expanded"] == "false" {
					continue
				}
			}
			if v == "" && ariaAttrs[k] != "string" {
				continue // an empty value: for review
			}
			bad = append(bad, k+`="`+v+`"`)
		}
		if why := pg.errorMessageFault(i); why != "" {
			bad = append(bad, why)
		}
		if len(bad) == 0 {
			return ""
		}
		return "Fix all of the following:\n  Invalid ARIA attribute value: " + strings.Join(bad, ", ")
	})
}

// errorMessageFault explains what is wrong with element i's
// aria-errormessage when it is invalid, "" when it is fine or cannot be
// judged (it names no element).
func (pg *page) errorMessageFault(i int) string {
	n := pg.node(i)
	v, ok := n.Attrs["aria-errormessage"]
	if !ok || !hasAttr(n, "aria-invalid") || n.Attrs["aria-invalid"] == "false" || strings.TrimSpace(v) == "" {
		return ""
	}
	toks := strings.Fields(v)
	if len(toks) > 1 {
		return `aria-errormessage="` + v + `" (one id only)`
	}
	refs := pg.byID(i, toks[0])
	if len(refs) == 0 {
		return ""
	}
	j := refs[0]
	if pg.hiddenFromAT(j) {
		return `aria-errormessage="` + v + `" (the message is hidden)`
	}
	live := pg.node(j).Attrs["aria-live"]
	if pg.ariaRole(j, false) == "alert" || live == "assertive" || live == "polite" || slices.Contains(strings.Fields(n.Attrs["aria-describedby"]), toks[0]) {
		return ""
	}
	return `aria-errormessage="` + v + `" (not announced: use role=alert, aria-live or aria-describedby)`
}
