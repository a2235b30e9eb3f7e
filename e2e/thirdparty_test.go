package e2e

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// thirdPartyServer starts a server with the third-party developer tools on
// and opens the shop fixture, whose tools the navigation answer must list.
func thirdPartyServer(t *testing.T) (*server, string) {
	t.Helper()
	base := fixtures(t).URL + "/pages/"
	s := startServer(t, append(headless, "--categoryExperimentalThirdParty")...)
	out := s.ok("navigate_page", map[string]any{"url": base + "thirdparty.html"})
	mustContain(t, out, "## Third-party developer tools", "Shop devtools: Runtime state of the shop app",
		`name="add", description="Adds two numbers."`, `"required":["a","b"]`)
	return s, base
}

// run calls execute_3p_developer_tool, which must succeed, and returns its answer.
func (s *server) run(tool, params string) string {
	s.t.Helper()
	return s.ok("execute_3p_developer_tool", map[string]any{"toolName": tool, "params": params})
}

// runFails calls execute_3p_developer_tool, which must fail, and returns the error.
func (s *server) runFails(tool, params string) string {
	s.t.Helper()
	return s.fails("execute_3p_developer_tool", map[string]any{"toolName": tool, "params": params})
}

// resultUID finds an element of a tool's result: a {"uid": "..."} object,
// as in the reference.
var resultUID = regexp.MustCompile(`\{\s*"uid":\s*"(\d+_\d+)"\s*\}`)

func TestThirdPartyToolsRunAndValidate(t *testing.T) {
	s, _ := thirdPartyServer(t)

	list := s.ok("list_3p_developer_tools", nil)
	mustContain(t, list, `name="launchButton"`, `name="fail"`, `name="slow"`, "window.__dtmcp.executeTool")
	// A DOM element parameter is offered as a uid object.
	mustContain(t, list, `"element":{"type":"object","properties":{"uid":{"type":"string"`)

	mustContain(t, s.run("add", `{"a": 2, "b": 3}`), "Tool \"add\" returned:\n```json\n5\n```")

	// Arguments are checked against the tool's schema before it runs.
	mustContain(t, s.runFails("add", `{"a": "two", "b": 3}`), `inputSchema of tool "add"`, `field "a"`, `want "number"`)
	mustContain(t, s.runFails("add", `{"a": 2}`), "missing properties", `"b"`)
	mustContain(t, s.runFails("slow", `{"ms": -1}`), `field "ms"`, "minimum")
	mustContain(t, s.runFails("add", `{"a": 2,`), "params is not valid JSON")
	mustContain(t, s.runFails("add", `[2, 3]`), "params must be a JSON object")
	if got := s.eval("() => window.adds"); got != "1" {
		t.Errorf("add ran %s times, want once: rejected arguments must not reach the page", got)
	}

	mustContain(t, s.runFails("fail", ""), `tool "fail" threw: the cart store is locked`)
	mustContain(t, s.runFails("nope", "{}"), `no developer tool named "nope"`, "add, launchButton, buttons, label, fail, slow")

	mustContain(t, s.run("slow", `{"ms": 700}`), `"done after 700ms"`)
}

func TestThirdPartyToolElementsAreUIDs(t *testing.T) {
	s, _ := thirdPartyServer(t)

	out := s.run("launchButton", "")
	m := resultUID.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("launchButton result has no uid:\n%s", out)
	}
	// The snapshot follows, so the agent sees what the uid is.
	mustContain(t, out, "## Latest page snapshot", "uid="+m[1]+" button")
	s.ok("click", map[string]any{"uid": m[1]})
	if got := s.eval("() => document.title"); got != `"launched 1"` {
		t.Fatalf("after clicking the returned uid, title = %s, want \"launched 1\"", got)
	}

	// The same element gets the same uid wherever it appears, also in a snapshot.
	nested := s.run("buttons", "")
	uids := resultUID.FindAllStringSubmatch(nested, -1)
	if len(uids) != 3 || uids[0][1] != m[1] || uids[1][1] != m[1] || uids[2][1] == m[1] {
		t.Fatalf("buttons: want the launch button's uid %s as primary and first of all, then another; got:\n%s", m[1], nested)
	}
	mustContain(t, nested, `"count": 2`)
	snap := s.ok("take_snapshot", nil)
	if got := uidOf(t, snap, `button "Stop"`); got != uids[2][1] {
		t.Errorf("snapshot uid of Stop = %s, tool result said %s", got, uids[2][1])
	}

	// Elements go in as {"uid": ...}.
	mustContain(t, s.run("label", `{"element": {"uid": "`+uids[2][1]+`"}}`), `"Stop"`)
	mustContain(t, s.runFails("label", `{"element": {"uid": "999_1"}}`), "999_1")

	// Scripts compose tools in the page.
	if got := s.eval("async () => (await window.__dtmcp.executeTool('add', {a: 40, b: 2})) + ':' + (await window.__dtmcp.executeTool('launchButton', {})).id"); got != `"42:launch"` {
		t.Fatalf("executeTool from evaluate_script = %s, want \"42:launch\"", got)
	}
}

func TestThirdPartyToolsFollowNavigation(t *testing.T) {
	s, base := thirdPartyServer(t)

	out := s.ok("navigate_page", map[string]any{"url": base + "form.html"})
	if strings.Contains(out, "Third-party developer tools") {
		t.Fatalf("a page without tools still lists tools:\n%s", out)
	}
	mustContain(t, s.ok("list_3p_developer_tools", nil), "The page exposes no third-party developer tools", "devtoolstooldiscovery", "event.respondWith(")
	mustContain(t, s.runFails("add", `{"a": 1, "b": 1}`), "no third-party developer tools", "devtoolstooldiscovery")

	mustContain(t, s.ok("navigate_page", map[string]any{"type": "back"}), `name="add"`)
	mustContain(t, s.run("add", `{"a": 1, "b": 1}`), "\n2\n")

	// A navigation the page makes itself (a link) gets window.__dtmcp too,
	// discovered when first used.
	snap := s.ok("take_snapshot", nil)
	s.ok("click", map[string]any{"uid": uidOf(t, snap, `link "More tools"`)})
	if got := s.eval("async () => window.__dtmcp.executeTool('routes', {})"); got != `[
  "/",
  "/cart"
]` && got != `["/","/cart"]` {
		t.Fatalf("executeTool after a link navigation = %s", got)
	}
}

func TestThirdPartyToolGroupsAndPageSwitch(t *testing.T) {
	s, base := thirdPartyServer(t)

	out := s.ok("new_page", map[string]any{"url": base + "thirdparty-groups.html"})
	mustContain(t, out, "Router: The app router", `name="routes"`, "Store: The state store", `name="state"`,
		`tool group "Broken", tool "noop": execute must be a function`)
	if strings.Contains(out, `name="add"`) {
		t.Fatalf("the new page's answer lists the first page's tools:\n%s", out)
	}
	mustContain(t, s.run("state", `{"path": "cart"}`), `"path": "cart"`, `"items": 3`)
	mustContain(t, s.runFails("noop", "{}"), `no developer tool named "noop"`)

	mustContain(t, s.ok("select_page", map[string]any{"pageId": 1}), `name="add"`)
	mustContain(t, s.run("add", `{"a": 5, "b": 5}`), "\n10\n")
}

func TestThirdPartyAndWebMCPOffByDefault(t *testing.T) {
	base := fixtures(t).URL + "/pages/"
	s := startServer(t, headless...)
	names := toolNames(t, s)
	for _, name := range []string{"list_3p_developer_tools", "execute_3p_developer_tool", "list_webmcp_tools", "execute_webmcp_tool"} {
		if slices.Contains(names, name) {
			t.Errorf("%s is listed without its category flag", name)
		}
	}
	out := s.ok("navigate_page", map[string]any{"url": base + "thirdparty.html"})
	if strings.Contains(out, "## Third-party") || strings.Contains(out, "## WebMCP") {
		t.Fatalf("navigation lists page tools with the categories off:\n%s", out)
	}
	if got := s.eval("() => typeof window.__dtmcp + ' ' + typeof document.modelContext"); got != `"undefined undefined"` {
		t.Fatalf("with the categories off the page has %s, want no window.__dtmcp and no WebMCP", got)
	}
}

func TestWebMCPTools(t *testing.T) {
	base := fixtures(t).URL + "/pages/"
	s := startServer(t, append(headless, "--categoryExperimentalWebmcp")...)

	out := s.ok("navigate_page", map[string]any{"url": base + "webmcp.html"})
	mustContain(t, out, "## WebMCP tools", `name="greet"`)
	list := s.ok("list_webmcp_tools", nil)
	mustContain(t, list, `name="greet", description="Greets someone.", inputSchema={"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`,
		`name="checkout"`, `name="search", description="Searches the catalog"`, "declared by form uid=")

	got := s.ok("execute_webmcp_tool", map[string]any{"toolName": "greet", "input": `{"name": "Ada"}`})
	mustContain(t, got, `"status": "Completed"`, `"output": "Hello Ada"`)
	if title := s.eval("() => document.title"); title != `"greeted Ada"` {
		t.Errorf("title after greet = %s", title)
	}

	got = s.ok("execute_webmcp_tool", map[string]any{"toolName": "checkout"})
	mustContain(t, got, `"status": "Error"`, `"errorText": "Error: the cart is empty"`)

	// Declarative form tools: one submits itself, the other waits for a click.
	got = s.ok("execute_webmcp_tool", map[string]any{"toolName": "search", "input": `{"query": "shoes"}`})
	mustContain(t, got, `"status": "Completed"`, `"output": "3 results for shoes"`)
	waiting := s.fails("execute_webmcp_tool", map[string]any{"toolName": "subscribe", "input": `{"email": "ada@example.com"}`})
	mustContain(t, waiting, "no toolautosubmit attribute", "click the form's submit button")
	if email := s.eval("() => document.querySelector('[name=email]').value"); email != `"ada@example.com"` {
		t.Errorf("the subscribe form was not filled in: email = %s", email)
	}

	mustContain(t, s.fails("execute_webmcp_tool", map[string]any{"toolName": "greet", "input": `{"name": 7}`}), `field "name"`)
	mustContain(t, s.fails("execute_webmcp_tool", map[string]any{"toolName": "greet", "input": `"Ada"`}), "input must be a JSON object")
	mustContain(t, s.fails("execute_webmcp_tool", map[string]any{"toolName": "nope"}), `no WebMCP tool named "nope"`, "checkout, greet, search, subscribe")

	s.ok("navigate_page", map[string]any{"url": base + "form.html"})
	mustContain(t, s.ok("list_webmcp_tools", nil), "registered no WebMCP tools", "document.modelContext.registerTool")
}

func TestWebMCPUnsupported(t *testing.T) {
	base := fixtures(t).URL + "/pages/"
	// A later --disable-features list replaces ours and turns WebMCP off.
	s := startServer(t, append(headless, "--categoryExperimentalWebmcp", "--chromeArg=--disable-features=WebMCP")...)
	s.ok("navigate_page", map[string]any{"url": base + "webmcp.html"})
	mustContain(t, s.fails("list_webmcp_tools", nil), "WebMCP is not available", "--enable-features=WebMCP",
		"WebMCP needs Chrome 150 or newer started with --enable-features=WebMCP; the browser is Chrome 1")
}
