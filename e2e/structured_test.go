package e2e

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// structured returns a result's structured content re-read as JSON, so
// the test sees what a client gets on the wire.
func structured(t *testing.T, s *server, name string, args map[string]any) map[string]any {
	t.Helper()
	res := s.call(name, args)
	if res.StructuredContent == nil {
		t.Fatalf("%s returned no structured content; text:\n%s", name, text(res))
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%s structured content is not an object: %s", name, raw)
	}
	return m
}

// TestStructuredContentIsOffByDefault checks that without the flag no tool
// declares an output schema and answers carry no structured content.
func TestStructuredContentIsOffByDefault(t *testing.T) {
	s := startServer(t, headless...)
	res, err := s.session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		if tool.OutputSchema != nil {
			t.Errorf("%s has an output schema without --experimentalStructuredContent", tool.Name)
		}
	}
	if got := s.call("list_pages", nil); got.StructuredContent != nil {
		t.Errorf("list_pages returned structured content without the flag: %v", got.StructuredContent)
	}
}

// TestStructuredContent checks the reference's shapes under
// --experimentalStructuredContent: pages, snapshot, console messages,
// network requests, pagination, dialogs and errors.
func TestStructuredContent(t *testing.T) {
	site := pages(t, map[string]string{
		"/": `<title>Structured</title><h1>Hello</h1><button onclick="alert('hi')">Alert</button>
			<script>console.warn('careful'); fetch('/data')</script>`,
		"/data": `{"ok":true}`,
	})
	s := startServer(t, append(headless, "--experimentalStructuredContent")...)
	res, err := s.session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		if schema, ok := tool.OutputSchema.(map[string]any); !ok || schema["type"] != "object" {
			t.Errorf("%s output schema = %v, want an object schema", tool.Name, tool.OutputSchema)
		}
	}

	nav := structured(t, s, "navigate_page", map[string]any{"url": site.URL + "/"})
	if msg, _ := nav["message"].(string); !strings.Contains(msg, site.URL) {
		t.Errorf("navigate_page message = %q", msg)
	}
	pages, _ := nav["pages"].([]any)
	if len(pages) != 1 {
		t.Fatalf("navigate_page pages = %v", nav["pages"])
	}
	page := pages[0].(map[string]any)
	if page["id"] != 1.0 || page["url"] != site.URL+"/" || page["title"] != "Structured" || page["selected"] != true {
		t.Errorf("page = %v", page)
	}

	snap := structured(t, s, "take_snapshot", nil)["snapshot"].(map[string]any)
	if snap["role"] != "RootWebArea" || snap["name"] != "Structured" || !strings.HasPrefix(snap["id"].(string), "1_") {
		t.Errorf("snapshot root = %v", snap)
	}
	heading := findNode(snap, "heading")
	if heading == nil || heading["name"] != "Hello" || heading["level"] != 1.0 {
		t.Errorf("heading node = %v, want name Hello and level 1 as a number", heading)
	}

	cons := structured(t, s, "list_console_messages", nil)
	msgs, _ := cons["consoleMessages"].([]any)
	if len(msgs) == 0 {
		t.Fatalf("consoleMessages = %v", cons)
	}
	first := msgs[0].(map[string]any)
	if first["type"] != "warn" || first["text"] != "careful" || first["argsCount"] != 1.0 || first["id"] == nil {
		t.Errorf("console message = %v", first)
	}
	if p, _ := cons["pagination"].(map[string]any); p["totalPages"] != 1.0 || p["currentPage"] != 0.0 {
		t.Errorf("pagination = %v", cons["pagination"])
	}
	one := structured(t, s, "get_console_message", map[string]any{"msgid": first["id"]})["consoleMessage"].(map[string]any)
	if one["text"] != "careful" || len(one["args"].([]any)) != 1 {
		t.Errorf("consoleMessage = %v", one)
	}

	var reqid any
	eventually(t, "the fetch is listed", func() bool {
		for _, r := range structuredList(t, s, "list_network_requests", "networkRequests") {
			if r["url"] == site.URL+"/data" && r["status"] == "200" && r["method"] == "GET" {
				reqid = r["requestId"]
				return true
			}
		}
		return false
	})
	// Listed with its status once the response arrived; its body is there
	// once loading finished, a moment later.
	var req map[string]any
	eventually(t, "the response body is available", func() bool {
		req = structured(t, s, "get_network_request", map[string]any{"reqid": reqid})["networkRequest"].(map[string]any)
		return req["responseBody"] != nil
	})
	if req["url"] != site.URL+"/data" || req["responseBody"] != `{"ok":true}` || req["requestHeaders"] == nil {
		t.Errorf("networkRequest = %v", req)
	}

	uid := uidOf(t, s.ok("take_snapshot", nil), `button "Alert"`)
	click := structured(t, s, "click", map[string]any{"uid": uid})
	if d, _ := click["dialog"].(map[string]any); d["type"] != "alert" || d["message"] != "hi" {
		t.Errorf("click that opened a dialog: dialog = %v", click["dialog"])
	}
	s.ok("handle_dialog", map[string]any{"action": "accept"})

	emu := structured(t, s, "emulate", map[string]any{"cpuThrottlingRate": 2, "geolocation": "48.85,2.29", "viewport": "390x844x3,mobile,touch"})
	if emu["cpuThrottlingRate"] != 2.0 {
		t.Errorf("cpuThrottlingRate = %v", emu["cpuThrottlingRate"])
	}
	if g, _ := emu["geolocation"].(map[string]any); g["latitude"] != 48.85 || g["longitude"] != 2.29 {
		t.Errorf("geolocation = %v", emu["geolocation"])
	}
	if v, _ := emu["viewport"].(map[string]any); v["width"] != 390.0 || v["deviceScaleFactor"] != 3.0 || v["isMobile"] != true || v["hasTouch"] != true {
		t.Errorf("viewport = %v", emu["viewport"])
	}
	s.ok("emulate", nil)

	tr := structured(t, s, "performance_start_trace", map[string]any{"reload": true, "autoStop": true})
	if sum, _ := tr["traceSummary"].(string); !strings.Contains(sum, "NAVIGATION_0") {
		t.Errorf("traceSummary = %v", tr["traceSummary"])
	}
	insights, _ := tr["traceInsights"].([]any)
	if len(insights) == 0 || insights[0].(map[string]any)["insightName"] == "" {
		t.Errorf("traceInsights = %v", tr["traceInsights"])
	}

	lh, _ := structured(t, s, "lighthouse_audit", map[string]any{"mode": "snapshot"})["lighthouseResult"].(map[string]any)
	if sum, _ := lh["summary"].(map[string]any); sum["mode"] != "snapshot" || sum["url"] != site.URL+"/" || len(sum["scores"].([]any)) == 0 {
		t.Errorf("lighthouseResult summary = %v", lh["summary"])
	}
	if reports, _ := lh["reports"].([]any); len(reports) != 2 {
		t.Errorf("lighthouseResult reports = %v", lh["reports"])
	}

	res2 := s.call("select_page", map[string]any{"pageId": 99})
	if !res2.IsError {
		t.Fatal("select_page 99 succeeded")
	}
	raw, _ := json.Marshal(res2.StructuredContent)
	if !strings.Contains(string(raw), `"errorMessage":`) || !strings.Contains(string(raw), "99") {
		t.Errorf("error structured content = %s", raw)
	}
}

// structuredList returns the list under key in a tool's structured content.
func structuredList(t *testing.T, s *server, tool, key string) []map[string]any {
	t.Helper()
	var out []map[string]any
	items, _ := structured(t, s, tool, nil)[key].([]any)
	for _, it := range items {
		out = append(out, it.(map[string]any))
	}
	return out
}

// findNode returns the first node of a structured snapshot with role.
func findNode(n map[string]any, role string) map[string]any {
	if n["role"] == role {
		return n
	}
	children, _ := n["children"].([]any)
	for _, c := range children {
		if found := findNode(c.(map[string]any), role); found != nil {
			return found
		}
	}
	return nil
}

// TestRefCLIJSONOutput checks chrome-devtools --output-format=json: the
// structured content, the saved images, and an error's content.
func TestRefCLIJSONOutput(t *testing.T) {
	site := pages(t, map[string]string{"/": "<title>JSON out</title><h1>Hi</h1>"})
	sh := refShell(t)
	sh.ok("navigate_page", "1", "--url", site.URL+"/")

	var list struct {
		Pages []struct {
			ID       int
			URL      string
			Title    string
			Selected bool
		}
	}
	out := sh.ok("list_pages", "--output-format", "json")
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list.Pages) != 1 || list.Pages[0].Title != "JSON out" || !list.Pages[0].Selected {
		t.Errorf("list_pages --output-format json = %s (err %v)", out, err)
	}

	var shot struct {
		Images []struct{ FilePath, MimeType string }
	}
	out = sh.ok("take_screenshot", "1", "--output-format=json")
	if err := json.Unmarshal([]byte(out), &shot); err != nil || len(shot.Images) != 1 || shot.Images[0].MimeType != "image/png" {
		t.Fatalf("take_screenshot --output-format=json = %s (err %v)", out, err)
	}
	if png, err := os.ReadFile(shot.Images[0].FilePath); err != nil || !strings.HasPrefix(string(png), "\x89PNG") {
		t.Errorf("%s is not the screenshot (err %v)", shot.Images[0].FilePath, err)
	}

	// A tool error: its text on standard output, exit status 0, as in the
	// reference; as JSON, the content blocks.
	out = sh.ok("select_page", "99")
	mustContain(t, out, "99")
	out = sh.ok("select_page", "99", "--output-format", "json")
	var blocks []struct{ Type, Text string }
	if err := json.Unmarshal([]byte(out), &blocks); err != nil || len(blocks) == 0 || blocks[0].Type != "text" || !strings.Contains(blocks[0].Text, "99") {
		t.Errorf("error as JSON = %s (err %v)", out, err)
	}

	// Usage errors still fail, with the reference's grammar in the help.
	_, errOut := sh.exits(2, "click", "1_1")
	mustContain(t, errOut, "<pageId> must be a number", "Usage: chrome-devtools click <pageId> <uid>")
	_, errOut = sh.exits(2)
	mustContain(t, errOut, "chrome-devtools <tool> <pageId>")

	// --sessionId selects another daemon; the first one's status is
	// unaffected and a daemon that does not run is not an error.
	mustContain(t, sh.ok("status", "--sessionId", "beef"), `session "chrome-devtools-beef" is not running`)
	mustContain(t, sh.ok("list_pages", "--sessionId=beef"), "about:blank")
	mustContain(t, sh.ok("stop", "--sessionId", "beef"), "Stopped the daemon")
	_, errOut = sh.exits(2, "status", "--sessionId", "../x")
	mustContain(t, errOut, "invalid --sessionId")
}

// TestCLITakesTheScriptPositionally checks our own command line: the
// function of evaluate_script is its first argument.
func TestCLITakesTheScriptPositionally(t *testing.T) {
	site := pages(t, map[string]string{"/": "<title>Positional</title>"})
	sh := newShell(t, "default")
	sh.ok("navigate_page", "--url", site.URL+"/")
	mustContain(t, sh.ok("evaluate_script", "() => document.title"), `"Positional"`)
}
