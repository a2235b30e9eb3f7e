package audit

import (
	"slices"
	"strings"
)

// The checks of owned and owning roles (aria-required-children,
// aria-required-parent), as axe-core walks them: through elements without
// a role, and through aria-owns.

// owned returns element i's owned elements: its children, then those its
// aria-owns names that are not already among them.
func (pg *page) owned(i int) []int {
	out := slices.Clone(pg.children[i])
	for _, id := range strings.Fields(pg.node(i).Attrs["aria-owns"]) {
		if refs := pg.byID(i, id); len(refs) > 0 && !slices.Contains(out, refs[0]) {
			out = append(out, refs[0])
		}
	}
	return out
}

// semanticRole is element i's role with none and presentation read as no
// role.
func (pg *page) semanticRole(i int) string {
	r := pg.role(i)
	if r == "none" || r == "presentation" {
		return ""
	}
	return r
}

// reviewWhenEmpty are the roles whose missing children are left for
// review, not failed, when they own no content at all.
var reviewWhenEmpty = setOf("doc-bibliography", "doc-endnotes", "grid", "list", "listbox", "menu", "menubar", "table", "tablist", "tree", "treegrid", "rowgroup")

func checkRequiredChildren(_ *Input, pg *page) Outcome {
	is := pg.visibleToAT(pg.where(func(i int) bool {
		d, _ := modelOf(pg.ariaRole(i, true))
		return len(d.owned) > 0
	}))
	return result(pg, is, func(i int) string {
		role := pg.ariaRole(i, true)
		d, _ := modelOf(role)
		need := d.owned
		content := pg.node(i).Text != ""
		var roles []string
		var bad []string
		queue := pg.owned(i)
		for len(queue) > 0 {
			c := queue[0]
			queue = queue[1:]
			if pg.hiddenFromAT(c) {
				continue
			}
			r := pg.semanticRole(c)
			marked := pg.hasGlobalAria(c) || pg.axeFocusable(c)
			if r == "" && !marked || (r == "group" || r == "rowgroup") && slices.Contains(need, r) {
				content = content || pg.node(c).Text != ""
				queue = append(queue, pg.children[c]...)
				continue
			}
			roles = append(roles, r)
			content = content || pg.contentText(c, true) != "" || pg.node(c).Tag == "img"
			if !slices.Contains(need, r) {
				name := pg.node(c).Tag
				if r := pg.ariaRole(c, true); r != "" {
					name = "[role=" + r + "]"
				}
				bad = append(bad, name)
			}
		}
		if len(bad) > 0 {
			return "Fix any of the following:\n  Element has children which are not allowed: " + strings.Join(bad, ", ")
		}
		for _, r := range roles {
			if slices.Contains(need, r) {
				return ""
			}
		}
		if pg.node(i).Attrs["aria-busy"] == "true" || reviewWhenEmpty[role] && !content {
			return "" // busy: fine; empty: for review
		}
		return "Fix any of the following:\n  Required ARIA children role not present: " + strings.Join(need, ", ")
	})
}

// ownsItsGroup are the roles a group of their own role may hold (nested
// list items and tree items).
var ownsItsGroup = setOf("listitem", "treeitem")

// missingContext returns the roles element i lacks as its owner, nil when
// it has one: the nearest ancestor (i itself with self) with a role
// other than a generic group must have one of want.
func (pg *page) missingContext(i int, want []string, self bool, role string) []string {
	want = slices.Clone(want)
	j := i
	if !self {
		j = pg.node(i).Parent
	}
	for ; j >= 0; j = pg.node(j).Parent {
		r := pg.semanticRole(j)
		switch {
		case r == "":
		case r == "group" && slices.Contains(want, "group"):
			if ownsItsGroup[role] {
				want = append(want, role)
			}
			want = slices.DeleteFunc(want, func(s string) bool { return s == "group" })
		case slices.Contains(want, r):
			return nil
		default:
			return want
		}
	}
	return want
}

func checkRequiredParent(_ *Input, pg *page) Outcome {
	is := pg.visibleToAT(pg.where(func(i int) bool {
		d, _ := modelOf(pg.ariaRole(i, false))
		return len(d.context) > 0
	}))
	return result(pg, is, func(i int) string {
		role := pg.ariaRole(i, false)
		d, _ := modelOf(role)
		missing := pg.missingContext(i, d.context, false, role)
		if missing == nil {
			return ""
		}
		// An element owned through aria-owns (it or an ancestor) has
		// its owner as parent.
		for j := i; j >= 0 && missing != nil; j = pg.node(j).Parent {
			id := pg.node(j).Attrs["id"]
			if id == "" {
				continue
			}
			for o := range pg.in.Nodes {
				if slices.Contains(strings.Fields(pg.node(o).Attrs["aria-owns"]), id) {
					if missing = pg.missingContext(o, missing, true, role); missing == nil {
						break
					}
				}
			}
		}
		if missing == nil {
			return ""
		}
		return "Fix any of the following:\n  Required ARIA parent role not present: " + strings.Join(missing, ", ")
	})
}
