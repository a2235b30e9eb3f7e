package audit

import (
	"fmt"
	"math"
)

func checkTargetSize(_ *Input, pg *page) Outcome {
	ts := pg.targets()
	// Every rendered control is a neighbour, also those in running text
	// that are not measured themselves.
	neighbours := pg.where(func(i int) bool {
		n := pg.node(i)
		return pg.rendered(i) && !pg.hiddenFromAT(i) && pg.axeFocusable(i) && pg.widgetType(i) && n.Box[2] > 0 && n.Box[3] > 0 && !offscreen(n.Box)
	})
	return result(pg, ts, func(i int) string {
		b := pg.node(i).Box
		if b[2] >= 24 && b[3] >= 24 || !pg.inTabOrder(i) {
			return "" // big enough, or out of the tab order: for review
		}
		if pg.overflowing(i) {
			return "" // its size cannot be told: for review
		}
		cx, cy := b[0]+b[2]/2, b[1]+b[3]/2
		space := math.Inf(1) // the diameter of the free circle around the centre
		for _, j := range neighbours {
			if j == i || pg.contains(i, j) || pg.contains(j, i) {
				continue
			}
			o := pg.node(j).Box
			dx := math.Max(math.Max(o[0]-cx, 0), cx-(o[0]+o[2]))
			dy := math.Max(math.Max(o[1]-cy, 0), cy-(o[1]+o[3]))
			d := 2 * math.Hypot(dx, dy)
			if o[2] < 24 || o[3] < 24 {
				// An undersized neighbour is taken as a 12px circle
				// around its centre, as axe-core measures it.
				d = math.Min(d, 2*math.Max(0, math.Hypot(o[0]+o[2]/2-cx, o[1]+o[3]/2-cy)-12))
			}
			space = math.Min(space, d)
		}
		if space+0.05 >= 24 {
			return ""
		}
		return fmt.Sprintf("Fix any of the following:\n  Target has insufficient size (%.0fpx by %.0fpx, should be at least 24px by 24px)\n  Target has insufficient space to its closest neighbors. Safe clickable space has a diameter of %.0fpx instead of at least 24px.", b[2], b[3], space)
	})
}

// overflowing reports whether target i has content sticking out of its
// box: a rendered descendant out of the tab order whose box is not
// inside i's. axe-core then cannot tell the target's size and leaves it
// for review (a link around an image taller than its line, say).
func (pg *page) overflowing(i int) bool {
	b := pg.node(i).Box
	for _, d := range pg.descendants(i) {
		o := pg.node(d).Box
		if o == nil || o[2] == 0 || o[3] == 0 || !pg.rendered(d) || pg.inTabOrder(d) {
			continue
		}
		if o[0] < b[0] || o[1] < b[1] || o[0]+o[2] > b[0]+b[2] || o[1]+o[3] > b[1]+b[3] {
			return true
		}
	}
	return false
}

// contains reports whether element a is an ancestor of b.
func (pg *page) contains(a, b int) bool {
	for j := pg.node(b).Parent; j >= 0; j = pg.node(j).Parent {
		if j == a {
			return true
		}
	}
	return false
}
