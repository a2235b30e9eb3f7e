package cdp

// CSS domain commands and events we use, as small typed structs, and the DOM
// commands that turn a node into the nodeId the CSS domain takes.

// GetDocumentParams are the parameters of DOM.getDocument.
type GetDocumentParams struct {
	Depth int `json:"depth"` // -1 is the whole tree
	// Pierce also walks iframes' documents and shadow roots.
	Pierce bool `json:"pierce,omitempty"`
}

// NodeID names a node by the id DOM.requestNode returns (its reply), for
// the CSS commands that take one (their parameters).
type NodeID struct {
	NodeID int `json:"nodeId"`
}

// SourceRange is a zero-based range of text in a stylesheet.
type SourceRange struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}

// CSSStyleSheetHeader is CSS.styleSheetAdded's description of a stylesheet.
// StartLine and StartColumn place an inline <style> in its document.
type CSSStyleSheetHeader struct {
	StyleSheetID string `json:"styleSheetId"`
	SourceURL    string `json:"sourceURL"`
	Origin       string `json:"origin"`
	IsInline     bool   `json:"isInline"`
	StartLine    int    `json:"startLine"`
	StartColumn  int    `json:"startColumn"`
}

// StyleSheetAddedEvent is CSS.styleSheetAdded, sent for every stylesheet of
// the page on CSS.enable and for each one added later.
type StyleSheetAddedEvent struct {
	Header CSSStyleSheetHeader `json:"header"`
}

// CSSProperty is one declaration of a style. Range is set for declarations
// written in a stylesheet; the longhands a shorthand expands to have none.
type CSSProperty struct {
	Name               string        `json:"name"`
	Value              string        `json:"value"`
	Important          bool          `json:"important,omitempty"`
	Implicit           bool          `json:"implicit,omitempty"`
	Disabled           bool          `json:"disabled,omitempty"`
	ParsedOk           *bool         `json:"parsedOk,omitempty"`
	Range              *SourceRange  `json:"range,omitempty"`
	LonghandProperties []CSSProperty `json:"longhandProperties,omitempty"`
}

// CSSStyle is a declaration block.
type CSSStyle struct {
	StyleSheetID  string        `json:"styleSheetId,omitempty"`
	CSSProperties []CSSProperty `json:"cssProperties"`
	Range         *SourceRange  `json:"range,omitempty"`
}

// CSSValue is one selector of a selector list, with where it was written.
type CSSValue struct {
	Text  string       `json:"text"`
	Range *SourceRange `json:"range,omitempty"`
}

// SelectorList is a rule's selectors.
type SelectorList struct {
	Selectors []CSSValue `json:"selectors"`
	Text      string     `json:"text"`
}

// CSSMedia is a media query a rule sits in.
type CSSMedia struct {
	Text string `json:"text"`
}

// CSSRule is a style rule. Origin is regular, user-agent, injected or
// inspector; StyleSheetID is empty for user-agent rules.
type CSSRule struct {
	StyleSheetID string       `json:"styleSheetId,omitempty"`
	SelectorList SelectorList `json:"selectorList"`
	Origin       string       `json:"origin"`
	Style        CSSStyle     `json:"style"`
	Media        []CSSMedia   `json:"media,omitempty"`
}

// RuleMatch is a rule matching a node, and which of its selectors matched.
type RuleMatch struct {
	Rule              CSSRule `json:"rule"`
	MatchingSelectors []int   `json:"matchingSelectors"`
}

// InheritedStyleEntry holds the styles of one ancestor, nearest first.
type InheritedStyleEntry struct {
	InlineStyle     *CSSStyle   `json:"inlineStyle,omitempty"`
	MatchedCSSRules []RuleMatch `json:"matchedCSSRules"`
}

// GetMatchedStylesResult is the part of CSS.getMatchedStylesForNode's reply
// we read. Rules come in ascending cascade order.
type GetMatchedStylesResult struct {
	InlineStyle     *CSSStyle             `json:"inlineStyle,omitempty"`
	AttributesStyle *CSSStyle             `json:"attributesStyle,omitempty"`
	MatchedCSSRules []RuleMatch           `json:"matchedCSSRules"`
	Inherited       []InheritedStyleEntry `json:"inherited"`
}

// ComputedStyleProperty is one property of a computed style.
type ComputedStyleProperty struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// GetComputedStyleResult is the reply to CSS.getComputedStyleForNode.
type GetComputedStyleResult struct {
	ComputedStyle []ComputedStyleProperty `json:"computedStyle"`
}

// The CSS domain's commands and events, and the DOM commands that give the
// CSS commands a node id.
var (
	CSSEnable                  = Action{"CSS.enable"}
	CSSDisable                 = Action{"CSS.disable"}
	CSSGetMatchedStylesForNode = Command[NodeID, GetMatchedStylesResult]{"CSS.getMatchedStylesForNode"}
	CSSGetComputedStyleForNode = Command[NodeID, GetComputedStyleResult]{"CSS.getComputedStyleForNode"}
	CSSStyleSheetAdded         = Event[StyleSheetAddedEvent]{"CSS.styleSheetAdded"}

	DOMGetDocument = Command[GetDocumentParams, GetDocumentResult]{"DOM.getDocument"}
	DOMRequestNode = Command[NodeRef, NodeID]{"DOM.requestNode"}
)

// GetDocumentResult is the part of DOM.getDocument's reply we read.
type GetDocumentResult struct {
	Root DOMTreeNode `json:"root"`
}

// DOMTreeNode is a node of DOM.getDocument's tree, as deep as the call
// asked: its children in DOM order, its shadow roots and a frame's
// document.
type DOMTreeNode struct {
	NodeID          int           `json:"nodeId"`
	BackendNodeID   int           `json:"backendNodeId"`
	NodeType        int           `json:"nodeType"`
	NodeName        string        `json:"nodeName"`
	NodeValue       string        `json:"nodeValue"`
	ShadowRootType  string        `json:"shadowRootType,omitempty"`
	Children        []DOMTreeNode `json:"children,omitempty"`
	ShadowRoots     []DOMTreeNode `json:"shadowRoots,omitempty"`
	ContentDocument *DOMTreeNode  `json:"contentDocument,omitempty"`
}
