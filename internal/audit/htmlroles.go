package audit

import (
	"slices"
	"strconv"
	"strings"
)

// HTML's side of the role model: the roles elements have implicitly
// (HTML-AAM), the roles authors may give them (ARIA in HTML), and the
// role an element ends up with once explicit, implicit and presentational
// roles are resolved the way axe-core resolves them.

// ariaRole returns element i's explicit role as axe-core reads it: the
// whole role attribute, trimmed and lower case, when it is one valid role
// (so role="button tab" has none); DPUB roles only with dpub.
func (pg *page) ariaRole(i int, dpub bool) string {
	v, _ := pg.attr(i, "role")
	r := strings.ToLower(strings.TrimSpace(v))
	if !validRoles[r] || (!dpub && strings.HasPrefix(r, "doc-")) {
		return ""
	}
	return r
}

// roleTokens returns the valid roles listed in element i's role
// attribute, in order.
func (pg *page) roleTokens(i int) []string {
	v, _ := pg.attr(i, "role")
	var out []string
	for _, t := range strings.Fields(strings.ToLower(v)) {
		if validRoles[t] {
			out = append(out, t)
		}
	}
	return out
}

// role returns the role axe-core's checks see for element i: its explicit
// role, except that none or presentation on an element with a global ARIA
// attribute or that can take focus yields to its implicit role; without
// an explicit role, the implicit one, made presentational by a
// presentational table, list or dl it belongs to.
func (pg *page) role(i int) string {
	r := pg.ariaRole(i, false)
	if r == "" {
		return pg.resolvedImplicit(i)
	}
	if r != "none" && r != "presentation" {
		return r
	}
	if pg.conflicted(i) {
		return pg.resolvedImplicit(i)
	}
	return r
}

// conflicted reports whether a presentational role on element i is
// overridden: it has a global ARIA attribute or takes focus.
func (pg *page) conflicted(i int) bool {
	for k := range pg.node(i).Attrs {
		if globalAttrs[k] {
			return true
		}
	}
	return pg.axeFocusable(i)
}

// presentationChain lists, for the elements that inherit a presentational
// role, the parents they inherit it from.
var presentationChain = map[string][]string{
	"td": {"tr"}, "th": {"tr"}, "tr": {"thead", "tbody", "tfoot", "table"}, "thead": {"table"}, "tbody": {"table"},
	"tfoot": {"table"}, "li": {"ol", "ul"}, "dt": {"dl", "div"}, "dd": {"dl", "div"}, "div": {"dl"},
}

// resolvedImplicit returns element i's implicit role, or the
// presentational role it inherits.
func (pg *page) resolvedImplicit(i int) string {
	imp := pg.implicitRole(i)
	if imp == "" {
		return ""
	}
	for j := i; ; {
		parents := presentationChain[pg.node(j).Tag]
		p := pg.node(j).Parent
		if parents == nil || p < 0 || !slices.Contains(parents, pg.node(p).Tag) {
			break
		}
		pr := pg.ariaRole(p, false)
		if (pr == "none" || pr == "presentation") && !pg.conflicted(p) {
			return pr
		}
		if pr != "" {
			break
		}
		j = p
	}
	return imp
}

// implicitRole returns the role HTML gives element i, "" when none.
func (pg *page) implicitRole(i int) string {
	n := pg.node(i)
	_, href := n.Attrs["href"]
	switch n.Tag {
	case "a", "area":
		if href {
			return "link"
		}
	case "article", "button", "dialog", "figure", "main", "math", "meter", "option", "search", "table", "textarea":
		if n.Tag == "textarea" {
			return "textbox"
		}
		return n.Tag
	case "aside":
		if pg.ancestor(i, pg.sectioning) >= 0 && pg.name(i) == "" {
			return ""
		}
		return "complementary"
	case "body":
		return "document"
	case "datalist":
		return "listbox"
	case "dd":
		return "definition"
	case "dfn", "dt":
		return "term"
	case "details", "fieldset", "optgroup":
		return "group"
	case "footer", "header":
		if pg.ancestor(i, func(j int) bool { return pg.sectioning(j) || pg.node(j).Tag == "main" }) >= 0 {
			return ""
		}
		if n.Tag == "footer" {
			return "contentinfo"
		}
		return "banner"
	case "form":
		if pg.name(i) != "" {
			return "form"
		}
	case "h1", "h2", "h3", "h4", "h5", "h6":
		return "heading"
	case "hr":
		return "separator"
	case "img":
		if alt, ok := n.Attrs["alt"]; ok && alt == "" && !pg.hasGlobalAria(i) && !pg.axeFocusable(i) {
			return "presentation"
		}
		return "img"
	case "input":
		return pg.inputRole(i)
	case "li":
		return "listitem"
	case "menu", "ol", "ul":
		return "list"
	case "nav":
		return "navigation"
	case "output":
		return "status"
	case "progress":
		return "progressbar"
	case "section":
		if pg.name(i) != "" {
			return "region"
		}
	case "select":
		if size, _ := strconv.Atoi(n.Attrs["size"]); n.Attrs["multiple"] != "" || hasAttr(n, "multiple") || size > 1 {
			return "listbox"
		}
		return "combobox"
	case "summary":
		return "button"
	case "tbody", "thead", "tfoot":
		return "rowgroup"
	case "td":
		if t := pg.tableOf(i); t >= 0 && (pg.ariaRole(t, false) == "grid" || pg.ariaRole(t, false) == "treegrid") {
			return "gridcell"
		}
		return "cell"
	case "th":
		var g [][]int
		if t := pg.tableOf(i); t >= 0 {
			g = pg.grid(t)
		}
		switch pg.scope(i, g) {
		case "col", "auto":
			return "columnheader"
		case "row":
			return "rowheader"
		}
	case "tr":
		return "row"
	}
	return ""
}

// inputRole returns the implicit role of input element i.
func (pg *page) inputRole(i int) string {
	n := pg.node(i)
	list := false
	if id := n.Attrs["list"]; id != "" {
		for _, j := range pg.byID(i, id) {
			list = list || pg.node(j).Tag == "datalist"
		}
	}
	switch strings.ToLower(n.Attrs["type"]) {
	case "checkbox":
		return "checkbox"
	case "number":
		return "spinbutton"
	case "radio":
		return "radio"
	case "range":
		return "slider"
	case "button", "image", "reset", "submit":
		return "button"
	case "search":
		if list {
			return "combobox"
		}
		return "searchbox"
	case "hidden":
		return ""
	}
	if list {
		return "combobox"
	}
	return "textbox"
}

// hasAttr reports whether n has an attribute.
func hasAttr(n *Node, name string) bool {
	_, ok := n.Attrs[name]
	return ok
}

// sectioning reports whether element j is sectioning content.
func (pg *page) sectioning(j int) bool {
	switch pg.node(j).Tag {
	case "article", "aside", "nav", "section":
		return true
	}
	return false
}

// hasGlobalAria reports whether element i has a global aria-* attribute.
func (pg *page) hasGlobalAria(i int) bool {
	for k := range pg.node(i).Attrs {
		if globalAttrs[k] {
			return true
		}
	}
	return false
}

// axeFocusable reports whether element i can take focus at all (a
// negative tabindex included), as axe-core decides it: not disabled (by
// itself or a disabled fieldset) nor hidden, and natively focusable or
// given a tabindex.
func (pg *page) axeFocusable(i int) bool {
	n := pg.node(i)
	if pg.focusDisabled(i) {
		return false
	}
	switch n.Tag {
	case "a", "area":
		if hasAttr(n, "href") {
			return true
		}
	case "input":
		if !strings.EqualFold(n.Attrs["type"], "hidden") {
			return true
		}
	case "textarea", "select", "summary", "button":
		return true
	case "details":
		summary := false
		for _, c := range pg.descendants(i) {
			summary = summary || pg.node(c).Tag == "summary"
		}
		if !summary {
			return true
		}
	}
	if v, ok := n.Attrs["tabindex"]; ok {
		_, err := strconv.Atoi(strings.TrimSpace(v))
		return err == nil
	}
	return false
}

// disableable are the elements the disabled attribute applies to.
var disableable = setOf("button", "input", "select", "textarea", "fieldset", "optgroup", "option")

// focusDisabled reports whether element i cannot take focus because it is
// disabled, in a disabled fieldset (outside its legend), or hidden.
func (pg *page) focusDisabled(i int) bool {
	n := pg.node(i)
	if disableable[n.Tag] && hasAttr(n, "disabled") || hasAttr(n, "inert") {
		return true
	}
	for j := n.Parent; j >= 0; j = pg.node(j).Parent {
		t := pg.node(j).Tag
		if t == "legend" {
			break
		}
		if t == "fieldset" && hasAttr(pg.node(j), "disabled") && disableable[n.Tag] {
			return true
		}
		if hasAttr(pg.node(j), "inert") {
			return true
		}
	}
	return n.Tag != "area" && !pg.rendered(i)
}

// anyRole means an element accepts every role (other than its implicit
// one, which is redundant but allowed).
const anyRole = "*"

// allowedRoles returns the roles ARIA in HTML lets authors give element i:
// a list, [anyRole], or none at all.
func (pg *page) allowedRoles(i int) []string {
	n := pg.node(i)
	heading := []string{"none", "presentation", "tab", "doc-subtitle"}
	lists := []string{"directory", "group", "listbox", "menu", "menubar", "none", "presentation", "radiogroup", "tablist", "toolbar", "tree"}
	switch n.Tag {
	case "a":
		if hasAttr(n, "href") {
			return []string{"button", "checkbox", "menuitem", "menuitemcheckbox", "menuitemradio", "option", "radio", "switch", "tab", "treeitem", "doc-backlink", "doc-biblioref", "doc-glossref", "doc-noteref"}
		}
		return []string{anyRole}
	case "area":
		if hasAttr(n, "href") {
			return nil
		}
		return []string{"button", "link"}
	case "article":
		return []string{"feed", "presentation", "none", "document", "application", "main", "region"}
	case "aside":
		return []string{"feed", "note", "presentation", "none", "region", "search", "doc-dedication", "doc-example", "doc-footnote", "doc-glossary", "doc-pullquote", "doc-tip"}
	case "audio", "video":
		return []string{"application"}
	case "br", "wbr":
		return []string{"presentation", "none"}
	case "button":
		return []string{"checkbox", "combobox", "gridcell", "link", "menuitem", "menuitemcheckbox", "menuitemradio", "option", "radio", "separator", "slider", "switch", "tab", "treeitem"}
	case "dialog":
		return []string{"alertdialog"}
	case "dl":
		return []string{"group", "list", "presentation", "none"}
	case "dt":
		return []string{"listitem"}
	case "embed":
		return []string{"application", "document", "img", "presentation", "none"}
	case "fieldset":
		return []string{"none", "presentation", "radiogroup"}
	case "figcaption":
		return []string{"group", "none", "presentation"}
	case "footer", "header":
		return []string{"group", "none", "presentation", "doc-footnote"}
	case "form":
		return []string{"form", "search", "none", "presentation"}
	case "h1", "h2", "h3", "h4", "h5", "h6":
		return heading
	case "hr":
		return []string{"none", "presentation", "doc-pagebreak"}
	case "iframe":
		return []string{"application", "document", "img", "none", "presentation"}
	case "img":
		if n.Attrs["alt"] != "" || pg.name(i) != "" {
			return []string{"button", "checkbox", "link", "math", "menuitem", "menuitemcheckbox", "menuitemradio", "meter", "option", "progressbar", "radio", "scrollbar", "separator", "slider", "switch", "tab", "treeitem", "doc-cover"}
		}
		return []string{"presentation", "none"}
	case "input":
		return pg.inputAllowedRoles(i)
	case "li":
		return []string{"menuitem", "menuitemcheckbox", "menuitemradio", "option", "none", "presentation", "radio", "separator", "tab", "treeitem", "doc-biblioentry", "doc-endnote"}
	case "menu", "ol", "ul":
		return lists
	case "nav":
		return []string{"doc-index", "doc-pagelist", "doc-toc", "menu", "menubar", "none", "presentation", "tablist"}
	case "object":
		return []string{"application", "document", "img"}
	case "search":
		return []string{"form", "group", "none", "presentation", "region", "search"}
	case "section":
		return []string{"alert", "alertdialog", "application", "banner", "complementary", "contentinfo", "dialog", "document", "feed", "group", "log", "main", "marquee", "navigation", "none", "note", "presentation", "search", "status", "tabpanel", "doc-abstract", "doc-acknowledgments", "doc-afterword", "doc-appendix", "doc-bibliography", "doc-chapter", "doc-colophon", "doc-conclusion", "doc-credit", "doc-credits", "doc-dedication", "doc-endnotes", "doc-epigraph", "doc-epilogue", "doc-errata", "doc-example", "doc-foreword", "doc-glossary", "doc-index", "doc-introduction", "doc-notice", "doc-pagelist", "doc-part", "doc-preface", "doc-prologue", "doc-pullquote", "doc-qna", "doc-toc"}
	case "select":
		if size, _ := strconv.Atoi(n.Attrs["size"]); !hasAttr(n, "multiple") && size <= 1 {
			return []string{"menu"}
		}
		return nil
	case "base", "body", "caption", "col", "colgroup", "datalist", "dd", "details", "head", "html", "label", "legend",
		"link", "main", "map", "math", "meta", "meter", "noscript", "optgroup", "option", "param", "picture", "progress",
		"script", "slot", "source", "style", "summary", "template", "textarea", "title", "track":
		return nil
	}
	return []string{anyRole}
}

// inputAllowedRoles returns the roles an input of i's type may take.
func (pg *page) inputAllowedRoles(i int) []string {
	n := pg.node(i)
	switch t := strings.ToLower(n.Attrs["type"]); t {
	case "button":
		return []string{"checkbox", "combobox", "link", "menuitem", "menuitemcheckbox", "menuitemradio", "option", "radio", "switch", "tab"}
	case "checkbox":
		if hasAttr(n, "aria-pressed") {
			return []string{"button", "menuitemcheckbox", "option", "switch"}
		}
		return []string{"menuitemcheckbox", "option", "switch"}
	case "color", "date", "datetime-local", "file", "month", "number", "password", "range", "reset", "submit", "time", "week", "hidden":
		return nil
	case "image":
		return []string{"link", "menuitem", "menuitemcheckbox", "menuitemradio", "radio", "switch"}
	case "radio":
		return []string{"menuitemradio"}
	default:
		if (t == "" || t == "text") && hasAttr(n, "list") {
			return nil
		}
		return []string{"combobox", "searchbox", "spinbutton"}
	}
}

// dpubBase are the DPUB roles allowed only on elements whose implicit
// role is the one they refine.
var dpubBase = map[string]string{"doc-backlink": "link", "doc-biblioref": "link", "doc-glossref": "link", "doc-noteref": "link",
	"doc-biblioentry": "listitem", "doc-endnote": "listitem", "doc-cover": "img"}

// roleAllowedOn reports whether an author may give element i the role.
func (pg *page) roleAllowedOn(i int, role string) bool {
	imp := pg.implicitRole(i)
	if imp == "" {
		switch pg.node(i).Tag {
		case "header":
			imp = "banner"
		case "footer":
			imp = "contentinfo"
		}
	}
	if role == imp {
		return true
	}
	allowed := pg.allowedRoles(i)
	if base, ok := dpubBase[role]; ok && base != imp {
		return false
	}
	if len(allowed) == 1 && allowed[0] == anyRole {
		return true
	}
	return slices.Contains(allowed, role)
}
