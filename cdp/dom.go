package cdp

// DOM domain commands we use, as small typed structs. Nodes are named by
// backend node id, which stays valid while the node lives, or by object id.

// NodeRef names a DOM node by backend node id or by a remote object id.
type NodeRef struct {
	// NodeID is the id the DOM domain gave the node (DOM.describeNode
	// takes one); it is valid only while the document is tracked.
	NodeID        int    `json:"nodeId,omitempty"`
	BackendNodeID int    `json:"backendNodeId,omitempty"`
	ObjectID      string `json:"objectId,omitempty"`
	// ExecutionContextID, for DOM.resolveNode, names the world (for
	// example an isolated one) the object is made in; 0 is the main world.
	ExecutionContextID int `json:"executionContextId,omitempty"`
}

// ResolveNodeResult is the reply to DOM.resolveNode.
type ResolveNodeResult struct {
	Object RemoteObject `json:"object"`
}

// Quad is four corners x1,y1..x4,y4 in CSS pixels of the frame's viewport.
type Quad []float64

// GetContentQuadsResult is the reply to DOM.getContentQuads.
type GetContentQuadsResult struct {
	Quads []Quad `json:"quads"`
}

// BoxModel is the part of DOM.BoxModel we read.
type BoxModel struct {
	Content Quad `json:"content"`
}

// GetBoxModelResult is the reply to DOM.getBoxModel.
type GetBoxModelResult struct {
	Model BoxModel `json:"model"`
}

// GetFrameOwnerParams are the parameters of DOM.getFrameOwner.
type GetFrameOwnerParams struct {
	FrameID string `json:"frameId"`
}

// GetFrameOwnerResult names the <iframe> element hosting a frame.
type GetFrameOwnerResult struct {
	BackendNodeID int `json:"backendNodeId"`
}

// DescribeNodeResult is the reply to DOM.describeNode.
type DescribeNodeResult struct {
	Node struct {
		BackendNodeID int    `json:"backendNodeId"`
		NodeName      string `json:"nodeName"`
		FrameID       string `json:"frameId,omitempty"`
	} `json:"node"`
}

// GetNodeForLocationParams are the parameters of DOM.getNodeForLocation:
// a point of the main frame's viewport, in CSS pixels.
type GetNodeForLocationParams struct {
	X int `json:"x"`
	Y int `json:"y"`
}

// GetNodeForLocationResult is the node Chrome's hit test finds at a point,
// and its frame: the deepest same-process frame there; a cross-process
// iframe is found as its <iframe> element.
type GetNodeForLocationResult struct {
	BackendNodeID int    `json:"backendNodeId"`
	FrameID       string `json:"frameId"`
}

// SetFileInputFilesParams are the parameters of DOM.setFileInputFiles.
type SetFileInputFilesParams struct {
	Files         []string `json:"files"`
	BackendNodeID int      `json:"backendNodeId,omitempty"`
	ObjectID      string   `json:"objectId,omitempty"`
}

// FrameTree is the reply to Page.getFrameTree (recursive).
type FrameTree struct {
	Frame       Frame       `json:"frame"`
	ChildFrames []FrameTree `json:"childFrames,omitempty"`
}

// GetFrameTreeResult is the reply to Page.getFrameTree.
type GetFrameTreeResult struct {
	FrameTree FrameTree `json:"frameTree"`
}

// FileChooserOpenedEvent is Page.fileChooserOpened (with interception on).
type FileChooserOpenedEvent struct {
	FrameID       string `json:"frameId"`
	Mode          string `json:"mode"`
	BackendNodeID int    `json:"backendNodeId"`
}

// SetInterceptParams turn an interception (file chooser, drags) on or off.
type SetInterceptParams struct {
	Enabled bool `json:"enabled"`
}

// SetAutoAttachParams are the parameters of Target.setAutoAttach.
type SetAutoAttachParams struct {
	AutoAttach             bool          `json:"autoAttach"`
	WaitForDebuggerOnStart bool          `json:"waitForDebuggerOnStart"`
	Flatten                bool          `json:"flatten"`
	Filter                 []FilterEntry `json:"filter,omitempty"`
}

// The DOM domain's commands whose structs are here; DOM.getDocument and
// DOM.requestNode are with the CSS commands that need them.
var (
	DOMEnable             = Action{"DOM.enable"}
	DOMDisable            = Action{"DOM.disable"}
	DOMResolveNode        = Command[NodeRef, ResolveNodeResult]{"DOM.resolveNode"}
	DOMDescribeNode       = Command[NodeRef, DescribeNodeResult]{"DOM.describeNode"}
	DOMGetFrameOwner      = Command[GetFrameOwnerParams, GetFrameOwnerResult]{"DOM.getFrameOwner"}
	DOMGetNodeForLocation = Command[GetNodeForLocationParams, GetNodeForLocationResult]{"DOM.getNodeForLocation"}
	DOMSetFileInputFiles  = Command[SetFileInputFilesParams, Empty]{"DOM.setFileInputFiles"}
	DOMQuerySelectorAll   = Command[QuerySelectorAllParams, QuerySelectorAllResult]{"DOM.querySelectorAll"}
)

// TargetSetAutoAttach attaches to related targets (iframes, workers) as
// they appear; its params are here beside the frame types.
var TargetSetAutoAttach = Command[SetAutoAttachParams, Empty]{"Target.setAutoAttach"}

// QuerySelectorAllParams are the parameters of DOM.querySelectorAll.
type QuerySelectorAllParams struct {
	NodeID   int    `json:"nodeId"`
	Selector string `json:"selector"`
}

// QuerySelectorAllResult is the reply to DOM.querySelectorAll.
type QuerySelectorAllResult struct {
	NodeIDs []int `json:"nodeIds"`
}
