package audit

import "strings"

// The WAI-ARIA 1.2 role model (with DPUB-ARIA and Graphics-ARIA) the ARIA
// checks read: what each role supports, needs and may sit in.

// roleDef is one role's part of the model.
type roleDef struct {
	// kind is the role's category: widget, composite, structure,
	// landmark or window.
	kind string
	// attrs are the states and properties the role supports beyond the
	// global ones, its required ones included.
	attrs []string
	// required are the states and properties an author must give it.
	required []string
	// context are the roles it must be owned by, owned the roles it must
	// own one of.
	context, owned []string
	// fromContent: its name may come from its content; namePlease: it
	// must have a name; prohibitName: it may not be named by the author;
	// leafKids: its children are presentational.
	fromContent, namePlease, prohibitName, leafKids bool
}

// cellAttrs are what cells and headers support.
var cellAttrs = []string{"aria-colindex", "aria-colspan", "aria-rowindex", "aria-rowspan", "aria-expanded"}

// headerAttrs are what column and row headers support.
var headerAttrs = append([]string{"aria-sort", "aria-readonly", "aria-required", "aria-selected"}, cellAttrs...)

// menuKids are what a menu or menubar owns.
var menuKids = []string{"group", "menuitemradio", "menuitem", "menuitemcheckbox", "menu", "separator"}

// roleModel maps each concrete role to its definition.
var roleModel = map[string]roleDef{
	"alert":            {kind: "structure", attrs: []string{"aria-expanded"}},
	"alertdialog":      {kind: "window", attrs: []string{"aria-expanded", "aria-modal"}, namePlease: true},
	"application":      {kind: "landmark", attrs: []string{"aria-activedescendant", "aria-expanded"}, namePlease: true},
	"article":          {kind: "structure", attrs: []string{"aria-posinset", "aria-setsize", "aria-expanded"}},
	"banner":           {kind: "landmark", attrs: []string{"aria-expanded"}},
	"blockquote":       {kind: "structure"},
	"button":           {kind: "widget", attrs: []string{"aria-expanded", "aria-pressed"}, fromContent: true, namePlease: true, leafKids: true},
	"caption":          {kind: "structure", context: []string{"figure", "table", "grid", "treegrid"}, prohibitName: true},
	"cell":             {kind: "structure", attrs: cellAttrs, context: []string{"row"}, fromContent: true},
	"checkbox":         {kind: "widget", attrs: []string{"aria-checked", "aria-readonly", "aria-expanded", "aria-required"}, required: []string{"aria-checked"}, fromContent: true, namePlease: true, leafKids: true},
	"code":             {kind: "structure", prohibitName: true},
	"columnheader":     {kind: "structure", attrs: headerAttrs, context: []string{"row"}, fromContent: true},
	"combobox":         {kind: "widget", attrs: []string{"aria-expanded", "aria-controls", "aria-owns", "aria-autocomplete", "aria-readonly", "aria-required", "aria-activedescendant", "aria-orientation"}, required: []string{"aria-expanded", "aria-controls"}, namePlease: true},
	"comment":          {kind: "structure", attrs: []string{"aria-level", "aria-posinset", "aria-setsize"}},
	"complementary":    {kind: "landmark", attrs: []string{"aria-expanded"}},
	"contentinfo":      {kind: "landmark", attrs: []string{"aria-expanded"}},
	"definition":       {kind: "structure", attrs: []string{"aria-expanded"}},
	"deletion":         {kind: "structure", prohibitName: true},
	"dialog":           {kind: "window", attrs: []string{"aria-expanded", "aria-modal"}, namePlease: true},
	"directory":        {kind: "structure", attrs: []string{"aria-expanded"}, fromContent: true},
	"document":         {kind: "structure", attrs: []string{"aria-expanded"}},
	"emphasis":         {kind: "structure", prohibitName: true},
	"feed":             {kind: "structure", attrs: []string{"aria-expanded"}, owned: []string{"article"}},
	"figure":           {kind: "structure", attrs: []string{"aria-expanded"}, fromContent: true},
	"form":             {kind: "landmark", attrs: []string{"aria-expanded"}},
	"generic":          {kind: "structure", prohibitName: true},
	"grid":             {kind: "composite", attrs: []string{"aria-level", "aria-multiselectable", "aria-readonly", "aria-activedescendant", "aria-colcount", "aria-expanded", "aria-rowcount"}, owned: []string{"rowgroup", "row"}},
	"gridcell":         {kind: "widget", attrs: append([]string{"aria-readonly", "aria-required", "aria-selected"}, cellAttrs...), context: []string{"row"}, fromContent: true},
	"group":            {kind: "structure", attrs: []string{"aria-activedescendant", "aria-expanded"}},
	"heading":          {kind: "structure", attrs: []string{"aria-level", "aria-expanded"}, required: []string{"aria-level"}, fromContent: true},
	"img":              {kind: "structure", attrs: []string{"aria-expanded"}, namePlease: true, leafKids: true},
	"insertion":        {kind: "structure", prohibitName: true},
	"link":             {kind: "widget", attrs: []string{"aria-expanded"}, fromContent: true, namePlease: true},
	"list":             {kind: "structure", attrs: []string{"aria-expanded"}, owned: []string{"listitem"}},
	"listbox":          {kind: "widget", attrs: []string{"aria-multiselectable", "aria-readonly", "aria-required", "aria-activedescendant", "aria-expanded", "aria-orientation"}, owned: []string{"group", "option"}, namePlease: true},
	"listitem":         {kind: "structure", attrs: []string{"aria-level", "aria-posinset", "aria-setsize", "aria-expanded"}, context: []string{"list"}, fromContent: true},
	"log":              {kind: "structure", attrs: []string{"aria-expanded"}},
	"main":             {kind: "landmark", attrs: []string{"aria-expanded"}},
	"mark":             {kind: "structure", prohibitName: true},
	"marquee":          {kind: "structure", attrs: []string{"aria-expanded"}},
	"math":             {kind: "structure", attrs: []string{"aria-expanded"}, leafKids: true},
	"menu":             {kind: "composite", attrs: []string{"aria-activedescendant", "aria-expanded", "aria-orientation"}, owned: menuKids},
	"menubar":          {kind: "composite", attrs: []string{"aria-activedescendant", "aria-expanded", "aria-orientation"}, owned: menuKids},
	"menuitem":         {kind: "widget", attrs: []string{"aria-posinset", "aria-setsize", "aria-expanded"}, context: []string{"menu", "menubar", "group"}, fromContent: true, namePlease: true},
	"menuitemcheckbox": {kind: "widget", attrs: []string{"aria-checked", "aria-expanded", "aria-posinset", "aria-readonly", "aria-setsize"}, required: []string{"aria-checked"}, context: []string{"menu", "menubar", "group"}, fromContent: true, namePlease: true, leafKids: true},
	"menuitemradio":    {kind: "widget", attrs: []string{"aria-checked", "aria-expanded", "aria-posinset", "aria-readonly", "aria-setsize"}, required: []string{"aria-checked"}, context: []string{"menu", "menubar", "group"}, fromContent: true, namePlease: true, leafKids: true},
	"meter":            {kind: "structure", attrs: []string{"aria-valuenow", "aria-valuemax", "aria-valuemin", "aria-valuetext"}, required: []string{"aria-valuenow"}, namePlease: true, leafKids: true},
	"navigation":       {kind: "landmark", attrs: []string{"aria-expanded"}},
	"none":             {kind: "structure", prohibitName: true},
	"note":             {kind: "structure", attrs: []string{"aria-expanded"}},
	"option":           {kind: "widget", attrs: []string{"aria-selected", "aria-checked", "aria-posinset", "aria-setsize"}, context: []string{"group", "listbox"}, fromContent: true, namePlease: true, leafKids: true},
	"paragraph":        {kind: "structure", prohibitName: true},
	"presentation":     {kind: "structure", prohibitName: true},
	"progressbar":      {kind: "widget", attrs: []string{"aria-expanded", "aria-valuemax", "aria-valuemin", "aria-valuenow", "aria-valuetext"}, namePlease: true, leafKids: true},
	"radio":            {kind: "widget", attrs: []string{"aria-checked", "aria-posinset", "aria-setsize", "aria-required"}, required: []string{"aria-checked"}, fromContent: true, namePlease: true, leafKids: true},
	"radiogroup":       {kind: "composite", attrs: []string{"aria-readonly", "aria-required", "aria-activedescendant", "aria-expanded", "aria-orientation"}},
	"region":           {kind: "landmark", attrs: []string{"aria-expanded"}},
	"row":              {kind: "structure", attrs: []string{"aria-colindex", "aria-level", "aria-rowindex", "aria-selected", "aria-activedescendant", "aria-expanded", "aria-posinset", "aria-setsize"}, context: []string{"grid", "rowgroup", "table", "treegrid"}, owned: []string{"cell", "columnheader", "gridcell", "rowheader"}, fromContent: true},
	"rowgroup":         {kind: "structure", context: []string{"grid", "table", "treegrid"}, owned: []string{"row"}, fromContent: true},
	"rowheader":        {kind: "structure", attrs: headerAttrs, context: []string{"row"}, fromContent: true},
	"scrollbar":        {kind: "widget", attrs: []string{"aria-valuenow", "aria-controls", "aria-orientation", "aria-valuemax", "aria-valuemin", "aria-valuetext"}, required: []string{"aria-valuenow"}, leafKids: true},
	"search":           {kind: "landmark", attrs: []string{"aria-expanded"}},
	"searchbox":        {kind: "widget", attrs: []string{"aria-activedescendant", "aria-autocomplete", "aria-multiline", "aria-placeholder", "aria-readonly", "aria-required"}, namePlease: true},
	"separator":        {kind: "structure", attrs: []string{"aria-valuenow", "aria-valuemax", "aria-valuemin", "aria-orientation", "aria-valuetext"}, leafKids: true},
	"slider":           {kind: "widget", attrs: []string{"aria-valuenow", "aria-valuemax", "aria-valuemin", "aria-orientation", "aria-readonly", "aria-required", "aria-valuetext"}, required: []string{"aria-valuenow"}, namePlease: true, leafKids: true},
	"spinbutton":       {kind: "widget", attrs: []string{"aria-valuemax", "aria-valuemin", "aria-readonly", "aria-required", "aria-activedescendant", "aria-valuetext", "aria-valuenow"}, namePlease: true},
	"status":           {kind: "structure", attrs: []string{"aria-expanded"}},
	"strong":           {kind: "structure", prohibitName: true},
	"subscript":        {kind: "structure", prohibitName: true},
	"suggestion":       {kind: "structure", owned: []string{"insertion", "deletion"}, prohibitName: true},
	"superscript":      {kind: "structure", prohibitName: true},
	"switch":           {kind: "widget", attrs: []string{"aria-checked", "aria-expanded", "aria-readonly", "aria-required"}, required: []string{"aria-checked"}, fromContent: true, namePlease: true, leafKids: true},
	"tab":              {kind: "widget", attrs: []string{"aria-posinset", "aria-selected", "aria-setsize", "aria-expanded"}, context: []string{"tablist"}, fromContent: true, leafKids: true},
	"table":            {kind: "structure", attrs: []string{"aria-colcount", "aria-rowcount", "aria-expanded"}, owned: []string{"rowgroup", "row"}, fromContent: true},
	"tablist":          {kind: "composite", attrs: []string{"aria-level", "aria-multiselectable", "aria-orientation", "aria-activedescendant", "aria-expanded"}, owned: []string{"tab"}},
	"tabpanel":         {kind: "structure", attrs: []string{"aria-expanded"}},
	"term":             {kind: "structure", attrs: []string{"aria-expanded"}, fromContent: true},
	"text":             {kind: "structure", fromContent: true},
	"textbox":          {kind: "widget", attrs: []string{"aria-activedescendant", "aria-autocomplete", "aria-multiline", "aria-placeholder", "aria-readonly", "aria-required"}, namePlease: true},
	"time":             {kind: "structure"},
	"timer":            {kind: "structure", attrs: []string{"aria-expanded"}},
	"toolbar":          {kind: "structure", attrs: []string{"aria-orientation", "aria-activedescendant", "aria-expanded"}, namePlease: true},
	"tooltip":          {kind: "structure", attrs: []string{"aria-expanded"}, fromContent: true},
	"tree":             {kind: "composite", attrs: []string{"aria-multiselectable", "aria-required", "aria-activedescendant", "aria-expanded", "aria-orientation"}, owned: []string{"group", "treeitem"}},
	"treegrid":         {kind: "composite", attrs: []string{"aria-activedescendant", "aria-colcount", "aria-expanded", "aria-level", "aria-multiselectable", "aria-orientation", "aria-readonly", "aria-required", "aria-rowcount"}, owned: []string{"rowgroup", "row"}},
	"treeitem":         {kind: "widget", attrs: []string{"aria-checked", "aria-expanded", "aria-level", "aria-posinset", "aria-selected", "aria-setsize"}, context: []string{"group", "tree"}, fromContent: true, namePlease: true},

	"graphics-document": {kind: "structure", namePlease: true},
	"graphics-object":   {kind: "structure", fromContent: true},
	"graphics-symbol":   {kind: "structure", namePlease: true, leafKids: true},
}

// dpubDef returns the model of a DPUB-ARIA role: landmarks and sections
// that support aria-expanded, the link-like references, and the
// deprecated list items.
func dpubDef(role string) (roleDef, bool) {
	if !strings.HasPrefix(role, "doc-") || !validRoles[role] {
		return roleDef{}, false
	}
	switch role {
	case "doc-backlink", "doc-biblioref", "doc-glossref", "doc-noteref":
		return roleDef{kind: "widget", attrs: []string{"aria-expanded"}, fromContent: true, namePlease: true}, true
	case "doc-biblioentry", "doc-endnote":
		return roleDef{kind: "structure", attrs: []string{"aria-expanded", "aria-level", "aria-posinset", "aria-setsize"}}, true
	case "doc-pagebreak":
		return roleDef{kind: "structure", attrs: []string{"aria-expanded", "aria-orientation"}, leafKids: true}, true
	case "doc-pullquote":
		return roleDef{kind: "structure"}, true
	}
	return roleDef{kind: "structure", attrs: []string{"aria-expanded"}}, true
}

// modelOf returns a role's definition.
func modelOf(role string) (roleDef, bool) {
	if d, ok := roleModel[role]; ok {
		return d, true
	}
	return dpubDef(role)
}

// allowedAttr reports whether a role supports an aria-* attribute: a
// global one, or one of its own. With no role, only the global ones.
func allowedAttr(role, attr string) bool {
	if globalAttrs[attr] {
		return true
	}
	d, _ := modelOf(role)
	for _, a := range d.attrs {
		if a == attr {
			return true
		}
	}
	return false
}
