package cdp

// The part of the Preload domain the server uses: Chrome's reports of the
// speculation rules a document holds.

// The Preload domain's commands and events.
var (
	PreloadEnable         = Command[Empty, Empty]{"Preload.enable"}
	PreloadRuleSetUpdated = Event[RuleSetUpdatedEvent]{"Preload.ruleSetUpdated"}
)

// RuleSetUpdatedEvent reports a speculation rule set of a document, new or
// changed: BackendNodeID is its <script> element's, when inline; URL the
// rules' address, when a Speculation-Rules header named it.
type RuleSetUpdatedEvent struct {
	RuleSet struct {
		ID            string `json:"id"`
		LoaderID      string `json:"loaderId"`
		BackendNodeID int    `json:"backendNodeId,omitempty"`
		URL           string `json:"url,omitempty"`
	} `json:"ruleSet"`
}
