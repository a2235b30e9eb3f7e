package audit

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// Tables as axe-core's table checks see them: rows and cells, the grid
// that spans make, which tables hold data, and the headers of a cell.

// rows returns table t's rows in order: its own tr children and those of
// its thead, tbody and tfoot (not those of nested tables).
func (pg *page) rows(t int) []int {
	var out []int
	for _, c := range pg.children[t] {
		switch pg.node(c).Tag {
		case "tr":
			out = append(out, c)
		case "thead", "tbody", "tfoot":
			for _, r := range pg.children[c] {
				if pg.node(r).Tag == "tr" {
					out = append(out, r)
				}
			}
		}
	}
	return out
}

// cells returns row r's td and th cells.
func (pg *page) cells(r int) []int {
	var out []int
	for _, c := range pg.children[r] {
		if t := pg.node(c).Tag; t == "td" || t == "th" {
			out = append(out, c)
		}
	}
	return out
}

// span reads a colspan or rowspan (at least 1; a rowspan of 0 spans the
// rest of the table, given as rest).
func (pg *page) span(c int, attr string, rest int) int {
	v, err := strconv.Atoi(strings.TrimSpace(pg.node(c).Attrs[attr]))
	switch {
	case err != nil || v < 0:
		return 1
	case v == 0 && attr == "rowspan":
		return rest
	case v == 0:
		return 1
	}
	return min(v, 1000)
}

// grid lays table t's cells out as the rows and columns they cover.
func (pg *page) grid(t int) [][]int {
	if g, ok := pg.grids[t]; ok {
		return g
	}
	g := pg.layout(t)
	for y, row := range g {
		for x, c := range row {
			if _, seen := pg.places[c]; c >= 0 && !seen {
				pg.places[c] = [2]int{y, x}
			}
		}
	}
	pg.grids[t] = g
	return g
}

// layout places table t's cells in the grid.
func (pg *page) layout(t int) [][]int {
	rows := pg.rows(t)
	g := make([][]int, len(rows))
	put := func(y, x, c int) {
		for len(g) <= y {
			g = append(g, nil)
		}
		for len(g[y]) <= x {
			g[y] = append(g[y], -1)
		}
		g[y][x] = c
	}
	taken := func(y, x int) bool { return y < len(g) && x < len(g[y]) && g[y][x] >= 0 }
	for y, r := range rows {
		x := 0
		for _, c := range pg.cells(r) {
			for range pg.span(c, "colspan", 1) {
				for dy := range pg.span(c, "rowspan", len(rows)) {
					for taken(y+dy, x) {
						x++
					}
					put(y+dy, x, c)
				}
				x++
			}
		}
	}
	return g
}

// position returns where cell c starts in grid g.
func (pg *page) position(g [][]int, c int) (int, int) {
	if p, ok := pg.places[c]; ok && p[0] < len(g) && p[1] < len(g[p[0]]) && g[p[0]][p[1]] == c {
		return p[0], p[1]
	}
	for y, row := range g {
		if x := slices.Index(row, c); x >= 0 {
			return y, x
		}
	}
	return -1, -1
}

// isDataTable applies axe-core's heuristic for telling data tables from
// layout tables. Cell borders are not known from the snapshot; a table
// they alone would make a data table is taken for layout.
func (pg *page) isDataTable(t int) bool {
	n := pg.node(t)
	role := pg.ariaRole(t, false)
	if (role == "none" || role == "presentation") && !pg.axeFocusable(t) {
		return false
	}
	if n.Attrs["contenteditable"] == "true" || pg.ancestor(t, func(j int) bool { return pg.node(j).Attrs["contenteditable"] == "true" }) >= 0 {
		return true
	}
	if role == "grid" || role == "treegrid" || role == "table" {
		return true
	}
	if d, ok := modelOf(role); ok && d.kind == "landmark" {
		return true
	}
	if n.Attrs["datatable"] == "0" {
		return false
	}
	if n.Attrs["summary"] != "" {
		return true
	}
	for _, c := range pg.children[t] {
		switch pg.node(c).Tag {
		case "thead", "tfoot", "caption", "colgroup":
			return true
		}
	}
	rows := pg.rows(t)
	cells := 0
	for _, r := range rows {
		for _, c := range pg.cells(r) {
			cn := pg.node(c)
			if cn.Tag == "th" || cn.Attrs["scope"] != "" || cn.Attrs["headers"] != "" || cn.Attrs["abbr"] != "" {
				return true
			}
			if r := pg.ariaRole(c, false); r == "columnheader" || r == "rowheader" {
				return true
			}
			if k := pg.children[c]; len(k) == 1 && pg.node(k[0]).Tag == "abbr" {
				return true
			}
			cells++
		}
	}
	for _, d := range pg.descendants(t) {
		if pg.node(d).Tag == "table" {
			return false
		}
	}
	if len(rows) < 2 {
		return false
	}
	sample := pg.cells(rows[int(math.Ceil(float64(len(rows))/2))])
	if len(sample) == 1 && pg.span(sample[0], "colspan", 1) == 1 {
		return false
	}
	if len(sample) >= 5 {
		return true
	}
	var bg, bi string
	for k, r := range rows {
		s := pg.node(r).Style
		if s == nil {
			continue
		}
		if k > 0 && (s.Background != bg || s.BackgroundImg != bi) {
			return true
		}
		bg, bi = s.Background, s.BackgroundImg
	}
	if len(rows) >= 20 {
		return true
	}
	if b := n.Box; b != nil && pg.in.ViewportWidth > 0 && b[2] > pg.in.ViewportWidth*0.95 {
		return false
	}
	if cells < 10 {
		return false
	}
	for _, d := range pg.descendants(t) {
		switch pg.node(d).Tag {
		case "object", "embed", "iframe", "applet":
			return false
		}
	}
	return true
}

// scope tells whether cell c heads its column ("col"), its row ("row"),
// either ("auto", a th in neither a header row nor column) or nothing.
func (pg *page) scope(c int, g [][]int) string {
	if g == nil {
		return pg.scopeOf(c, g)
	}
	if s, ok := pg.scopes[c]; ok {
		return s
	}
	s := pg.scopeOf(c, g)
	pg.scopes[c] = s
	return s
}

// scopeOf works out scope.
func (pg *page) scopeOf(c int, g [][]int) string {
	n := pg.node(c)
	switch pg.ariaRole(c, false) {
	case "columnheader":
		return "col"
	case "rowheader":
		return "row"
	}
	if s := n.Attrs["scope"]; s == "col" || s == "row" {
		return s
	}
	if n.Tag != "th" {
		return ""
	}
	y, x := pg.position(g, c)
	if y < 0 {
		return "auto"
	}
	allTH := func(cs []int) bool {
		for _, k := range cs {
			if k < 0 || pg.node(k).Tag != "th" {
				return false
			}
		}
		return true
	}
	if allTH(g[y]) {
		return "col"
	}
	var col []int
	for _, row := range g {
		if x < len(row) {
			col = append(col, row[x])
		} else {
			col = append(col, -1)
		}
	}
	if allTH(col) {
		return "row"
	}
	return "auto"
}

// headers returns the header cells of cell c: those its headers attribute
// names, or else the row and column headers before it, found as axe-core
// walks for them (walkHeaders).
func (pg *page) headers(c int, g [][]int) []int {
	var out []int
	for _, id := range strings.Fields(pg.node(c).Attrs["headers"]) {
		out = append(out, pg.byID(c, id)...)
	}
	if len(out) > 0 {
		return out
	}
	y, x := pg.position(g, c)
	if y < 0 {
		return nil
	}
	return append(pg.walkHeaders(false, c, y, x, g), pg.walkHeaders(true, c, y, x, g)...)
}

// headKey keys the header walks axe-core remembers: a cell and whether
// its column's (or its row's) headers.
type headKey struct {
	cell int
	col  bool
}

// walkHeaders finds the row headers (col: the column headers) of cell c
// at y, x as axe-core 4.12 does: from the cell's last row and column back
// to the row's start (to the column's top), row by row, the header cells
// met; but a cell met whose headers an earlier walk remembered ends the
// walk, those headers taken for the rest, and every cell the walk met
// remembers what it found. Within one audit of a page the walks of
// td-has-header and th-has-data-cells share what is remembered, as they
// share it in one axe-core run (in that order), so a cell can inherit
// headers found from another cell of its row or column.
func (pg *page) walkHeaders(col bool, c, y, x int, g [][]int) []int {
	if pg.headWalks == nil {
		pg.headWalks = map[headKey][]int{}
	}
	rowSpan := pg.span(c, "rowspan", len(g))
	y2, x2 := y+rowSpan-1, x+pg.span(c, "colspan", 1)-1
	yEnd, xEnd := y, 0
	if col {
		yEnd, xEnd = 0, x
	}
	var found []int
	known := false
	var met []int
	for r := y2; r >= yEnd && !known; r-- {
		for k := x2; k >= xEnd; k-- {
			if r >= len(g) || k >= len(g[r]) || g[r][k] < 0 {
				continue
			}
			h := g[r][k]
			if hs, ok := pg.headWalks[headKey{h, col}]; ok {
				found, known = hs, true
				break
			}
			met = append(met, h)
		}
	}
	out := slices.Clone(found)
	for _, h := range met {
		if sc := pg.scope(h, g); sc == "auto" || col && sc == "col" || !col && sc == "row" {
			out = append(out, h)
		}
	}
	for _, h := range met {
		pg.headWalks[headKey{h, col}] = out
	}
	return out
}

// hasContent reports whether element i shows text or has a label.
func (pg *page) hasContent(i int) bool {
	return pg.contentText(i, true) != "" || pg.ariaLabelled(i)
}

func checkTdHasHeader(_ *Input, pg *page) Outcome {
	is := pg.visibleToAT(pg.where(func(t int) bool {
		if pg.node(t).Tag != "table" || !pg.isDataTable(t) {
			return false
		}
		g := pg.grid(t)
		return len(g) >= 3 && len(g[0]) >= 3 && len(g[1]) >= 3 && len(g[2]) >= 3
	}))
	return result(pg, is, func(t int) string {
		g := pg.grid(t)
		bad := false
		for _, r := range pg.rows(t) {
			for _, c := range pg.cells(r) {
				if !pg.hasContent(c) || !pg.dataCell(c) || pg.ariaLabelled(c) || pg.labelledBy(c) {
					continue
				}
				// Every cell is walked (axe-core remembers the walks).
				if !slices.ContainsFunc(pg.headers(c, g), pg.hasContent) {
					bad = true
				}
			}
		}
		if bad {
			return "Fix all of the following:\n  Some non-empty data cells do not have table headers"
		}
		return ""
	})
}

// dataCell reports whether cell c holds data: it has content, and is a
// td or has a cell role.
func (pg *page) dataCell(c int) bool {
	if len(pg.children[c]) == 0 && pg.node(c).Text == "" {
		return false
	}
	if r := pg.ariaRole(c, false); r != "" {
		return r == "cell" || r == "gridcell"
	}
	return pg.node(c).Tag == "td"
}

func checkTdHeadersAttr(_ *Input, pg *page) Outcome {
	is := pg.visibleToAT(pg.where(func(t int) bool {
		r := pg.role(t)
		return pg.node(t).Tag == "table" && (r == "table" || r == "grid" || r == "treegrid")
	}))
	return result(pg, is, func(t int) string {
		roleByID := map[string]string{}
		var cells []int
		for _, r := range pg.rows(t) {
			for _, c := range pg.cells(r) {
				cells = append(cells, c)
				if id := pg.node(c).Attrs["id"]; id != "" {
					roleByID[id] = pg.role(c)
				}
			}
		}
		for _, c := range cells {
			h, ok := pg.node(c).Attrs["headers"]
			if !ok || pg.hiddenFromAT(c) {
				continue
			}
			for _, id := range strings.Fields(h) {
				switch r, in := roleByID[id]; {
				case id == pg.node(c).Attrs["id"]:
					return "Fix all of the following:\n  The headers attribute must not refer to the cell itself"
				case !in:
					return "Fix all of the following:\n  The headers attribute must refer to other cells of the same table"
				case r != "columnheader" && r != "rowheader":
					return "Fix all of the following:\n  The headers attribute must refer to header cells"
				}
			}
		}
		return "" // an empty headers attribute is left for review
	})
}
