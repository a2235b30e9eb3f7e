package audit

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"

	"github.com/devtools-mcp/devtools-mcp/internal/english"
)

func agenticChecks(m map[string]check) {
	m["agent-accessibility-tree"] = checkAgentTree
	m["webmcp-registered-tools"] = checkWebMCPTools
	m["webmcp-form-coverage"] = checkWebMCPForms
	m["webmcp-schema-validity"] = checkWebMCPSchemas
	m["cumulative-layout-shift"] = checkCLS
	m["llms-txt"] = checkLLMsTxt
}

// agentRules are the accessibility rules whose failures make the
// accessibility tree hard for agents to use: names, roles and ARIA.
var agentRules = []string{"button-name", "input-button-name", "input-image-alt", "label", "link-name", "select-name",
	"document-title", "aria-allowed-attr", "aria-allowed-role", "aria-command-name", "aria-conditional-attr",
	"aria-dialog-name", "aria-hidden-body", "aria-hidden-focus", "aria-input-field-name", "aria-prohibited-attr",
	"aria-required-attr", "aria-required-children", "aria-required-parent", "aria-roles", "aria-text",
	"aria-toggle-field-name", "aria-tooltip-name", "aria-treeitem-name", "aria-valid-attr", "aria-valid-attr-value",
	"duplicate-id-aria", "definition-list", "table-duplicate-name", "tabindex", "autocomplete-valid",
	"presentation-role-conflict", "svg-img-alt"}

func checkAgentTree(in *Input, pg *page) Outcome {
	all := checks()
	var o Outcome
	o.Headings = []Heading{{Key: "description", ValueType: "text", Label: "Description"}, {Key: "node", ValueType: "node", Label: "Failing Element"}}
	for _, id := range agentRules {
		fn := all[id]
		if fn == nil {
			continue
		}
		r := fn(in, pg)
		if r.NotApplicable || len(r.Failing) == 0 && r.Explanation == "" {
			continue
		}
		item := Item{"description": id + ": " + titleOf(id, true)}
		if len(r.Failing) > 0 {
			if n, ok := r.Failing[0]["node"]; ok {
				item["node"] = n
			}
		}
		o.Failing = append(o.Failing, item)
	}
	if len(o.Failing) == 0 {
		o.DisplayValue = "All audits passed"
	}
	return o
}

// titleOf returns an audit's title, the failing one when failing.
func titleOf(id string, failing bool) string {
	for _, m := range metaTable() {
		if m.ID == id {
			if failing && m.FailureTitle != "" {
				return m.FailureTitle
			}
			return m.Title
		}
	}
	return id
}

func checkWebMCPTools(in *Input, _ *page) Outcome {
	if !in.ToolsKnown {
		return Outcome{NotApplicable: true, Reason: "This Chrome does not expose WebMCP (start it with --enable-features=WebMCP)."}
	}
	if len(in.Tools) == 0 {
		return Outcome{NotApplicable: true}
	}
	var o Outcome
	o.Headings = []Heading{{Key: "tool", ValueType: "text", Label: "Tool"}, {Key: "description", ValueType: "text", Label: "Description"}}
	for _, t := range in.Tools {
		o.Failing = append(o.Failing, Item{"tool": t.Name, "description": t.Description})
	}
	o.DisplayValue = english.Count(len(in.Tools), "tool", "tools")
	return o
}

func checkWebMCPForms(in *Input, pg *page) Outcome {
	if !in.ToolsKnown {
		return Outcome{NotApplicable: true, Reason: "This Chrome does not expose WebMCP (start it with --enable-features=WebMCP)."}
	}
	var o Outcome
	for _, f := range pg.each("form") {
		n := pg.node(f)
		if n.Attrs["toolname"] == "" && n.Attrs["tooldescription"] == "" {
			o.Failing = append(o.Failing, pg.ref(f, ""))
		}
	}
	if len(o.Failing) == 0 {
		return Outcome{NotApplicable: true}
	}
	o.DisplayValue = english.Count(len(o.Failing), "form without a tool", "forms without a tool")
	return o
}

func checkWebMCPSchemas(in *Input, pg *page) Outcome {
	if !in.ToolsKnown {
		return Outcome{NotApplicable: true, Reason: "This Chrome does not expose WebMCP (start it with --enable-features=WebMCP)."}
	}
	var o Outcome
	o.Headings = []Heading{{Key: "tool", ValueType: "text", Label: "Tool"}, {Key: "issue", ValueType: "text", Label: "Issue"}}
	for _, t := range in.Tools {
		switch {
		case t.Name == "":
			o.Failing = append(o.Failing, Item{"tool": t.Name, "issue": "The tool has no name."})
		case t.Description == "":
			o.Failing = append(o.Failing, Item{"tool": t.Name, "issue": "The tool has no description."})
		case len(t.InputSchema) > 0 && !json.Valid(t.InputSchema):
			o.Failing = append(o.Failing, Item{"tool": t.Name, "issue": "The input schema is not valid JSON."})
		}
	}
	for _, f := range pg.each("form") {
		n := pg.node(f)
		if n.Attrs["toolname"] != "" && n.Attrs["tooldescription"] == "" {
			o.Failing = append(o.Failing, Item{"tool": n.Attrs["toolname"], "issue": "The form's tool has no description."})
		}
	}
	return o
}

// clsWindows returns the largest session window of layout shifts: shifts
// less than 1 s apart, at most 5 s long, not following user input.
func clsWindows(shifts []Shift) float64 {
	s := slices.Clone(shifts)
	slices.SortFunc(s, func(a, b Shift) int { return int(math.Copysign(1, a.Time-b.Time)) })
	var best, cur, start, last float64
	first := true
	for _, sh := range s {
		if sh.RecentInput {
			continue
		}
		if first || sh.Time-last >= 1000 || sh.Time-start >= 5000 {
			cur, start = 0, sh.Time
		}
		first = false
		cur += sh.Value
		last = sh.Time
		best = max(best, cur)
	}
	return best
}

// logNormalScore is Lighthouse's metric scoring: 0.9 at p10, 0.5 at the
// median, on a log-normal curve.
func logNormalScore(p10, median, value float64) float64 {
	if value <= 0 {
		return 1
	}
	const inverseErfcOneFifth = 0.9061938024368232
	sigma := math.Abs(math.Log(p10/median)) / (math.Sqrt2 * inverseErfcOneFifth)
	x := math.Log(value/median) / (math.Sqrt2 * sigma)
	s := math.Erfc(x) / 2
	return math.Min(1, math.Max(0, math.Floor(s*100+0.5)/100))
}

func checkCLS(in *Input, _ *page) Outcome {
	if !in.ShiftsKnown {
		return Outcome{NotApplicable: true, Reason: "Layout shifts could not be read from the page."}
	}
	cls := clsWindows(in.Shifts)
	score := logNormalScore(0.1, 0.25, cls)
	v := math.Round(cls*1000) / 1000
	return Outcome{Score: &score, NumericValue: &v, DisplayValue: fmt.Sprintf("%.3f", v)}
}

var (
	llmsH1   = regexp.MustCompile(`(?m)^\s*#\s+.+`)
	llmsLink = regexp.MustCompile(`\[.+\]\(.+\)`)
)

func checkLLMsTxt(in *Input, _ *page) Outcome {
	r := in.LLMs
	if r == nil {
		return Outcome{NotApplicable: true, Reason: "llms.txt was not fetched."}
	}
	switch {
	case r.Status == 0:
		return Outcome{Explanation: "llms.txt could not be downloaded."}
	case r.Status >= 500:
		return Outcome{Explanation: "llms.txt request failed", DisplayValue: fmt.Sprintf("Failed with HTTP status %d", r.Status)}
	case r.Status >= 400:
		return Outcome{NotApplicable: true}
	}
	var o Outcome
	o.Headings = []Heading{{Key: "message", ValueType: "text", Label: "Error"}}
	if !llmsH1.MatchString(r.Body) {
		o.Failing = append(o.Failing, Item{"message": "The file has no H1 heading (a line starting with \"# \")."})
	}
	if !llmsLink.MatchString(r.Body) {
		o.Failing = append(o.Failing, Item{"message": "The file has no Markdown links."})
	}
	if len(r.Body) < 50 {
		o.Failing = append(o.Failing, Item{"message": "The file is too short to describe the site."})
	}
	return o
}
