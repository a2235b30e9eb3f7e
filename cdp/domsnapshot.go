package cdp

// DOMSnapshot domain types and commands we use.

// CaptureSnapshotParams are the parameters of DOMSnapshot.captureSnapshot:
// the computed style properties to report for every rendered node.
type CaptureSnapshotParams struct {
	ComputedStyles []string `json:"computedStyles"`
}

// RareStringData holds string-table indexes for some of the nodes.
type RareStringData struct {
	Index []int `json:"index"`
	Value []int `json:"value"`
}

// RareIntegerData is an integer given for a few nodes only: Value[k] is
// node Index[k]'s.
type RareIntegerData struct {
	Index []int `json:"index"`
	Value []int `json:"value"`
}

// DocumentSnapshot is one document of a DOM snapshot. Strings are indexes
// into CaptureSnapshotResult.Strings; -1 means none.
type DocumentSnapshot struct {
	DocumentURL int `json:"documentURL"`
	// BaseURL is the document's base URL (its <base href> or its URL),
	// against which its links resolve.
	BaseURL int `json:"baseURL"`
	FrameID int `json:"frameId"`
	Nodes   struct {
		ParentIndex    []int          `json:"parentIndex"`
		NodeType       []int          `json:"nodeType"`
		ShadowRootType RareStringData `json:"shadowRootType"`
		NodeName       []int          `json:"nodeName"`
		NodeValue      []int          `json:"nodeValue"`
		BackendNodeID  []int          `json:"backendNodeId"`
		Attributes     [][]int        `json:"attributes"`
		PseudoType     RareStringData `json:"pseudoType"`
		// ContentDocumentIndex gives, for frame elements, the index of
		// their document in CaptureSnapshotResult.Documents.
		ContentDocumentIndex RareIntegerData `json:"contentDocumentIndex"`
	} `json:"nodes"`
	Layout struct {
		NodeIndex []int       `json:"nodeIndex"`
		Styles    [][]int     `json:"styles"`
		Bounds    [][]float64 `json:"bounds"`
	} `json:"layout"`
}

// CaptureSnapshotResult is the reply to DOMSnapshot.captureSnapshot.
type CaptureSnapshotResult struct {
	Documents []DocumentSnapshot `json:"documents"`
	Strings   []string           `json:"strings"`
}

// The DOMSnapshot domain's commands.
var (
	DOMSnapshotCaptureSnapshot = Command[CaptureSnapshotParams, CaptureSnapshotResult]{"DOMSnapshot.captureSnapshot"}
)
