package audit

import "strings"

// The sources of an accessible name that axe-core's name checks test one
// by one (aria-label, aria-labelledby, title, labels, content), read from
// the DOM: Chrome's computed name also counts sources these checks leave
// out (an image button's default "Submit", a placeholder).

// ariaLabelled reports whether element i has a non-empty aria-label.
func (pg *page) ariaLabelled(i int) bool {
	return strings.TrimSpace(pg.node(i).Attrs["aria-label"]) != ""
}

// labelledBy reports whether element i's aria-labelledby points at an
// element with text (hidden referenced content counts, as in the
// accessible name computation).
func (pg *page) labelledBy(i int) bool {
	for _, id := range strings.Fields(pg.node(i).Attrs["aria-labelledby"]) {
		for _, j := range pg.byID(i, id) {
			if pg.ariaLabelled(j) || pg.contentText(j, false) != "" {
				return true
			}
		}
	}
	return false
}

// titled reports whether element i has a non-empty title.
func (pg *page) titled(i int) bool {
	return strings.TrimSpace(pg.node(i).Attrs["title"]) != ""
}

// labelText reports whether element i is labelled by a <label> with text:
// one around it, or one naming its id (a label not shown on screen
// counts, as axe-core counts it).
func (pg *page) labelText(i int) bool {
	if l := pg.ancestor(i, func(j int) bool { return pg.node(j).Tag == "label" }); l >= 0 && pg.contentText(l, true) != "" {
		return true
	}
	id := pg.node(i).Attrs["id"]
	if id == "" {
		return false
	}
	for _, l := range pg.each("label") {
		if pg.node(l).Attrs["for"] == id && (!pg.rendered(l) || pg.contentText(l, true) != "") {
			return true
		}
	}
	return false
}

// contentText returns the text element i's content gives a name: text,
// images' alt and descendants' aria-label, leaving out what is hidden
// from assistive technology when visibleOnly.
func (pg *page) contentText(i int, visibleOnly bool) string {
	var b strings.Builder
	var walk func(j int)
	walk = func(j int) {
		n := pg.node(j)
		switch n.Tag {
		case "script", "style", "template", "noscript":
			return
		}
		if visibleOnly && j != i && (pg.hiddenFromAT(j) || n.Style != nil && n.Style.Visibility == "hidden") {
			return
		}
		if j != i && pg.ariaLabelled(j) {
			b.WriteString(" " + n.Attrs["aria-label"] + " ")
			return
		}
		if n.Tag == "img" || n.Tag == "input" && strings.EqualFold(n.Attrs["type"], "image") {
			b.WriteString(" " + n.Attrs["alt"] + " ")
			return
		}
		if !visibleOnly || n.Style == nil || n.Style.Visibility != "hidden" {
			b.WriteString(" " + n.Text + " ")
		}
		for _, c := range pg.children[j] {
			walk(c)
		}
	}
	walk(i)
	return strings.Join(strings.Fields(b.String()), " ")
}

// authorNamed reports whether element i is named by aria-label,
// aria-labelledby or a non-empty title.
func (pg *page) authorNamed(i int) bool {
	return pg.ariaLabelled(i) || pg.labelledBy(i) || pg.titled(i)
}
