package audit

import (
	"bytes"
	"fmt"
	"html/template"
	"math"
	"slices"
	"strings"
)

// reportTemplate is the HTML report: one file, no scripts, no network.
// Scores are drawn as SVG gauges; failing audits come first, with their
// elements; passed, not applicable and manual audits are collapsed.
var reportTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"pct": func(s *float64) string {
		if s == nil {
			return "–"
		}
		return fmt.Sprint(int(math.Round(*s * 100)))
	},
	"dash": func(s *float64) string {
		if s == nil {
			return "0"
		}
		return fmt.Sprintf("%.1f", *s*100*2.639)
	},
	"tone": tone,
	"md":   inlineCode,
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Audit of {{.Result.FinalDisplayedURL}}</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#202124;background:#fff}
header{padding:24px 32px;border-bottom:1px solid #dadce0}
header h1{font-size:20px;margin:0 0 4px}
header p{margin:0;color:#5f6368;font-size:13px;word-break:break-all}
.gauges{display:flex;gap:32px;flex-wrap:wrap;padding:24px 32px;border-bottom:1px solid #dadce0}
.gauge{text-align:center;width:110px;text-decoration:none;color:inherit}
.gauge svg{width:96px;height:96px}
.gauge .n{font-size:26px;font-weight:600}
.gauge .track{stroke:#e8eaed}
.good{color:#0c7a3e;stroke:#0c7a3e;fill:#e6f4ea}.avg{color:#b05a00;stroke:#c26a00;fill:#fef3e0}.bad{color:#c5221f;stroke:#c5221f;fill:#fce8e6}.none{color:#5f6368;stroke:#9aa0a6;fill:#f1f3f4}
section{padding:8px 32px 24px}
section h2{font-size:18px;border-bottom:1px solid #dadce0;padding-bottom:6px}
.audit{border-left:4px solid #c5221f;padding:4px 12px;margin:12px 0;background:#fcfcfc}
.audit h3{font-size:15px;margin:4px 0}
.audit .id{font-family:monospace;color:#5f6368;font-weight:normal}
.audit p{margin:4px 0;color:#3c4043}
table{border-collapse:collapse;width:100%;font-size:13px;margin:6px 0}
td,th{border-top:1px solid #eee;padding:4px 6px;text-align:left;vertical-align:top}
code{font-family:monospace;font-size:12px;background:#f1f3f4;padding:1px 3px;word-break:break-all}
.sel{color:#1a73e8;font-family:monospace;font-size:12px}
details{margin:8px 0}summary{cursor:pointer;color:#3c4043}
details li{margin:2px 0}
footer{padding:16px 32px;color:#5f6368;font-size:12px;border-top:1px solid #dadce0}
</style></head><body>
<header><h1>Accessibility, SEO, best practices and agentic browsing</h1>
<p>{{.Result.FinalDisplayedURL}} · {{.Result.GatherMode}} · {{.Result.ConfigSettings.FormFactor}} · {{.Result.FetchTime}}</p></header>
<div class="gauges">{{range .Categories}}<a class="gauge {{tone .Score}}" href="#{{.ID}}">
<svg viewBox="0 0 100 100"><circle cx="50" cy="50" r="42" stroke-width="8" class="track {{tone .Score}}"/><circle cx="50" cy="50" r="42" fill="none" stroke-width="8" stroke-dasharray="{{dash .Score}} 264" transform="rotate(-90 50 50)" class="{{tone .Score}}" style="fill:none"/>
<text x="50" y="59" text-anchor="middle" class="n" style="stroke:none;fill:currentColor">{{pct .Score}}</text></svg>
<div>{{.Title}}</div></a>{{end}}</div>
{{range .Sections}}<section id="{{.Category.ID}}"><h2>{{.Category.Title}}: {{pct .Category.Score}}</h2>
{{if .Category.Description}}<p>{{.Category.Description}}</p>{{end}}
{{range .Failed}}<div class="audit"><h3>{{md .Title}} <span class="id">{{.ID}}{{if .DisplayValue}} · {{.DisplayValue}}{{end}}</span></h3>
{{if .Description}}<p>{{.Description}}</p>{{end}}{{if .Explanation}}<p>{{.Explanation}}</p>{{end}}
{{if .Rows}}<table>{{range .Rows}}<tr>{{range .}}<td>{{if .Node}}<div class="sel">{{.Node.Selector}}</div><code>{{.Node.Snippet}}</code>{{if .Node.NodeLabel}}<div>{{.Node.NodeLabel}}</div>{{end}}{{if .Node.UID}}<div>uid {{.Node.UID}}</div>{{end}}{{else}}{{.Text}}{{end}}</td>{{end}}</tr>{{end}}</table>{{end}}
</div>{{end}}
{{if .Passed}}<details><summary>Passed audits ({{len .Passed}})</summary><ul>{{range .Passed}}<li>{{md .Title}} <span class="id">{{.ID}}</span></li>{{end}}</ul></details>{{end}}
{{if .NotApplicable}}<details><summary>Not applicable ({{len .NotApplicable}})</summary><ul>{{range .NotApplicable}}<li>{{md .Title}} <span class="id">{{.ID}}</span>{{if .Explanation}}: {{.Explanation}}{{end}}</li>{{end}}</ul></details>{{end}}
{{if .Manual}}<details><summary>Additional items to check manually ({{len .Manual}})</summary><ul>{{range .Manual}}<li>{{md .Title}} <span class="id">{{.ID}}</span></li>{{end}}</ul></details>{{end}}
</section>{{end}}
<footer>{{.Result.LighthouseVersion}}. Audit ids, weights and scoring follow Lighthouse; the checks are computed by devtools-mcp.</footer>
</body></html>
`))

// inlineCode renders a title's `code` spans as <code>, escaping the rest.
func inlineCode(s string) template.HTML {
	var b strings.Builder
	for i, part := range strings.Split(s, "`") {
		esc := template.HTMLEscapeString(part)
		if i%2 == 1 {
			esc = "<code>" + esc + "</code>"
		}
		b.WriteString(esc)
	}
	return template.HTML(b.String())
}

// tone classes a score as good (90+), average (50+) or bad.
func tone(s *float64) string {
	switch {
	case s == nil:
		return "none"
	case *s >= 0.9:
		return "good"
	case *s >= 0.5:
		return "avg"
	}
	return "bad"
}

// htmlSection is one category in the HTML report.
type htmlSection struct {
	Category                      *CategoryResult
	Failed                        []htmlAudit
	Passed, NotApplicable, Manual []*AuditResult
}

// htmlAudit is a failing audit with its table rows.
type htmlAudit struct {
	*AuditResult
	Rows [][]htmlCell
}

// htmlCell is one cell: a node or text.
type htmlCell struct {
	Node *NodeRef
	Text string
}

// HTML renders the result as a self-contained HTML report.
func HTML(r *Result) ([]byte, error) {
	data := struct {
		Result     *Result
		Categories []*CategoryResult
		Sections   []htmlSection
	}{Result: r}
	for _, id := range CategoryOrder() {
		c := r.Categories[id]
		if c == nil {
			continue
		}
		data.Categories = append(data.Categories, c)
		sec := htmlSection{Category: c}
		for _, ref := range c.AuditRefs {
			a := r.Audits[ref.ID]
			if a == nil {
				continue
			}
			switch {
			case a.ScoreDisplayMode == ModeManual:
				sec.Manual = append(sec.Manual, a)
			case a.Score == nil:
				sec.NotApplicable = append(sec.NotApplicable, a)
			case *a.Score < 1:
				sec.Failed = append(sec.Failed, htmlAudit{AuditResult: a, Rows: rows(a)})
			default:
				sec.Passed = append(sec.Passed, a)
			}
		}
		slices.SortStableFunc(sec.Failed, func(a, b htmlAudit) int {
			return int(math.Copysign(1, *a.Score-*b.Score)) * boolInt(*a.Score != *b.Score)
		})
		data.Sections = append(data.Sections, sec)
	}
	var b bytes.Buffer
	if err := reportTemplate.Execute(&b, data); err != nil {
		return nil, fmt.Errorf("HTML report: %w", err)
	}
	return b.Bytes(), nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// rows turns an audit's details items into table cells, in heading order.
func rows(a *AuditResult) [][]htmlCell {
	if a.Details == nil {
		return nil
	}
	var out [][]htmlCell
	for _, it := range a.Details.Items {
		var row []htmlCell
		for _, h := range a.Details.Headings {
			v, ok := it[h.Key]
			if !ok {
				continue
			}
			switch v := v.(type) {
			case *NodeRef:
				row = append(row, htmlCell{Node: v})
			case map[string]any:
				row = append(row, htmlCell{Text: fmt.Sprint(v["url"])})
			default:
				row = append(row, htmlCell{Text: fmt.Sprint(v)})
			}
		}
		out = append(out, row)
	}
	return out
}
