package cdp

import "encoding/json"

// Accessibility domain types and commands we use.

// AXValue is a computed accessibility value: a role, a name, a property.
// Value holds the raw JSON (a string, number or boolean).
type AXValue struct {
	Type  string          `json:"type"`
	Value json.RawMessage `json:"value,omitempty"`
}

// String returns the value as text: strings unquoted, other JSON as is.
func (v *AXValue) String() string {
	if v == nil || len(v.Value) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(v.Value, &s) == nil {
		return s
	}
	return string(v.Value)
}

// AXProperty is one named property of an accessibility node (checked,
// level, focusable, ...).
type AXProperty struct {
	Name  string  `json:"name"`
	Value AXValue `json:"value"`
}

// AXNode is a node of the accessibility tree as Accessibility.getFullAXTree
// reports it.
type AXNode struct {
	NodeID           string       `json:"nodeId"`
	Ignored          bool         `json:"ignored"`
	Role             *AXValue     `json:"role,omitempty"`
	Name             *AXValue     `json:"name,omitempty"`
	Description      *AXValue     `json:"description,omitempty"`
	Value            *AXValue     `json:"value,omitempty"`
	Properties       []AXProperty `json:"properties,omitempty"`
	ParentID         string       `json:"parentId,omitempty"`
	ChildIDs         []string     `json:"childIds,omitempty"`
	BackendDOMNodeID int          `json:"backendDOMNodeId,omitempty"`
	FrameID          string       `json:"frameId,omitempty"`
}

// GetFullAXTreeParams are the parameters of Accessibility.getFullAXTree.
// An empty FrameID means the session's root frame.
type GetFullAXTreeParams struct {
	FrameID string `json:"frameId,omitempty"`
}

// GetFullAXTreeResult is the reply to Accessibility.getFullAXTree.
type GetFullAXTreeResult struct {
	Nodes []AXNode `json:"nodes"`
}

// The Accessibility domain's commands.
var (
	AccessibilityEnable        = Action{"Accessibility.enable"}
	AccessibilityGetFullAXTree = Command[GetFullAXTreeParams, GetFullAXTreeResult]{"Accessibility.getFullAXTree"}
)
