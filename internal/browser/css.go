package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// Styles are the CSS of one element: the rules that apply to it, in
// cascade order, and the values that won.
type Styles struct {
	// Element describes the element, e.g. div#box.card.
	Element string
	// Rules are the element's style attribute and the rules matching it,
	// then the rules of its ancestors it inherits properties from; highest
	// priority first.
	Rules []StyleRule
	// Computed holds the computed values of the properties the rules set and
	// of a few that always matter (display, size, color, font); the
	// properties only the browser's own rules set are left out.
	Computed []cdp.ComputedStyleProperty
}

// StyleRule is a rule that applies to an element, or its style attribute.
type StyleRule struct {
	// Selector is the rule's selector; "element.style" for the style
	// attribute.
	Selector string
	// Source says where the rule is written: "URL:line" (line 1-based),
	// "user-agent stylesheet", ...; "" for the style attribute.
	Source string
	// Media lists the media queries the rule sits in.
	Media []string
	// InheritedFrom describes the ancestor the rule matches when the element
	// only inherits from it; "" for the element's own rules.
	InheritedFrom string
	Declarations  []Declaration
}

// Declaration is one property a rule sets.
type Declaration struct {
	Name, Value string
	// Overridden is set when declarations of higher priority set every
	// property this one sets.
	Overridden bool
	// Invalid is set when the browser does not understand the declaration.
	Invalid bool
}

// keyProperties are computed values shown whatever the rules set.
var keyProperties = []string{"display", "visibility", "opacity", "position", "width", "height", "color", "background-color", "font-family", "font-size"}

// Styles reads the CSS rules matching e and its computed style through the
// CSS domain, which is enabled for the call only.
func (sn Snapshots) Styles(ctx context.Context, e *Element) (*Styles, error) {
	s := e.session
	var mu sync.Mutex
	sheets := map[string]cdp.CSSStyleSheetHeader{}
	sub := s.SubscribeFunc(func(ev cdp.RawEvent) {
		if e, err := cdp.CSSStyleSheetAdded.Decode(ev.Params); err == nil {
			mu.Lock()
			sheets[e.Header.StyleSheetID] = e.Header
			mu.Unlock()
		}
	}, cdp.CSSStyleSheetAdded)
	defer sub.Close()
	defer func() {
		// Turn the domains off again even when ctx ran out.
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		for _, a := range []cdp.Action{cdp.CSSDisable, cdp.DOMDisable} {
			if err := a.Do(dctx, s); err != nil {
				sn.page.browser.bg.failed(sn.page.TargetID, a.Method, err)
			}
		}
	}()
	// CSS.enable reports every stylesheet of the document before it answers.
	for _, a := range []cdp.Action{cdp.DOMEnable, cdp.CSSEnable} {
		if err := a.Do(ctx, s); err != nil {
			return nil, fmt.Errorf("read the styles of uid=%s: %w", e.UID, err)
		}
	}
	if err := cdp.DOMGetDocument.Do(ctx, s, cdp.GetDocumentParams{Depth: 0}); err != nil {
		return nil, fmt.Errorf("read the styles of uid=%s: %w", e.UID, err)
	}
	node, err := cdp.DOMRequestNode.Call(ctx, s, cdp.NodeRef{ObjectID: e.objectID})
	if err != nil {
		return nil, fmt.Errorf("element uid=%s no longer exists; take a new snapshot", e.UID)
	}
	matched, err := cdp.CSSGetMatchedStylesForNode.Call(ctx, s, node)
	if err != nil {
		return nil, fmt.Errorf("read the rules of uid=%s: %w", e.UID, err)
	}
	computed, err := cdp.CSSGetComputedStyleForNode.Call(ctx, s, node)
	if err != nil {
		return nil, fmt.Errorf("read the computed style of uid=%s: %w", e.UID, err)
	}
	v, err := e.call(ctx, ancestorsJS)
	if err != nil {
		return nil, err
	}
	var names struct {
		Self      string
		Ancestors []string
	}
	_ = json.Unmarshal(v.Value, &names)

	// CSS.enable reported the stylesheets before it answered.
	if err := sub.Sync(ctx); err != nil {
		return nil, fmt.Errorf("read the styles of uid=%s: %w", e.UID, err)
	}
	sub.Close()
	<-sub.Done() // sheets is ours from here on
	mu.Lock()
	c := cascade{sheets: sheets}
	mu.Unlock()
	c.addLevel(0, "", matched.AttributesStyle, matched.MatchedCSSRules, matched.InlineStyle)
	for i, in := range matched.Inherited {
		from := fmt.Sprintf("ancestor %d", i+1)
		if i < len(names.Ancestors) {
			from = names.Ancestors[i]
		}
		c.addLevel(i+1, from, nil, in.MatchedCSSRules, in.InlineStyle)
	}
	st := &Styles{Element: names.Self, Rules: c.resolve()}
	shown := map[string]bool{}
	for _, k := range keyProperties {
		shown[k] = true
	}
	for _, r := range c.rules {
		if r.Source == uaSource {
			continue // the browser's defaults: only the key properties
		}
		for _, d := range r.decls {
			for _, n := range d.longhands {
				shown[n] = true
			}
		}
	}
	for _, cp := range computed.ComputedStyle {
		if shown[cp.Name] {
			st.Computed = append(st.Computed, cp)
		}
	}
	return st, nil
}

// cascade orders the rules of an element and its ancestors by priority and
// finds the declarations that lost.
type cascade struct {
	sheets map[string]cdp.CSSStyleSheetHeader
	rules  []*cascadeRule // highest priority first
	depth  int            // the highest level added
}

type cascadeRule struct {
	StyleRule
	level int // 0 for the element, n for its n-th ancestor
	decls []*cascadeDecl
}

type cascadeDecl struct {
	Declaration
	important bool
	longhands []string // the properties it sets
}

// addLevel adds the styles of the element (level 0) or of its level-th
// ancestor, described by from, given in ascending priority: attributes,
// matched rules, style attribute.
func (c *cascade) addLevel(level int, from string, attrs *cdp.CSSStyle, matched []cdp.RuleMatch, inline *cdp.CSSStyle) {
	c.depth = max(c.depth, level)
	var rules []*cascadeRule // ascending, reversed below
	add := func(r StyleRule, style *cdp.CSSStyle) {
		cr := &cascadeRule{StyleRule: r, level: level}
		cr.InheritedFrom = from
		cr.decls = declarations(style, level > 0)
		if len(cr.decls) > 0 {
			rules = append(rules, cr)
		}
	}
	if attrs != nil {
		add(StyleRule{Selector: "(attributes)", Source: "HTML attributes"}, attrs)
	}
	for _, m := range matched {
		r := StyleRule{Selector: matchedSelectors(m), Source: c.source(m.Rule)}
		for _, md := range m.Rule.Media {
			r.Media = append(r.Media, md.Text)
		}
		add(r, &m.Rule.Style)
	}
	if inline != nil {
		add(StyleRule{Selector: "element.style"}, inline)
	}
	slices.Reverse(rules)
	c.rules = append(c.rules, rules...)
}

// declarations lists the declarations written in style: those with a source
// range when it has any (the others are their longhands), else all. For an
// ancestor's style only the inherited properties count.
func declarations(style *cdp.CSSStyle, inherited bool) []*cascadeDecl {
	if style == nil {
		return nil
	}
	written := slices.ContainsFunc(style.CSSProperties, func(p cdp.CSSProperty) bool { return p.Range != nil })
	var out []*cascadeDecl
	for _, p := range style.CSSProperties {
		if (written && p.Range == nil) || p.Implicit || p.Disabled || p.Value == "" || (inherited && !inheritable(p.Name)) {
			continue
		}
		d := &cascadeDecl{
			Declaration: Declaration{Name: p.Name, Value: p.Value, Invalid: p.ParsedOk != nil && !*p.ParsedOk},
			important:   p.Important,
		}
		for _, l := range p.LonghandProperties {
			d.longhands = append(d.longhands, physical(l.Name))
		}
		if len(d.longhands) == 0 {
			d.longhands = []string{physical(p.Name)}
		}
		out = append(out, d)
	}
	return out
}

// resolve marks the overridden declarations: for each property, the
// element's own declarations beat inherited ones, nearer ancestors beat
// farther ones, !important beats normal, and then the later rule wins.
func (c *cascade) resolve() []StyleRule {
	winner := map[string]*cascadeDecl{}
	for level := 0; level <= c.depth; level++ {
		for _, important := range []bool{true, false} {
			for _, r := range c.rules {
				if r.level != level {
					continue
				}
				for _, d := range slices.Backward(r.decls) {
					if d.important != important || d.Invalid {
						continue
					}
					for _, n := range d.longhands {
						if winner[n] == nil {
							winner[n] = d
						}
					}
				}
			}
		}
	}
	out := make([]StyleRule, len(c.rules))
	for i, r := range c.rules {
		for _, d := range r.decls {
			d.Overridden = !d.Invalid && !slices.ContainsFunc(d.longhands, func(n string) bool { return winner[n] == d })
			r.Declarations = append(r.Declarations, d.Declaration)
		}
		out[i] = r.StyleRule
	}
	return out
}

// uaSource is the Source of the browser's own rules.
const uaSource = "user-agent stylesheet"

// source says where rule is written.
func (c *cascade) source(rule cdp.CSSRule) string {
	if rule.Origin != "regular" {
		return rule.Origin + " stylesheet"
	}
	h, ok := c.sheets[rule.StyleSheetID]
	if !ok {
		return "stylesheet " + rule.StyleSheetID
	}
	url := h.SourceURL
	if url == "" {
		url = "constructed stylesheet"
	}
	r := rule.Style.Range
	if sel := rule.SelectorList.Selectors; len(sel) > 0 && sel[0].Range != nil {
		r = sel[0].Range
	}
	if r == nil {
		return url
	}
	return fmt.Sprintf("%s:%d", url, h.StartLine+r.StartLine+1)
}

// matchedSelectors returns the selectors of a rule that matched, or the
// whole list when it does not say.
func matchedSelectors(m cdp.RuleMatch) string {
	var sel []string
	for _, i := range m.MatchingSelectors {
		if i >= 0 && i < len(m.Rule.SelectorList.Selectors) {
			sel = append(sel, m.Rule.SelectorList.Selectors[i].Text)
		}
	}
	if len(sel) == 0 {
		return m.Rule.SelectorList.Text
	}
	return strings.Join(sel, ", ")
}

// inheritedProperties are the CSS properties an element inherits from its
// parent, besides custom properties and the font ones.
var inheritedProperties = map[string]bool{
	"border-collapse": true, "border-spacing": true, "caption-side": true, "caret-color": true, "accent-color": true,
	"color": true, "color-scheme": true, "cursor": true, "direction": true, "empty-cells": true, "hyphens": true,
	"letter-spacing": true, "line-break": true, "line-height": true, "list-style": true, "list-style-image": true,
	"list-style-position": true, "list-style-type": true, "orphans": true, "overflow-wrap": true, "paint-order": true,
	"pointer-events": true, "quotes": true, "tab-size": true, "text-align": true, "text-align-last": true,
	"text-indent": true, "text-justify": true, "text-rendering": true, "text-shadow": true, "text-transform": true,
	"text-underline-position": true, "text-wrap": true, "visibility": true, "white-space": true,
	"white-space-collapse": true, "widows": true, "word-break": true, "word-spacing": true, "word-wrap": true,
	"writing-mode": true, "fill": true, "stroke": true, "-webkit-text-fill-color": true, "-webkit-font-smoothing": true,
}

// inheritable reports whether an element inherits property name.
func inheritable(name string) bool {
	return inheritedProperties[name] || strings.HasPrefix(name, "--") || name == "font" || strings.HasPrefix(name, "font-")
}

// logicalSides maps the sides of logical properties to physical ones in
// horizontal left-to-right writing, the common case.
var logicalSides = strings.NewReplacer("-block-start", "-top", "-block-end", "-bottom", "-inline-start", "-left", "-inline-end", "-right")

// physical names the physical property a logical one (margin-inline-start)
// sets, so that both cascade together.
func physical(name string) string {
	for _, prefix := range []string{"margin-", "padding-", "border-", "inset-", "scroll-margin-", "scroll-padding-"} {
		if strings.HasPrefix(name, prefix) {
			name = logicalSides.Replace(name)
			return strings.TrimPrefix(name, "inset-")
		}
	}
	return name
}
