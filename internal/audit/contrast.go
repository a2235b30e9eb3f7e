package audit

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// rgba is a colour with alpha, components 0..255 and alpha 0..1.
type rgba struct{ r, g, b, a float64 }

// parseColor reads a computed colour: rgb(), rgba() or "transparent".
func parseColor(s string) (rgba, bool) {
	s = strings.TrimSpace(s)
	if s == "transparent" || s == "" {
		return rgba{}, s != ""
	}
	open := strings.IndexByte(s, '(')
	if open < 0 || !strings.HasSuffix(s, ")") {
		return rgba{}, false
	}
	fn := s[:open]
	if fn != "rgb" && fn != "rgba" {
		return rgba{}, false
	}
	parts := strings.FieldsFunc(s[open+1:len(s)-1], func(r rune) bool { return r == ',' || r == ' ' || r == '/' })
	if len(parts) < 3 {
		return rgba{}, false
	}
	var v [4]float64
	v[3] = 1
	for i := 0; i < len(parts) && i < 4; i++ {
		p := parts[i]
		pct := strings.HasSuffix(p, "%")
		f, err := strconv.ParseFloat(strings.TrimSuffix(p, "%"), 64)
		if err != nil {
			return rgba{}, false
		}
		if pct {
			if i == 3 {
				f /= 100
			} else {
				f = f * 255 / 100
			}
		}
		v[i] = f
	}
	return rgba{v[0], v[1], v[2], v[3]}, true
}

// over composites c over the opaque colour bg.
func (c rgba) over(bg rgba) rgba {
	return rgba{c.r*c.a + bg.r*(1-c.a), c.g*c.a + bg.g*(1-c.a), c.b*c.a + bg.b*(1-c.a), 1}
}

// luminance is the WCAG relative luminance of an opaque colour.
func (c rgba) luminance() float64 {
	ch := func(v float64) float64 {
		v /= 255
		if v <= 0.04045 {
			return v / 12.92
		}
		return math.Pow((v+0.055)/1.055, 2.4)
	}
	return 0.2126*ch(c.r) + 0.7152*ch(c.g) + 0.0722*ch(c.b)
}

// contrast is the WCAG contrast ratio of two opaque colours.
func contrast(a, b rgba) float64 {
	la, lb := a.luminance(), b.luminance()
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// background finds the colour behind element i by compositing the
// background colours of it and its ancestors over white. It gives up
// (false) at a background image or gradient, which axe leaves for review
// too.
func (pg *page) background(i int) (rgba, bool) {
	var layers []rgba
	for j := i; j >= 0; j = pg.node(j).Parent {
		s := pg.node(j).Style
		if s == nil {
			continue
		}
		if s.BackgroundImg != "" && s.BackgroundImg != "none" {
			return rgba{}, false
		}
		c, ok := parseColor(s.Background)
		if !ok {
			return rgba{}, false
		}
		if c.a > 0 {
			layers = append(layers, c)
			if c.a >= 1 {
				break
			}
		}
	}
	bg := rgba{255, 255, 255, 1}
	for k := len(layers) - 1; k >= 0; k-- {
		bg = layers[k].over(bg)
	}
	return bg, true
}

// opacity multiplies the opacity of element i and its ancestors.
func (pg *page) opacity(i int) float64 {
	o := 1.0
	for j := i; j >= 0; j = pg.node(j).Parent {
		if s := pg.node(j).Style; s != nil && s.Opacity != "" {
			if f, err := strconv.ParseFloat(s.Opacity, 64); err == nil {
				o *= f
			}
		}
	}
	return o
}

// largeText reports whether element i's text is large by WCAG: at least
// 24px, or 18.66px and bold.
func (pg *page) largeText(i int) bool {
	s := pg.node(i).Style
	px, _ := strconv.ParseFloat(strings.TrimSuffix(s.FontSize, "px"), 64)
	w, _ := strconv.Atoi(s.FontWeight)
	if s.FontWeight == "bold" {
		w = 700
	}
	return px >= 24 || px >= 18.66 && w >= 700
}

// shownValue reports whether n is a text field showing the value its
// value attribute gives (its text for the contrast check).
func shownValue(n *Node) bool {
	if n.Tag != "input" || strings.TrimSpace(n.Attrs["value"]) == "" {
		return false
	}
	switch strings.ToLower(n.Attrs["type"]) {
	case "", "text", "email", "search", "url", "tel", "number":
		return true
	}
	return false
}

func checkColorContrast(_ *Input, pg *page) Outcome {
	is := pg.where(func(i int) bool {
		n := pg.node(i)
		if strings.TrimSpace(n.Text) == "" && !shownValue(n) || !pg.rendered(i) || pg.hiddenFromAT(i) || n.Box[2] < 1 || n.Box[3] < 1 {
			return false
		}
		if _, dis := n.Attrs["disabled"]; dis {
			return false
		}
		switch n.Tag {
		case "option", "select", "textarea", "script", "style", "title", "noscript":
			return false
		}
		return pg.ancestor(i, func(j int) bool {
			_, dis := pg.attr(j, "disabled")
			return dis && (pg.node(j).Tag == "fieldset" || pg.node(j).Tag == "button")
		}) < 0
	})
	var checked []int
	for _, i := range is {
		if pg.opacity(i) > 0 {
			checked = append(checked, i)
		}
	}
	return result(pg, checked, func(i int) string {
		bg, ok := pg.background(i)
		if !ok {
			return "" // left for review, as axe does
		}
		fg, ok := parseColor(pg.node(i).Style.Color)
		if !ok {
			return ""
		}
		fg.a *= pg.opacity(i)
		fgo := fg.over(bg)
		ratio := contrast(fgo, bg)
		want := 4.5
		if pg.largeText(i) {
			want = 3
		}
		if ratio+0.005 >= want {
			return ""
		}
		return fmt.Sprintf("Fix any of the following:\n  Element has insufficient color contrast of %.2f (foreground color: %s, background color: %s, font size: %s, font weight: %s). Expected contrast ratio of %g:1",
			ratio, hex(fgo), hex(bg), pg.node(i).Style.FontSize, pg.node(i).Style.FontWeight, want)
	})
}

// hex writes an opaque colour as #rrggbb.
func hex(c rgba) string {
	return fmt.Sprintf("#%02x%02x%02x", int(math.Round(c.r)), int(math.Round(c.g)), int(math.Round(c.b)))
}

func checkLinkInTextBlock(_ *Input, pg *page) Outcome {
	is := pg.where(func(i int) bool {
		n := pg.node(i)
		_, href := n.Attrs["href"]
		return n.Tag == "a" && href && pg.rendered(i) && !pg.hiddenFromAT(i) && pg.text(i, 1) != "" && pg.inTextBlock(i, false, false)
	})
	return result(pg, is, func(i int) string {
		s := pg.node(i).Style
		if strings.Contains(s.TextDecoration, "underline") || strings.Contains(s.TextDecoration, "line-through") || strings.Contains(s.TextDecoration, "overline") {
			return ""
		}
		if s.BorderBottom != "" && !strings.HasPrefix(s.BorderBottom, "0px") && !strings.Contains(s.BorderBottom, "none") {
			return ""
		}
		block := pg.ancestor(i, func(j int) bool { st := pg.node(j).Style; return st == nil || st.Display != "inline" })
		if block < 0 || pg.node(block).Style == nil {
			return ""
		}
		bs := pg.node(block).Style
		if s.FontWeight != bs.FontWeight || s.Background != bs.Background && s.Background != "rgba(0, 0, 0, 0)" {
			return "" // set apart by weight or background
		}
		lc, ok1 := parseColor(s.Color)
		tc, ok2 := parseColor(bs.Color)
		bg, ok3 := pg.background(i)
		if !ok1 || !ok2 || !ok3 {
			return ""
		}
		if contrast(lc.over(bg), tc.over(bg)) >= 3 {
			// Distinct enough in colour; axe then wants a focus/hover
			// style it cannot see either and leaves it for review.
			return ""
		}
		return "The link has insufficient color contrast with the surrounding text and no styling that distinguishes it"
	})
}
