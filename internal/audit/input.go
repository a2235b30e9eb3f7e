package audit

import "encoding/json"

// Input is everything the audits read, gathered from the page in one go:
// the DOM with the computed styles and boxes that matter, Chrome's
// accessibility tree, the main document's response, what the page logged,
// a few files of its origin and its WebMCP tools. It is plain data, so
// audits can be tested on recorded pages without a browser.
type Input struct {
	// Mode is "navigation" (the page was reloaded for the audit) or
	// "snapshot" (audited as it was).
	Mode string `json:"mode"`
	// Device is "desktop" or "mobile".
	Device    string `json:"device"`
	URL       string `json:"url"`      // the URL audited (requested)
	FinalURL  string `json:"finalUrl"` // the document's URL after redirects
	UserAgent string `json:"userAgent"`
	// Viewport is the emulated viewport's CSS size.
	ViewportWidth  float64 `json:"viewportWidth"`
	ViewportHeight float64 `json:"viewportHeight"`

	// SiblingIndexes says whether Nodes carry Sib (recordings made
	// before they did do not).
	SiblingIndexes bool     `json:"siblingIndexes,omitempty"`
	Doc            Document `json:"document"`
	Nodes          []Node   `json:"nodes"`
	// BaseURLs are the base URLs of the documents, by Node.Frame: what
	// their links resolve against ("" when not known).
	BaseURLs []string `json:"baseUrls,omitempty"`
	AX       []AXNode `json:"ax"`

	// Main is the main document's response; nil when not known (a
	// snapshot of a page loaded before the server watched it).
	Main *Response `json:"main,omitempty"`
	// Requests are the URLs the page loaded, with their status.
	Requests []Response `json:"requests,omitempty"`
	Console  []Console  `json:"console,omitempty"`
	Issues   []Issue    `json:"issues,omitempty"`
	Robots   *Fetched   `json:"robotsTxt,omitempty"`
	LLMs     *Fetched   `json:"llmsTxt,omitempty"`
	// Tools are the page's WebMCP tools; ToolsKnown says whether they
	// could be read (Chrome without WebMCP cannot).
	Tools      []Tool `json:"tools,omitempty"`
	ToolsKnown bool   `json:"toolsKnown"`
	// Scripts are the scripts the page loaded from the network;
	// ScriptsKnown says whether they could all be read.
	Scripts      []Script `json:"scripts,omitempty"`
	ScriptsKnown bool     `json:"scriptsKnown,omitempty"`
	// Shifts are the page's layout shifts since it loaded.
	Shifts      []Shift `json:"shifts,omitempty"`
	ShiftsKnown bool    `json:"shiftsKnown"`
}

// SetBaseURL records the base URL of the document numbered frame.
func (in *Input) SetBaseURL(frame int, base string) {
	for len(in.BaseURLs) <= frame {
		in.BaseURLs = append(in.BaseURLs, "")
	}
	in.BaseURLs[frame] = base
}

// baseURL is the base URL of the document numbered frame: the one
// recorded, or else, for the main document, its URL.
func (in *Input) baseURL(frame int) string {
	if frame < len(in.BaseURLs) && in.BaseURLs[frame] != "" {
		return in.BaseURLs[frame]
	}
	if frame == 0 {
		return in.FinalURL
	}
	return ""
}

// Document holds facts about the document as a whole.
type Document struct {
	Title        string `json:"title"`
	DoctypeName  string `json:"doctypeName"`
	DoctypePub   string `json:"doctypePublicId"`
	DoctypeSys   string `json:"doctypeSystemId"`
	HasDoctype   bool   `json:"hasDoctype"`
	CompatMode   string `json:"compatMode"`   // "CSS1Compat" or "BackCompat"
	CharacterSet string `json:"characterSet"` // document.characterSet
	// HeadHTML is the start of the document's source (up to 1024 bytes
	// when known from the response, otherwise rebuilt from the DOM).
	HeadHTML string `json:"headHtml"`
}

// Node is one element of the document, in document order. Parent is the
// index of its parent element in Input.Nodes, -1 for the root.
type Node struct {
	Backend int `json:"b"`
	Parent  int `json:"p"`
	// Frame numbers the document the element is in: 0 for the main
	// document, others for the documents of its frames (whose root
	// element's Parent is the frame element).
	Frame int `json:"f,omitempty"`
	// Scope numbers the process whose backend node ids Backend is in: 0
	// for the page's, others for cross-process frames'.
	Scope int `json:"sc,omitempty"`
	// Shadow numbers the open shadow tree the element is in, 0 for its
	// document's own tree: ids resolve within a tree. Parent follows the
	// flat tree (a shadow tree's top elements hang under the host,
	// slotted ones under their slot), as axe-core's checks do.
	Shadow int `json:"sh,omitempty"`
	// ShadowTop says the element is a child of its host's shadow root.
	ShadowTop bool `json:"st,omitempty"`
	// DOMParent, when not 0, is one more than the index of the element
	// its node path goes on with where that is not Parent (a slotted
	// element's light parent, the host).
	DOMParent int               `json:"dp,omitempty"`
	Tag       string            `json:"t"` // lower case
	Attrs     map[string]string `json:"a,omitempty"`
	// AttrOrder lists the attribute names in source order.
	AttrOrder []string `json:"ao,omitempty"`
	// Sib is the element's index among its parent's child nodes, text
	// that is only white space left out (Lighthouse's node path).
	Sib int `json:"n,omitempty"`
	// Text is the text of the node's own text children, joined.
	Text string `json:"x,omitempty"`
	// Box is the border box in CSS pixels of the page (x, y, width,
	// height); nil when the element is not rendered.
	Box *[4]float64 `json:"r,omitempty"`
	// Style holds the computed styles the audits read; nil when not
	// rendered.
	Style *Style `json:"s,omitempty"`
	// Prop holds facts only a script can read (image natural size, paste
	// handling, focusability).
	Prop *Props `json:"o,omitempty"`
}

// Style is the part of an element's computed style the audits read.
type Style struct {
	Color          string `json:"c,omitempty"`
	Background     string `json:"bg,omitempty"`
	BackgroundImg  string `json:"bi,omitempty"`
	FontSize       string `json:"fs,omitempty"`
	FontWeight     string `json:"fw,omitempty"`
	Opacity        string `json:"op,omitempty"`
	Display        string `json:"d,omitempty"`
	Visibility     string `json:"v,omitempty"`
	TextDecoration string `json:"td,omitempty"`
	BorderBottom   string `json:"bb,omitempty"`
	Position       string `json:"pos,omitempty"`
	ObjectFit      string `json:"of,omitempty"`
}

// Props are the script-read facts of an element.
type Props struct {
	NaturalWidth  float64 `json:"nw,omitempty"`
	NaturalHeight float64 `json:"nh,omitempty"`
	// Src is an image's current source URL (after srcset).
	Src           string `json:"src,omitempty"`
	PreventsPaste bool   `json:"pp,omitempty"`
	// Checked and Indeterminate are a field's live state (a script may
	// have set it apart from the checked attribute).
	Checked       bool `json:"ck,omitempty"`
	Indeterminate bool `json:"ind,omitempty"`
	Focusable     bool `json:"f,omitempty"`
	TabIndex      int  `json:"ti,omitempty"`
}

// AXNode is one node of Chrome's accessibility tree, reduced to what the
// audits read.
type AXNode struct {
	Backend int    `json:"b"`
	Scope   int    `json:"sc,omitempty"` // as Node.Scope
	Role    string `json:"r,omitempty"`
	Name    string `json:"n,omitempty"`
	Ignored bool   `json:"i,omitempty"`
}

// Response is one HTTP response the page got.
type Response struct {
	URL      string            `json:"url"`
	Status   int               `json:"status"`
	MimeType string            `json:"mimeType,omitempty"`
	Headers  map[string]string `json:"headers,omitempty"`
	Failed   string            `json:"failed,omitempty"` // the network error, when it failed
	// Resource is the type Chrome gives it: Document, Script, Image, ...
	Resource string `json:"resource,omitempty"`
}

// Script is one script the page loaded: its URL, its length (UTF-16
// code units), the URL of the source map it names ("" for none) and why
// that map could not be used ("" when it loaded and parsed).
type Script struct {
	URL      string `json:"url"`
	Length   int    `json:"length"`
	MapURL   string `json:"mapUrl,omitempty"`
	MapError string `json:"mapError,omitempty"`
}

// Console is one console message or browser log entry.
type Console struct {
	// Level is "error", "warning", "info", ...
	Level string `json:"level"`
	// Source is "console.error", "exception", "network", "violation",
	// "deprecation", ... as Chrome reports it.
	Source string `json:"source"`
	Text   string `json:"text"`
	URL    string `json:"url,omitempty"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
}

// Issue is a DevTools issue (Audits.issueAdded).
type Issue struct {
	Code    string          `json:"code"`
	Details json.RawMessage `json:"details,omitempty"`
}

// Fetched is a file fetched from the page's origin.
type Fetched struct {
	Status int    `json:"status"` // 0: the fetch failed
	Body   string `json:"body,omitempty"`
}

// Tool is one WebMCP tool the page registered.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"inputSchema,omitempty"`
}

// Shift is one layout shift: when (ms since the document started
// loading), how much, and whether it followed user input.
type Shift struct {
	Time        float64 `json:"t"`
	Value       float64 `json:"v"`
	RecentInput bool    `json:"ri,omitempty"`
}
