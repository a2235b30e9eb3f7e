// Package audit computes Lighthouse's accessibility, SEO, best-practices
// and agentic-browsing audits from data gathered from a page (Input), and
// writes their results in Lighthouse's report shape (JSON) and as a
// self-contained HTML report. The categories, audit ids, weights and
// scoring follow Lighthouse 13 so that scores are comparable; the checks
// are ours, written from the rules' definitions.
package audit

import (
	"sort"
)

// Mode is how an audit is scored, as Lighthouse's scoreDisplayMode.
type Mode string

// The score display modes.
const (
	ModeBinary        Mode = "binary"
	ModeNumeric       Mode = "numeric"
	ModeInformative   Mode = "informative"
	ModeManual        Mode = "manual"
	ModeNotApplicable Mode = "notApplicable"
	ModeError         Mode = "error"
)

// Meta describes one audit.
type Meta struct {
	ID           string
	Title        string
	FailureTitle string
	Mode         Mode
}

// Outcome is what an audit's check found. A check that cannot apply to
// the page says so with NotApplicable (and Reason when it could not be
// computed at all).
type Outcome struct {
	NotApplicable bool
	Reason        string
	// Failing are the items that fail the audit (nodes, URLs, messages);
	// the audit passes when there are none, unless Score says otherwise.
	Failing []Item
	// Score overrides the score computed from Failing (numeric audits).
	Score        *float64
	DisplayValue string
	// Explanation says why the audit failed when it has no items.
	Explanation string
	// Headings are the columns of the details table (default: one node
	// column).
	Headings []Heading
	// NumericValue is the measured value of numeric audits.
	NumericValue *float64
}

// Item is one row of an audit's details table: column key to value. A
// node value is a *NodeRef.
type Item map[string]any

// check computes one audit from the input.
type check func(in *Input, pg *page) Outcome

// Run computes every audit of the four categories and their scores.
func Run(in *Input) *Result {
	pg := newPage(in)
	checks := checks()
	res := newResult(in)
	inMode := map[string]bool{}
	for _, c := range categoryTable(in.Mode) {
		for _, r := range c.Refs {
			inMode[r.ID] = true
		}
	}
	for _, m := range metaTable() {
		if !inMode[m.ID] {
			continue // needs a page load: a snapshot leaves it out
		}
		a := &AuditResult{ID: m.ID, Title: m.Title, Description: describe(m.ID), ScoreDisplayMode: m.Mode}
		switch fn := checks[m.ID]; {
		case m.Mode == ModeManual:
			// Manual audits are for a person to check; never scored.
		case fn == nil:
			a.ScoreDisplayMode = ModeNotApplicable
			a.Explanation = "Not computed by devtools-mcp."
		default:
			fill(a, m, fn(in, pg), pg)
		}
		res.Audits[m.ID] = a
	}
	res.Categories = scoreCategories(res.Audits, in.Mode)
	return res
}

// fill turns a check's outcome into the audit's result.
func fill(a *AuditResult, m Meta, o Outcome, pg *page) {
	if o.NotApplicable {
		a.ScoreDisplayMode = ModeNotApplicable
		a.Explanation = o.Reason
		return
	}
	score := 1.0
	if len(o.Failing) > 0 || o.Explanation != "" {
		score = 0
	}
	if o.Score != nil {
		score = *o.Score
	}
	if m.Mode == ModeInformative {
		// Lighthouse lists what informative audits found but never
		// counts them as failing.
		score = 1
	}
	a.Score = &score
	a.NumericValue = o.NumericValue
	if score < 1 && m.FailureTitle != "" {
		a.Title = m.FailureTitle
	}
	a.DisplayValue = o.DisplayValue
	a.Explanation = o.Explanation
	headings := o.Headings
	if headings == nil {
		headings = []Heading{{Key: "node", ValueType: "node", Label: "Failing Elements"}}
	}
	items := append(make([]Item, 0, len(o.Failing)), o.Failing...)
	a.Details = &Details{Type: "table", Headings: headings, Items: items}
}

// sortedIDs returns the keys of m sorted.
func sortedIDs[V any](m map[string]V) []string {
	ids := make([]string, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// SortedAuditIDs returns the ids of the result's audits, sorted.
func SortedAuditIDs(r *Result) []string { return sortedIDs(r.Audits) }

// Nodes returns the elements an audit's details flag, in table order.
func Nodes(a *AuditResult) []*NodeRef {
	if a.Details == nil {
		return nil
	}
	var out []*NodeRef
	for _, it := range a.Details.Items {
		for _, h := range a.Details.Headings {
			if n, ok := it[h.Key].(*NodeRef); ok {
				out = append(out, n)
			}
		}
	}
	return out
}
