package tooltest

import (
	"os"
	"path/filepath"

	"github.com/devtools-mcp/devtools-mcp/internal/browser"
	"github.com/devtools-mcp/devtools-mcp/tools"
)

// Scenarios are the recorded tool sessions, one recording each.
func Scenarios() []Scenario {
	return []Scenario{
		navigation(), input(), dialogs(), debugging(), network(), screenshot(),
		emulation(), performance(), memory(), slim(), thirdParty(), frames(), blocked(),
		extensions(), pwa(), guard(),
	}
}

// pages is the page list line of page n, titled title, at path.
func pages(n, title, path string) string {
	return n + ": " + title + " ({{site}}" + path + ")"
}

// navigation opens, lists, selects and closes pages, and navigates one.
func navigation() Scenario {
	return Scenario{Name: "navigation", Steps: []Step{
		{Tool: "list_pages", Want: []string{"## Pages", "1: about:blank [selected]"}},
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/common.html"}`,
			Want: []string{"Navigated to {{site}}/pages/common.html.", pages("1", "Common page", "/pages/common.html") + " [selected]"}},
		{Tool: "new_page", Args: `{"url":"{{site}}/pages/form.html"}`,
			Want: []string{"Opened page 2.", pages("1", "Common page", "/pages/common.html") + "\n", pages("2", "Probe form", "/pages/form.html") + " [selected]"}},
		{Tool: "list_pages", Want: []string{pages("2", "Probe form", "/pages/form.html") + " [selected]"}},
		{Tool: "select_page", Args: `{"pageId":1}`, Want: []string{pages("1", "Common page", "/pages/common.html") + " [selected]"}},
		{Tool: "select_page", Args: `{"pageId":1.5}`, Error: true, Want: []string{"pageId must be a whole number"}},
		{Tool: "select_page", Error: true, Want: []string{`missing required argument "pageId"`}},
		{Tool: "navigate_page", Args: `{"type":"reload"}`, Want: []string{"Reloaded {{site}}/pages/common.html."}},
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/form.html"}`, Want: []string{"Navigated to {{site}}/pages/form.html.", pages("1", "Probe form", "/pages/form.html") + " [selected]"}},
		{Tool: "navigate_page", Args: `{"type":"back"}`, Want: []string{"Went back to {{site}}/pages/common.html."}},
		{Tool: "list_pages", Want: []string{pages("1", "Common page", "/pages/common.html") + " [selected]"}},
		{Tool: "navigate_page", Args: `{"type":"forward"}`, Want: []string{"Went forward to {{site}}/pages/form.html."}},
		{Tool: "list_pages", Want: []string{pages("1", "Probe form", "/pages/form.html") + " [selected]"}},
		{Tool: "navigate_page", Args: `{"type":"sideways"}`, Error: true, Want: []string{`argument "type"`, "url back forward reload"}},
		{Tool: "wait_for", Args: `{"text":["Sign in"]}`, Want: []string{`Found "Sign in" on the page.`, "## Latest page snapshot", `button "Log in"`}},
		{Tool: "new_page", Args: `{"url":"{{site}}/pages/actions.html","background":true}`, Want: []string{"Opened page 3.", pages("3", "Actions", "/pages/actions.html")}},
		{Tool: "close_page", Args: `{"pageId":2}`, Not: []string{"2: Probe form"}, Want: []string{pages("1", "Probe form", "/pages/form.html")}},
		{Tool: "close_page", Args: `{"pageId":7}`, Error: true, Want: []string{"no page with id 7; open pages: 1, 3 (call list_pages)"}},
		{Tool: "take_snapshot", Args: `{"pageId":2}`, Error: true, Want: []string{"no page with id 2"}},
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/actions.html","initScript":"window.__init = 42"}`, Want: []string{"Navigated to {{site}}/pages/actions.html."}},
		{Tool: "evaluate_script", Args: `{"function":"() => window.__init"}`, Want: []string{"Script ran on page and returned:\n```json\n42\n```"}},
		{Tool: "list_pages", Want: []string{pages("1", "Probe form", "/pages/form.html") + "\n", pages("3", "Actions", "/pages/actions.html") + " [selected]"}},
	}}
}

// input fills and clicks a form and the actions page.
func input() Scenario {
	return Scenario{Name: "input", Steps: []Step{
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/form.html"}`},
		{Tool: "take_snapshot", Want: []string{"## Latest page snapshot", `textbox "Username" value="alice"`, `checkbox "Remember me" checked`, `button "Log in"`}},
		{Tool: "fill", Args: `{"uid":"{{uid:Username}}","value":"bob"}`, Want: []string{"Successfully filled out the element."}},
		{Tool: "fill", Args: `{"uid":"{{uid:Color}}","value":"Blue"}`, Want: []string{"Successfully filled out the element."}},
		{Tool: "fill", Args: `{"uid":"{{uid:Bio}}"}`, Error: true, Want: []string{`missing required argument "value"`}},
		{Tool: "fill_form", Args: `{"elements":[{"uid":"{{uid:Bio}}","value":"hello"},{"uid":"{{uid:Count}}","value":"7"}]}`, Want: []string{"Successfully filled out the form."}},
		{Tool: "click", Args: `{"uid":"{{uid:Remember me}}","includeSnapshot":true}`, Want: []string{"Successfully clicked on the element.", "## Latest page snapshot", `checkbox "Remember me"`}, Not: []string{`checkbox "Remember me" checked`}},
		{Tool: "type_text", Args: `{"text":"xyz"}`, Want: []string{"Typed 3 characters."}},
		{Tool: "press_key", Args: `{"key":"Control+A"}`, Want: []string{"Successfully pressed key: Control+A"}},
		{Tool: "press_key", Args: `{"key":"Control+Nope"}`, Error: true},
		{Tool: "click", Args: `{"uid":"{{uid:Log in}}"}`, Want: []string{"Successfully clicked on the element."}},
		{Tool: "evaluate_script", Args: `{"function":"() => document.getElementById('out').textContent"}`,
			Want: []string{`\"user\":\"bob\"`, `\"color\":\"b\"`, `\"bio\":\"hello\"`, `\"count\":\"7\"`, `\"remember\":false`, `\"combo\":\"Control+a\"`, `\"submitted\":true`}},
		{Tool: "take_snapshot", Args: `{"verbose":true}`, Want: []string{"LabelText", `textbox "Username" value="bob"`}},
		{Tool: "take_snapshot", Args: `{"filePath":"{{dir}}/snap.txt"}`, Want: []string{"Saved snapshot to {{dir}}/snap.txt."}},
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/actions.html"}`},
		{Tool: "take_snapshot", Want: []string{`button "Hover me"`, `region "Drop zone"`}},
		{Tool: "hover", Args: `{"uid":"{{uid:Hover me}}"}`, Want: []string{"Successfully hovered over the element."}},
		{Tool: "click", Args: `{"uid":"{{uid:Double me}}","dblClick":true}`, Want: []string{"Successfully double clicked on the element."}},
		{Tool: "click", Args: `{"uid":"{{uid:Far away}}"}`, Want: []string{"Successfully clicked on the element."}},
		{Tool: "take_snapshot", Want: []string{`button "Hovered"`, `button "Double clicked"`, `button "Far clicked" focusable focused`}},
		{Tool: "drag", Args: `{"from_uid":"{{uid:Item A}}","to_uid":"{{uid:Drop zone}}"}`, Want: []string{"Successfully dragged the element."}},
		{Tool: "click", Args: `{"uid":"{{uid:Slow}}"}`, Want: []string{"Successfully clicked on the element."}},
		{Tool: "wait_for", Args: `{"text":["Appeared later"]}`, Want: []string{`Found "Appeared later" on the page.`, "## Latest page snapshot", `"Appeared later"`}},
		{Tool: "wait_for", Args: `{"text":["Never shown"],"timeout":300}`, Error: true, Want: []string{`Timed out after waiting 300ms: none of ["Never shown"] appeared on the page.`}},
		{Tool: "wait_for", Args: `{"text":[]}`, Error: true},
		{Tool: "click", Args: `{"uid":"{{uid:Go to form}}"}`, Want: []string{"Successfully clicked on the element.", "The page navigated to {{site}}/pages/form.html."}},
		{Tool: "list_pages", Want: []string{pages("1", "Probe form", "/pages/form.html")}},
		{Tool: "click", Args: `{"uid":"1_1"}`, Error: true, Want: []string{`no element with uid "1_1"; take a new snapshot`}},
		{Tool: "click", Error: true, Want: []string{`missing required argument "uid"`, "click accepts:"}},
		{Tool: "take_snapshot"},
		{Tool: "get_css_styles", Args: `{"uid":"{{uid:Log in}}"}`, Want: []string{"(button#login)", "### Computed style", "display: inline-block", "### Matched rules", "/* user-agent stylesheet */"}},
		{Tool: "upload_file", Args: `{"uid":"{{uid:Log in}}","filePaths":["/etc/passwd"]}`, Error: true, Want: []string{"outside the temp directory"}},
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/actions.html"}`},
		{Tool: "take_snapshot"},
		{Tool: "upload_file", Args: `{"uid":"{{uid:Attach}}","filePaths":["{{dir}}/a.txt"]}`, Want: []string{"Uploaded 1 file(s)."}},
		{Tool: "evaluate_script", Args: `{"function":"() => document.title"}`, Want: []string{`"a.txt:5"`}},
	}, Setup: func(e *Env) {
		if err := os.WriteFile(filepath.Join(e.Dir, "a.txt"), []byte("hello"), 0o600); err != nil {
			e.T.Fatal(err)
		}
	}}
}

// dialogs opens alert, confirm and prompt dialogs and answers them.
func dialogs() Scenario {
	return Scenario{Name: "dialogs", Steps: []Step{
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/actions.html"}`},
		{Tool: "take_snapshot"},
		{Tool: "click", Args: `{"uid":"{{uid:Alert}}"}`, Want: []string{"Successfully clicked on the element.\nThe action opened a dialog (alert); answer it with handle_dialog.", "# Open dialog\nalert: hello dialog.\nCall handle_dialog"}},
		{Tool: "take_snapshot", Error: true, Want: []string{`a alert dialog is open on the page ("hello dialog") and blocks it; call handle_dialog`}},
		{Tool: "handle_dialog", Args: `{"action":"accept"}`, Want: []string{`Successfully accepted the alert dialog "hello dialog".`, "## Pages\n" + pages("1", "Actions", "/pages/actions.html") + " [selected]"}},
		{Tool: "click", Args: `{"uid":"{{uid:Confirm}}"}`, Want: []string{"confirm: Sure?."}},
		{Tool: "handle_dialog", Args: `{"action":"maybe"}`, Error: true, Want: []string{`argument "action"`}},
		{Tool: "handle_dialog", Args: `{"action":"dismiss"}`, Want: []string{`Successfully dismissed the confirm dialog "Sure?".`}},
		{Tool: "click", Args: `{"uid":"{{uid:Prompt}}"}`, Want: []string{`prompt: Name? (default value: "anon").`}},
		{Tool: "handle_dialog", Args: `{"action":"accept","promptText":"Ada"}`, Want: []string{`Successfully accepted the prompt dialog "Name?".`}},
		{Tool: "handle_dialog", Args: `{"action":"accept"}`, Error: true, Want: []string{"no dialog is open on this page"}},
		{Tool: "evaluate_script", Args: `{"function":"() => { confirm('From script?'); return document.title }","dialogAction":"dismiss"}`,
			Want: []string{`"prompt:Ada"`, `Dismissed a confirm dialog: "From script?".`}},
	}}
}

// debugging reads console messages and evaluates scripts.
func debugging() Scenario {
	return Scenario{Name: "debugging", Steps: []Step{
		// Attached before the page loads, so that no message is missed.
		{Tool: "list_console_messages", Want: []string{"<no console messages found>"}},
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/console.html"}`},
		{Tool: "wait_for", Args: `{"text":["Email"]}`, Want: []string{`Found "Email" on the page.`}},
		{Tool: "list_console_messages", Want: []string{"## Console messages", `[log] form page loaded {"user":"ada","tags":Array(2)} (2 args)`,
			"[log] repeated (1 args) [3 times]", "[error] bad Error: inner (2 args)", "[error] Uncaught ReferenceError: undefinedThing is not defined", "[issue] Generic: FormLabelForNameError"}},
		{Tool: "get_console_message", Args: `{"msgid":{{id:form page loaded}}}`, Want: []string{"Arg #1: {\"user\":\"ada\",\"tags\":[1,2]}", "### Stack trace", "at <anonymous> ({{site}}/pages/console.html:6:11)"}},
		{Tool: "list_console_messages", Args: `{"types":["error"],"includeStackTraces":true}`,
			Want: []string{"[error] bad Error: inner", "at fail ({{site}}/pages/console.html:11:29)", "Note: stack trace line and column numbers use 1-based indexing"}, Not: []string{"[log]"}},
		{Tool: "list_console_messages", Args: `{"types":["shout"]}`, Error: true, Want: []string{`argument "types"`}},
		{Tool: "list_console_messages", Args: `{"pageSize":2,"pageIdx":1}`, Want: []string{"Showing 3-4 of "}},
		{Tool: "list_console_messages", Args: `{"pageIdx":-1}`, Error: true, Want: []string{`argument "pageIdx" is -1`}},
		{Tool: "get_console_message", Args: `{"msgid":999}`, Error: true, Want: []string{"no console message with msgid 999"}},
		{Tool: "evaluate_script", Args: `{"function":"() => ({a: 1, b: [document.title]})"}`, Want: []string{`{"a":1,"b":["Console"]}`}},
		{Tool: "evaluate_script", Args: `{"function":"() => { throw new Error('kaput') }"}`, Error: true, Want: []string{"the script threw: Error: kaput"}},
		{Tool: "evaluate_script", Args: `{"function":"1 + 1; document.title","format":"script"}`, Want: []string{`"Console"`}},
		{Tool: "evaluate_script", Args: `{"function":"async () => { console.log('from eval'); return 5 }","filePath":"{{dir}}/eval.json"}`, Want: []string{"Saved the script's result (1 bytes of JSON) to {{dir}}/eval.json."}},
		{Tool: "take_snapshot"},
		{Tool: "evaluate_script", Args: `{"function":"(el) => el.tagName","args":["{{uid:Email}}"]}`, Want: []string{`"LABEL"`}},
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/sourcemap.html"}`},
		{Tool: "list_console_messages", Args: `{"includePreservedMessages":true}`, Want: []string{"[log] form page loaded", "[log] from eval (1 args)", "[error] mapped Error: x (2 args)"}},
		{Tool: "list_console_messages", Want: []string{"Showing 1-1 of 1", "[error] mapped Error: x"}, Not: []string{"form page loaded"}},
		{Tool: "get_console_message", Args: `{"msgid":{{id:mapped Error}}}`, Want: []string{"Message: error> mapped Error: x", "at fail ({{site}}/src/app.ts:2:3)"}},
	}}
}

// network lists and reads requests.
func network() Scenario {
	return Scenario{Name: "network", Steps: []Step{
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/network.html"}`},
		{Tool: "evaluate_script", Args: `{"function":"() => window.done"}`, Want: []string{`"ok"`}},
		{Tool: "list_network_requests", Want: []string{"## Network requests", "Showing 1-6 of 6", "reqid=1 GET {{site}}/pages/network.html [200]",
			"reqid=2 GET {{site}}/style.css [failed - net::ERR_ABORTED]", "POST {{site}}/api/login [404]"}},
		{Tool: "list_network_requests", Args: `{"resourceTypes":["fetch","xhr"]}`, Want: []string{"Showing 1-3 of 3", "POST {{site}}/api/login"}, Not: []string{"style.css"}},
		{Tool: "list_network_requests", Args: `{"pageSize":1,"pageIdx":1}`, Want: []string{"Showing 2-2 of 6 (Page 2 of 6).", "reqid=2 GET"}},
		{Tool: "get_network_request", Want: []string{"## Request {{site}}/pages/network.html", "Status: 200", "### Request Headers", "### Response Headers", "- Content-Type:text/html; charset=utf-8", "### Response Body", "window.done = (async"}},
		{Tool: "get_network_request", Args: `{"reqid":2}`, Want: []string{"## Request {{site}}/style.css", "### Request failed with\nnet::ERR_ABORTED"}},
		{Tool: "get_network_request", Args: `{"reqid":3}`, Want: []string{"## Request {{site}}/api/login", "Status: 404", "### Request Body", `{"user":"ada"}`}},
		{Tool: "get_network_request", Args: `{"reqid":1,"responseFilePath":"{{dir}}/body.html"}`, Want: []string{"Saved to {{dir}}/body.html."}},
		{Tool: "get_network_request", Args: `{"reqid":999}`, Error: true, Want: []string{"no network request with reqid 999"}},
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/common.html"}`},
		{Tool: "list_network_requests", Args: `{"includePreservedRequests":true}`, Want: []string{"reqid=1 GET {{site}}/pages/network.html [200]", "reqid=7 GET {{site}}/pages/common.html [200]"}},
		{Tool: "list_network_requests", Want: []string{"reqid=7 GET {{site}}/pages/common.html [200]"}, Not: []string{"network.html"}},
	}}
}

// screenshot captures the viewport, the page and an element.
func screenshot() Scenario {
	return Scenario{Name: "screenshot", Steps: []Step{
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/common.html"}`},
		{Tool: "take_screenshot", Images: 1, Want: []string{"Took a screenshot of the current page's viewport."}},
		{Tool: "take_screenshot", Args: `{"format":"jpeg","quality":50,"fullPage":true}`, Images: 1, Want: []string{"Took a screenshot of the full current page."}},
		{Tool: "take_snapshot"},
		{Tool: "take_screenshot", Args: `{"uid":"1_1","format":"webp"}`, Images: 1, Want: []string{`Took a screenshot of node with uid "1_1".`}},
		{Tool: "take_screenshot", Args: `{"filePath":"{{dir}}/shot.png"}`, Want: []string{"Saved screenshot to {{dir}}/shot.png."}},
		{Tool: "take_screenshot", Args: `{"filePath":"/etc/shot.png"}`, Error: true, Want: []string{"filePath /etc/shot.png (resolved to /etc/shot.png) is outside the temp directory", "--allowUnrestrictedPaths"}},
		{Tool: "take_screenshot", Args: `{"format":"gif"}`, Error: true, Want: []string{`argument "format": enum: gif does not equal any of: [png jpeg webp]`}},
		{Tool: "take_screenshot", Args: `{"bogus":1}`, Error: true, Want: []string{`unknown argument "bogus"; take_screenshot accepts: filePath, format, fullPage, pageId, quality, uid`}},
	}, After: func(e *Env) { e.WantFile("shot.png", "\x89PNG") }}
}

// emulation emulates devices and conditions, and resizes the page.
func emulation() Scenario {
	return Scenario{Name: "emulation", Steps: []Step{
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/common.html"}`},
		{Tool: "emulate", Args: `{"networkConditions":"Slow 3G","cpuThrottlingRate":4}`, Want: []string{"Emulation updated.", "Emulating network conditions: Slow 3G", "Emulating CPU throttling: 4x slowdown"}},
		{Tool: "emulate", Args: `{"geolocation":"48.85,2.29","userAgent":"TestAgent/1.0","colorScheme":"dark"}`,
			Want: []string{"Emulating geolocation: latitude=48.85, longitude=2.29", "Emulating user agent: TestAgent/1.0", "Emulating color scheme: dark"}, Not: []string{"Slow 3G"}},
		{Tool: "emulate", Args: `{"viewport":"390x844x3,mobile,touch","forcedColors":"active","prefersReducedMotion":"reduce"}`,
			// The emulation is listed once, after the reload.
			Want: []string{"Reloaded the page, which learns whether it runs on a touch or mobile device only when it loads.\nEmulation updated.\nEmulating viewport: 390x844x3,mobile,touch", "Emulating forced colors: active"}},
		{Tool: "emulate", Args: `{"extraHttpHeaders":"{\"X-Test\": \"1\"}","prefersContrast":"more"}`, Want: []string{"Emulating prefers-contrast: more", "Sending extra HTTP headers: X-Test"}},
		{Tool: "evaluate_script", Args: `{"function":"() => [navigator.userAgent, innerWidth, matchMedia('(prefers-color-scheme: dark)').matches]"}`, Want: []string{`HeadlessChrome/`, `,1280,false]`}},
		{Tool: "emulate", Args: `{"geolocation":"north"}`, Error: true, Want: []string{`geolocation "north" has no comma`}},
		{Tool: "emulate", Args: `{"viewport":"wide"}`, Error: true, Want: []string{`viewport "wide" does not start with a size like 390x844x3`}},
		{Tool: "emulate", Args: `{"networkConditions":"Dialup"}`, Error: true, Want: []string{`argument "networkConditions": enum: Dialup does not equal any of`}},
		{Tool: "emulate", Want: []string{"Emulation updated."}},
		{Tool: "resize_page", Args: `{"width":800,"height":600}`, Want: []string{"The page is now 800x600."}},
		{Tool: "resize_page", Args: `{"width":800}`, Error: true, Want: []string{`missing required argument "height"`}},
		{Tool: "evaluate_script", Args: `{"function":"() => [innerWidth, innerHeight]"}`, Want: []string{"[800,600]"}},
		{Tool: "navigate_page", Args: `{"type":"reload"}`, Want: []string{"Reloaded {{site}}/pages/common.html."}},
	}}
}

// performance records a trace of a page load and reads an insight.
func performance() Scenario {
	return Scenario{Name: "performance", Steps: []Step{
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/common.html"}`},
		{Tool: "performance_start_trace", Args: `{"filePath":"{{dir}}/trace.json.gz"}`, Want: []string{"The performance trace has been stopped.",
			"The raw trace data was saved to {{dir}}/trace.json.gz.", "## Summary of Performance trace findings:", "URL: {{site}}/pages/common.html", "## insight set id: NAVIGATION_0", "- LCP: "}},
		{Tool: "performance_analyze_insight", Args: `{"insightSetId":"NAVIGATION_0","insightName":"LCPBreakdown"}`, Want: []string{"## Insight: LCP breakdown (LCPBreakdown) in NAVIGATION_0", "The LCP element is MAIN"}},
		{Tool: "performance_analyze_insight", Args: `{"insightSetId":"NAVIGATION_0","insightName":"Nope"}`, Error: true},
		{Tool: "performance_analyze_insight", Args: `{"insightSetId":"NOPE","insightName":"LCPBreakdown"}`, Error: true, Want: []string{`unknown insight set "NOPE"; the insight sets of the last trace are: NAVIGATION_0`}},
		{Tool: "performance_start_trace", Args: `{"reload":false,"autoStop":false}`, Want: []string{"The performance trace is being recorded."}},
		{Tool: "performance_start_trace", Args: `{"reload":false,"autoStop":false}`, Error: true, Want: []string{"a performance trace is already running on page 1"}},
		{Tool: "evaluate_script", Args: `{"function":"() => { for (let i = 0; i < 1e5; i++); return 1 }"}`},
		{Tool: "performance_stop_trace", Args: `{"filePath":"{{dir}}/trace2.json"}`, Want: []string{"The performance trace has been stopped.", "saved to {{dir}}/trace2.json."}},
		{Tool: "performance_stop_trace", Error: true, Want: []string{"no performance trace is running on page 1; start one with performance_start_trace"}},
	}, After: func(e *Env) { e.WantFile("trace2.json", `"traceEvents"`) }}
}

// memory takes a heap snapshot of a small page and analyses it.
func memory() Scenario {
	const snap = `"filePath":"{{dir}}/a.heapsnapshot"`
	return Scenario{Name: "memory", Options: tools.Options{Conditions: map[tools.Condition]bool{tools.ConditionMemoryDebugging: true}}, Steps: []Step{
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/inner.html"}`},
		{Tool: "take_heapsnapshot", Args: `{"filePath":"{{dir}}/a"}`, Want: []string{"Heap snapshot saved to {{dir}}/a.heapsnapshot (2.3 MB)."}},
		{Tool: "get_heapsnapshot_summary", Args: `{` + snap + `}`, Want: []string{"## Heap Snapshot Data", `"nodeCount": 26461`, "### Native Contexts", "system / NativeContext / {{site}}", "Context count: 2"}},
		{Tool: "get_heapsnapshot_details", Args: `{` + snap + `,"pageSize":5}`, Want: []string{"Objects: 12272", "Showing 1-5 of 743 (Page 1 of 149).", "id,className,count,selfSize,retainedSize", "175,blink::CSSDefaultStyleSheets,1,0.1 kB,174 kB", "Next page: 1"}},
		{Tool: "get_heapsnapshot_details", Args: `{` + snap + `,"filterName":"bogus"}`, Error: true, Want: []string{`argument "filterName": enum: bogus`}},
		{Tool: "get_heapsnapshot_details", Args: `{` + snap + `,"filterName":"objectsRetainedByEventHandlers","pageSize":3}`},
		{Tool: "get_heapsnapshot_class_nodes", Args: `{` + snap + `,"id":175,"pageSize":3}`, Want: []string{"## Objects of class blink::CSSDefaultStyleSheets", "98,blink::CSSDefaultStyleSheets,native,3,0.1 kB,174 kB"}},
		{Tool: "query_heapsnapshot_objects", Args: `{` + snap + `,"className":"Window","pageSize":3}`, Want: []string{"Showing 1-3 of 36 (Page 1 of 12).", "32763,Window [JSGlobalObject] / {{site}},object,4,0.0 kB,53.4 kB"}},
		{Tool: "query_heapsnapshot_objects", Args: `{` + snap + `,"retainedSize":"lots"}`, Error: true},
		{Tool: "get_heapsnapshot_object_details", Args: `{` + snap + `,"nodeId":{{node}}}`, Want: []string{"### Object Details", "id: @32763", "retainerCount: 3"}},
		{Tool: "get_heapsnapshot_object_details", Args: `{` + snap + `,"nodeId":123456789}`, Error: true},
		{Tool: "get_heapsnapshot_edges", Args: `{` + snap + `,"nodeId":{{node}},"pageSize":3}`, Want: []string{"## References of @32763 Window [JSGlobalObject]", "Showing 1-3 of 663", "<symbol V8PrivateProperty::CachedAccessor::kWindowProxy>,property,32761"}},
		{Tool: "get_heapsnapshot_retainers", Args: `{` + snap + `,"nodeId":{{node}}}`, Want: []string{"## Retainers of @32763", "global_object,internal,7399,system / NativeContext"}},
		{Tool: "get_heapsnapshot_retaining_paths", Args: `{` + snap + `,"nodeId":{{node}},"maxNodes":5}`, Want: []string{"### Retaining Paths", "  <- @23 (Global handles) via internal 7 / V8PerContextData::context_ (distance: 2)"}},
		{Tool: "get_heapsnapshot_dominators", Args: `{` + snap + `,"nodeId":32763}`, Want: []string{"### Dominator Chain", "32763,Window [JSGlobalObject] / {{site}},0.0 kB,53.4 kB", "3,(GC roots),0.0 kB,744 kB", "1,(root),0.0 kB,744 kB"}},
		{Tool: "get_heapsnapshot_duplicate_strings", Args: `{` + snap + `,"pageSize":3}`, Want: []string{"### Duplicate Strings", "Showing 1-3 of 5", `"""WebAssembly""",2,0.0 kB,0.0 kB,false,@`}},
		{Tool: "compare_heapsnapshots", Args: `{"baseFilePath":"{{dir}}/a.heapsnapshot","currentFilePath":"{{dir}}/a.heapsnapshot","pageSize":3}`, Want: []string{"### Heap Snapshot Diff", "Total: # new: 0, # deleted: 0, # delta: 0, alloc size: 0.0 kB, freed size: 0.0 kB, size delta: 0.0 kB", "Showing 0-0 of 0 (Page 1 of 1).", "index,className,addedCount"}},
		{Tool: "analyze_heapsnapshot_contexts", Args: `{` + snap + `}`, Want: []string{"No live contexts with dead fields were found: this snapshot has no scope data"}},
		{Tool: "close_heapsnapshot", Args: `{` + snap + `}`, Want: []string{"Closed heap snapshot: {{dir}}/a.heapsnapshot"}},
		{Tool: "get_heapsnapshot_summary", Args: `{"filePath":"{{dir}}/missing.heapsnapshot"}`, Error: true},
		{Tool: "get_heapsnapshot_summary", Args: `{"filePath":"/etc/passwd"}`, Error: true, Want: []string{"filePath /etc/passwd (resolved to /etc/passwd) is outside the temp directory"}},
	}}
}

// slim drives the three tools of --slim mode.
func slim() Scenario {
	return Scenario{Name: "slim", Options: tools.Options{Slim: true}, Steps: []Step{
		{Tool: "navigate", Args: `{"url":"{{site}}/pages/common.html"}`, Want: []string{"Navigated to {{site}}/pages/common.html."}},
		{Tool: "evaluate", Args: `{"script":"document.title"}`, Want: []string{`"Common page"`}},
		{Tool: "evaluate", Args: `{"script":"throw new Error('slim failure')"}`, Error: true, Want: []string{"slim failure"}},
		{Tool: "screenshot", Images: 1},
		{Tool: "list_pages", Error: true, Want: []string{`unknown tool "list_pages"; available tools: navigate, evaluate, screenshot`}},
	}}
}

// thirdParty lists and runs a page's third-party developer tools and its
// WebMCP tools.
func thirdParty() Scenario {
	return Scenario{Name: "thirdparty", Options: tools.Options{Categories: map[tools.Category]bool{
		tools.CategoryExperimentalThirdParty: true, tools.CategoryExperimentalWebmcp: true,
	}}, Steps: []Step{
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/thirdparty.html"}`, Want: []string{"## Third-party developer tools", "Shop devtools: Runtime state of the shop app", `name="add", description="Adds two numbers."`}},
		{Tool: "list_3p_developer_tools", Want: []string{`name="launchButton"`, "window.__dtmcp.executeTool"}},
		{Tool: "execute_3p_developer_tool", Args: `{"toolName":"add","params":"{\"a\": 2, \"b\": 3}"}`, Want: []string{"Tool \"add\" returned:\n```json\n5\n```"}},
		{Tool: "execute_3p_developer_tool", Args: `{"toolName":"add","params":"{\"a\": \"two\", \"b\": 3}"}`, Error: true, Want: []string{`inputSchema of tool "add"`, `field "a"`}},
		{Tool: "execute_3p_developer_tool", Args: `{"toolName":"add","params":"[2, 3]"}`, Error: true, Want: []string{"params must be a JSON object"}},
		{Tool: "execute_3p_developer_tool", Args: `{"toolName":"fail"}`, Error: true, Want: []string{`tool "fail" threw: the cart store is locked`}},
		{Tool: "execute_3p_developer_tool", Args: `{"toolName":"nope","params":"{}"}`, Error: true, Want: []string{`no developer tool named "nope"`}},
		{Tool: "execute_3p_developer_tool", Args: `{"toolName":"launchButton"}`, Want: []string{`"uid": "`, "## Latest page snapshot"}, Not: []string{`"uid=`}},
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/webmcp.html"}`, Want: []string{"## WebMCP tools", `name="greet"`}},
		{Tool: "list_webmcp_tools", Want: []string{`name="greet", description="Greets someone."`, `name="search", description="Searches the catalog"`, "declared by form uid="}},
		{Tool: "execute_webmcp_tool", Args: `{"toolName":"greet","input":"{\"name\": \"Ada\"}"}`, Want: []string{`"status": "Completed"`, `"output": "Hello Ada"`}},
		{Tool: "execute_webmcp_tool", Args: `{"toolName":"checkout"}`, Want: []string{`"status": "Error"`, `"errorText": "Error: the cart is empty"`}},
		{Tool: "execute_webmcp_tool", Args: `{"toolName":"search","input":"{\"query\": \"shoes\"}"}`, Want: []string{`"output": "3 results for shoes"`}},
		{Tool: "execute_webmcp_tool", Args: `{"toolName":"greet","input":"\"Ada\""}`, Error: true, Want: []string{"input must be a JSON object"}},
		{Tool: "execute_webmcp_tool", Args: `{"toolName":"nope"}`, Error: true, Want: []string{`no WebMCP tool named "nope"`}},
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/form.html"}`},
		{Tool: "list_webmcp_tools", Want: []string{"registered no WebMCP tools"}},
	}}
}

// frames reads and clicks into same-site and cross-site frames and a
// shadow root, and opens a page in an isolated context.
func frames() Scenario {
	return Scenario{Name: "frames", Options: tools.Options{Conditions: map[tools.Condition]bool{tools.ConditionExperimentalVision: true}}, Steps: []Step{
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/frames.html?cross={{crosssite}}/pages/inner.html"}`},
		{Tool: "take_snapshot", Want: []string{`RootWebArea "Frames"`, `button "Shadow button"`, `RootWebArea "Inner"`}},
		{Tool: "click", Args: `{"uid":"{{uid:Shadow button}}"}`, Want: []string{"Successfully clicked on the element."}},
		{Tool: "take_snapshot", Want: []string{`button "Shadow clicked"`}},
		{Tool: "click_at", Args: `{"x":10,"y":10}`, Want: []string{"Successfully clicked at the coordinates."}},
		{Tool: "new_page", Args: `{"url":"{{site}}/pages/inner.html","isolatedContext":"alice"}`, Want: []string{"Opened page 2."}},
		{Tool: "evaluate_script", Args: `{"function":"() => { localStorage.x = 'alice'; return location.href }"}`, Want: []string{`"{{site}}/pages/inner.html"`}},
		{Tool: "new_page", Args: `{"url":"{{site}}/pages/inner.html","isolatedContext":"bob"}`, Want: []string{"Opened page 3."}},
		{Tool: "evaluate_script", Args: `{"function":"() => localStorage.x ?? 'none'"}`, Want: []string{`"none"`}},
		{Tool: "navigate_page", Args: `{"url":"http://127.0.0.1:9/unsafe"}`, Want: []string{"Unable to navigate in the selected page: net::ERR_UNSAFE_PORT at http://127.0.0.1:9/unsafe.", "(http://127.0.0.1:9/unsafe) [selected] isolatedContext=bob"}},
		{Tool: "list_pages", Want: []string{"1: Frames", "2: Inner ({{site}}/pages/inner.html) isolatedContext=alice", "(http://127.0.0.1:9/unsafe) [selected] isolatedContext=bob"}},
	}}
}

// blocked loads a page whose requests a URL filter blocks.
func blocked() Scenario {
	return Scenario{Name: "blocked", Browser: browser.Options{BlockedURLPatterns: []string{"*/style.css", "*/api/*"}, AllowWebSockets: true}, Steps: []Step{
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/network.html"}`},
		{Tool: "evaluate_script", Args: `{"function":"() => window.done.catch(e => 'refused: ' + e.message)"}`},
		{Tool: "list_network_requests", Want: []string{"GET {{site}}/style.css [failed - inspector]", "POST {{site}}/api/login [failed - inspector]"}},
	}}
}

// extensions installs, lists, triggers, reloads and uninstalls an unpacked
// extension copied to the temporary directory.
func extensions() Scenario {
	return Scenario{Name: "extensions", ChromeArgs: []string{"--enable-unsafe-extension-debugging"},
		Options: tools.Options{Categories: map[tools.Category]bool{tools.CategoryExtensions: true}},
		Setup: func(e *Env) {
			if err := os.CopyFS(filepath.Join(e.Dir, "extension"), os.DirFS(filepath.Join(Testdata(), "extension"))); err != nil {
				e.T.Fatal(err)
			}
		},
		Steps: []Step{
			{Tool: "list_extensions", Want: []string{"## Extensions", "No extensions installed."}},
			{Tool: "install_extension", Args: `{"path":"{{dir}}/extension"}`, Want: []string{"Extension installed. Id: "}},
			{Tool: "list_extensions", Want: []string{`"Probe extension" v1.0 Enabled`}},
			{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/inner.html"}`},
			{Tool: "trigger_extension_action", Args: `{"id":"{{ext}}"}`, Want: []string{"Extension action triggered for id {{ext}} on page 1."}},
			{Tool: "reload_extension", Args: `{"id":"{{ext}}"}`, Want: []string{"Extension reloaded. Id: {{ext}}"}},
			{Tool: "uninstall_extension", Args: `{"id":"{{ext}}"}`, Want: []string{"Extension uninstalled. Id: {{ext}}"}},
			{Tool: "list_extensions", Want: []string{"No extensions installed."}},
			{Tool: "uninstall_extension", Args: `{"id":"{{ext}}"}`, Error: true, Want: []string{"no unpacked extension with id"}},
			{Tool: "install_extension", Args: `{"path":"/usr/share"}`, Error: true, Want: []string{"--allowUnrestrictedPaths"}},
			{Tool: "install_extension", Args: `{"path":"{{dir}}"}`, Error: true, Want: []string{"anifest"}},
		}}
}

// pwa installs the web app of e2e/testdata/pwa, reads its state, launches
// and uninstalls it.
func pwa() Scenario {
	const id = `"manifestId":"{{site}}/pwa/app"`
	return Scenario{Name: "pwa", Options: tools.Options{Categories: map[tools.Category]bool{tools.CategoryPwa: true}}, Steps: []Step{
		{Tool: "install_pwa", Args: `{` + id + `,"installUrlOrBundleUrl":"{{site}}/pwa/","displayMode":"standalone"}`,
			Want: []string{"Installed PWA with manifest ID: {{site}}/pwa/app", "Display mode set to: standalone"}},
		{Tool: "get_os_app_state", Args: `{` + id + `}`, Want: []string{"OS app state for manifest ID: {{site}}/pwa/app", "Badge count: 0", "File handlers: []"}},
		{Tool: "launch_pwa", Args: `{` + id + `,"url":"{{site}}/pwa/other.html"}`, Want: []string{"Launched PWA with manifest ID: {{site}}/pwa/app as page 2 ({{site}}/pwa/other.html)", "## Pages", "2: {{site}}/pwa/other.html [selected]"}},
		{Tool: "uninstall_pwa", Args: `{` + id + `}`, Want: []string{"Uninstalled PWA with manifest ID: {{site}}/pwa/app"}},
		{Tool: "get_os_app_state", Args: `{` + id + `}`, Error: true, Want: []string{"Unknown web-app manifest id", "install_pwa"}},
	}}
}

// guard refuses state-changing tools on a sensitive page when the client
// cannot ask the user, and lets reading tools through.
func guard() Scenario {
	return Scenario{Name: "guard", Options: tools.Options{Guard: tools.GuardOptions{Sensitive: true, ExtraPatterns: []string{"*://*/pages/form.html"}}}, Steps: []Step{
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/form.html"}`},
		{Tool: "take_snapshot", Want: []string{`button "Log in"`}},
		{Tool: "click", Args: `{"uid":"{{uid:Log in}}"}`, Error: true, Want: []string{
			`refused click on {{site}}/pages/form.html, which matches the sensitive page pattern "*://*/pages/form.html": this client cannot ask you for confirmation`}},
		{Tool: "evaluate_script", Args: `{"function":"() => 1"}`, Error: true, Want: []string{"refused evaluate_script on {{site}}/pages/form.html"}},
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/actions.html"}`},
		{Tool: "evaluate_script", Args: `{"function":"() => 1"}`, Want: []string{"1"}},
	}}
}
