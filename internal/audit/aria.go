package audit

// WAI-ARIA 1.2 data the ARIA checks read (roles, attributes, values).

// validRoles are the roles of WAI-ARIA 1.2, DPUB-ARIA and Graphics-ARIA
// (abstract roles excluded).
var validRoles = setOf(
	"alert", "alertdialog", "application", "article", "banner", "blockquote", "button", "caption", "cell",
	"checkbox", "code", "columnheader", "combobox", "comment", "complementary", "contentinfo", "definition", "deletion",
	"dialog", "directory", "document", "emphasis", "feed", "figure", "form", "generic", "grid", "gridcell",
	"group", "heading", "img", "image", "insertion", "link", "list", "listbox", "listitem", "log", "main", "mark",
	"marquee", "math", "menu", "menubar", "menuitem", "menuitemcheckbox", "menuitemradio", "meter",
	"navigation", "none", "note", "option", "paragraph", "presentation", "progressbar", "radio", "radiogroup",
	"region", "row", "rowgroup", "rowheader", "scrollbar", "search", "searchbox", "separator", "slider",
	"spinbutton", "status", "strong", "subscript", "suggestion", "superscript", "switch", "tab", "table", "tablist", "tabpanel",
	"term", "text", "textbox", "time", "timer", "toolbar", "tooltip", "tree", "treegrid", "treeitem",
	"doc-abstract", "doc-acknowledgments", "doc-afterword", "doc-appendix", "doc-backlink", "doc-biblioentry",
	"doc-bibliography", "doc-biblioref", "doc-chapter", "doc-colophon", "doc-conclusion", "doc-cover",
	"doc-credit", "doc-credits", "doc-dedication", "doc-endnote", "doc-endnotes", "doc-epigraph",
	"doc-epilogue", "doc-errata", "doc-example", "doc-footnote", "doc-foreword", "doc-glossary",
	"doc-glossref", "doc-index", "doc-introduction", "doc-noteref", "doc-notice", "doc-pagebreak",
	"doc-pagefooter", "doc-pageheader", "doc-pagelist", "doc-part", "doc-preface", "doc-prologue", "doc-pullquote", "doc-qna",
	"doc-subtitle", "doc-tip", "doc-toc", "graphics-document", "graphics-object", "graphics-symbol",
)

// deprecatedRoles are roles ARIA 1.2 deprecates.
var deprecatedRoles = setOf("directory", "doc-biblioentry", "doc-endnote")

// ariaAttrs are the aria-* attributes of WAI-ARIA 1.2 and the value type
// each takes.
var ariaAttrs = map[string]string{
	"aria-activedescendant": "idref", "aria-atomic": "bool", "aria-autocomplete": "token:inline,list,both,none",
	"aria-braillelabel": "string", "aria-brailleroledescription": "string",
	"aria-busy": "bool", "aria-checked": "token:true,false,mixed,undefined", "aria-colcount": "int", "aria-colindex": "int",
	"aria-colindextext": "string", "aria-colspan": "int", "aria-controls": "idrefs", "aria-current": "token:page,step,location,date,time,true,false",
	"aria-describedby": "idrefs", "aria-description": "string", "aria-details": "idrefs", "aria-disabled": "bool",
	"aria-dropeffect": "tokens:copy,execute,link,move,none,popup", "aria-errormessage": "idrefs", "aria-expanded": "token:true,false,undefined",
	"aria-flowto": "idrefs", "aria-grabbed": "token:true,false,undefined", "aria-haspopup": "token:true,false,menu,listbox,tree,grid,dialog",
	"aria-hidden": "token:true,false,undefined", "aria-invalid": "token:true,false,spelling,grammar", "aria-keyshortcuts": "string",
	"aria-label": "string", "aria-labelledby": "idrefs", "aria-level": "int", "aria-live": "token:assertive,off,polite",
	"aria-modal": "bool", "aria-multiline": "bool", "aria-multiselectable": "bool", "aria-orientation": "token:horizontal,vertical,undefined",
	"aria-owns": "idrefs", "aria-placeholder": "string", "aria-posinset": "int", "aria-pressed": "token:true,false,mixed,undefined",
	"aria-readonly": "bool", "aria-relevant": "tokens:additions,all,removals,text", "aria-required": "bool",
	"aria-roledescription": "string", "aria-rowcount": "int", "aria-rowindex": "int", "aria-rowindextext": "string",
	"aria-rowspan": "int", "aria-selected": "token:true,false,undefined", "aria-setsize": "int", "aria-sort": "token:ascending,descending,other,none",
	"aria-valuemax": "number", "aria-valuemin": "number", "aria-valuenow": "number", "aria-valuetext": "string",
}

// requiredAttrs are the attributes a role needs (when the element does
// not supply them natively).
var requiredAttrs = map[string][]string{
	"checkbox": {"aria-checked"}, "combobox": {"aria-expanded"}, "heading": {"aria-level"},
	"menuitemcheckbox": {"aria-checked"}, "menuitemradio": {"aria-checked"}, "meter": {"aria-valuenow"},
	"option": {}, "radio": {"aria-checked"}, "scrollbar": {"aria-controls", "aria-valuenow"},
	"slider": {"aria-valuenow"}, "switch": {"aria-checked"},
}

// nameProhibited are roles that may not be named with aria-label or
// aria-labelledby.
var nameProhibited = setOf("caption", "code", "deletion", "emphasis", "generic", "insertion", "paragraph", "presentation", "none", "strong", "subscript", "superscript")

// widgetRoles are the interactive roles.
var widgetRoles = setOf("button", "checkbox", "combobox", "gridcell", "link", "listbox", "menuitem", "menuitemcheckbox",
	"menuitemradio", "option", "progressbar", "radio", "scrollbar", "searchbox", "slider", "spinbutton", "switch", "tab",
	"tabpanel", "textbox", "treeitem")

// globalAttrs are the aria-* attributes every role allows.
var globalAttrs = setOf("aria-atomic", "aria-busy", "aria-controls", "aria-current", "aria-describedby", "aria-description",
	"aria-details", "aria-disabled", "aria-dropeffect", "aria-errormessage", "aria-flowto", "aria-grabbed", "aria-haspopup",
	"aria-hidden", "aria-invalid", "aria-keyshortcuts", "aria-label", "aria-labelledby", "aria-live", "aria-owns",
	"aria-relevant", "aria-roledescription", "aria-braillelabel", "aria-brailleroledescription")

// setOf returns a set of the strings.
func setOf(items ...string) map[string]bool {
	m := make(map[string]bool, len(items))
	for _, s := range items {
		m[s] = true
	}
	return m
}
