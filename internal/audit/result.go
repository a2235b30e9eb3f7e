package audit

import (
	"math"
	"time"
)

// Version names this implementation in reports' lighthouseVersion, so
// readers can tell our results from Lighthouse's.
const Version = "devtools-mcp-audit/1 (Lighthouse 13 categories)"

// Result is a report in Lighthouse's result (LHR) shape, for the parts
// we fill.
type Result struct {
	LighthouseVersion string                  `json:"lighthouseVersion"`
	RequestedURL      string                  `json:"requestedUrl"`
	MainDocumentURL   string                  `json:"mainDocumentUrl,omitempty"`
	FinalDisplayedURL string                  `json:"finalDisplayedUrl"`
	FinalURL          string                  `json:"finalUrl"`
	FetchTime         string                  `json:"fetchTime"`
	GatherMode        string                  `json:"gatherMode"`
	RunWarnings       []string                `json:"runWarnings"`
	UserAgent         string                  `json:"userAgent"`
	Audits            map[string]*AuditResult `json:"audits"`
	ConfigSettings    ConfigSettings          `json:"configSettings"`
	// Categories are keyed by id; CategoryOrder gives their order.
	Categories map[string]*CategoryResult `json:"categories"`
	Timing     Timing                     `json:"timing"`
}

// ConfigSettings are the settings of the run, as Lighthouse reports them.
type ConfigSettings struct {
	FormFactor       string          `json:"formFactor"`
	ScreenEmulation  ScreenEmulation `json:"screenEmulation"`
	EmulatedUA       string          `json:"emulatedUserAgent"`
	OnlyCategories   []string        `json:"onlyCategories"`
	Output           []string        `json:"output"`
	Locale           string          `json:"locale"`
	ThrottlingMethod string          `json:"throttlingMethod"`
}

// ScreenEmulation is the emulated screen.
type ScreenEmulation struct {
	Mobile            bool    `json:"mobile"`
	Width             int     `json:"width"`
	Height            int     `json:"height"`
	DeviceScaleFactor float64 `json:"deviceScaleFactor"`
	Disabled          bool    `json:"disabled"`
}

// Timing is how long the run took, in milliseconds.
type Timing struct {
	Total float64 `json:"total"`
}

// AuditResult is one audit's result.
type AuditResult struct {
	ID               string   `json:"id"`
	Title            string   `json:"title"`
	Description      string   `json:"description"`
	Score            *float64 `json:"score"`
	ScoreDisplayMode Mode     `json:"scoreDisplayMode"`
	DisplayValue     string   `json:"displayValue,omitempty"`
	Explanation      string   `json:"explanation,omitempty"`
	NumericValue     *float64 `json:"numericValue,omitempty"`
	NumericUnit      string   `json:"numericUnit,omitempty"`
	Details          *Details `json:"details,omitempty"`
}

// Details is an audit's details: a table of items.
type Details struct {
	Type     string    `json:"type"`
	Headings []Heading `json:"headings"`
	Items    []Item    `json:"items"`
}

// Heading is one column of a details table.
type Heading struct {
	Key       string `json:"key"`
	ValueType string `json:"valueType"`
	Label     string `json:"label"`
	// SubItemsHeading is the column's heading for the rows of the
	// items' subItems, when they have any.
	SubItemsHeading *SubHeading `json:"subItemsHeading,omitempty"`
}

// SubHeading is the heading of a column's sub-rows.
type SubHeading struct {
	Key       string `json:"key"`
	ValueType string `json:"valueType,omitempty"`
}

// SubItems are the rows under one item of a details table (an item's
// "subItems" value), as Lighthouse's related nodes.
type SubItems struct {
	Type  string `json:"type"` // "subitems"
	Items []Item `json:"items"`
}

// NodeRef is a DOM element in a details table, as Lighthouse's node
// values, plus the snapshot uid when the element is in the agent's
// current snapshot.
type NodeRef struct {
	Type         string `json:"type"` // "node"
	LhID         string `json:"lhId,omitempty"`
	Path         string `json:"path,omitempty"`
	Selector     string `json:"selector,omitempty"`
	Snippet      string `json:"snippet,omitempty"`
	NodeLabel    string `json:"nodeLabel,omitempty"`
	Explanation  string `json:"explanation,omitempty"`
	BoundingRect *Rect  `json:"boundingRect,omitempty"`
	UID          string `json:"uid,omitempty"`
	// Backend is the element's backend node id, to find its uid.
	Backend int `json:"-"`
}

// Rect is a node's bounding box.
type Rect struct {
	Top    float64 `json:"top"`
	Bottom float64 `json:"bottom"`
	Left   float64 `json:"left"`
	Right  float64 `json:"right"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// CategoryResult is one category's score and its audits.
type CategoryResult struct {
	ID               string     `json:"id"`
	Title            string     `json:"title"`
	Description      string     `json:"description,omitempty"`
	Score            *float64   `json:"score"`
	ScoreDisplayMode string     `json:"scoreDisplayMode,omitempty"`
	AuditRefs        []AuditRef `json:"auditRefs"`
}

// AuditRef is an audit's place in a category: its weight and group.
type AuditRef struct {
	ID     string  `json:"id"`
	Weight float64 `json:"weight"`
	Group  string  `json:"group,omitempty"`
}

// newResult starts the result of auditing in.
func newResult(in *Input) *Result {
	desktop := in.Device != "mobile"
	se := ScreenEmulation{Width: 1350, Height: 940, DeviceScaleFactor: 1}
	if !desktop {
		se = ScreenEmulation{Mobile: true, Width: 412, Height: 823, DeviceScaleFactor: 1.75}
	}
	r := &Result{
		LighthouseVersion: Version,
		RequestedURL:      in.URL,
		FinalDisplayedURL: in.FinalURL,
		FinalURL:          in.FinalURL,
		FetchTime:         time.Now().UTC().Format("2006-01-02T15:04:05.000Z"),
		GatherMode:        in.Mode,
		RunWarnings:       []string{},
		UserAgent:         in.UserAgent,
		Audits:            map[string]*AuditResult{},
		ConfigSettings: ConfigSettings{
			FormFactor: in.Device, ScreenEmulation: se, EmulatedUA: UserAgent(in.Device),
			OnlyCategories: CategoryOrder(), Output: []string{"json", "html"}, Locale: "en-US",
			ThrottlingMethod: "devtools",
		},
	}
	if in.Mode == "navigation" {
		r.MainDocumentURL = in.FinalURL
	}
	return r
}

// UserAgent returns the user agent Lighthouse emulates for the device.
func UserAgent(device string) string {
	if device == "mobile" {
		return "Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/136.0.0.0 Mobile Safari/537.36"
	}
	return "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/136.0.0.0 Safari/537.36"
}

// scoreCategories scores each category as Lighthouse does: the weighted
// mean of its scored audits (not applicable, manual and informative
// audits weigh nothing), rounded to two decimals; null when nothing is
// scored.
func scoreCategories(audits map[string]*AuditResult, mode string) map[string]*CategoryResult {
	out := map[string]*CategoryResult{}
	for _, c := range categoryTable(mode) {
		cr := &CategoryResult{ID: c.ID, Title: c.Title, Description: c.Description, ScoreDisplayMode: c.ScoreDisplayMode, AuditRefs: c.Refs}
		var sum, weights float64
		for _, ref := range c.Refs {
			a := audits[ref.ID]
			if a == nil {
				continue
			}
			switch a.ScoreDisplayMode {
			case ModeNotApplicable, ModeManual, ModeInformative:
				continue
			}
			weights += ref.Weight
			if a.Score != nil {
				sum += *a.Score * ref.Weight
			}
		}
		if weights > 0 {
			s := math.Round(sum/weights*100) / 100
			cr.Score = &s
		}
		out[c.ID] = cr
	}
	return out
}
