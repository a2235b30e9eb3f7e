package audit

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The accessibility checks. Each follows the axe-core rule Lighthouse runs
// under the same id: which elements it applies to (none: not applicable)
// and which of them fail.

// checks returns the check of every audit we compute.
func checks() map[string]check {
	m := map[string]check{
		"accesskeys":                   checkAccesskeys,
		"aria-allowed-attr":            checkAriaAllowedAttr,
		"aria-command-name":            roleName(true, "button", "link", "menuitem"),
		"aria-conditional-attr":        checkAriaConditional,
		"aria-deprecated-role":         checkDeprecatedRole,
		"aria-dialog-name":             roleName(false, "dialog", "alertdialog"),
		"aria-hidden-body":             checkAriaHiddenBody,
		"aria-hidden-focus":            checkAriaHiddenFocus,
		"aria-input-field-name":        roleName(false, "combobox", "listbox", "searchbox", "slider", "spinbutton", "textbox"),
		"aria-meter-name":              roleName(false, "meter"),
		"aria-progressbar-name":        roleName(false, "progressbar"),
		"aria-prohibited-attr":         checkAriaProhibited,
		"aria-required-attr":           checkAriaRequiredAttr,
		"aria-required-children":       checkRequiredChildren,
		"aria-required-parent":         checkRequiredParent,
		"aria-roles":                   checkAriaRoles,
		"aria-text":                    checkAriaText,
		"aria-toggle-field-name":       roleName(true, "checkbox", "menuitemcheckbox", "menuitemradio", "radio", "switch", "option"),
		"aria-tooltip-name":            roleName(true, "tooltip"),
		"aria-treeitem-name":           roleName(true, "treeitem"),
		"aria-valid-attr-value":        checkAriaValidValue,
		"aria-valid-attr":              checkAriaValidAttr,
		"aria-allowed-role":            checkAllowedRole,
		"button-name":                  checkButtonName,
		"bypass":                       checkBypass,
		"color-contrast":               checkColorContrast,
		"definition-list":              checkDefinitionList,
		"dlitem":                       checkDlitem,
		"document-title":               checkDocumentTitle,
		"duplicate-id-aria":            checkDuplicateIDAria,
		"empty-heading":                checkEmptyHeading,
		"form-field-multiple-labels":   checkMultipleLabels,
		"frame-title":                  checkFrameTitle,
		"heading-order":                checkHeadingOrder,
		"html-has-lang":                checkHTMLHasLang,
		"html-lang-valid":              checkHTMLLangValid,
		"html-xml-lang-mismatch":       checkXMLLangMismatch,
		"identical-links-same-purpose": checkIdenticalLinks,
		"image-alt":                    checkImageAlt,
		"image-redundant-alt":          checkRedundantAlt,
		"input-button-name":            checkInputButtonName,
		"input-image-alt":              checkInputImageAlt,
		"label":                        checkLabel,
		"label-content-name-mismatch":  checkLabelContentMismatch,
		"landmark-one-main":            checkLandmarkOneMain,
		"link-in-text-block":           checkLinkInTextBlock,
		"link-name":                    checkLinkName,
		"list":                         checkList,
		"listitem":                     checkListitem,
		"meta-refresh":                 checkMetaRefresh,
		"meta-viewport":                checkMetaViewport,
		"object-alt":                   checkObjectAlt,
		"presentation-role-conflict":   checkPresentationConflict,
		"select-name":                  checkSelectName,
		"skip-link":                    checkSkipLink,
		"svg-img-alt":                  checkSvgImgAlt,
		"tabindex":                     checkTabindex,
		"table-duplicate-name":         checkTableDuplicateName,
		"table-fake-caption":           checkTableFakeCaption,
		"target-size":                  checkTargetSize,
		"td-has-header":                checkTdHasHeader,
		"td-headers-attr":              checkTdHeadersAttr,
		"th-has-data-cells":            checkThHasDataCells,
		"valid-lang":                   checkValidLang,
		"video-caption":                checkVideoCaption,
		"autocomplete-valid":           checkAutocomplete,
	}
	seoChecks(m)
	practiceChecks(m)
	agenticChecks(m)
	return m
}

// result builds an outcome over the elements a rule applies to: not
// applicable when there are none, failing the ones fail rejects (fail
// returns the explanation, "" for a pass).
func result(pg *page, applies []int, fail func(i int) string) Outcome {
	if len(applies) == 0 {
		return Outcome{NotApplicable: true}
	}
	var o Outcome
	for _, i := range applies {
		if why := fail(i); why != "" {
			o.Failing = append(o.Failing, pg.ref(i, why))
		}
	}
	return o
}

// where returns the elements pred accepts.
func (pg *page) where(pred func(i int) bool) []int {
	var out []int
	for i := range pg.in.Nodes {
		if pred(i) {
			out = append(out, i)
		}
	}
	return out
}

// visibleToAT filters out the elements hidden from assistive technology.
func (pg *page) visibleToAT(is []int) []int {
	return slices.DeleteFunc(is, pg.hiddenFromAT)
}

// unnamed explains a missing accessible name, "" when i has one.
func (pg *page) unnamed(i int, what string) string {
	if pg.name(i) != "" {
		return ""
	}
	return "Fix any of the following:\n  Element does not have " + what
}

// namedNatively are the elements HTML gives a naming method of their own
// (content, alt, labels, legend, caption...): the ARIA name rules leave
// them to the native rules.
var namedNatively = setOf("area", "br", "button", "fieldset", "figure", "hr", "img", "input", "output", "select", "summary", "svg", "table", "textarea")

// roleName is the check of an ARIA name rule: elements whose role
// attribute is one of roles, with no native naming method, must be named
// by aria-label, aria-labelledby or a title, or, with fromText, by the
// text they show.
func roleName(fromText bool, roles ...string) check {
	return func(_ *Input, pg *page) Outcome {
		set := setOf(roles...)
		is := pg.visibleToAT(pg.where(func(i int) bool {
			n := pg.node(i)
			if !set[n.Attrs["role"]] || namedNatively[n.Tag] || n.Tag == "a" && hasAttr(n, "href") {
				return false
			}
			if n.Attrs["role"] == "combobox" {
				for _, d := range pg.descendants(i) {
					if pg.node(d).Tag == "input" && !strings.EqualFold(pg.node(d).Attrs["type"], "hidden") {
						return false
					}
				}
			}
			return true
		}))
		return result(pg, is, func(i int) string {
			if pg.authorNamed(i) || fromText && pg.visibleText(i) != "" {
				return ""
			}
			return "Fix any of the following:\n  Element does not have text that is visible to screen readers\n  aria-label attribute does not exist or is empty\n  aria-labelledby attribute does not exist, references elements that do not exist or references elements that are empty\n  Element has no title attribute or the title attribute is empty"
		})
	}
}

func checkAccesskeys(_ *Input, pg *page) Outcome {
	// axe-core flags the first element of each set sharing a key.
	count := map[string]int{}
	first := map[string]int{}
	is := pg.visibleToAT(pg.where(func(i int) bool { _, ok := pg.attr(i, "accesskey"); return ok }))
	for _, i := range is {
		k := strings.ToUpper(pg.node(i).Attrs["accesskey"])
		if count[k] == 0 {
			first[k] = i
		}
		count[k]++
	}
	return result(pg, is, func(i int) string {
		if k := strings.ToUpper(pg.node(i).Attrs["accesskey"]); count[k] > 1 && first[k] == i {
			return "Fix all of the following:\n  Document has multiple elements with the same accesskey"
		}
		return ""
	})
}

// ariaElements returns the elements with any aria-* attribute.
func (pg *page) ariaElements() []int {
	return pg.where(func(i int) bool {
		for k := range pg.node(i).Attrs {
			if strings.HasPrefix(k, "aria-") {
				return true
			}
		}
		return false
	})
}

func checkAriaValidAttr(_ *Input, pg *page) Outcome {
	return result(pg, pg.ariaElements(), func(i int) string {
		for k := range pg.node(i).Attrs {
			if strings.HasPrefix(k, "aria-") && ariaAttrs[k] == "" {
				return "Invalid ARIA attribute name: " + k
			}
		}
		return ""
	})
}

func checkAriaRoles(_ *Input, pg *page) Outcome {
	is := pg.where(func(i int) bool { v, ok := pg.attr(i, "role"); return ok && strings.TrimSpace(v) != "" })
	return result(pg, is, func(i int) string {
		if pg.explicitRole(i) == "" {
			return "Role must be one of the valid ARIA roles: " + pg.node(i).Attrs["role"]
		}
		return ""
	})
}

func checkDeprecatedRole(_ *Input, pg *page) Outcome {
	is := pg.where(func(i int) bool { v, ok := pg.attr(i, "role"); return ok && strings.TrimSpace(v) != "" })
	return result(pg, is, func(i int) string {
		if deprecatedRoles[pg.explicitRole(i)] {
			return "Role " + pg.explicitRole(i) + " is deprecated"
		}
		return ""
	})
}

func checkAriaRequiredAttr(_ *Input, pg *page) Outcome {
	is := pg.where(func(i int) bool { return pg.explicitRole(i) != "" })
	return result(pg, is, func(i int) string {
		role := pg.explicitRole(i)
		tag := pg.node(i).Tag
		for _, a := range requiredAttrs[role] {
			if _, ok := pg.attr(i, a); ok {
				continue
			}
			// Native elements supply the state themselves.
			if tag == "input" || (role == "heading" && regexp.MustCompile(`^h[1-6]$`).MatchString(tag)) || (role == "combobox" && tag == "select") {
				continue
			}
			if role == "combobox" {
				continue // ARIA 1.2 dropped the requirement axe still reports only for older patterns
			}
			return "Required ARIA attribute not present: " + a
		}
		return ""
	})
}

func checkAriaProhibited(_ *Input, pg *page) Outcome {
	is := pg.where(func(i int) bool {
		_, l := pg.attr(i, "aria-label")
		_, lb := pg.attr(i, "aria-labelledby")
		return l || lb
	})
	return result(pg, is, func(i int) string {
		role := pg.explicitRole(i)
		if role == "" {
			switch pg.node(i).Tag {
			case "div", "span", "p", "b", "i", "em", "strong", "code", "pre", "sub", "sup", "del", "ins", "s", "u", "small":
				role = "generic"
			}
		}
		if nameProhibited[role] && role != "none" && role != "presentation" && pg.text(i, 1) == "" {
			return "aria-label attribute cannot be used on a " + pg.node(i).Tag + " with no valid role attribute."
		}
		return ""
	})
}

func checkAriaHiddenBody(_ *Input, pg *page) Outcome {
	if pg.body < 0 {
		return Outcome{NotApplicable: true}
	}
	return result(pg, []int{pg.body}, func(i int) string {
		if strings.EqualFold(strings.TrimSpace(pg.node(i).Attrs["aria-hidden"]), "true") {
			return "aria-hidden=true should not be present on the document body"
		}
		return ""
	})
}

// focusable reports whether element i takes keyboard focus.
func (pg *page) focusable(i int) bool {
	n := pg.node(i)
	if n.Prop != nil && n.Prop.Focusable {
		return true // read by a script; otherwise worked out below
	}
	if v, ok := n.Attrs["tabindex"]; ok {
		t, err := strconv.Atoi(strings.TrimSpace(v))
		return err == nil && t >= 0
	}
	if _, dis := n.Attrs["disabled"]; dis {
		return false
	}
	switch n.Tag {
	case "a", "area":
		_, ok := n.Attrs["href"]
		return ok
	case "button", "select", "textarea":
		return true
	case "input":
		return !strings.EqualFold(n.Attrs["type"], "hidden")
	}
	return false
}

func checkAriaHiddenFocus(_ *Input, pg *page) Outcome {
	is := pg.where(func(i int) bool {
		return pg.node(i).Attrs["aria-hidden"] == "true"
	})
	modal := pg.modalShown()
	return result(pg, is, func(i int) string {
		var bad bool
		var walk func(j int)
		walk = func(j int) {
			if bad || pg.node(j).Box == nil && pg.node(j).Style == nil {
				return
			}
			if pg.focusable(j) && pg.rendered(j) {
				bad = true
				return
			}
			for _, c := range pg.children[j] {
				walk(c)
			}
		}
		walk(i)
		if bad && !modal {
			return "Focusable content should be disabled or be removed from the DOM"
		}
		return "" // with a dialog shown, for review (it may be a modal hiding the rest)
	})
}

// modalShown reports whether the page shows a dialog (a shown <dialog>,
// role=dialog or aria-modal=true), which axe-core takes for a modal that
// may hide the rest of the page on purpose.
func (pg *page) modalShown() bool {
	for i := range pg.in.Nodes {
		n := pg.node(i)
		if (n.Tag == "dialog" || n.Attrs["role"] == "dialog" || n.Attrs["aria-modal"] == "true") && pg.rendered(i) && !pg.hiddenFromAT(i) {
			return true
		}
	}
	return false
}

func checkAriaText(_ *Input, pg *page) Outcome {
	is := pg.where(func(i int) bool { return pg.explicitRole(i) == "text" })
	return result(pg, is, func(i int) string {
		for _, c := range pg.descendants(i) {
			if pg.focusable(c) {
				return "Element has focusable descendants"
			}
		}
		return ""
	})
}

// descendants returns the elements under i.
func (pg *page) descendants(i int) []int {
	var out []int
	var walk func(j int)
	walk = func(j int) {
		for _, c := range pg.children[j] {
			out = append(out, c)
			walk(c)
		}
	}
	walk(i)
	return out
}
