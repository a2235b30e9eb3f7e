package trace

// The rendering insights: layout shifts, interactions, DOM size, forced
// reflows and the mobile viewport.

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// clsCulprits explains the worst cluster of layout shifts.
func (s *set) clsCulprits() *Insight {
	w := s.m.CLSWindow
	if len(w) == 0 {
		return nil
	}
	first, last := w[0], w[len(w)-1]
	in := &Insight{
		Title:       "Layout shift culprits",
		Description: "Elements moved without user input. Reserve space for late content (sizes on images and embeds, min-height on containers), and avoid inserting content above what is already shown.",
		Informative: true,
		Failed:      s.m.CLS >= clsGood,
		Bounds:      Bounds{first.TS, last.TS},
	}
	var b strings.Builder
	fmt.Fprintf(&b, "CLS: %.4f. The worst cluster of layout shifts has %d shift(s) from %s to %s.\n", s.m.CLS, len(w), s.rel(first.TS), s.rel(last.TS))
	for _, sh := range w {
		fmt.Fprintf(&b, "- Layout shift at %s (trace time %dµs), score %.4f", s.rel(sh.TS), sh.TS, sh.Score)
		var moved []string
		for _, n := range sh.Nodes {
			moved = append(moved, fmt.Sprintf("%s (node id %d)", cmp.Or(n.Name, "an element"), n.NodeID))
		}
		if len(moved) > 0 {
			fmt.Fprintf(&b, "; moved: %s", strings.Join(moved, ", "))
		}
		b.WriteString("\n")
		for _, c := range s.shiftCauses(sh) {
			fmt.Fprintf(&b, "    likely cause: %s\n", c)
		}
	}
	b.WriteString("\nTo fix: give images and embeds width and height (or aspect-ratio), reserve space for content inserted later, use font-display: optional or matched fallback fonts, and animate with transform instead of properties that change layout.\n")
	in.Details = b.String()
	return in
}

// shiftCauses finds what caused a shift: an image without a size painted
// right after the pre-paint that produced the shift (as DevTools finds
// it), images without size and fonts that finished loading in the half
// second before it; only when none of these explains it, the script that
// ran last before it.
func (s *set) shiftCauses(sh *LayoutShift) []string {
	const window = 500 * Micro(1000)
	var out []string
	if p := s.unsizedPaintAfter(sh); p != nil {
		out = append(out, fmt.Sprintf("image without explicit size painted with the shift: %s (node id %d)", p.url, p.nodeID))
	}
	for i := range s.t.Requests {
		r := &s.t.Requests[i]
		if r.ResourceType == "Font" && r.Finish < sh.TS && r.Finish >= sh.TS-window {
			out = append(out, "web font loaded just before: "+r.URL)
		}
	}
	for i := range s.t.Requests {
		r := &s.t.Requests[i]
		if r.ResourceType == "Image" && r.Finish < sh.TS && r.Finish >= sh.TS-window && !s.imageSized(r.URL) &&
			!slices.ContainsFunc(out, func(c string) bool { return strings.Contains(c, r.URL+" (node id") }) {
			out = append(out, "image without explicit size loaded just before: "+r.URL)
		}
	}
	if len(out) > 0 || s.main < 0 {
		return out
	}
	var script string
	var at Micro
	s.t.walk(s.main, Bounds{sh.TS - window, sh.TS}, func(sl *slice, _ Micro, stack []*slice) {
		if sl.kind != kindScript || sl.end() > sh.TS || sl.end() < sh.TS-window || sl.start < at {
			return
		}
		if loc := s.scriptOf(sl, stack); loc != "" {
			script, at = loc, sl.start
		}
	})
	if script != "" {
		out = append(out, "script that changed the page just before: "+script)
	}
	return out
}

// unsizedPaintAfter returns the image painted first after the pre-paint
// during which the shift was recorded, when that image was laid out
// without a size; nil otherwise.
func (s *set) unsizedPaintAfter(sh *LayoutShift) *imagePaint {
	var pre *Bounds
	for i := range s.t.prePaints {
		if p := &s.t.prePaints[i]; p.Contains(sh.TS) {
			pre = p
			break
		}
	}
	if pre == nil {
		return nil
	}
	var next *imagePaint
	for i := range s.t.imgPaints {
		if p := &s.t.imgPaints[i]; p.ts > pre.Max && (next == nil || p.ts < next.ts) {
			next = p
		}
	}
	if next == nil || !slices.Contains(s.t.unsized, next.nodeID) {
		return nil
	}
	return next
}

// imageSized reports whether the image at u was laid out with a size
// before it loaded (no LayoutImageUnsized for the element showing it).
func (s *set) imageSized(u string) bool {
	for _, p := range s.t.imgPaints {
		if p.url == u && slices.Contains(s.t.unsized, p.nodeID) {
			return false
		}
	}
	return true
}

func (s *set) inpBreakdown() *Insight {
	in := s.m.Interaction
	if in == nil {
		return nil
	}
	phases := []Phase{
		{"Input delay", Bounds{in.Start, max(in.Start, in.ProcessingStart)}},
		{"Processing duration", Bounds{max(in.Start, in.ProcessingStart), max(in.Start, in.ProcessingEnd)}},
		{"Presentation delay", Bounds{max(in.Start, in.ProcessingEnd), in.End}},
	}
	ins := &Insight{
		Title:       "INP breakdown",
		Description: "How the slowest interaction's time splits into input delay, event handler processing, and the delay until the next paint.",
		Informative: true,
		Failed:      in.Dur() > inpGood,
		Bounds:      Bounds{in.Start, in.End},
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The slowest interaction was a %s at %s (trace time %dµs) on DOM node id %d; it took %s until the next paint (INP %s).\n", in.Type, s.rel(in.Start), in.Start, in.NodeID, ms(in.Dur()), ms(s.m.INP))
	worst := phases[0]
	for _, p := range phases {
		fmt.Fprintf(&b, "- %s: %s (%s), bounds: %s\n", p.Name, ms(p.Dur()), pct(p.Dur(), in.Dur()), fmtBounds(p.Bounds))
		if p.Dur() > worst.Dur() {
			worst = p
		}
	}
	for _, t := range s.m.LongTasks {
		if t.Start < in.End && t.Start+t.Dur > in.Start {
			fmt.Fprintf(&b, "A %s task ran during it (at %s)%s.\n", ms(t.Dur), s.rel(t.Start), scriptsText(t.Scripts))
		}
	}
	switch worst.Name {
	case "Input delay":
		b.WriteString("Most of the time passed before the handlers ran: other tasks kept the main thread busy. Break long tasks up (yield with scheduler.yield() or setTimeout).\n")
	case "Processing duration":
		b.WriteString("Most of the time was spent in the event handlers. Do only the visible update in the handler and move the rest to a later task; avoid forced layouts in handlers.\n")
	default:
		b.WriteString("Most of the time passed after the handlers, rendering the result. Reduce the DOM and style work the update causes (see DOMSize and ForcedReflow).\n")
	}
	ins.Details = b.String()
	return ins
}

func scriptsText(parts []Part) string {
	if len(parts) == 0 {
		return ""
	}
	var names []string
	for _, p := range parts {
		names = append(names, fmt.Sprintf("%s %s", p.Name, ms(p.Dur)))
	}
	return "; scripts: " + strings.Join(names, ", ")
}

// entity names who runs a host: its registrable domain, roughly.

func (s *set) domSize() *Insight {
	var big *domStats
	for i := range s.t.doms {
		d := &s.t.doms[i]
		if !s.bounds.Contains(d.ts) || s.nav != nil && (d.frame != s.nav.Frame || d.pid != s.nav.PID) {
			continue
		}
		if big == nil || d.total > big.total {
			big = d
		}
	}
	const slow = 40 * Micro(1000)
	var large []string
	var bounds Bounds
	if s.main >= 0 {
		lo, hi := s.t.threadSlices(s.main)
		for i := lo; i < hi; i++ {
			sl := &s.t.slices[i]
			d := s.t.detailOf(sl)
			if d == nil || sl.dur < slow || !s.bounds.Contains(sl.start) {
				continue
			}
			switch {
			case sl.kind == kindLayout && d.count > 100:
				large = append(large, fmt.Sprintf("- Layout at %s took %s for %d objects", s.rel(sl.start), ms(sl.dur), d.count))
			case sl.kind == kindStyle && d.count > 300:
				large = append(large, fmt.Sprintf("- Style recalculation at %s took %s for %d elements", s.rel(sl.start), ms(sl.dur), d.count))
			default:
				continue
			}
			if bounds.Max == 0 {
				bounds.Min = sl.start
			}
			bounds.Max = sl.end()
		}
	}
	if big == nil && len(large) == 0 {
		return nil
	}
	if bounds.Max == 0 {
		bounds = s.bounds
	}
	in := &Insight{
		Title:       "Optimize DOM size",
		Description: "A large DOM makes style recalculation and layout slow and uses more memory. Render only what is visible and flatten deep nesting.",
		// Like DevTools, a large DOM is worth a look, not a failure.
		Informative: len(large) > 0,
		Bounds:      bounds,
	}
	var b strings.Builder
	if big != nil {
		fmt.Fprintf(&b, "DOM size: %d elements; deepest nesting %d (%s); most children: %d under %s.\n", big.total, big.depth, big.depthNode, big.children, big.childrenOf)
	}
	if len(large) == 0 {
		b.WriteString("No style recalculation or layout was slow (over 40 ms) because of the DOM's size.\n")
	} else {
		b.WriteString("Slow updates of a large DOM:\n" + strings.Join(large, "\n") + "\n")
		b.WriteString("Reduce the number of elements (virtualize long lists, content-visibility: auto for off-screen parts) and limit how much of the tree each change invalidates.\n")
	}
	in.Details = b.String()
	return in
}

// forcedReflowMin is how much synchronous layout and style work scripts
// must force within one task before it is worth fixing (DevTools' figure).
const forcedReflowMin = 30 * Micro(1000)

// forcedReflow finds the tasks in which scripts forced at least
// forcedReflowMin of layout and style recalculation, and the scripts that
// did it.
func (s *set) forcedReflow() *Insight {
	if s.main < 0 {
		return nil
	}
	type reflow struct {
		sl     *slice
		script string
	}
	var groups []Part
	var total, small Micro
	var bounds Bounds
	var task []reflow // the forced reflows of the task being walked
	s.t.walk(s.main, s.bounds, func(sl *slice, _ Micro, stack []*slice) {
		if len(stack) == 0 { // a task ended: judge its reflows together
			var sum Micro
			for _, r := range task {
				sum += r.sl.dur
			}
			if sum < forcedReflowMin {
				small += sum
			} else {
				for _, r := range task {
					addPart(&groups, r.script, r.sl.dur)
					if bounds.Max == 0 {
						bounds.Min = r.sl.start
					}
					bounds.Max = max(bounds.Max, r.sl.end())
				}
				total += sum
			}
			task = task[:0]
		}
		if sl.kind != kindLayout && sl.kind != kindStyle {
			return
		}
		var script *slice
		for _, a := range stack {
			if a.kind == kindScript || a.kind == kindCompile {
				script = a
			}
		}
		if script != nil {
			task = append(task, reflow{sl, cmp.Or(s.scriptOf(script, stack), "(unknown script)")})
		}
	})
	in := &Insight{Title: "Forced reflow", Description: forcedReflowText, Bounds: s.bounds}
	if len(groups) == 0 {
		in.Details = "No task had scripts force 30 ms or more of synchronous layout or style recalculation.\n"
		if small > 0 {
			in.Details += fmt.Sprintf("Scripts forced %s of it in all, spread over tasks in smaller amounts: not worth fixing.\n", ms(small))
		}
		return in
	}
	slices.SortFunc(groups, func(a, b Part) int { return cmp.Compare(b.Dur, a.Dur) })
	in.Failed, in.Bounds = true, bounds
	in.setKey("reflowMs", total.Ms())
	var b strings.Builder
	fmt.Fprintf(&b, "In tasks where scripts forced 30 ms or more of synchronous layout and style work, they forced %s in all:\n", ms(total))
	for _, g := range groups {
		fmt.Fprintf(&b, "- %s: %s\n", g.Name, ms(g.Dur))
	}
	b.WriteString("Reading layout (offsetWidth, getBoundingClientRect, getComputedStyle...) right after changing the DOM makes the browser lay out synchronously. Batch reads before writes, or read in requestAnimationFrame.\n")
	in.Details = b.String()
	return in
}

const forcedReflowText = "Scripts that read layout right after changing the page force the browser to recompute style and layout synchronously, blocking the main thread."

func (s *set) viewport() *Insight {
	frame := s.t.MainFrame
	if s.nav != nil {
		frame = s.nav.Frame
	}
	var meta *viewportMeta
	for i := range s.t.viewports {
		if v := &s.t.viewports[i]; v.frame == frame && s.bounds.Contains(v.ts) {
			meta = v
			break
		}
	}
	seen, optimized := 0, true
	for _, c := range s.t.commits {
		if c.frame != frame || !s.bounds.Contains(c.ts) || meta != nil && c.ts < meta.ts {
			continue
		}
		seen++
		optimized = optimized && c.mobile
	}
	if seen == 0 {
		return nil
	}
	in := &Insight{
		Title:       "Optimize viewport for mobile",
		Description: "Without a mobile viewport (<meta name=viewport content=\"width=device-width\">), mobile browsers may delay taps by up to 300 ms.",
		Failed:      !optimized,
		Bounds:      s.bounds,
	}
	var b strings.Builder
	if meta != nil {
		fmt.Fprintf(&b, "The page's viewport meta tag: content=%q.\n", meta.content)
	} else {
		b.WriteString("The page has no viewport meta tag.\n")
	}
	if optimized {
		b.WriteString("The viewport is optimized for mobile: taps are not delayed.\n")
	} else {
		delay := s.slowTapDelay()
		in.Savings = Savings{INP: delay, Metrics: []string{"INP"}}
		in.setKey("savingsINP", delay.Ms())
		b.WriteString("The viewport is not optimized for mobile, so taps can wait up to 300 ms for a double-tap. Add <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">.\n")
		if delay > 0 {
			fmt.Fprintf(&b, "A slow tap in this trace waited %s before its handlers ran: that much INP could be saved.\n", ms(delay))
		} else {
			b.WriteString("No slow tap in this trace waited for it, so no INP saving is estimated.\n")
		}
	}
	in.Details = b.String()
	return in
}

// slowTapDelay is the longest input delay of a slow pointer interaction
// (over the INP threshold, waiting at least 50 ms for its handlers), at
// most the 300 ms a double-tap check costs: what a mobile viewport could
// save. 0 without such a tap.
func (s *set) slowTapDelay() Micro {
	const minDelay, maxDelay = 50 * Micro(1000), 300 * Micro(1000)
	var worst Micro
	for _, in := range s.interactions() {
		switch in.Type {
		case "pointerdown", "pointerup", "click", "mousedown", "mouseup", "touchstart", "touchend":
		default:
			continue
		}
		if d := in.ProcessingStart - in.Start; in.Dur() > inpGood && d >= minDelay {
			worst = max(worst, d)
		}
	}
	return min(worst, maxDelay)
}
