package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// userTabPage is a page of the user's with every kind of way out: a link,
// a form, an element whose hover leaves, and a page behind it in history.
const userTabPage = `<title>My mail</title>
<a href="/elsewhere">Elsewhere</a>
<form action="/elsewhere"><input name="q" aria-label="Search"></form>
<div onmouseover="location.href='/elsewhere'" style="height:50px">Trap</div>`

// TestUserTabSurvivesWhatTheAgentDoesInIt checks that nothing the agent
// does inside one of the user's tabs closes it or leads it away: a script
// (window.close, location, location.replace, history.back, window.open
// with _self, a meta refresh, a delayed close), a click on a link, Enter in
// a form, a hover whose handler navigates, and slim evaluate. Each is
// refused and the answer says so; the tab still shows the user's page.
// Afterwards the user can close the tab themselves.
func TestUserTabSurvivesWhatTheAgentDoesInIt(t *testing.T) {
	site := pages(t, map[string]string{"/before": `<title>Before</title>`, "/mine": userTabPage, "/elsewhere": `<title>Elsewhere</title>`})
	ws, _, _ := chromium(t)
	conn := openTabs(t, ws, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// The user's mail, in a tab with nothing behind it (a script may close
	// such a tab), and another tab with a page behind it.
	tab, err := cdp.TargetCreateTarget.Call(ctx, conn.Session(""), cdp.CreateTargetParams{URL: site.URL + "/mine"})
	if err != nil {
		t.Fatal(err)
	}
	older, err := cdp.TargetCreateTarget.Call(ctx, conn.Session(""), cdp.CreateTargetParams{URL: site.URL + "/before"})
	if err != nil {
		t.Fatal(err)
	}
	s := startServer(t, "--browserUrl", browserURL(ws))
	eventually(t, "the user's pages", func() bool { return strings.Count(s.ok("list_pages", nil), "(http") == 2 })
	att, err := cdp.TargetAttachToTarget.Call(ctx, conn.Session(""), cdp.AttachToTargetParams{TargetID: older.TargetID, Flatten: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cdp.PageNavigate.Call(ctx, conn.Session(att.SessionID), cdp.NavigateParams{URL: site.URL + "/elsewhere?second"}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the second page", func() bool { return strings.Contains(s.ok("list_pages", nil), "?second") })
	user := pageID(t, s.ok("list_pages", nil), "My mail")
	s.ok("select_page", map[string]any{"pageId": user})
	stays := func(what, out string) {
		t.Helper()
		mustContain(t, out, "Refused:", fmt.Sprintf("page %d", user), "one of your own tabs", "--allowCloseUserTabs")
		if line := pageLine(s.ok("list_pages", nil), fmt.Sprintf("%d: ", user)); !strings.Contains(line, "My mail") {
			t.Fatalf("%s: the user's tab left their page or closed: %q", what, line)
		}
	}

	// First, with no user activation on the page yet: a hover activates
	// nothing, and Chrome asks before leaving only an activated page.
	snap := s.ok("take_snapshot", nil)
	stays("hover", s.ok("hover", map[string]any{"uid": uidOf(t, snap, `"Trap"`)}))
	snap = s.ok("take_snapshot", nil)
	stays("click", s.ok("click", map[string]any{"uid": uidOf(t, snap, `link "Elsewhere"`)}))
	snap = s.ok("take_snapshot", nil)
	s.ok("click", map[string]any{"uid": uidOf(t, snap, `textbox "Search"`)})
	stays("Enter in a form", s.ok("press_key", map[string]any{"key": "Enter"}))
	for _, script := range []string{
		"() => { window.close(); }",
		"() => { location.href = '/elsewhere'; }",
		"() => { location.replace('/elsewhere'); }",
		"() => { window.open('/elsewhere', '_self'); }",
		"() => { document.head.insertAdjacentHTML('beforeend', '<meta http-equiv=refresh content=\"0;url=/elsewhere\">'); }",
		"() => { window.onbeforeunload = null; window.addEventListener('beforeunload', e => e.stopImmediatePropagation(), true); window.close(); }",
	} {
		out := s.ok("evaluate_script", map[string]any{"function": script})
		// Some of these leave only once the script has returned.
		eventually(t, script+" refused", func() bool {
			if !strings.Contains(out, "Refused:") {
				out = s.ok("list_pages", nil)
			}
			return strings.Contains(out, "Refused:")
		})
		stays(script, out)
	}
	// history.back() in the tab with a page behind it.
	second := pageID(t, s.ok("list_pages", nil), "?second")
	out := s.ok("evaluate_script", map[string]any{"pageId": second, "function": "() => { history.back(); }"})
	eventually(t, "history.back() refused", func() bool {
		if !strings.Contains(out, "Refused:") {
			out = s.ok("list_pages", nil)
		}
		return strings.Contains(out, "Refused:")
	})
	mustContain(t, out, fmt.Sprintf("page %d", second))
	if line := pageLine(s.ok("list_pages", nil), fmt.Sprintf("%d: ", second)); !strings.Contains(line, "?second") {
		t.Fatalf("history.back() led the user's tab back: %q", line)
	}
	// A reload the agent may make (emulating a mobile device reloads) is
	// not refused, and the guard works in the new document too.
	out = s.ok("emulate", map[string]any{"viewport": "390x844x3,mobile,touch"})
	mustContain(t, out, "Reloaded the page")
	if strings.Contains(out, "Refused") {
		t.Fatalf("emulate's reload was refused:\n%s", out)
	}
	// A close set going for after the call: the grace period covers it.
	s.ok("evaluate_script", map[string]any{"function": "() => { setTimeout(() => window.close(), 500); }"})
	eventually(t, "the delayed close refused", func() bool {
		out = s.ok("list_pages", nil)
		return strings.Contains(out, "Refused:")
	})
	stays("a delayed close", out)

	// The user leads the second tab away themselves, and its page asks
	// "leave site?": the agent may dismiss that dialog, not accept it.
	s.eval("() => { window.onbeforeunload = e => { e.preventDefault(); e.returnValue = ''; }; }", "pageId", second)
	navDone := make(chan struct{}, 1)
	navDone <- struct{}{}
	eventually(t, "the user's navigation asking to leave", func() bool {
		select {
		case <-navDone: // refused while the grace period lasts: again
			go func() {
				cdp.PageNavigate.Call(ctx, conn.Session(att.SessionID), cdp.NavigateParams{URL: site.URL + "/elsewhere?user"})
				navDone <- struct{}{}
			}()
		default:
		}
		res := s.call("take_snapshot", map[string]any{"pageId": second})
		return res.IsError && strings.Contains(text(res), "dialog is open")
	})
	mustContain(t, s.fails("handle_dialog", map[string]any{"pageId": second, "action": "accept"}), "one of your own tabs", "dismiss it", "--allowCloseUserTabs")
	s.ok("handle_dialog", map[string]any{"pageId": second, "action": "dismiss"})
	<-navDone
	if line := pageLine(s.ok("list_pages", nil), fmt.Sprintf("%d: ", second)); !strings.Contains(line, "?second") {
		t.Fatalf("the user's tab left despite the dismissed dialog: %q", line)
	}

	slim := startServer(t, "--browserUrl", browserURL(ws), "--slim")
	out = slim.ok("evaluate", map[string]any{"script": "location.href = '" + site.URL + "/elsewhere?slim'"})
	eventually(t, "slim evaluate's navigation refused", func() bool {
		if !strings.Contains(out, "Refused:") {
			out = slim.ok("evaluate", map[string]any{"script": "document.title"})
		}
		return strings.Contains(out, "Refused:")
	})
	if list := s.ok("list_pages", nil); strings.Contains(list, "?slim") {
		t.Fatalf("slim evaluate led a user's tab away:\n%s", list)
	}

	// The user closes their own tab: once the grace period is over, it closes.
	closed := false
	eventually(t, "the user closing their tab", func() bool {
		if !closed {
			// Refused while the grace period lasts; an error once it is gone.
			_, err := cdp.TargetCloseTarget.Call(ctx, conn.Session(""), cdp.CloseTargetParams(tab))
			closed = err != nil
		}
		return !strings.Contains(s.ok("list_pages", nil), "My mail")
	})
}

// TestEmulateKeepsTheUserTab checks that emulate guards one of the user's
// tabs as resize_page does: the viewport it sets fires the page's resize
// handler, which must not lead the tab away, while the reload a mobile
// device needs still goes through (emulate was not guarded: the handler
// took the tab to /elsewhere).
func TestEmulateKeepsTheUserTab(t *testing.T) {
	site := pages(t, map[string]string{
		"/mine":      `<title>My mail</title><script>addEventListener('resize', () => { location.href = '/elsewhere'; }, {once: true})</script><p>Inbox</p>`,
		"/elsewhere": `<title>Elsewhere</title>`,
	})
	tab := attachToUserTab(t, site.URL+"/mine", "My mail")
	s, user := tab.s, tab.page
	s.ok("select_page", map[string]any{"pageId": user})
	stays := func(what string) {
		t.Helper()
		if line := pageLine(s.ok("list_pages", nil), fmt.Sprintf("%d: ", user)); !strings.Contains(line, "My mail") {
			t.Fatalf("%s: the user's tab left their page: %q", what, line)
		}
	}
	out := s.ok("emulate", map[string]any{"viewport": "500x400"})
	eventually(t, "the resize handler's navigation refused, or done", func() bool {
		if !strings.Contains(out, "Refused:") {
			out = s.ok("list_pages", nil)
		}
		return strings.Contains(out, "Refused:") || strings.Contains(out, "/elsewhere")
	})
	stays("emulate viewport")
	mustContain(t, out, fmt.Sprintf("page %d", user), "one of your own tabs")
	// A mobile device reloads the page: the agent may, and it is not
	// refused (the handler ran once, above).
	out = s.ok("emulate", map[string]any{"viewport": "390x844x3,mobile,touch"})
	mustContain(t, out, "Reloaded the page")
	if strings.Contains(out, "Refused") {
		t.Fatalf("emulate's reload was refused:\n%s", out)
	}
	stays("emulate's reload")
	if got := s.eval("() => 'ontouchstart' in window && screen.width"); got != "390" {
		t.Fatalf("the reloaded page sees %s for a touch screen's width, want 390", got)
	}
}

// TestHandleDialogUnderTheSensitiveGuard checks handle_dialog while the
// sensitive page guard is on (as it is by default when attached): the page
// answers nothing while its dialog is open, so the guard judges the frame
// the dialog comes from instead of listing the page's frames, which hung
// the call. A dialog from a sensitive iframe needs the user's confirmation.
func TestHandleDialogUnderTheSensitiveGuard(t *testing.T) {
	bank := pages(t, map[string]string{"/bank/pay": `<script>onload = () => setTimeout(() => confirm('pay?'), 50)</script>Pay`})
	site := pages(t, map[string]string{
		"/news":   `<title>News</title><button onclick="alert('hello')">Greet</button>`,
		"/framed": `<title>Framed</title><iframe src="` + bank.URL + `/bank/pay"></iframe>`,
	})
	config := t.TempDir()
	os.MkdirAll(filepath.Join(config, "devtools-mcp"), 0o700)
	os.WriteFile(filepath.Join(config, "devtools-mcp", "sensitive-patterns.txt"), []byte(bank.URL+"/bank/*\n"), 0o600)
	t.Setenv("XDG_CONFIG_HOME", config)
	client := mcp.NewClient(&mcp.Implementation{Name: "elicit", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "decline"}, nil
		},
	})
	s := startServerWith(t, client, append(headless, "--sensitivePages=on")...)
	snap := s.open(site, "/news")
	s.ok("click", map[string]any{"uid": uidOf(t, snap, `button "Greet"`)})
	mustContain(t, s.ok("handle_dialog", map[string]any{"action": "accept"}), "accepted the alert dialog")

	s.ok("navigate_page", map[string]any{"url": site.URL + "/framed"})
	eventually(t, "the framed bank's dialog", func() bool {
		res := s.call("take_snapshot", nil)
		return res.IsError && strings.Contains(text(res), "dialog is open")
	})
	mustContain(t, s.fails("handle_dialog", map[string]any{"action": "accept"}), "you declined", bank.URL+"/bank/pay", bank.URL+"/bank/*")
}

// TestBusyUserTabIsReportedNotWaitedFor checks that a Guarded call on one
// of the user's tabs that went busy on its own ends with an error within
// seconds, not when the client gives up: neither the sensitive page guard
// (which lists the page's frames) nor the leave guard can do their work on
// a page that does not answer, and evaluate_script's watch does not probe,
// since scripts may take long.
func TestBusyUserTabIsReportedNotWaitedFor(t *testing.T) {
	site := pages(t, map[string]string{"/mine": `<title>My mail</title>`})
	ws, _, _ := chromium(t)
	conn := openTabs(t, ws, 0)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tab, err := cdp.TargetCreateTarget.Call(ctx, conn.Session(""), cdp.CreateTargetParams{URL: site.URL + "/mine"})
	if err != nil {
		t.Fatal(err)
	}
	s := startServer(t, "--browserUrl", browserURL(ws))
	eventually(t, "the user's mail", func() bool { return strings.Contains(s.ok("list_pages", nil), "My mail") })
	s.ok("select_page", map[string]any{"pageId": pageID(t, s.ok("list_pages", nil), "My mail")})
	s.ok("take_snapshot", nil)
	off := startServer(t, "--browserUrl", browserURL(ws), "--sensitivePages=off")
	off.ok("select_page", map[string]any{"pageId": pageID(t, off.ok("list_pages", nil), "My mail")})
	off.ok("take_snapshot", nil)
	att, err := cdp.TargetAttachToTarget.Call(ctx, conn.Session(""), cdp.AttachToTargetParams{TargetID: tab.TargetID, Flatten: true})
	if err != nil {
		t.Fatal(err)
	}
	user := conn.Session(att.SessionID)
	go cdp.RuntimeEvaluate.Call(ctx, user, cdp.EvaluateParams{Expression: "for (;;) {}"})
	eventually(t, "the user's page busy", func() bool {
		pctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
		defer cancel()
		_, err := cdp.RuntimeEvaluate.Call(pctx, user, cdp.EvaluateParams{Expression: "0"})
		return err != nil
	})
	// The call's own deadline (60 s in s.call) fails the test if it hangs.
	// The sensitive page guard (on by default when attached) reads the
	// page's frames first: it refuses, as the leave guard does without it.
	mustContain(t, s.fails("evaluate_script", map[string]any{"function": "() => 1"}), "frames could not be checked", "did not answer")
	mustContain(t, off.fails("evaluate_script", map[string]any{"function": "() => 1"}), "one of your own tabs", "did not answer")
}

// TestUserExtensionWorkersAreOffLimits checks that, attached to the user's
// browser, evaluate_script refuses to run in the service worker of one of
// the user's extensions: the script would have the extension's powers,
// and chrome.tabs alone can close or navigate every tab.
// --allowCloseUserTabs lifts it.
func TestUserExtensionWorkersAreOffLimits(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "manifest.json"), []byte(`{"manifest_version": 3, "name": "User's", "version": "1", "background": {"service_worker": "sw.js"}, "permissions": ["tabs"]}`), 0o600)
	os.WriteFile(filepath.Join(dir, "sw.js"), []byte(`self.addEventListener('install', () => {});`), 0o600)
	ws, _, _ := chromiumWith(t, "--load-extension="+dir, "--disable-features=DisableLoadExtensionCommandLineSwitch")
	closeAll := "async () => { for (const tab of await chrome.tabs.query({})) await chrome.tabs.remove(tab.id); return 'closed'; }"
	// Allowed first, as soon as the worker is listed: Chrome lists it
	// before its script ran, and a script run then found no chrome.tabs.
	for _, flags := range [][]string{{"--categoryExtensions", "--allowCloseUserTabs"}, {"--categoryExtensions"}} {
		s := startServer(t, append([]string{"--browserUrl", browserURL(ws)}, flags...)...)
		var sw string
		eventually(t, "the user's extension worker in list_pages", func() bool {
			m := regexp.MustCompile(`(?m)^(sw-\d+): chrome-extension://`).FindStringSubmatch(s.ok("list_pages", nil))
			if m != nil {
				sw = m[1]
			}
			return m != nil
		})
		if len(flags) == 1 {
			mustContain(t, s.fails("evaluate_script", map[string]any{"serviceWorkerId": sw, "function": closeAll}), "one of your own extensions", "chrome.tabs", "--allowCloseUserTabs")
			continue
		}
		mustContain(t, s.ok("evaluate_script", map[string]any{"serviceWorkerId": sw, "function": "async () => (await chrome.tabs.query({})).length > 0"}), "true")
	}
}
