package tooltest

import "github.com/devtools-mcp/devtools-mcp/tools"

// Scenarios are the recorded tool sessions, one recording each.
func Scenarios() []Scenario {
	return []Scenario{
		navigation(), input(), dialogs(), debugging(), network(), screenshot(),
		emulation(), performance(), memory(), slim(), thirdParty(),
	}
}

// navigation opens, lists, selects and closes pages, and navigates one.
func navigation() Scenario {
	return Scenario{Name: "navigation", Steps: []Step{
		{Tool: "list_pages"},
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/common.html"}`},
		{Tool: "new_page", Args: `{"url":"{{site}}/pages/form.html"}`},
		{Tool: "list_pages"},
		{Tool: "select_page", Args: `{"pageId":1}`},
		{Tool: "navigate_page", Args: `{"type":"reload"}`},
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/form.html"}`},
		{Tool: "navigate_page", Args: `{"type":"back"}`},
		{Tool: "navigate_page", Args: `{"type":"forward"}`},
		{Tool: "wait_for", Args: `{"text":["Sign in"]}`},
		{Tool: "new_page", Args: `{"url":"{{site}}/pages/actions.html","background":true}`},
		{Tool: "close_page", Args: `{"pageId":2}`},
		{Tool: "close_page", Args: `{"pageId":7}`, Error: true},
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/actions.html","initScript":"window.__init = 42"}`},
		{Tool: "evaluate_script", Args: `{"function":"() => window.__init"}`},
		{Tool: "list_pages"},
	}}
}

// input fills and clicks a form and the actions page.
func input() Scenario {
	return Scenario{Name: "input", Steps: []Step{
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/form.html"}`},
		{Tool: "take_snapshot"},
		{Tool: "fill", Args: `{"uid":"{{uid:Username}}","value":"bob"}`},
		{Tool: "fill", Args: `{"uid":"{{uid:Color}}","value":"Blue"}`},
		{Tool: "fill_form", Args: `{"elements":[{"uid":"{{uid:Bio}}","value":"hello"},{"uid":"{{uid:Count}}","value":"7"}]}`},
		{Tool: "click", Args: `{"uid":"{{uid:Remember me}}","includeSnapshot":true}`},
		{Tool: "type_text", Args: `{"text":"xyz"}`},
		{Tool: "press_key", Args: `{"key":"Control+A"}`},
		{Tool: "click", Args: `{"uid":"{{uid:Log in}}"}`},
		{Tool: "evaluate_script", Args: `{"function":"() => document.getElementById('out').textContent"}`},
		{Tool: "take_snapshot", Args: `{"verbose":true}`},
		{Tool: "take_snapshot", Args: `{"filePath":"{{dir}}/snap.txt"}`},
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/actions.html"}`},
		{Tool: "take_snapshot"},
		{Tool: "hover", Args: `{"uid":"{{uid:Hover me}}"}`},
		{Tool: "click", Args: `{"uid":"{{uid:Double me}}","dblClick":true}`},
		{Tool: "click", Args: `{"uid":"{{uid:Far away}}"}`},
		{Tool: "take_snapshot"},
		{Tool: "drag", Args: `{"from_uid":"{{uid:Item A}}","to_uid":"{{uid:Drop zone}}"}`},
		{Tool: "click", Args: `{"uid":"{{uid:Slow}}"}`},
		{Tool: "wait_for", Args: `{"text":["Appeared later"]}`},
		{Tool: "click", Args: `{"uid":"{{uid:Go to form}}"}`},
		{Tool: "click", Args: `{"uid":"1_1"}`, Error: true},
		{Tool: "take_snapshot"},
		{Tool: "get_css_styles", Args: `{"uid":"{{uid:Log in}}"}`},
	}}
}

// dialogs opens alert, confirm and prompt dialogs and answers them.
func dialogs() Scenario {
	return Scenario{Name: "dialogs", Steps: []Step{
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/actions.html"}`},
		{Tool: "take_snapshot"},
		{Tool: "click", Args: `{"uid":"{{uid:Alert}}"}`},
		{Tool: "take_snapshot", Error: true},
		{Tool: "handle_dialog", Args: `{"action":"accept"}`},
		{Tool: "click", Args: `{"uid":"{{uid:Confirm}}"}`},
		{Tool: "handle_dialog", Args: `{"action":"dismiss"}`},
		{Tool: "click", Args: `{"uid":"{{uid:Prompt}}"}`},
		{Tool: "handle_dialog", Args: `{"action":"accept","promptText":"Ada"}`},
		{Tool: "handle_dialog", Args: `{"action":"accept"}`, Error: true},
		{Tool: "evaluate_script", Args: `{"function":"() => { confirm('From script?'); return document.title }","dialogAction":"dismiss"}`},
		{Tool: "evaluate_script", Args: `{"function":"() => document.title"}`},
	}}
}

// debugging reads console messages and evaluates scripts.
func debugging() Scenario {
	return Scenario{Name: "debugging", Steps: []Step{
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/console.html"}`},
		{Tool: "wait_for", Args: `{"text":["Email"]}`},
		{Tool: "list_console_messages"},
		{Tool: "list_console_messages", Args: `{"types":["error"],"includeStackTraces":true}`},
		{Tool: "list_console_messages", Args: `{"pageSize":2,"pageIdx":1}`},
		{Tool: "get_console_message", Args: `{"msgid":1}`},
		{Tool: "get_console_message", Args: `{"msgid":999}`, Error: true},
		{Tool: "evaluate_script", Args: `{"function":"() => ({a: 1, b: [document.title]})"}`},
		{Tool: "evaluate_script", Args: `{"function":"() => { throw new Error('kaput') }"}`, Error: true},
		{Tool: "evaluate_script", Args: `{"function":"1 + 1; document.title","format":"script"}`},
		{Tool: "evaluate_script", Args: `{"function":"async () => { console.log('from eval'); return 5 }","filePath":"{{dir}}/eval.json"}`},
		{Tool: "take_snapshot"},
		{Tool: "evaluate_script", Args: `{"function":"(el) => el.tagName","args":["{{uid:Email}}"]}`},
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/sourcemap.html"}`},
		{Tool: "list_console_messages", Args: `{"includePreservedMessages":true}`},
		{Tool: "list_console_messages"},
	}}
}

// network lists and reads requests.
func network() Scenario {
	return Scenario{Name: "network", Steps: []Step{
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/network.html"}`},
		{Tool: "evaluate_script", Args: `{"function":"() => window.done"}`},
		{Tool: "list_network_requests"},
		{Tool: "list_network_requests", Args: `{"resourceTypes":["fetch","xhr"]}`},
		{Tool: "list_network_requests", Args: `{"pageSize":1,"pageIdx":1}`},
		{Tool: "get_network_request"},
		{Tool: "get_network_request", Args: `{"reqid":2}`},
		{Tool: "get_network_request", Args: `{"reqid":1,"responseFilePath":"{{dir}}/body.html"}`},
		{Tool: "get_network_request", Args: `{"reqid":999}`, Error: true},
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/common.html"}`},
		{Tool: "list_network_requests", Args: `{"includePreservedRequests":true}`},
	}}
}

// screenshot captures the viewport, the page and an element.
func screenshot() Scenario {
	return Scenario{Name: "screenshot", Steps: []Step{
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/common.html"}`},
		{Tool: "take_screenshot", Images: 1},
		{Tool: "take_screenshot", Args: `{"format":"jpeg","quality":50,"fullPage":true}`, Images: 1},
		{Tool: "take_snapshot"},
		{Tool: "take_screenshot", Args: `{"uid":"1_1","format":"webp"}`, Images: 1},
		{Tool: "take_screenshot", Args: `{"filePath":"{{dir}}/shot.png"}`},
		{Tool: "take_screenshot", Args: `{"filePath":"/etc/shot.png"}`, Error: true},
		{Tool: "take_screenshot", Args: `{"format":"gif"}`, Error: true},
	}}
}

// emulation emulates devices and conditions, and resizes the page.
func emulation() Scenario {
	return Scenario{Name: "emulation", Steps: []Step{
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/common.html"}`},
		{Tool: "emulate", Args: `{"networkConditions":"Slow 3G","cpuThrottlingRate":4}`},
		{Tool: "emulate", Args: `{"geolocation":"48.85,2.29","userAgent":"TestAgent/1.0","colorScheme":"dark"}`},
		{Tool: "emulate", Args: `{"viewport":"390x844x3,mobile,touch","forcedColors":"active","prefersReducedMotion":"reduce"}`},
		{Tool: "emulate", Args: `{"extraHttpHeaders":"{\"X-Test\": \"1\"}","prefersContrast":"more"}`},
		{Tool: "evaluate_script", Args: `{"function":"() => [navigator.userAgent, innerWidth, matchMedia('(prefers-color-scheme: dark)').matches]"}`},
		{Tool: "emulate", Args: `{"geolocation":"north"}`, Error: true},
		{Tool: "emulate", Args: `{"viewport":"wide"}`, Error: true},
		{Tool: "emulate", Args: `{"networkConditions":"Dialup"}`, Error: true},
		{Tool: "emulate"},
		{Tool: "resize_page", Args: `{"width":800,"height":600}`},
		{Tool: "evaluate_script", Args: `{"function":"() => [innerWidth, innerHeight]"}`},
		{Tool: "navigate_page", Args: `{"type":"reload"}`},
	}}
}

// performance records a trace of a page load and reads an insight.
func performance() Scenario {
	return Scenario{Name: "performance", Steps: []Step{
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/common.html"}`},
		{Tool: "performance_start_trace", Args: `{"filePath":"{{dir}}/trace.json.gz"}`},
		{Tool: "performance_analyze_insight", Args: `{"insightSetId":"NAVIGATION_0","insightName":"LCPBreakdown"}`},
		{Tool: "performance_analyze_insight", Args: `{"insightSetId":"NOPE","insightName":"LCPBreakdown"}`, Error: true},
		{Tool: "performance_start_trace", Args: `{"reload":false,"autoStop":false}`},
		{Tool: "performance_start_trace", Args: `{"reload":false,"autoStop":false}`, Error: true},
		{Tool: "evaluate_script", Args: `{"function":"() => { for (let i = 0; i < 1e5; i++); return 1 }"}`},
		{Tool: "performance_stop_trace", Args: `{"filePath":"{{dir}}/trace2.json"}`},
		{Tool: "performance_stop_trace", Error: true},
	}}
}

// memory takes a heap snapshot of a small page and analyses it.
func memory() Scenario {
	return Scenario{Name: "memory", Options: tools.Options{Conditions: map[string]bool{"memoryDebugging": true}}, Steps: []Step{
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/inner.html"}`},
		{Tool: "take_heapsnapshot", Args: `{"filePath":"{{dir}}/a"}`},
		{Tool: "get_heapsnapshot_summary", Args: `{"filePath":"{{dir}}/a.heapsnapshot"}`},
		{Tool: "get_heapsnapshot_details", Args: `{"filePath":"{{dir}}/a.heapsnapshot","pageSize":5}`},
		{Tool: "get_heapsnapshot_details", Args: `{"filePath":"{{dir}}/a.heapsnapshot","filterName":"bogus"}`, Error: true},
		{Tool: "get_heapsnapshot_class_nodes", Args: `{"filePath":"{{dir}}/a.heapsnapshot","id":1,"pageSize":3}`},
		{Tool: "query_heapsnapshot_objects", Args: `{"filePath":"{{dir}}/a.heapsnapshot","className":"Window","pageSize":3}`},
		{Tool: "get_heapsnapshot_object_details", Args: `{"filePath":"{{dir}}/a.heapsnapshot","nodeId":{{node}}}`},
		{Tool: "get_heapsnapshot_edges", Args: `{"filePath":"{{dir}}/a.heapsnapshot","nodeId":{{node}},"pageSize":3}`},
		{Tool: "get_heapsnapshot_retainers", Args: `{"filePath":"{{dir}}/a.heapsnapshot","nodeId":{{node}}}`},
		{Tool: "get_heapsnapshot_retaining_paths", Args: `{"filePath":"{{dir}}/a.heapsnapshot","nodeId":{{node}},"maxNodes":5}`},
		{Tool: "get_heapsnapshot_dominators", Args: `{"filePath":"{{dir}}/a.heapsnapshot","nodeId":{{node}}}`},
		{Tool: "get_heapsnapshot_duplicate_strings", Args: `{"filePath":"{{dir}}/a.heapsnapshot","pageSize":3}`},
		{Tool: "compare_heapsnapshots", Args: `{"baseFilePath":"{{dir}}/a.heapsnapshot","currentFilePath":"{{dir}}/a.heapsnapshot","pageSize":3}`},
		{Tool: "close_heapsnapshot", Args: `{"filePath":"{{dir}}/a.heapsnapshot"}`},
		{Tool: "get_heapsnapshot_summary", Args: `{"filePath":"/etc/passwd"}`, Error: true},
	}}
}

// slim drives the three tools of --slim mode.
func slim() Scenario {
	return Scenario{Name: "slim", Options: tools.Options{Slim: true}, Steps: []Step{
		{Tool: "navigate", Args: `{"url":"{{site}}/pages/common.html"}`},
		{Tool: "evaluate", Args: `{"script":"document.title"}`},
		{Tool: "screenshot", Images: 1},
		{Tool: "list_pages", Error: true},
	}}
}

// thirdParty lists and runs a page's third-party developer tools and its
// WebMCP tools.
func thirdParty() Scenario {
	return Scenario{Name: "thirdparty", Options: tools.Options{Categories: map[tools.Category]bool{
		tools.CategoryExperimentalThirdParty: true, tools.CategoryExperimentalWebmcp: true,
	}}, Steps: []Step{
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/thirdparty.html"}`},
		{Tool: "list_3p_developer_tools"},
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/webmcp.html"}`},
		{Tool: "list_webmcp_tools"},
	}}
}
