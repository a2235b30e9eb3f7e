package tools

// Structured content (--experimentalStructuredContent): besides its text,
// a tool's answer carries the same facts as JSON, in the reference's
// shapes, so a client (or chrome-devtools --output-format=json) can read
// them without parsing the text. Sections every tool shares (the message,
// the pages, the snapshot, an open dialog, the error) are filled here;
// tools add their own fields with Response.Set.

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/devtools-mcp/devtools-mcp/internal/audit"
	"github.com/devtools-mcp/devtools-mcp/internal/browser"
	"github.com/devtools-mcp/devtools-mcp/snapshot"
	"github.com/devtools-mcp/devtools-mcp/trace"
)

// Set adds a field to the answer's structured content; a tool uses it for
// what only it knows (its console messages, its network request, ...).
// Without --experimentalStructuredContent the fields are not sent.
func (r *Response) Set(key string, value any) {
	if r.structured == nil {
		r.structured = map[string]any{}
	}
	r.structured[key] = value
}

// structuredPage is one page in the structured page list.
type structuredPage struct {
	ID              int    `json:"id"`
	URL             string `json:"url"`
	Title           string `json:"title"`
	Selected        bool   `json:"selected"`
	IsolatedContext string `json:"isolatedContext,omitempty"`
}

// structuredDialog is the open JavaScript dialog of the page acted on.
type structuredDialog struct {
	Type         string `json:"type"`
	Message      string `json:"message"`
	DefaultValue string `json:"defaultValue"`
}

// structuredContent returns the answer's structured content: the shared
// sections the text showed, then the tool's own fields.
func (r *Response) structuredContent(c *Call) map[string]any {
	out := map[string]any{}
	if len(r.lines) > 0 {
		out["message"] = strings.Join(r.lines, "\n")
	}
	if req := r.snapshot; req != nil && req.taken != nil {
		if req.filePath != "" {
			out["snapshotFilePath"] = req.filePath
		} else if root := snapshotRoot(req.taken, req.uid); root != nil {
			out["snapshot"] = snapshotJSON(root)
		}
	}
	if c.Page != nil {
		if d := c.Page.Dialog(); d != nil {
			out["dialog"] = structuredDialog{Type: d.Type, Message: c.pageText(d.Message), DefaultValue: c.pageText(d.DefaultPrompt)}
		}
	}
	if r.includePages && c.Browser != nil {
		out["pages"] = structuredPages(c.Browser)
	}
	if c.Page != nil {
		addEmulation(out, c.Page.Emulator().Current())
	}
	for k, v := range r.structured {
		out[k] = v
	}
	if r.err != nil {
		out["errorMessage"] = r.err.Error()
	}
	return out
}

// structuredPages lists the browser's pages as the structured page list.
func structuredPages(br *browser.Browser) []structuredPage {
	selected := br.Selected()
	pages := []structuredPage{}
	for _, p := range br.Pages() {
		info := p.Info()
		title := info.Title
		if r := []rune(title); len(r) > 100 {
			title = string(r[:100]) + "…"
		}
		pages = append(pages, structuredPage{ID: p.ID, URL: info.URL, Title: title, Selected: p == selected, IsolatedContext: br.ContextName(p)})
	}
	return pages
}

// snapshotRoot is the node a snapshot request rendered: the subtree of
// uid, or the whole tree.
func snapshotRoot(s *snapshot.Snapshot, uid string) *snapshot.Node {
	if uid != "" {
		return s.Node(uid)
	}
	return s.Root
}

// snapshotJSON renders a snapshot node and its subtree as the reference's
// structured snapshot: {"id", "role", "name", its properties (true for
// boolean ones, numbers as numbers), "children"}.
func snapshotJSON(n *snapshot.Node) map[string]any {
	m := map[string]any{"id": n.UID}
	if n.Role != "" {
		m["role"] = n.Role
	}
	if n.Name != "" {
		m["name"] = n.Name
	}
	for _, p := range n.Props {
		switch {
		case p.Bool:
			m[p.Name] = true
		case isJSONNumber(p.Value):
			m[p.Name] = json.Number(p.Value)
		default:
			m[p.Name] = p.Value
		}
	}
	if len(n.Children) > 0 {
		children := make([]map[string]any, len(n.Children))
		for i, child := range n.Children {
			children[i] = snapshotJSON(child)
		}
		m["children"] = children
	}
	return m
}

// isJSONNumber reports whether s is a plain decimal number, as heading
// levels and slider values are.
func isJSONNumber(s string) bool {
	if s == "" || strings.ContainsAny(s, "eE+") || (len(s) > 1 && s[0] == '0' && s[1] != '.') {
		return false
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil && json.Valid([]byte(s))
}

// outputSchema is the output schema of every tool under
// --experimentalStructuredContent: an object of optional fields, each
// present only when the answer has that section. It lists the fields the
// shared sections and the tools fill; more may follow, so it stays open.
const outputSchema = `{"type":"object","properties":{` +
	`"message":{"type":"string","description":"The answer's text lines."},` +
	`"pages":{"type":"array","description":"The open pages.","items":{"type":"object","properties":{"id":{"type":"number"},"url":{"type":"string"},"title":{"type":"string"},"selected":{"type":"boolean"},"isolatedContext":{"type":"string"}}}},` +
	`"snapshot":{"type":"object","description":"The page snapshot: id, role, name, properties and children of each node."},` +
	`"snapshotFilePath":{"type":"string","description":"Where the snapshot was saved."},` +
	`"dialog":{"type":"object","description":"The open JavaScript dialog.","properties":{"type":{"type":"string"},"message":{"type":"string"},"defaultValue":{"type":"string"}}},` +
	`"pagination":{"type":"object","description":"Which page of a long list this is.","properties":{"currentPage":{"type":"number"},"totalPages":{"type":"number"},"hasNextPage":{"type":"boolean"},"hasPreviousPage":{"type":"boolean"},"startIndex":{"type":"number"},"endIndex":{"type":"number"},"invalidPage":{"type":"boolean"}}},` +
	`"consoleMessages":{"type":"array","description":"list_console_messages: the messages.","items":{"type":"object"}},` +
	`"consoleMessage":{"type":"object","description":"get_console_message: the message."},` +
	`"networkRequests":{"type":"array","description":"list_network_requests: the requests.","items":{"type":"object"}},` +
	`"networkRequest":{"type":"object","description":"get_network_request: the request."},` +
	`"extensions":{"type":"array","description":"list_extensions: the installed extensions.","items":{"type":"object"}},` +
	`"lighthouseResult":{"type":"object","description":"lighthouse_audit: summary, failedAudits and reports."},` +
	`"heapSnapshot":{"type":"object","description":"get_heapsnapshot_summary: stats and staticData."},` +
	`"traceSummary":{"type":"string","description":"performance traces: the summary."},` +
	`"traceInsights":{"type":"array","description":"performance traces: the insights to analyze.","items":{"type":"object","properties":{"insightName":{"type":"string"},"insightKey":{"type":"string"}}}},` +
	`"networkConditions":{"type":"string"},"cpuThrottlingRate":{"type":"number"},"userAgent":{"type":"string"},` +
	`"geolocation":{"type":"object","properties":{"latitude":{"type":"number"},"longitude":{"type":"number"}}},` +
	`"viewport":{"type":"object","description":"The emulated viewport."},` +
	`"colorScheme":{"type":"string"},"forcedColors":{"type":"string"},"prefersContrast":{"type":"string"},"prefersReducedMotion":{"type":"string"},` +
	`"tabId":{"type":"string","description":"get_tab_id: the page's tab id."},` +
	`"errorMessage":{"type":"string","description":"Why the call failed."}` +
	`},"additionalProperties":true}`

// pagination says which page of a long list an answer shows.
type pagination struct {
	CurrentPage     int  `json:"currentPage"`
	TotalPages      int  `json:"totalPages"`
	HasNextPage     bool `json:"hasNextPage"`
	HasPreviousPage bool `json:"hasPreviousPage"`
	StartIndex      int  `json:"startIndex"`
	EndIndex        int  `json:"endIndex"`
	InvalidPage     bool `json:"invalidPage"`
}

// consoleMessageJSON is a console message in a structured list.
type consoleMessageJSON struct {
	Type       string `json:"type"`
	Text       string `json:"text"`
	ArgsCount  int    `json:"argsCount"`
	ID         int    `json:"id"`
	Count      int    `json:"count,omitempty"` // repeats folded into this one
	StackTrace string `json:"stackTrace,omitempty"`
}

// consoleMessageDetail is get_console_message's structured message.
type consoleMessageDetail struct {
	ID         int      `json:"id"`
	Type       string   `json:"type"`
	Text       string   `json:"text"`
	ArgsCount  int      `json:"argsCount"`
	Args       []string `json:"args"`
	StackTrace string   `json:"stackTrace,omitempty"`
}

// networkRequestJSON is a network request in a structured list.
type networkRequestJSON struct {
	RequestID int    `json:"requestId"`
	Method    string `json:"method"`
	URL       string `json:"url"`
	Status    string `json:"status"`
}

// newNetworkRequestJSON describes r; its status is the HTTP status code,
// the failure, or "pending".
func newNetworkRequestJSON(r *browser.Request) networkRequestJSON {
	status := "pending"
	switch {
	case r.Status > 0:
		status = strconv.Itoa(r.Status)
	case r.Failure != "":
		status = r.Failure
	}
	return networkRequestJSON{RequestID: r.ID, Method: r.Method, URL: r.URL, Status: status}
}

// networkRequestDetail is get_network_request's structured request.
type networkRequestDetail struct {
	networkRequestJSON
	RequestHeaders       map[string]string    `json:"requestHeaders"`
	RequestBody          string               `json:"requestBody,omitempty"`
	RequestBodyFilePath  string               `json:"requestBodyFilePath,omitempty"`
	ResponseHeaders      map[string]string    `json:"responseHeaders,omitempty"`
	ResponseBody         string               `json:"responseBody,omitempty"`
	ResponseBodyFilePath string               `json:"responseBodyFilePath,omitempty"`
	Failure              string               `json:"failure,omitempty"`
	RedirectChain        []networkRequestJSON `json:"redirectChain,omitempty"`
}

// extensionJSON is an installed extension in list_extensions' structured list.
type extensionJSON struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Version string `json:"version"`
	Path    string `json:"path,omitempty"`
	Enabled bool   `json:"enabled"`
}

// structuredBody returns a request or response body as structured
// content: the file it was saved to, or the text itself when it is text,
// cut where the text answer cuts it.
func structuredBody(body []byte, binary bool, err error, path string) (text, filePath string) {
	switch {
	case err != nil:
		return "", ""
	case path != "":
		return "", path
	case binary || !utf8.Valid(body):
		return "", ""
	}
	if len(body) > maxInlineBody {
		body = body[:maxInlineBody]
		for !utf8.Valid(body) {
			body = body[:len(body)-1]
		}
	}
	return string(body), ""
}

// structuredViewport is an emulated viewport, in the fields of a
// Puppeteer viewport as the reference reports it.
type structuredViewport struct {
	Width             int     `json:"width"`
	Height            int     `json:"height"`
	DeviceScaleFactor float64 `json:"deviceScaleFactor"`
	IsMobile          bool    `json:"isMobile"`
	HasTouch          bool    `json:"hasTouch"`
	IsLandscape       bool    `json:"isLandscape"`
}

// structuredGeolocation is an emulated position.
type structuredGeolocation struct {
	Latitude  float64 `json:"latitude"`
	Longitude float64 `json:"longitude"`
}

// addEmulation adds what the page acted on emulates, as the reference
// reports it with every answer about that page.
func addEmulation(out map[string]any, e browser.Emulation) {
	if e.Network != "" {
		out["networkConditions"] = e.Network
	}
	if e.CPUThrottling > 1 {
		out["cpuThrottlingRate"] = e.CPUThrottling
	}
	if g := e.Geolocation; g != nil {
		out["geolocation"] = structuredGeolocation{g.Latitude, g.Longitude}
	}
	if v := e.Viewport; v != nil {
		out["viewport"] = structuredViewport{v.Width, v.Height, v.DeviceScaleFactor, v.Mobile, v.Touch, v.Landscape}
	}
	if e.UserAgent != "" {
		out["userAgent"] = e.UserAgent
	}
	for key, value := range map[string]string{"colorScheme": e.ColorScheme, "forcedColors": e.ForcedColors,
		"prefersContrast": e.PrefersContrast, "prefersReducedMotion": e.PrefersReducedMotion} {
		if value != "" {
			out[key] = value
		}
	}
}

// traceInsight names one insight of a recorded trace.
type traceInsight struct {
	InsightName string `json:"insightName"`
	InsightKey  string `json:"insightKey"`
}

// traceInsights lists the insights of every insight set of a trace, for
// performance_analyze_insight.
func traceInsights(rep *trace.Report) []traceInsight {
	out := []traceInsight{}
	for _, set := range rep.Sets {
		for _, in := range set.Insights {
			out = append(out, traceInsight{in.Name, in.Name})
		}
	}
	return out
}

// lighthouseJSON is lighthouse_audit's structured result, in the
// reference's shape: the summary, the failing audits and the reports.
type lighthouseJSON struct {
	Summary      lighthouseSummary `json:"summary"`
	FailedAudits []failedAuditJSON `json:"failedAudits"`
	Reports      []string          `json:"reports"`
}

type lighthouseSummary struct {
	Mode   string                `json:"mode"`
	Device string                `json:"device"`
	URL    string                `json:"url"`
	Scores []lighthouseScoreJSON `json:"scores"`
	Audits struct {
		Failed int `json:"failed"`
		Passed int `json:"passed"`
	} `json:"audits"`
	Timing struct {
		Total float64 `json:"total"`
	} `json:"timing"`
}

type lighthouseScoreJSON struct {
	ID    string   `json:"id"`
	Title string   `json:"title"`
	Score *float64 `json:"score"`
}

type failedAuditJSON struct {
	ID           string           `json:"id"`
	Title        string           `json:"title"`
	Score        *float64         `json:"score"`
	Categories   []string         `json:"categories"`
	Nodes        []*audit.NodeRef `json:"nodes"`
	TotalNodes   int              `json:"totalNodes"`
	Description  string           `json:"description,omitempty"`
	DisplayValue string           `json:"displayValue,omitempty"`
}

// lighthouseResult builds lighthouse_audit's structured result from what
// its text shows.
func lighthouseResult(res *audit.Result, mode, device string, failed []failedAudit, paths []string) lighthouseJSON {
	out := lighthouseJSON{FailedAudits: []failedAuditJSON{}, Reports: paths}
	out.Summary.Mode, out.Summary.Device, out.Summary.URL = mode, device, res.FinalDisplayedURL
	out.Summary.Scores = []lighthouseScoreJSON{}
	for _, id := range audit.CategoryOrder() {
		if cr := res.Categories[id]; cr != nil {
			out.Summary.Scores = append(out.Summary.Scores, lighthouseScoreJSON{cr.ID, cr.Title, cr.Score})
		}
	}
	for _, a := range res.Audits {
		if a.Score != nil && *a.Score == 1 {
			out.Summary.Audits.Passed++
		}
	}
	out.Summary.Audits.Failed = len(failed)
	out.Summary.Timing.Total = res.Timing.Total
	for _, f := range failed {
		nodes := f.nodes
		if nodes == nil {
			nodes = []*audit.NodeRef{}
		}
		out.FailedAudits = append(out.FailedAudits, failedAuditJSON{ID: f.a.ID, Title: f.a.Title, Score: f.a.Score,
			Categories: f.categories, Nodes: nodes, TotalNodes: f.total, Description: f.a.Description, DisplayValue: f.a.DisplayValue})
	}
	return out
}
