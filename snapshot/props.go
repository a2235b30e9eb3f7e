package snapshot

import (
	"slices"
	"strings"
)

// This file turns an AX node's properties into the ones a snapshot prints.

// ableOf returns the "-able" form of the boolean properties that print it
// whenever present, true or false (as the reference server), or "".
func ableOf(name string) string {
	switch name {
	case "disabled":
		return "disableable"
	case "expanded":
		return "expandable"
	case "focused":
		return "focusable"
	case "selected":
		return "selectable"
	}
	return ""
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

// kindOf returns how the property called name prints, 0 for a property a
// snapshot leaves out. A switch, as every property of every node is looked
// up: quicker than hashing the name into a map.
func kindOf(name string) propKind {
	switch name {
	case "value", "description", "keyshortcuts", "roledescription", "valuetext", "url":
		return kindString
	case "disabled", "expanded", "focused", "modal", "multiline", "multiselectable", "readonly",
		"required", "selected", "busy", "atomic":
		return kindBool
	case "checked", "pressed":
		return kindTristate
	case "level", "valuemax", "valuemin":
		return kindNumber
	case "autocomplete", "haspopup", "invalid", "orientation", "live", "relevant", "errormessage", "details":
		return kindToken
	}
	return 0
}

// props returns it's printed properties, sorted by name, each "-able" form
// just before the property it comes from. The values are only turned into
// strings when printed, and the Props of all nodes share a few
// allocations.
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
		if k := kindOf(name); k != 0 {
			set(kv{name, k, &p.Value})
		}
	}
	if ax.Value != nil {
		set(kv{"value", kindString, ax.Value})
	}
	if ax.Description != nil {
		set(kv{"description", kindString, ax.Description})
	}
	if len(raw) == 0 {
		return nil
	}
	slices.SortFunc(raw, func(x, y kv) int { return strings.Compare(x.name, y.name) })

	if cap(b.propSlab)-len(b.propSlab) < len(raw) {
		b.propSlab = make([]Prop, 0, max(512, len(raw)))
	}
	start := len(b.propSlab)
	out := b.propSlab
	for _, p := range raw {
		switch p.kind {
		case kindString, kindNumber:
			s := str(p.v)
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
			if truthy(p.v) {
				out = append(out, Prop{Name: p.name, Bool: true})
			} else if able := ableOf(p.name); able != "" && (able != "selectable" || !alwaysSelectable(it.role)) {
				out = append(out, Prop{Name: able, Bool: true})
			}
		case kindTristate:
			switch str(p.v) {
			case "mixed":
				out = append(out, Prop{Name: p.name, Value: "mixed"})
			case "true":
				out = append(out, Prop{Name: p.name, Bool: true})
			}
		case kindToken:
			if s := str(p.v); s != "" && s != "false" {
				out = append(out, Prop{Name: p.name, Value: s})
			}
		}
	}
	b.propSlab = out
	return out[start:len(out):len(out)]
}
