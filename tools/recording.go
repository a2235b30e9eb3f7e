package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/devtools-mcp/devtools-mcp/internal/browser"
	"github.com/devtools-mcp/devtools-mcp/internal/recorder"
)

// maxRecordedSteps bounds one page's flow, so that a long session cannot
// grow the server's memory without end; later steps are dropped.
const maxRecordedSteps = 5000

// passwordPlaceholder stands for what the agent typed into a password
// field: an exported flow never holds it.
const passwordPlaceholder = "<password>"

// flows are the Recorder steps an MCP session's calls performed, per page.
type flows struct {
	mu     sync.Mutex
	byPage map[*browser.Page][]recorder.Step
	// of is the browser of each page, to find a closed page by its id.
	of map[*browser.Page]*browser.Browser
	// secrets are what the agent typed into password fields: an export
	// replaces them wherever they show up again (a form's GET URL).
	secrets []string
}

// secret remembers a password the agent typed.
func (f *flows) secret(v string) {
	if v == "" {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if !slices.Contains(f.secrets, v) {
		f.secrets = append(f.secrets, v)
	}
}

// scrubber returns a replacer of the session's passwords, as typed and
// as URLs encode them, by the placeholder.
func (f *flows) scrubber() *strings.Replacer {
	f.mu.Lock()
	defer f.mu.Unlock()
	var pairs []string
	for _, v := range f.secrets {
		q := url.QueryEscape(v)
		for _, form := range []string{v, q, strings.ReplaceAll(q, "+", "%20"), url.PathEscape(v)} {
			pairs = append(pairs, form, passwordPlaceholder)
		}
	}
	return strings.NewReplacer(pairs...)
}

// add appends steps to the flow of p, a page of b.
func (f *flows) add(b *browser.Browser, p *browser.Page, steps ...recorder.Step) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.byPage == nil {
		f.byPage, f.of = map[*browser.Page][]recorder.Step{}, map[*browser.Page]*browser.Browser{}
	}
	cur := f.byPage[p]
	if len(cur)+len(steps) > maxRecordedSteps {
		return
	}
	f.byPage[p], f.of[p] = append(cur, steps...), b
}

// steps returns a copy of p's flow.
func (f *flows) steps(p *browser.Page) []recorder.Step {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]recorder.Step(nil), f.byPage[p]...)
}

// closed returns the page of b with that id whose flow is kept though
// it was closed, or nil.
func (f *flows) closed(b *browser.Browser, id int) *browser.Page {
	f.mu.Lock()
	defer f.mu.Unlock()
	for p := range f.byPage {
		if p.ID == id && f.of[p] == b {
			return p
		}
	}
	return nil
}

// viewport puts vp first in p's flow, where Recorder has it, unless the
// flow already sets the viewport.
func (f *flows) viewport(b *browser.Browser, p *browser.Page, vp recorder.Step) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range f.byPage[p] {
		if s.Type == recorder.SetViewport {
			return
		}
	}
	if f.byPage == nil {
		f.byPage, f.of = map[*browser.Page][]recorder.Step{}, map[*browser.Page]*browser.Browser{}
	}
	f.byPage[p], f.of[p] = append([]recorder.Step{vp}, f.byPage[p]...), b
}

// target is what recordTargetJS reports of an element.
type target struct {
	CSS     []string `json:"css"`
	XPath   string   `json:"xpath"`
	Pierce  string   `json:"pierce"`
	Text    string   `json:"text"`
	Frame   []int    `json:"frame"`
	OffsetX float64  `json:"offsetX"`
	OffsetY float64  `json:"offsetY"`
	Tag     string   `json:"tag"`
	Type    string   `json:"type"`
	Checked bool     `json:"checked"`
	Width   int      `json:"width"`
	Height  int      `json:"height"`
	Scale   float64  `json:"scale"`

	el        *browser.Element
	selectors []recorder.Selector
}

// targetOf reads the Recorder selectors of the element uid names now,
// before the call acts on it, in the order Recorder writes them: ARIA
// (when its name and role find it alone), CSS, XPath, pierce, text.
func targetOf(ctx context.Context, p *browser.Page, uid string) (*target, error) {
	e, err := p.Snapshots().Element(ctx, uid)
	if err != nil {
		return nil, err
	}
	t := &target{el: e}
	if err := e.Evaluate(ctx, recordTargetJS, t); err != nil {
		return nil, err
	}
	if name, role, same, err := e.AccessibleName(ctx); err == nil && same == 1 {
		t.selectors = append(t.selectors, recorder.Selector{fmt.Sprintf("aria/%s[role=%q]", name, role)})
	}
	t.selectors = append(t.selectors, recorder.Selector(t.CSS))
	if t.XPath != "" {
		t.selectors = append(t.selectors, recorder.Selector{"xpath/" + t.XPath})
	}
	t.selectors = append(t.selectors, recorder.Selector{"pierce/" + t.Pierce})
	if t.Text != "" {
		t.selectors = append(t.selectors, recorder.Selector{"text/" + t.Text})
	}
	return t, nil
}

// pendingRecord is what a call will add to its page's flow once it
// succeeded: the targets are read before it acts, the steps made after.
type pendingRecord struct {
	tool    string
	args    map[string]json.RawMessage
	targets []*target
	urlWas  string
	// page is the page the steps go to: the call's, or the one
	// close_page closes; nil for new_page, whose page the call opens.
	page *browser.Page
	// password says type_text typed into a password field.
	password bool
}

// prerecord reads, for a call the recording keeps, the elements its uids
// name, while they are those the agent saw. It returns nil for calls
// that leave no step, when recording is off, or when the elements cannot
// be read (the call itself then says what is wrong).
func (s *Server) prerecord(ctx context.Context, c *Call, name string, args map[string]json.RawMessage) *pendingRecord {
	if !s.recording {
		return nil
	}
	pr := &pendingRecord{tool: name, args: args, page: c.Page}
	if c.Page != nil {
		pr.urlWas = c.Page.Info().URL
	}
	var uids []string
	switch name {
	case "click", "hover", "fill":
		var a struct {
			UID string `json:"uid"`
		}
		if decodeArgs(args, &a) != nil {
			return nil
		}
		uids = []string{a.UID}
	case "fill_form":
		var a fillFormArgs
		if decodeArgs(args, &a) != nil {
			return nil
		}
		for _, f := range a.Elements {
			uids = append(uids, f.UID)
		}
	case "close_page":
		var a closePageArgs
		if decodeArgs(args, &a) != nil || c.Browser == nil {
			return nil
		}
		if pr.page, _ = c.Browser.Page(int(a.PageID)); pr.page == nil {
			return nil
		}
		return pr
	case "type_text":
		if c.Page == nil {
			return nil
		}
		v, err := c.Page.Evaluate(ctx, "document.activeElement?.type === 'password' || !!document.activeElement?.shadowRoot?.activeElement?.matches?.('input[type=password]')")
		pr.password = err != nil || string(v.Value) != "false" // unknown counts as secret
		return pr
	case "navigate_page", "new_page", "press_key", "wait_for", "resize_page":
		return pr
	default:
		return nil
	}
	for _, uid := range uids {
		t, err := targetOf(ctx, c.Page, uid)
		if err != nil {
			return nil
		}
		pr.targets = append(pr.targets, t)
	}
	return pr
}

// decodeArgs decodes the call's arguments into out.
func decodeArgs(args map[string]json.RawMessage, out any) error {
	return json.Unmarshal(encode(args), out)
}
