package trace

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Report is the analysis of a trace: one insight set per navigation (or one
// for the whole trace when nothing navigated).
type Report struct {
	URL    string
	Bounds Bounds
	Sets   []InsightSet
	// DataLoss is set by the recorder when Chrome dropped events.
	DataLoss bool
	// CPUThrottling (the slowdown factor, 0 or 1 for none) and Network
	// (the emulated connection, "" for none) are the conditions the
	// recorder traced under.
	CPUThrottling float64
	Network       string
	// Viewport is the page's viewport when the trace stopped, as the
	// recorder read it ("" when unknown); LCP and CLS depend on it.
	Viewport string
	// CruxRequested is set when field data (CrUX) was asked for, which
	// this build cannot look up.
	CruxRequested bool
}

// InsightSet is the metrics and insights of one part of the trace.
type InsightSet struct {
	ID       string // NAVIGATION_0, NAVIGATION_1, ... or NO_NAVIGATION
	URL      string
	Bounds   Bounds
	Metrics  Metrics
	Insights []Insight
}

// Analyze computes the metrics and insights of every insight set.
func (t *Trace) Analyze() *Report {
	rep := &Report{URL: t.urlStart, Bounds: t.Bounds}
	byID := make(map[string]*Request, len(t.Requests))
	for i := range t.Requests {
		byID[t.Requests[i].ID] = &t.Requests[i]
	}
	var sets []*set
	if len(t.Navigations) == 0 {
		sets = append(sets, &set{t: t, bounds: t.Bounds, main: t.mainThread(nil), byID: byID})
	}
	for i := range t.Navigations {
		n := &t.Navigations[i]
		end := t.Bounds.Max
		if i+1 < len(t.Navigations) {
			end = t.Navigations[i+1].Start
		}
		sets = append(sets, &set{t: t, nav: n, bounds: Bounds{n.Start, end}, main: t.mainThread(n), doc: byID[n.ID], byID: byID})
	}
	for i, s := range sets {
		s.metrics()
		is := InsightSet{ID: "NO_NAVIGATION", URL: t.urlStart, Bounds: s.bounds, Metrics: s.m, Insights: s.insights()}
		if s.nav != nil {
			is.ID, is.URL = "NAVIGATION_"+strconv.Itoa(i), s.nav.URL
			if s.doc != nil && s.doc.URL != "" {
				// The document's final URL: after redirects Chromium
				// gives the navigation only the first URL's origin.
				is.URL = s.doc.URL
			}
			if rep.URL == "" {
				rep.URL = is.URL
			}
		}
		rep.Sets = append(rep.Sets, is)
	}
	return rep
}

// Set returns the insight set with id, or nil.
func (r *Report) Set(id string) *InsightSet {
	for i := range r.Sets {
		if r.Sets[i].ID == id {
			return &r.Sets[i]
		}
	}
	return nil
}

// Insight returns the named insight of the set, or nil.
func (s *InsightSet) Insight(name string) *Insight {
	for i := range s.Insights {
		if s.Insights[i].Name == name {
			return &s.Insights[i]
		}
	}
	return nil
}

// ErrUnknown is wrapped by InsightDetails for an unknown set or insight.
var ErrUnknown = errors.New("unknown insight")

// InsightDetails returns the details text of an insight of a set. For an
// unknown set or name the error lists the valid ones.
func (r *Report) InsightDetails(setID, name string) (string, error) {
	s := r.Set(setID)
	if s == nil {
		ids := make([]string, len(r.Sets))
		for i, s := range r.Sets {
			ids[i] = s.ID
		}
		return "", fmt.Errorf("%w set %q; the insight sets of the last trace are: %s", ErrUnknown, setID, strings.Join(ids, ", "))
	}
	in := s.Insight(name)
	if in == nil {
		names := make([]string, len(s.Insights))
		for i, in := range s.Insights {
			names[i] = in.Name
		}
		return "", fmt.Errorf("%w %q in %s; its insights are: %s", ErrUnknown, name, setID, strings.Join(names, ", "))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "## Insight: %s (%s) in %s\n\n", in.Title, in.Name, s.ID)
	fmt.Fprintf(&b, "%s\n\n", in.Description)
	fmt.Fprintf(&b, "Relevant trace bounds: %s\n", fmtBounds(in.Bounds))
	if !in.Failed && !in.Informative {
		b.WriteString("Status: passed, nothing to fix.\n")
	}
	if sv := in.Savings.text(); sv != "" {
		fmt.Fprintf(&b, "Estimated savings: %s\n", sv)
	}
	b.WriteString("\n## Details\n")
	b.WriteString(in.Details)
	return b.String(), nil
}

// text renders the savings, "" when there are none.
func (sv Savings) text() string {
	var parts []string
	for _, m := range sv.Metrics {
		switch m {
		case "FCP":
			parts = append(parts, "FCP "+ms(sv.FCP))
		case "LCP":
			parts = append(parts, "LCP "+ms(sv.LCP))
		case "INP":
			parts = append(parts, "INP "+ms(sv.INP))
		case "CLS":
			parts = append(parts, "CLS "+strconv.FormatFloat(sv.CLS, 'f', 2, 64))
		}
	}
	s := strings.Join(parts, ", ")
	if sv.WastedBytes > 0 {
		if s != "" {
			s += "; "
		}
		s += "wasted bytes " + kB(sv.WastedBytes)
	}
	return s
}

// Summary renders the report: the trace, then each insight set with its
// lab metrics and the insights that found something.
func (r *Report) Summary() string {
	var b strings.Builder
	b.WriteString("## Summary of Performance trace findings:\n")
	fmt.Fprintf(&b, "URL: %s\n", cmpOr(r.URL, "(unknown)"))
	fmt.Fprintf(&b, "Trace bounds: %s\n", fmtBounds(r.Bounds))
	fmt.Fprintf(&b, "Recorded window: %s", seconds(r.Bounds.Max-r.Bounds.Min))
	if r.Viewport != "" {
		fmt.Fprintf(&b, ", viewport %s", r.Viewport)
	}
	b.WriteString("\n")
	cpu := "none"
	if r.CPUThrottling > 1 {
		cpu = strconv.FormatFloat(r.CPUThrottling, 'g', -1, 64) + "x slowdown"
	}
	fmt.Fprintf(&b, "CPU throttling: %s\nNetwork throttling: %s\n", cpu, cmpOr(r.Network, "none"))
	if r.DataLoss {
		b.WriteString("Warning: Chrome's trace buffer overflowed and some events were lost; trace a shorter period.\n")
	}
	b.WriteString("\n# Available insight sets\n\n")
	b.WriteString("Each insight set covers one part of the trace: one per navigation, or the whole trace when the page did not navigate. Pass its id and an insight name to performance_analyze_insight for the details.\n")
	for i := range r.Sets {
		r.Sets[i].summary(&b, r.fieldData())
	}
	return b.String()
}

// fieldData says why the summary has no field (real-user) metrics.
func (r *Report) fieldData() string {
	if r.CruxRequested {
		return "field data (CrUX) was requested with --performanceCrux, but the lookup is not available in this air-gapped build"
	}
	return "field data (CrUX) is not looked up: it needs the internet and is off by default"
}

func (s *InsightSet) summary(b *strings.Builder, fieldData string) {
	m := &s.Metrics
	fmt.Fprintf(b, "\n## insight set id: %s\n\n", s.ID)
	fmt.Fprintf(b, "URL: %s\n", cmpOr(s.URL, "(unknown)"))
	fmt.Fprintf(b, "Bounds: %s\n", fmtBounds(s.Bounds))
	b.WriteString("Metrics (lab / observed):\n")
	if m.LCP != None {
		fmt.Fprintf(b, "  - LCP: %s, event: (ts: %d), nodeId: %d", ms(m.LCP), m.LCPEvent, m.LCPNode)
		if m.LCPNodeName != "" {
			fmt.Fprintf(b, " (%s)", m.LCPNodeName)
		}
		b.WriteString("\n")
		if len(m.LCPParts) > 0 {
			b.WriteString("  - LCP breakdown:\n")
			for _, p := range m.LCPParts {
				fmt.Fprintf(b, "    - %s: %s, bounds: %s\n", p.Name, ms(p.Dur()), fmtBounds(p.Bounds))
			}
		}
	}
	if m.INP != None {
		fmt.Fprintf(b, "  - INP: %s (%s at ts %d)\n", ms(m.INP), m.Interaction.Type, m.Interaction.Start)
	}
	fmt.Fprintf(b, "  - CLS: %.2f", m.CLS)
	if len(m.CLSWindow) > 0 {
		fmt.Fprintf(b, " (worst cluster: %d shift(s), from ts %d", len(m.CLSWindow), m.CLSWindow[0].TS)
		if moved := movedNodes(m.CLSWindow, 3); len(moved) > 0 {
			fmt.Fprintf(b, "; moved: %s", strings.Join(moved, ", "))
		}
		b.WriteString(")")
	}
	b.WriteString("\n")
	if m.TTFB != None {
		fmt.Fprintf(b, "  - TTFB: %s\n", ms(m.TTFB))
	}
	if m.FCP != None {
		fmt.Fprintf(b, "  - FCP: %s\n", ms(m.FCP))
	}
	if m.TBT != None {
		fmt.Fprintf(b, "  - Total blocking time: %s\n", ms(m.TBT))
	}
	if len(m.LongTasks) > 0 {
		fmt.Fprintf(b, "  - Long tasks: %d; longest:", len(m.LongTasks))
		for i, t := range m.LongTasks[:min(3, len(m.LongTasks))] {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(b, " %s at ts %d", ms(t.Dur), t.Start)
			if len(t.Breakdown) > 0 {
				fmt.Fprintf(b, " (mostly %s", t.Breakdown[0].Name)
				if len(t.Scripts) > 0 {
					fmt.Fprintf(b, ": %s", t.Scripts[0].Name)
				}
				b.WriteString(")")
			}
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(b, "Metrics (field / real users): n/a – %s\n", fieldData)
	b.WriteString("Available insights:\n")
	listed := 0
	for _, in := range s.Insights {
		if !in.Failed && !in.Informative {
			continue
		}
		listed++
		fmt.Fprintf(b, "  - insight name: %s\n", in.Name)
		fmt.Fprintf(b, "    description: %s\n", in.Description)
		fmt.Fprintf(b, "    relevant trace bounds: %s\n", fmtBounds(in.Bounds))
		if sv := in.Savings.text(); sv != "" {
			fmt.Fprintf(b, "    estimated metric savings: %s\n", sv)
		}
	}
	if listed == 0 {
		b.WriteString("  (none: nothing to improve was found)\n")
	}
	var passed []string
	for _, in := range s.Insights {
		if !in.Failed && !in.Informative {
			passed = append(passed, in.Name)
		}
	}
	if len(passed) > 0 {
		slices.Sort(passed)
		fmt.Fprintf(b, "Passed insights (details available too): %s\n", strings.Join(passed, ", "))
	}
}

// seconds renders a duration as "5.8 s".
func seconds(d Micro) string {
	return strconv.FormatFloat(d.Ms()/1000, 'f', 1, 64) + " s"
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// movedNodes names up to n distinct elements the shifts moved.
func movedNodes(shifts []*LayoutShift, n int) []string {
	var out []string
	for _, sh := range shifts {
		for _, nd := range sh.Nodes {
			if nd.Name != "" && !slices.Contains(out, nd.Name) && len(out) < n {
				out = append(out, nd.Name)
			}
		}
	}
	return out
}
