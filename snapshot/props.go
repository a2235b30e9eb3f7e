package snapshot

import (
	"slices"
	"strings"
)

// This file turns an AX node's properties into the ones a snapshot prints.

// ableOf maps the boolean properties that also print an "-able" form
// whenever present, true or false, to that form (as the reference server).
var ableOf = map[string]string{
	"disabled": "disableable",
	"expanded": "expandable",
	"focused":  "focusable",
	"selected": "selectable",
}

// alwaysSelectable tells the roles whose nodes Chromium always gives a
// selected state, so that "selectable" would be on every one of them.
func alwaysSelectable(role string) bool { return role == "option" || role == "tab" }

// propKind is how Puppeteer serializes each property it knows.
type propKind uint8

const (
	kindString propKind = iota + 1
	kindBool
	kindTristate
	kindNumber
	kindToken
)

var kinds = map[string]propKind{
	"value": kindString, "description": kindString, "keyshortcuts": kindString,
	"roledescription": kindString, "valuetext": kindString, "url": kindString,
	"disabled": kindBool, "expanded": kindBool, "focused": kindBool, "modal": kindBool,
	"multiline": kindBool, "multiselectable": kindBool, "readonly": kindBool,
	"required": kindBool, "selected": kindBool, "busy": kindBool, "atomic": kindBool,
	"checked": kindTristate, "pressed": kindTristate,
	"level": kindNumber, "valuemax": kindNumber, "valuemin": kindNumber,
	"autocomplete": kindToken, "haspopup": kindToken, "invalid": kindToken,
	"orientation": kindToken, "live": kindToken, "relevant": kindToken,
	"errormessage": kindToken, "details": kindToken,
}

// props returns it's printed properties, sorted by name, each "-able" form
// just before the property it comes from.
func (b *builder) props(it *item) []Prop {
	ax := it.ax
	raw := b.kv[:0]
	defer func() { b.kv = raw[:0] }()
	set := func(e kv) {
		for i := range raw {
			if raw[i].name == e.name {
				raw[i] = e
				return
			}
		}
		raw = append(raw, e)
	}
	for i := range ax.Properties {
		p := &ax.Properties[i]
		name := strings.ToLower(p.Name)
		if kinds[name] != 0 {
			set(kv{name, str(&p.Value), truthy(&p.Value)})
		}
	}
	if ax.Value != nil {
		set(kv{"value", str(ax.Value), truthy(ax.Value)})
	}
	if ax.Description != nil {
		set(kv{"description", str(ax.Description), truthy(ax.Description)})
	}
	if len(raw) == 0 {
		return nil
	}
	slices.SortFunc(raw, func(x, y kv) int { return strings.Compare(x.name, y.name) })

	out := make([]Prop, 0, len(raw)+1)
	for _, p := range raw {
		switch kinds[p.name] {
		case kindString, kindNumber:
			s := p.s
			if p.name == "value" && it.password && s != "" {
				s = passwordMask
			}
			out = append(out, Prop{Name: p.name, Value: s})
		case kindBool:
			if p.name == "focused" && it.role == "RootWebArea" {
				continue
			}
			// The state, when true, says the "-able" form too: the
			// reference prints both ("expandable expanded").
			if p.truth {
				out = append(out, Prop{Name: p.name, Bool: true})
			} else if able := ableOf[p.name]; able != "" && (able != "selectable" || !alwaysSelectable(it.role)) {
				out = append(out, Prop{Name: able, Bool: true})
			}
		case kindTristate:
			switch p.s {
			case "mixed":
				out = append(out, Prop{Name: p.name, Value: "mixed"})
			case "true":
				out = append(out, Prop{Name: p.name, Bool: true})
			}
		case kindToken:
			if p.s != "" && p.s != "false" {
				out = append(out, Prop{Name: p.name, Value: p.s})
			}
		}
	}
	return out
}
