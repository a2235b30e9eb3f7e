package browser

import _ "embed"

// The JavaScript the browser layer runs in pages, one file per snippet in
// js/ (pagewalk.js, the biggest, sits beside pagewalk.go). Each file starts
// with a comment saying what it does; function sources are called with
// Runtime.callFunctionOn (this is the element they are called on), the
// others are evaluated, called with their arguments where they take any.
var (
	//go:embed js/ancestors.js
	ancestorsJS string // describes an element and its ancestors in the flat tree
	//go:embed js/aria-option.js
	ariaOptionJS string // finds the option of a listbox or combobox popup named a value
	//go:embed js/aria-range.js
	ariaRangeJS string // focuses a slider or spinbutton and reads its range
	//go:embed js/aria-selected.js
	ariaSelectedJS string // tells whether an option is selected
	//go:embed js/audit-facts.js
	auditFactsJS string // reads document facts, image sizes, paste blocking and layout shifts
	//go:embed js/click-landed.js
	clickLandedJS string // tells where a watched click landed
	//go:embed js/click-moved.js
	clickMovedJS string // tells whether the mouse moved into a watched element's window
	//go:embed js/click-point.js
	clickPointJS string // brings an element into view and finds a point that reaches it
	//go:embed js/element-of-node.js
	elementOfNodeJS string // returns the element that holds a node
	//go:embed js/element-rect.js
	elementRectJS string // scrolls an element into view and returns its border box
	//go:embed js/effects-settle.js
	effectsSettleJS string // waits until what an action set going is over
	//go:embed js/effects-watch.js
	effectsWatchJS string // records what an action sets going
	//go:embed js/execute-tool.js
	executeToolJS string // runs a developer tool of the page
	//go:embed js/fill-kind.js
	fillKindJS string // tells how an element takes a value
	//go:embed js/fire-change.js
	fireChangeJS string // fires change after typing
	//go:embed js/frame-element.js
	frameElementJS string // returns the iframe element of a node's document
	//go:embed js/frame-offset.js
	frameOffsetJS string // scrolls an iframe into view and returns its content origin
	//go:embed js/frame-offsets.js
	frameOffsetsJS string // sums the content origins of the frames up to the top
	//go:embed js/frame-window.js
	frameWindowJS string // returns the window of a node's document
	//go:embed js/inner-textbox.js
	innerTextboxJS string // finds the text field inside a combobox
	//go:embed js/is-checked.js
	isCheckedJS string // reports whether a checkbox is checked
	//go:embed js/leave-guard.js
	leaveGuardJS string // arms or disarms the beforeunload listener of a user's tab
	//go:embed js/no-background-fetch.js
	noBackgroundFetchJS string // makes background fetches fail under a URL policy
	//go:embed js/speculation-guard.js
	speculationGuardJS string // removes a document's speculation rules as they appear
	//go:embed js/page-box.js
	pageBoxJS string // measures the top document's scroll position, viewport and size
	//go:embed js/page-tools.js
	toolsJS string // installs window.__dtmcp, the page's developer tools
	//go:embed js/pagewalk-node.js
	pagewalkNodeJS string // returns the node of a pagewalk.js reference
	//go:embed js/pagewalk-ref.js
	pagewalkRefJS string // returns a node's pagewalk.js reference
	//go:embed js/pagewalk-scripted.js
	pagewalkScriptedJS string // reports whether pagewalk.js read the document
	//go:embed js/point-target.js
	pointTargetJS string // describes the element at a point of the viewport
	//go:embed js/quiet-dom.js
	quietDOMJS string // waits until the DOM has no mutations for a while
	//go:embed js/select-contents.js
	selectContentsJS string // focuses a text field and selects its contents
	//go:embed js/select-option.js
	selectOptionJS string // picks an option of a select
	//go:embed js/snapshot-ready.js
	snapshotReadyJS string // waits for the first rendering, tells whether pagewalk.js reads the document
	//go:embed js/serialize.js
	serializeJS string // turns a value into JSON text plus the DOM nodes it holds
	//go:embed js/set-value.js
	setValueJS string // sets the value of an input that is not typed into
	//go:embed js/wait-for-text.js
	waitForTextJS string // waits for one of some texts to show
	//go:embed js/trace-frames.js
	traceFramesJS string // waits for the frames that report interactions to the trace, then reads the viewport
	//go:embed js/wait-settled.js
	waitSettledJS string // waits until the page has been quiet for a while
	//go:embed js/wait-size.js
	waitSizeJS string // waits for the page's inner size
)
