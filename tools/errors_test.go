package tools_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/devtools-mcp/devtools-mcp/cdp"
	"github.com/devtools-mcp/devtools-mcp/internal/browser"
	"github.com/devtools-mcp/devtools-mcp/internal/cdptest"
	"github.com/devtools-mcp/devtools-mcp/internal/tooltest"
	"github.com/devtools-mcp/devtools-mcp/tools"
)

// TestBrowserGoneMidCall lets the browser die while a tool waits for it:
// the agent is told so and what the next call does, and the next call
// starts a new browser and says that page ids changed.
func TestBrowserGoneMidCall(t *testing.T) {
	e := tooltest.Replay(t, "navigation", tools.Options{}, browser.Options{})
	e.Check(tooltest.Step{Tool: "list_pages", Want: []string{"1: about:blank [selected]"}})
	e.Scenario.Fake().DisconnectOn("Page.navigate")
	e.Check(tooltest.Step{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/common.html"}`, Error: true,
		Want: []string{"the browser went away (connection closed)", "The next call launches a new browser"}})
	e.Check(tooltest.Step{Tool: "list_pages", Want: []string{
		"Note: the browser was restarted or reconnected since the last call, so page ids changed.", "2: about:blank [selected]"}})
	e.Check(tooltest.Step{Tool: "select_page", Args: `{"pageId":1}`, Error: true,
		Want: []string{"page 1 belonged to a browser that has since closed or reconnected; open pages: 2"}})
}

// TestOldBrowserWarning checks that a browser older than the supported
// versions is used, and that the first answer on it says so, once.
func TestOldBrowserWarning(t *testing.T) {
	e := tooltest.Replay(t, "navigation", tools.Options{}, browser.Options{})
	e.Scenario.Script(cdptest.Exchange{Method: cdp.BrowserGetVersion.Method, Result: []byte(`{"product":"HeadlessChrome/120.0.6099.71"}`)})
	e.Check(tooltest.Step{Tool: "list_pages", Want: []string{
		fmt.Sprintf("Warning: Chrome 120.0.6099.71 is older than the supported versions (Chrome %d to %d)", browser.OldestSupportedMajor, browser.NewestTestedMajor),
		"1: about:blank [selected]"}})
	if a := e.Call("list_pages", ""); strings.Contains(a.Text, "Warning") {
		t.Errorf("the second answer warns again:\n%s", a.Text)
	}
}

// TestBrowserRefuses checks that a command Chrome refuses reaches the
// agent with Chrome's reason.
func TestBrowserRefuses(t *testing.T) {
	e := tooltest.Replay(t, "navigation", tools.Options{}, browser.Options{})
	e.Check(tooltest.Step{Tool: "list_pages"})
	e.Scenario.Fake().Refuse("Target.attachToTarget", "No target with given id found")
	e.Check(tooltest.Step{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/common.html"}`, Error: true,
		Want: []string{"attach to page 1", "Target.attachToTarget: No target with given id found (-32000)"}})
}

// TestNoBrowser checks the answers when no browser can be reached: tools
// that need one say why, the others still work.
func TestNoBrowser(t *testing.T) {
	m := browser.NewManager(browser.Options{Dial: func(context.Context) (cdp.Transport, error) {
		return nil, errors.New("no Chrome here")
	}})
	s := tools.NewServer(tools.Options{Conditions: map[tools.Condition]bool{tools.ConditionMemoryDebugging: true}}, m, nil)
	ctx := context.Background()
	text := func(tool, args string) (string, bool) {
		res, err := s.CallTool(ctx, tool, []byte(args))
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		var b strings.Builder
		for _, c := range res.Content {
			b.WriteString(c.Text)
		}
		return b.String(), res.IsError
	}
	if got, isErr := text("list_pages", `{}`); !isErr || !strings.Contains(got, "connect to the browser: no Chrome here") {
		t.Errorf("list_pages = %q (error %v), want the dial error", got, isErr)
	}
	dir := t.TempDir()
	if got, isErr := text("get_heapsnapshot_summary", `{"filePath":"`+dir+`/none.heapsnapshot"}`); !isErr || strings.Contains(got, "Chrome") || !strings.Contains(got, "none.heapsnapshot") {
		t.Errorf("a file tool = %q (error %v), want an error about the file only", got, isErr)
	}
	if _, err := s.CallTool(ctx, "no_such_tool", []byte(`{}`)); err == nil || !strings.Contains(err.Error(), `unknown tool "no_such_tool"; available tools: click,`) {
		t.Errorf("unknown tool = %v, want a protocol error listing the tools", err)
	}
	if got, isErr := text("navigate_page", `[1]`); !isErr || !strings.Contains(got, "arguments must be a JSON object") {
		t.Errorf("array arguments = %q (error %v)", got, isErr)
	}
}

// TestListToolsFollowsOptions checks which tools are listed for some
// command-line settings.
func TestListToolsFollowsOptions(t *testing.T) {
	names := func(o tools.Options) string {
		var n []string
		for _, tl := range tools.NewServer(o, nil, nil).ListTools() {
			n = append(n, tl.Name)
		}
		return " " + strings.Join(n, " ") + " "
	}
	def := names(tools.Options{})
	for _, want := range []string{" take_snapshot ", " navigate_page ", " take_heapsnapshot ", " performance_start_trace "} {
		if !strings.Contains(def, want) {
			t.Errorf("default tools lack%s: %s", want, def)
		}
	}
	for _, not := range []string{" click_at ", " get_heapsnapshot_summary ", " install_extension ", " list_webmcp_tools ", " navigate "} {
		if strings.Contains(def, not) {
			t.Errorf("default tools include%s", not)
		}
	}
	if got := names(tools.Options{Slim: true}); got != " navigate evaluate screenshot " {
		t.Errorf("slim tools = %s", got)
	}
	noInput := names(tools.Options{Categories: map[tools.Category]bool{tools.CategoryInput: false}})
	if strings.Contains(noInput, " click ") || !strings.Contains(noInput, " take_snapshot ") {
		t.Errorf("with input off: %s", noInput)
	}
	if got := names(tools.Options{Categories: map[tools.Category]bool{tools.CategoryExtensions: true}}); !strings.Contains(got, " install_extension ") {
		t.Errorf("with extensions on: %s", got)
	}
}
