package tools

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"github.com/devtools-mcp/devtools-mcp/internal/browser"
)

// defaultRulesPerPage is get_css_styles' page size when none is given.
const defaultRulesPerPage = 10

func cssTools() []*Tool {
	return []*Tool{
		define(Tool{
			Name: "get_css_styles", Description: "Shows the CSS rules that apply to an element (uid), highest priority first, with their stylesheet URL and line, which declarations are overridden, and the computed values of the properties they set. Rules are paginated, 10 per page by default.",
			Category: CategoryDebugging, ReadOnly: true, Scope: ScopePage,
		}, getCssStyles),
	}
}

// getCssStylesArgs are get_css_styles's arguments.
type getCssStylesArgs struct {
	UID      string `json:"uid" jsonschema:"uid of the element from the page snapshot."`
	PageSize int    `json:"pageSize,omitempty" bound:"page" jsonschema:"Rules per page (default 10)."`
	PageIdx  int    `json:"pageIdx,omitempty" bound:"page" jsonschema:"0-based page of rules (default 0)."`
}

// getCssStyles runs get_css_styles.
func getCssStyles(ctx context.Context, c *Call, args *getCssStylesArgs) error {
	e, err := c.Page.Snapshots().Element(ctx, args.UID)
	if err != nil {
		return err
	}
	st, err := c.Page.Snapshots().Styles(ctx, e)
	if err != nil {
		return err
	}
	c.Resp.Linef("## CSS styles of uid=%s (%s)", args.UID, st.Element)
	c.Resp.Linef("### Computed style")
	for _, p := range st.Computed {
		c.Resp.Linef("%s: %s", p.Name, p.Value)
	}
	c.Resp.Linef("### Matched rules")
	rules, err := paginate(c, st.Rules, pageArgs{PageSize: cmp.Or(args.PageSize, defaultRulesPerPage), PageIdx: args.PageIdx})
	if err != nil {
		return err
	}
	for _, r := range rules {
		c.Resp.Linef("%s", formatRule(r))
	}
	if len(st.Rules) == 0 {
		c.Resp.Linef("No rules apply to this element.")
	}
	return nil
}

// formatRule writes a rule as CSS, with where it comes from in a comment:
//
//	/* http://host/style.css:3 */
//	.card {
//	  color: blue; /* overridden */
//	}
func formatRule(r browser.StyleRule) string {
	var b strings.Builder
	var notes []string
	if r.InheritedFrom != "" {
		notes = append(notes, "inherited from "+r.InheritedFrom)
	}
	if r.Source != "" {
		notes = append(notes, r.Source)
	}
	for _, m := range r.Media {
		notes = append(notes, "@media "+m)
	}
	if len(notes) > 0 {
		fmt.Fprintf(&b, "/* %s */\n", strings.Join(notes, ", "))
	}
	fmt.Fprintf(&b, "%s {\n", r.Selector)
	for _, d := range r.Declarations {
		fmt.Fprintf(&b, "  %s: %s;", d.Name, d.Value)
		switch {
		case d.Invalid:
			b.WriteString(" /* invalid */")
		case d.Overridden:
			b.WriteString(" /* overridden */")
		}
		b.WriteByte('\n')
	}
	b.WriteString("}")
	return b.String()
}
