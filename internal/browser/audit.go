package browser

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
	"github.com/devtools-mcp/devtools-mcp/internal/audit"
)

// auditStyles are the computed styles the audits read, in the order of
// audit.Style's fields as AuditInput fills them.
var auditStyles = []string{"color", "background-color", "background-image", "font-size", "font-weight", "opacity",
	"display", "visibility", "text-decoration-line", "border-bottom-style", "position", "object-fit"}

// AuditInput gathers what the audits read from the page as it is now: the
// main document's DOM with computed styles and boxes (one DOM snapshot),
// Chrome's accessibility tree, facts read by a script in an isolated
// world, the requests and messages collected since the document loaded,
// robots.txt and llms.txt of its origin, and its WebMCP tools.
func (p *Page) AuditInput(ctx context.Context, mode, device string) (*audit.Input, error) {
	s, err := p.Session(ctx)
	if err != nil {
		return nil, err
	}
	url := p.Info().URL
	in := &audit.Input{Mode: mode, Device: device, URL: url, FinalURL: url}
	if err := auditSession(ctx, s, in, 0, -1); err != nil {
		return nil, err
	}
	in.SiblingIndexes = true
	p.auditCrossProcessFrames(ctx, s, in)
	if err := p.auditFacts(ctx, s, in); err != nil {
		return nil, err
	}
	p.drainEvents(ctx, s)
	p.auditCollected(in, s)
	p.auditScripts(ctx, in)
	in.Robots = p.fetchOwn(ctx, "/robots.txt")
	in.LLMs = p.fetchOwn(ctx, "/llms.txt")
	if tools, err := p.InPageTools().WebMCPTools(ctx); err == nil {
		in.ToolsKnown = true
		for _, t := range tools {
			in.Tools = append(in.Tools, audit.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema})
		}
	}
	return in, nil
}

// drainEvents returns once every console message, log entry and issue
// that the page's session sent before it was called has been collected:
// a session's events come in the order they were sent, so a round trip
// to the renderer (Runtime.evaluate) follows whatever the page logged
// before it, and one to the browser side of the session (Browser
// getVersion) whatever issue the browser raised before it; the
// collector's subscriptions are then synced past both replies. Without
// it, an issue raised just before the audit read the collector could
// still be on its way. (Frames of other sites, on sessions of their own,
// are not heard by the audits.)
func (p *Page) drainEvents(ctx context.Context, s *cdp.Session) {
	// A page busy in a long script answers late: the audit does not wait
	// for it past drainWait.
	ctx, cancel := context.WithTimeout(ctx, drainWait)
	defer cancel()
	// An error (the page gone) leaves nothing to wait for.
	_ = s.Pipeline(ctx, cdp.RuntimeEvaluate.With(cdp.EvaluateParams{Expression: "0"}), cdp.Action{Method: cdp.BrowserGetVersion.Method})
	p.sessions().synced()
}

// drainWait bounds drainEvents.
const drainWait = 3 * time.Second

// ReportViolations has Chrome log, until stop is called, every use of
// an API it discourages (a permission asked for without a user gesture,
// document.write, synchronous XHR...) as a violation entry, as
// Lighthouse has it log them while it loads the page; the audits read
// them from the collected messages.
func (p *Page) ReportViolations(ctx context.Context) (stop func(context.Context), err error) {
	s, err := p.Session(ctx)
	if err != nil {
		return nil, err
	}
	err = cdp.LogStartViolationsReport.Do(ctx, s, cdp.ViolationsReportParams{Config: []cdp.ViolationSetting{{Name: "discouragedAPIUse", Threshold: -1}}})
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context) { _ = cdp.LogStopViolationsReport.Do(ctx, s) }, nil
}

// domNodes appends the elements of a snapshot document to out, in the
// order of the flat tree (the snapshot's, which axe-core's walk follows
// too): the contents of open shadow roots under their hosts, slotted
// content under its slot, user-agent and closed shadow trees and
// pseudo-elements left out (axe does not see them). The document's
// root element hangs under element owner (-1 for the main document) and
// its elements are numbered frame. It returns, for each frame element,
// its index in out and its document's index in the snapshot.
func domNodes(out []audit.Node, d cdp.DocumentSnapshot, str []string, owner, frame int) ([]audit.Node, [][2]int) {
	at := func(i int) string {
		if i < 0 || i >= len(str) {
			return ""
		}
		return str[i]
	}
	nd := d.Nodes
	// The snapshot marks each node inside a shadow tree with the tree's
	// type: those of user-agent and closed ones are left out.
	skip := map[int]bool{}
	for k, i := range nd.ShadowRootType.Index {
		if k >= len(nd.ShadowRootType.Value) || at(nd.ShadowRootType.Value[k]) != "open" {
			skip[i] = true
		}
	}

	for _, i := range nd.PseudoType.Index {
		skip[i] = true
	}
	layout := map[int]int{}
	for li, ni := range d.Layout.NodeIndex {
		layout[ni] = li
	}
	content := map[int]int{}
	for k, i := range nd.ContentDocumentIndex.Index {
		if k < len(nd.ContentDocumentIndex.Value) {
			content[i] = nd.ContentDocumentIndex.Value[k]
		}
	}
	var frames [][2]int
	elem := make([]int, len(nd.NodeType)) // snapshot index -> element index, -1
	sibs := map[int]int{}                 // snapshot index -> child nodes counted so far
	for i := range nd.NodeType {
		elem[i] = -1
		parent := -1
		if i < len(nd.ParentIndex) {
			parent = nd.ParentIndex[i]
		}
		if parent >= 0 && skip[parent] {
			skip[i] = true
		}
		if skip[i] {
			continue
		}
		// Lighthouse's node path counts a node's earlier siblings, text
		// that is only white space left out.
		sib := sibs[parent]
		if nd.NodeType[i] != 3 || strings.TrimSpace(at(nd.NodeValue[i])) != "" {
			sibs[parent]++
		}
		pe := owner
		if parent >= 0 {
			pe = elem[parent]
		}
		switch nd.NodeType[i] {
		case 1:
			n := audit.Node{Backend: nd.BackendNodeID[i], Parent: pe, Frame: frame, Sib: sib, Tag: strings.ToLower(at(nd.NodeName[i]))}
			if i < len(nd.Attributes) && len(nd.Attributes[i]) > 0 {
				n.Attrs = map[string]string{}
				a := nd.Attributes[i]
				for k := 0; k+1 < len(a); k += 2 {
					name := strings.ToLower(at(a[k]))
					n.Attrs[name] = at(a[k+1])
					n.AttrOrder = append(n.AttrOrder, name)
				}
			}
			if li, ok := layout[i]; ok {
				if b := d.Layout.Bounds[li]; len(b) == 4 {
					n.Box = &[4]float64{b[0], b[1], b[2], b[3]}
				}
				st := d.Layout.Styles[li]
				v := func(k int) string {
					if k < len(st) {
						return at(st[k])
					}
					return ""
				}
				n.Style = &audit.Style{Color: v(0), Background: v(1), BackgroundImg: v(2), FontSize: v(3), FontWeight: v(4),
					Opacity: v(5), Display: v(6), Visibility: v(7), TextDecoration: v(8), BorderBottom: v(9), Position: v(10), ObjectFit: v(11)}
			}
			elem[i] = len(out)
			if doc, ok := content[i]; ok {
				frames = append(frames, [2]int{len(out), doc})
			}
			out = append(out, n)
		case 3:
			if pe >= 0 && out[pe].Frame == frame {
				if t := strings.TrimSpace(at(nd.NodeValue[i])); t != "" {
					if out[pe].Text != "" {
						out[pe].Text += " "
					}
					if len(out[pe].Text) < 2000 {
						out[pe].Text += t
					}
				}
			}
		default:
			// Documents, doctypes, comments: their children (for a
			// document, the root element) hang under the owner.
			elem[i] = pe
		}
	}
	return out, frames
}

// auditFacts runs audit-facts.js in an isolated world and copies what it
// read into in.
func (p *Page) auditFacts(ctx context.Context, s *cdp.Session, in *audit.Input) error {
	ec, err := world(ctx, s, p.TargetID)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	res, err := cdp.RuntimeCallFunctionOn.Call(ctx, s, cdp.CallFunctionOnParams{
		FunctionDeclaration: auditFactsJS, ExecutionContextID: ec, ReturnByValue: true, AwaitPromise: true,
	})
	if err == nil && res.ExceptionDetails != nil {
		err = errors.New(res.ExceptionDetails.Message())
	}
	if err != nil {
		return fmt.Errorf("audit: read the page: %w", err)
	}
	var text string
	if err := json.Unmarshal(res.Result.Value, &text); err != nil {
		return fmt.Errorf("audit: read the page: %w", err)
	}
	var f struct {
		audit.Document
		Images    [][3]any  `json:"images"`
		Fields    []int     `json:"fields"`
		Shifts    *[][3]any `json:"shifts"`
		Width     float64   `json:"width"`
		Height    float64   `json:"height"`
		UserAgent string    `json:"userAgent"`
	}
	if err := json.Unmarshal([]byte(text), &f); err != nil {
		return fmt.Errorf("audit: read the page: %w", err)
	}
	in.Doc = f.Document
	in.ViewportWidth, in.ViewportHeight, in.UserAgent = f.Width, f.Height, f.UserAgent
	// The script lists images and fields in document order, as the
	// snapshot does, leaving out shadow trees and hosts' light trees
	// (slotted content: the snapshot has it where it is slotted).
	img, fld := 0, 0
	slotted := make([]bool, len(in.Nodes))
	for i := range in.Nodes {
		n := &in.Nodes[i]
		if n.Frame != 0 {
			break // frames' documents come after the main one's
		}
		slotted[i] = n.DOMParent != 0 || n.Parent >= 0 && slotted[n.Parent]
		if n.Shadow != 0 || slotted[i] {
			continue
		}
		switch n.Tag {
		case "img":
			if img < len(f.Images) {
				w, _ := f.Images[img][0].(float64)
				h, _ := f.Images[img][1].(float64)
				src, _ := f.Images[img][2].(string)
				n.Prop = &audit.Props{NaturalWidth: w, NaturalHeight: h, Src: src}
			}
			img++
		case "input", "textarea":
			if fld < len(f.Fields) {
				b := f.Fields[fld]
				n.Prop = &audit.Props{PreventsPaste: b&1 != 0, Checked: b&2 != 0, Indeterminate: b&4 != 0}
			}
			fld++
		}
	}
	if f.Shifts != nil {
		in.ShiftsKnown = true
		for _, sh := range *f.Shifts {
			t, _ := sh[0].(float64)
			v, _ := sh[1].(float64)
			ri, _ := sh[2].(bool)
			in.Shifts = append(in.Shifts, audit.Shift{Time: t, Value: v, RecentInput: ri})
		}
	}
	return nil
}

// auditCollected copies the requests and console messages of the current
// document into in, and finds the main document's response. Messages and
// issues are those of the page's own session s (its document and
// in-process frames), as Lighthouse hears them: not those of frames of
// other sites, which come on sessions of their own.
func (p *Page) auditCollected(in *audit.Input, s *cdp.Session) {
	for _, r := range p.Collected().Requests(false) {
		resp := audit.Response{URL: r.URL, Status: r.Status, MimeType: r.MimeType, Headers: r.ResponseHeaders, Failed: r.Failure, Resource: r.ResourceType}
		if r.ResourceType == "document" && in.Main == nil {
			main := resp
			in.Main = &main
			if len(r.Redirects) > 0 {
				in.URL = r.Redirects[0].URL
			}
			in.FinalURL = r.URL
			continue
		}
		in.Requests = append(in.Requests, resp)
	}
	for _, m := range p.Collected().ConsoleMessages(false) {
		if m.session != nil && m.session != s {
			continue
		}
		switch m.Type {
		case "issue":
			code, _, _ := strings.Cut(m.Text, ":")
			in.Issues = append(in.Issues, audit.Issue{Code: code + "Issue", Details: m.Issue})
		case "error":
			// Lighthouse's sources: console.error, exception, or the log
			// entry's (network, ...).
			c := audit.Console{Level: "error", Source: cmp.Or(m.Source, "console.error"), Text: m.Text}
			if m.Stack != nil && len(m.Stack.CallFrames) > 0 {
				f := m.Stack.CallFrames[0]
				c.URL, c.Line, c.Column = f.URL, f.LineNumber, f.ColumnNumber
			}
			in.Console = append(in.Console, c)
		case "verbose", "warn", "info", "log":
			if m.Source == "violation" {
				// Chrome's violation report (discouraged API uses such as
				// asking for a permission without a user gesture), located
				// as Lighthouse reads it: the entry's own URL and line (an
				// inline script's call has none, only a stack), the column
				// of its stack's top frame.
				c := audit.Console{Level: "verbose", Source: "violation", Text: m.Text, URL: m.URL, Line: m.Line}
				if m.Stack != nil && len(m.Stack.CallFrames) > 0 {
					c.Column = m.Stack.CallFrames[0].ColumnNumber
				}
				in.Console = append(in.Console, c)
			} else if strings.HasPrefix(m.Text, "[Violation]") {
				in.Console = append(in.Console, audit.Console{Level: "verbose", Source: "violation", Text: m.Text})
			}
		}
	}
}

// fetchOwn fetches a file of the page's origin from inside the page, nil
// when the page has no http(s) origin.
func (p *Page) fetchOwn(ctx context.Context, path string) *audit.Fetched {
	u, err := url.Parse(p.Info().URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return nil
	}
	target := u.Scheme + "://" + u.Host + path
	q, _ := json.Marshal(target)
	v, err := p.Evaluate(ctx, fmt.Sprintf("fetch(%s).then(async r => JSON.stringify([r.status, r.ok ? (await r.text()).slice(0, 100000) : ''])).catch(() => '[0, \"\"]')", q))
	if err != nil {
		return &audit.Fetched{}
	}
	var text string
	var got [2]any
	if json.Unmarshal(v.Value, &text) != nil || json.Unmarshal([]byte(text), &got) != nil {
		return &audit.Fetched{}
	}
	st, _ := got[0].(float64)
	body, _ := got[1].(string)
	return &audit.Fetched{Status: int(st), Body: body}
}

// AuditUID returns the snapshot uid of the element with a backend node id
// when the current snapshot shows it, "" otherwise.
func (p *Page) AuditUID(ctx context.Context, backendID int) string {
	s, err := p.Session(ctx)
	if err != nil {
		return ""
	}
	return p.tracker.UIDFor(p.Snapshots().keyer(ctx, s)(backendID))
}
