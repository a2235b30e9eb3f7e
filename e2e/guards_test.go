package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestSensitivePageGuardCoversEveryWayIn checks the tools that act on a
// sensitive page without being an input tool: a javascript: URL in
// navigate_page (any spelling), a reload, and a script run on another page
// of the same origin, which could reach the sensitive one.
func TestSensitivePageGuardCoversEveryWayIn(t *testing.T) {
	site := pages(t, map[string]string{
		"/bank/":     `<title>Bank</title><form action="/bank/sent"><button>Pay</button></form>`,
		"/bank/sent": `<title>Sent</title>`,
		"/news":      `<title>News</title>`,
	})
	config := t.TempDir()
	os.MkdirAll(filepath.Join(config, "devtools-mcp"), 0o700)
	os.WriteFile(filepath.Join(config, "devtools-mcp", "sensitive-patterns.txt"), []byte(site.URL+"/bank/*\n"), 0o600)
	t.Setenv("XDG_CONFIG_HOME", config)
	var asked []string
	client := mcp.NewClient(&mcp.Implementation{Name: "elicit", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked = append(asked, req.Params.Message)
			return &mcp.ElicitResult{Action: "decline"}, nil
		},
	})
	s := startServerWith(t, client, append(headless, "--sensitivePages=on")...)
	s.ok("navigate_page", map[string]any{"url": site.URL + "/bank/"})
	for _, u := range []string{"javascript:document.forms[0].submit()", " JavaScript:document.forms[0].submit()", "java\tscript:document.forms[0].submit()"} {
		mustContain(t, s.fails("navigate_page", map[string]any{"url": u}), "you declined", "javascript: URL", site.URL+"/bank/*")
	}
	mustContain(t, s.fails("navigate_page", map[string]any{"type": "reload"}), "you declined", "reload")
	if snap := s.ok("take_snapshot", nil); !strings.Contains(snap, `"Bank"`) {
		t.Fatalf("the form was submitted past the guard:\n%s", snap)
	}
	if len(asked) != 4 {
		t.Fatalf("asked %d times, want 4: %q", len(asked), asked)
	}
	// Leaving the page is not acting on it.
	s.ok("navigate_page", map[string]any{"url": site.URL + "/news"})
	// A script on a page of the same origin can fetch or frame the bank.
	mustContain(t, s.fails("evaluate_script", map[string]any{"function": "() => fetch('/bank/sent').then(r => r.status)"}),
		"you declined", site.URL+"/news", "its origin", site.URL+"/bank/*")
}

// TestUserTabsCannotBeLedAway checks that a tab of the user's stays where
// it is: navigate_page and navigate refuse it, as close_page does. A blank
// tab is the exception: it loses the user nothing, and clients written for
// the reference navigate the one a fresh --remote-debugging-port Chrome
// shows; it becomes the agent's.
func TestUserTabsCannotBeLedAway(t *testing.T) {
	site := pages(t, map[string]string{"/": `<title>Agent page</title>`, "/mine": `<title>My mail</title>`})
	ws, _, _ := chromium(t)
	conn := openTabs(t, ws, 0)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := cdp.TargetCreateTarget.Do(ctx, conn.Session(""), cdp.CreateTargetParams{URL: site.URL + "/mine"}); err != nil {
		t.Fatal(err)
	}
	s := startServer(t, "--browserUrl", browserURL(ws))
	list := s.ok("list_pages", nil)
	user, blank := pageID(t, list, "/mine"), pageID(t, list, "about:blank")
	s.ok("select_page", map[string]any{"pageId": user})
	for _, args := range []map[string]any{{"url": site.URL}, {"type": "back"}, {"url": "javascript:location='" + site.URL + "'"}} {
		mustContain(t, s.fails("navigate_page", args), "one of your own tabs", "new_page", "--allowCloseUserTabs")
	}
	s.ok("navigate_page", map[string]any{"type": "reload"})
	// A reload's init script would run in the user's page unguarded.
	mustContain(t, s.fails("navigate_page", map[string]any{"type": "reload", "initScript": "location.href = '" + site.URL + "'"}),
		"one of your own tabs", "initScript", "--allowCloseUserTabs")
	if list := s.ok("list_pages", nil); strings.Contains(list, "Agent page") {
		t.Fatalf("the user's tab was navigated:\n%s", list)
	}
	out := s.ok("new_page", map[string]any{"url": site.URL})
	s.ok("navigate_page", map[string]any{"pageId": pageID(t, out, "Agent page"), "url": site.URL + "/?again"})
	// The blank tab: navigated, then the agent's, so it goes on.
	s.ok("select_page", map[string]any{"pageId": blank})
	s.ok("navigate_page", map[string]any{"url": site.URL + "/?blank"})
	out = s.ok("navigate_page", map[string]any{"url": site.URL + "/?blank-again"})
	mustContain(t, pageLine(out, fmt.Sprintf("%d: ", blank)), "?blank-again", "[opened by agent]")
	if strings.Contains(pageLine(out, fmt.Sprintf("%d: ", user)), "opened by agent") {
		t.Fatalf("the user's page became the agent's:\n%s", out)
	}
}

// TestBlankUserTabIsAdoptedOnlyWhenEmpty checks the blank-tab exception's
// two limits. A user's tab that shows about:blank with the user's page
// behind it in its history is not blank: navigating it would let the agent
// go back into that page. And a blank tab becomes the agent's only once a
// navigation reached it, not when a later guard refused the navigation.
func TestBlankUserTabIsAdoptedOnlyWhenEmpty(t *testing.T) {
	site := pages(t, map[string]string{"/": `<title>Agent page</title>`, "/mine": `<title>My mail</title>`, "/bank/": `<title>Bank</title>`})
	config := t.TempDir()
	os.MkdirAll(filepath.Join(config, "devtools-mcp"), 0o700)
	os.WriteFile(filepath.Join(config, "devtools-mcp", "sensitive-patterns.txt"), []byte(site.URL+"/bank/*\n"), 0o600)
	t.Setenv("XDG_CONFIG_HOME", config)
	ws, _, _ := chromium(t)
	conn := openTabs(t, ws, 0)
	client := mcp.NewClient(&mcp.Implementation{Name: "elicit", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "decline"}, nil
		},
	})
	s := startServerWith(t, client, "--browserUrl", browserURL(ws))
	blank := pageID(t, s.ok("list_pages", nil), "about:blank")

	// The user read their mail in a tab, then left it for about:blank.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tab, err := cdp.TargetCreateTarget.Call(ctx, conn.Session(""), cdp.CreateTargetParams{URL: site.URL + "/mine"})
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, "the user's mail", func() bool { return strings.Contains(s.ok("list_pages", nil), "My mail") })
	att, err := cdp.TargetAttachToTarget.Call(ctx, conn.Session(""), cdp.AttachToTargetParams{TargetID: tab.TargetID, Flatten: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cdp.PageNavigate.Call(ctx, conn.Session(att.SessionID), cdp.NavigateParams{URL: "about:blank"}); err != nil {
		t.Fatal(err)
	}
	user := 0
	eventually(t, "the user's tab at about:blank", func() bool {
		for line := range strings.Lines(s.ok("list_pages", nil)) {
			var id int
			if _, err := fmt.Sscanf(line, "%d:", &id); err == nil && id != blank && strings.Contains(line, "about:blank") {
				user = id
			}
		}
		return user != 0
	})
	s.ok("select_page", map[string]any{"pageId": user})
	mustContain(t, s.fails("navigate_page", map[string]any{"url": site.URL}), "one of your own tabs", "--allowCloseUserTabs")
	mustContain(t, s.fails("navigate_page", map[string]any{"type": "back"}), "one of your own tabs")
	if list := s.ok("list_pages", nil); strings.Contains(list, "My mail") || strings.Contains(pageLine(list, fmt.Sprintf("%d: ", user)), "opened by agent") {
		t.Fatalf("the agent went back into the user's page, or the tab became the agent's:\n%s", list)
	}

	// A fresh blank tab, whose navigation the sensitive page guard refuses
	// (an init script for a sensitive page), stays the user's.
	s.ok("select_page", map[string]any{"pageId": blank})
	mustContain(t, s.fails("navigate_page", map[string]any{"url": site.URL + "/bank/", "initScript": "1"}), "you declined")
	if line := pageLine(s.ok("list_pages", nil), fmt.Sprintf("%d: ", blank)); strings.Contains(line, "opened by agent") {
		t.Fatalf("a refused navigation made the blank tab the agent's: %s", line)
	}
	out := s.ok("navigate_page", map[string]any{"url": site.URL})
	mustContain(t, pageLine(out, fmt.Sprintf("%d: ", blank)), "Agent page", "[opened by agent]")
}
