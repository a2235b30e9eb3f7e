package tools

import "github.com/devtools-mcp/devtools-mcp/jsonrpc"

// hints are what a client may assume about a tool besides whether it only
// reads: clients auto-approve, group and warn by them, so they are chosen
// per tool rather than derived. destructive: it may undo or lose something
// (submit a form, accept a confirm(), close a tab, run arbitrary script);
// idempotent: calling it again with the same arguments changes nothing more;
// openWorld: it lets the page reach the network (navigations, input and
// scripts the page's code reacts to), rather than only the browser's state.
type hints struct {
	title                              string
	destructive, idempotent, openWorld bool
}

// toolHints returns a tool's hints; ok is false for a tool that has none
// yet, which TestEveryToolHasAnnotations reports.
func toolHints(name string) (h hints, ok bool) {
	switch name {
	case "click":
		return hints{"Click an element", true, false, true}, true
	case "click_at":
		return hints{"Click at coordinates", true, false, true}, true
	case "hover":
		return hints{"Hover over an element", false, true, true}, true
	case "drag":
		return hints{"Drag an element onto another", true, false, true}, true
	case "fill":
		return hints{"Fill in a field", false, true, true}, true
	case "fill_form":
		return hints{"Fill in a form", false, true, true}, true
	case "type_text":
		return hints{"Type text", false, false, true}, true
	case "press_key":
		return hints{"Press a key", true, false, true}, true
	case "upload_file":
		return hints{"Upload a file", false, true, true}, true
	case "handle_dialog":
		return hints{"Answer a dialog", true, false, true}, true
	case "list_pages":
		return hints{"List pages", false, true, false}, true
	case "select_page":
		return hints{"Select a page", false, true, false}, true
	case "close_page":
		return hints{"Close a page", true, false, false}, true
	case "new_page":
		return hints{"Open a new page", false, false, true}, true
	case "navigate_page", "navigate":
		return hints{"Navigate the page", false, false, true}, true
	case "wait_for":
		return hints{"Wait for text", false, true, false}, true
	case "take_snapshot":
		return hints{"Take a text snapshot", false, true, false}, true
	case "evaluate_script", "evaluate":
		return hints{"Run JavaScript in the page", true, false, true}, true
	case "list_console_messages":
		return hints{"List console messages", false, true, false}, true
	case "get_console_message":
		return hints{"Get a console message", false, true, false}, true
	case "list_network_requests":
		return hints{"List network requests", false, true, false}, true
	case "get_network_request":
		return hints{"Get a network request", false, true, false}, true
	case "take_screenshot", "screenshot":
		return hints{"Take a screenshot", false, true, false}, true
	case "get_css_styles":
		return hints{"Get CSS styles", false, true, false}, true
	case "emulate":
		return hints{"Emulate device conditions", false, true, false}, true
	case "resize_page":
		return hints{"Resize the page", false, true, false}, true
	case "performance_start_trace":
		return hints{"Start a performance trace", false, false, true}, true
	case "performance_stop_trace":
		return hints{"Stop the performance trace", false, false, false}, true
	case "performance_analyze_insight":
		return hints{"Explain a performance insight", false, true, false}, true
	case "lighthouse_audit":
		return hints{"Audit the page", false, false, true}, true
	case "screencast_start":
		return hints{"Start recording a video", false, false, false}, true
	case "screencast_stop":
		return hints{"Stop recording the video", false, false, false}, true
	case "get_tab_id":
		return hints{"Get the page's tab id", false, true, false}, true
	}
	return heapHints(name)
}

// heapHints covers the memory, extension, third-party, WebMCP and PWA
// tools.
func heapHints(name string) (hints, bool) {
	switch name {
	case "take_heapsnapshot":
		return hints{"Take a heap snapshot", false, false, false}, true
	case "get_heapsnapshot_summary":
		return hints{"Summarise a heap snapshot", false, true, false}, true
	case "get_heapsnapshot_details":
		return hints{"Heap snapshot details", false, true, false}, true
	case "get_heapsnapshot_class_nodes":
		return hints{"Objects of a class in a heap snapshot", false, true, false}, true
	case "get_heapsnapshot_object_details":
		return hints{"A heap object's details", false, true, false}, true
	case "get_heapsnapshot_edges":
		return hints{"A heap object's references", false, true, false}, true
	case "get_heapsnapshot_retainers":
		return hints{"What retains a heap object", false, true, false}, true
	case "get_heapsnapshot_retaining_paths":
		return hints{"Retaining paths of a heap object", false, true, false}, true
	case "get_heapsnapshot_dominators":
		return hints{"Dominators of a heap object", false, true, false}, true
	case "get_heapsnapshot_duplicate_strings":
		return hints{"Duplicate strings in a heap snapshot", false, true, false}, true
	case "query_heapsnapshot_objects":
		return hints{"Query heap objects", false, true, false}, true
	case "compare_heapsnapshots":
		return hints{"Compare two heap snapshots", false, true, false}, true
	case "analyze_heapsnapshot_contexts":
		return hints{"Closures and contexts in a heap snapshot", false, true, false}, true
	case "close_heapsnapshot":
		return hints{"Close a heap snapshot", false, true, false}, true
	case "install_extension":
		return hints{"Install an extension", false, true, false}, true
	case "list_extensions":
		return hints{"List extensions", false, true, false}, true
	case "reload_extension":
		return hints{"Reload an extension", false, false, false}, true
	case "trigger_extension_action":
		return hints{"Trigger an extension's action", true, false, true}, true
	case "uninstall_extension":
		return hints{"Uninstall an extension", true, true, false}, true
	case "list_3p_developer_tools":
		return hints{"List the page's developer tools", false, true, false}, true
	case "execute_3p_developer_tool":
		return hints{"Run a page's developer tool", true, false, true}, true
	case "list_webmcp_tools":
		return hints{"List the page's WebMCP tools", false, true, false}, true
	case "execute_webmcp_tool":
		return hints{"Run a page's WebMCP tool", true, false, true}, true
	case "get_os_app_state":
		return hints{"Installed web app state", false, true, false}, true
	case "install_pwa":
		return hints{"Install a web app", false, true, true}, true
	case "launch_pwa":
		return hints{"Launch a web app", false, false, true}, true
	case "uninstall_pwa":
		return hints{"Uninstall a web app", true, true, false}, true
	case "export_recorder_flow":
		return hints{"Export a DevTools Recorder flow", false, true, false}, true
	}
	return hints{}, false
}

// annotations are the hints as MCP sends them. A read-only tool is never
// destructive, whatever the table says.
func annotations(t *Tool) *jsonrpc.ToolAnnotations {
	h, ok := toolHints(t.Name)
	if !ok {
		h = hints{destructive: !t.ReadOnly, openWorld: true}
	}
	return &jsonrpc.ToolAnnotations{
		Title:           h.title,
		ReadOnlyHint:    t.ReadOnly,
		DestructiveHint: h.destructive && !t.ReadOnly,
		IdempotentHint:  h.idempotent || t.ReadOnly,
		OpenWorldHint:   h.openWorld,
	}
}
