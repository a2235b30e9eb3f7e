package trace

import (
	"cmp"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Insight is one finding about an insight set: what was measured, what it
// costs and what to change.
type Insight struct {
	Name        string // LCPBreakdown, RenderBlocking, ...
	Title       string
	Description string // one line: what the insight is about
	// Failed is set when the insight found something to fix; passing
	// insights are not listed in the summary but can still be analyzed.
	Failed bool
	// Informative insights (breakdowns) are listed whenever they apply.
	Informative bool
	Bounds      Bounds
	Savings     Savings
	// Details is the full explanation for performance_analyze_insight.
	Details string
	// key holds the insight's key numbers (counts, bytes, ms) by the names
	// testdata/corpus/devtools.mjs gives DevTools' own, for the corpus test.
	key map[string]float64
}

// setKey records a key number of the insight.
func (in *Insight) setKey(name string, v float64) {
	if in.key == nil {
		in.key = map[string]float64{}
	}
	in.key[name] = v
}

// Savings are an insight's estimated gains; zero fields are unknown or none.
type Savings struct {
	FCP, LCP, INP Micro
	CLS           float64
	WastedBytes   int64
	// Metrics lists which metric savings were estimated, in order.
	Metrics []string
}

// Insight names, in the order they are computed and listed.
var insightNames = []string{
	"LCPBreakdown", "LCPDiscovery", "RenderBlocking", "DocumentLatency", "NetworkDependencyTree",
	"CLSCulprits", "INPBreakdown", "ThirdParties", "DOMSize", "Cache", "FontDisplay", "ImageDelivery",
	"ForcedReflow", "Viewport", "ModernHTTP", "CharacterSet", "SlowCSSSelector",
	"DuplicatedJavaScript", "LegacyJavaScript",
}

// insights computes every insight of the set.
func (s *set) insights() []Insight {
	gens := []func() *Insight{
		s.lcpBreakdown, s.lcpDiscovery, s.renderBlocking, s.documentLatency, s.networkTree,
		s.clsCulprits, s.inpBreakdown, s.thirdParties, s.domSize, s.cache, s.fontDisplay, s.imageDelivery,
		s.forcedReflow, s.viewport, s.modernHTTP, s.characterSet, s.slowSelectors,
		s.duplicatedJavaScript, s.legacyJavaScript,
	}
	out := make([]Insight, 0, len(gens))
	for i, g := range gens {
		if in := g(); in != nil {
			in.Name = insightNames[i]
			out = append(out, *in)
		}
	}
	return out
}

// rel is t relative to the set's start, in ms, as text.
func (s *set) rel(t Micro) string { return ms(t - s.start()) }

func (s *set) start() Micro {
	if s.nav != nil {
		return s.nav.Start
	}
	return s.bounds.Min
}

// inSet reports whether a request was issued during the set.
func (s *set) inSet(r *Request) bool { return s.bounds.Contains(r.Queued) }

func ms(m Micro) string {
	v := m.Ms()
	if math.Abs(v) < 10 && v != math.Trunc(v) {
		return strconv.FormatFloat(v, 'f', 1, 64) + " ms"
	}
	return strconv.FormatFloat(math.Round(v), 'f', 0, 64) + " ms"
}

func kB(n int64) string {
	switch {
	case n < 1000:
		return strconv.FormatInt(n, 10) + " B"
	case n < 1000*1000:
		return strconv.FormatFloat(float64(n)/1000, 'f', 1, 64) + " kB"
	}
	return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + " MB"
}

func pct(part, whole Micro) string {
	if whole <= 0 {
		return "0%"
	}
	return strconv.FormatFloat(100*float64(part)/float64(whole), 'f', 1, 64) + "%"
}

// requestLine describes a request in one line: URL, times and size.
func (s *set) requestLine(r *Request) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s", r.URL, cmp.Or(r.ResourceType, "request"))
	if r.StatusCode != 0 {
		fmt.Fprintf(&b, ", status %d", r.StatusCode)
	}
	fmt.Fprintf(&b, ", priority %s", cmp.Or(r.Priority, "unknown"))
	if r.InitialPriority != "" && r.InitialPriority != r.Priority {
		fmt.Fprintf(&b, " (initially %s)", r.InitialPriority)
	}
	if r.Protocol != "" {
		fmt.Fprintf(&b, ", %s", r.Protocol)
	}
	fmt.Fprintf(&b, "): queued at %s", s.rel(r.Queued))
	if r.ResponseStart > 0 {
		fmt.Fprintf(&b, ", first byte at %s", s.rel(r.ResponseStart))
	}
	if r.Finish > 0 {
		fmt.Fprintf(&b, ", done at %s (%s in all)", s.rel(r.Finish), ms(r.Finish-r.Queued))
	}
	if r.EncodedLength > 0 {
		fmt.Fprintf(&b, ", %s transferred", kB(r.EncodedLength))
	}
	if r.FromCache {
		b.WriteString(", from cache")
	}
	return b.String()
}

func fmtBounds(b Bounds) string { return fmt.Sprintf("{min: %dµs, max: %dµs}", b.Min, b.Max) }
