package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"time"

	"github.com/devtools-mcp/devtools-mcp/internal/audit"
	"github.com/devtools-mcp/devtools-mcp/internal/browser"
	"github.com/devtools-mcp/devtools-mcp/internal/confine"
)

// lighthouseLoadTimeout bounds the reload of a navigation audit, as
// Lighthouse's maxWaitForLoad.
const lighthouseLoadTimeout = 30 * time.Second

// maxAuditNodes caps the elements listed per failing audit in the answer;
// the reports have them all.
const maxAuditNodes = 10

func lighthouseTools() []*Tool {
	return []*Tool{
		define(Tool{
			Name:        "lighthouse_audit",
			Description: "Audits the page for accessibility, SEO, best practices and agentic browsing with Lighthouse's audit ids and scoring: category scores, the failing audits and the elements they flag (with snapshot uids), and JSON and HTML reports saved to disk. Performance is not included: use performance_start_trace for it.",
			Category:    CategoryDebugging, Scope: ScopePage, Busy: browser.BusyWaits,
			Task: navigationAudit,
		}, lighthouseAudit),
	}
}

// lighthouseAuditArgs are lighthouse_audit's arguments.
type lighthouseAuditArgs struct {
	Mode          string `json:"mode,omitempty" enum:"navigation,snapshot" jsonschema:"navigation (default) reloads the page and audits its load; snapshot audits the page as it is now."`
	Device        string `json:"device,omitempty" enum:"desktop,mobile" jsonschema:"Device to emulate during the audit (default desktop); restored afterwards."`
	OutputDirPath string `json:"outputDirPath,omitempty" path:"" jsonschema:"Directory for the reports (report.json, report.html); temporary files when omitted."`
}

// navigationAudit is lighthouse_audit's Task: an audit that reloads the
// page (the default mode) takes long whatever the page.
func navigationAudit(args json.RawMessage) bool {
	var a struct {
		Mode string `json:"mode"`
	}
	_ = json.Unmarshal(args, &a)
	return a.Mode != "snapshot"
}

// lighthouseAudit runs lighthouse_audit.
func lighthouseAudit(ctx context.Context, c *Call, args *lighthouseAuditArgs) error {
	mode, device := args.Mode, args.Device
	if mode == "" {
		mode = "navigation"
	}
	if device == "" {
		device = "desktop"
	}
	if mode != "navigation" && mode != "snapshot" {
		return fmt.Errorf("mode must be navigation or snapshot, not %q", mode)
	}
	if device != "desktop" && device != "mobile" {
		return fmt.Errorf("device must be desktop or mobile, not %q", device)
	}
	start := time.Now()
	em := c.Page.Emulator()
	saved := em.Current()
	emu := saved
	emu.UserAgent = audit.UserAgent(device)
	emu.Viewport = &browser.Viewport{Width: 1350, Height: 940, DeviceScaleFactor: 1}
	if device == "mobile" {
		emu.Viewport = &browser.Viewport{Width: 412, Height: 823, DeviceScaleFactor: 1.75, Mobile: true, Touch: true}
	}
	if _, err := em.Emulate(ctx, emu); err != nil {
		return fmt.Errorf("emulate %s: %w", device, err)
	}
	in, err := gatherAudit(ctx, c, mode, device)
	if _, rerr := em.Emulate(context.WithoutCancel(ctx), saved); rerr != nil && err == nil {
		err = fmt.Errorf("restore the emulation: %w", rerr)
	}
	if err != nil {
		return err
	}
	res := audit.Run(in)
	failed := failedAudits(ctx, c, res)
	res.Timing.Total = math.Round(float64(time.Since(start).Microseconds())/10) / 100
	paths, err := saveReports(ctx, c, res, args.OutputDirPath)
	if err != nil {
		return err
	}
	writeAuditAnswer(c.Resp, res, mode, device, failed, paths)
	c.Resp.Set("lighthouseResult", lighthouseResult(res, mode, device, failed, paths))
	return nil
}

// gatherAudit reloads the page for a navigation audit and reads it.
func gatherAudit(ctx context.Context, c *Call, mode, device string) (*audit.Input, error) {
	if mode == "navigation" {
		// Uses of discouraged APIs while the page loads (asking for
		// geolocation or notifications unprompted) are logged as
		// violations for the audits that look for them.
		if stop, err := c.Page.ReportViolations(ctx); err == nil {
			defer stop(context.WithoutCancel(ctx))
		}
		lctx, cancel := context.WithTimeout(ctx, lighthouseLoadTimeout)
		_, err := c.Page.Navigate(lctx, browser.Navigation{Type: "reload"})
		cancel()
		if err != nil && !errors.Is(err, browser.ErrNavigationTimeout) {
			return nil, fmt.Errorf("reload for the audit: %w", err)
		}
	}
	return c.Page.AuditInput(ctx, mode, device)
}

// failedAudit is one failing audit as the answer lists it.
type failedAudit struct {
	a          *audit.AuditResult
	categories []string
	nodes      []*audit.NodeRef
	total      int
}

// failedAudits lists the audits scoring below 1 with the elements they
// flag, giving each element its snapshot uid when the agent's current
// snapshot shows it.
func failedAudits(ctx context.Context, c *Call, res *audit.Result) []failedAudit {
	cats := map[string][]string{}
	for _, id := range audit.CategoryOrder() {
		if cr := res.Categories[id]; cr != nil {
			for _, ref := range cr.AuditRefs {
				cats[ref.ID] = append(cats[ref.ID], id)
			}
		}
	}
	var out []failedAudit
	for _, id := range audit.SortedAuditIDs(res) {
		a := res.Audits[id]
		if a.Score == nil || *a.Score >= 1 || len(cats[id]) == 0 {
			continue
		}
		f := failedAudit{a: a, categories: cats[id]}
		seen := map[string]bool{}
		for _, n := range audit.Nodes(a) {
			key := n.Path + "|" + n.Selector
			if seen[key] {
				continue
			}
			seen[key] = true
			f.total++
			if len(f.nodes) < maxAuditNodes {
				n.UID = c.Page.AuditUID(ctx, n.Backend)
				f.nodes = append(f.nodes, n)
			}
		}
		out = append(out, f)
	}
	return out
}

// saveReports writes report.json and report.html to dir, or to temporary
// files when dir is empty, and returns their paths.
func saveReports(ctx context.Context, c *Call, res *audit.Result, dir string) ([]string, error) {
	js, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("JSON report: %w", err)
	}
	page, err := audit.HTML(res)
	if err != nil {
		return nil, err
	}
	var out *confine.Place
	if dir != "" {
		// As the reference does: outputDirPath need not exist yet
		// (chrome-devtools lighthouse_audit 1 --outputDirPath ./out).
		p, err := c.place(ctx, "outputDirPath", dir)
		if err != nil {
			return nil, err
		}
		defer p.Close()
		if err := p.Root().MkdirAll(p.Rel(), 0o700); err != nil {
			return nil, fmt.Errorf("create %s: %w", dir, err)
		}
		out = p
	}
	var paths []string
	for _, f := range []struct {
		ext  string
		data []byte
	}{{"json", js}, {"html", page}} {
		if out == nil {
			p, err := writeTemp("report-*."+f.ext, f.data)
			if err != nil {
				return nil, err
			}
			paths = append(paths, p)
			continue
		}
		file, err := out.Child("report." + f.ext)
		if err != nil {
			return nil, err
		}
		if err := file.WriteAll(f.data); err != nil {
			return nil, err
		}
		paths = append(paths, filepath.Join(dir, "report."+f.ext))
	}
	return paths, nil
}

// writeAuditAnswer writes the answer as the reference lays it out: the
// category scores, the counts, the failing audits with their elements, and
// the reports.
func writeAuditAnswer(r *Response, res *audit.Result, mode, device string, failed []failedAudit, paths []string) {
	r.Linef("## Lighthouse audit results")
	r.Linef("Mode: %s", mode)
	r.Linef("Device: %s", device)
	r.Linef("URL: %s", res.FinalDisplayedURL)
	r.Linef("### Category scores")
	for _, id := range audit.CategoryOrder() {
		cr := res.Categories[id]
		if cr == nil {
			continue
		}
		score := "n/a"
		if cr.Score != nil {
			score = fmt.Sprint(int(math.Round(*cr.Score * 100)))
		}
		r.Linef("- %s: %s (%s)", cr.Title, score, cr.ID)
	}
	passed := 0
	for _, a := range res.Audits {
		if a.Score != nil && *a.Score == 1 {
			passed++
		}
	}
	r.Linef("### Audit summary")
	r.Linef("Passed: %d", passed)
	r.Linef("Failed: %d", len(failed))
	r.Linef("Total timing: %gms", res.Timing.Total)
	if len(failed) > 0 {
		r.Linef("### Failed audits")
	}
	for _, f := range failed {
		dv := ""
		if f.a.DisplayValue != "" {
			dv = " (" + f.a.DisplayValue + ")"
		}
		r.Linef("- %s [%s]: %s%s (score: %g)", f.a.ID, strings.Join(f.categories, ", "), f.a.Title, dv, *f.a.Score)
		if f.a.Description != "" {
			r.Linef("  %s", oneLine(f.a.Description))
		}
		if f.total > 0 {
			shown := ""
			if f.total > len(f.nodes) {
				shown = fmt.Sprintf(", showing %d", len(f.nodes))
			}
			r.Linef("  Nodes (%d%s):", f.total, shown)
		}
		for _, n := range f.nodes {
			var parts []string
			if n.UID != "" {
				parts = append(parts, "uid="+n.UID)
			}
			if n.Selector != "" {
				parts = append(parts, "selector="+quoteJSON(n.Selector))
			}
			if n.NodeLabel != "" {
				parts = append(parts, "label="+quoteJSON(oneLine(n.NodeLabel)))
			}
			if n.Snippet != "" {
				parts = append(parts, "snippet="+quoteJSON(oneLine(n.Snippet)))
			}
			r.Linef("  - %s", strings.Join(parts, " "))
			if n.Explanation != "" {
				r.Linef("    %s", oneLine(n.Explanation))
			}
		}
	}
	r.Linef("### Reports")
	for _, p := range paths {
		r.Linef("- %s", p)
	}
}

// oneLine collapses whitespace runs into single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// quoteJSON quotes s as a JSON string, so quotes and spaces in it cannot
// be mistaken for the key=value separators.
func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
