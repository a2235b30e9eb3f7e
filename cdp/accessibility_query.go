package cdp

// GetPartialAXTreeParams are the parameters of
// Accessibility.getPartialAXTree: the node whose accessibility node is
// asked, without its relatives unless FetchRelatives.
type GetPartialAXTreeParams struct {
	BackendNodeID  int    `json:"backendNodeId,omitempty"`
	ObjectID       string `json:"objectId,omitempty"`
	FetchRelatives bool   `json:"fetchRelatives"`
}

// QueryAXTreeParams are the parameters of Accessibility.queryAXTree: the
// nodes under ObjectID's with that accessible name and role (what
// Puppeteer's aria/ selectors find).
type QueryAXTreeParams struct {
	ObjectID       string `json:"objectId,omitempty"`
	AccessibleName string `json:"accessibleName,omitempty"`
	Role           string `json:"role,omitempty"`
}

// AXNodesResult is the reply to getPartialAXTree and queryAXTree.
type AXNodesResult struct {
	Nodes []AXNode `json:"nodes"`
}

// The Accessibility domain's queries of single nodes.
var (
	AccessibilityGetPartialAXTree = Command[GetPartialAXTreeParams, AXNodesResult]{"Accessibility.getPartialAXTree"}
	AccessibilityQueryAXTree      = Command[QueryAXTreeParams, AXNodesResult]{"Accessibility.queryAXTree"}
)
