package browser_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/devtools-mcp/devtools-mcp/internal/browser"
	"github.com/devtools-mcp/devtools-mcp/internal/cdptest"
)

// recordedPage opens the recording name in testdata and returns its first
// page. Re-record with Chromium installed:
//
//	DEVTOOLS_MCP_RECORD=1 go test -run 'TestWaiters|TestWaitForTextGivesUp' ./internal/browser/
func recordedPage(ctx context.Context, t *testing.T, name string) (*cdptest.Scenario, *browser.Page) {
	t.Helper()
	sc := cdptest.Open(t, "testdata/"+name+".jsonl.gz", http.FileServer(http.Dir("../../e2e/testdata")))
	m := browser.NewManager(browser.Options{Dial: sc.Dial})
	t.Cleanup(func() { m.Close(context.WithoutCancel(ctx)) })
	b, err := m.Get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	p, err := b.SelectedOrNew(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return sc, p
}

// eval returns the JSON value of expression on p.
func eval(ctx context.Context, t *testing.T, p *browser.Page, expression string) string {
	t.Helper()
	v, err := p.Evaluate(ctx, expression)
	if err != nil {
		t.Fatalf("evaluate %s: %v", expression, err)
	}
	return string(v.Value)
}

// TestWaiters checks the browser layer's waits: a navigation returns once
// the new document loaded, an action reports the navigation it started and
// the dialog it opened, and WaitForText returns once the text shows.
func TestWaiters(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	sc, p := recordedPage(ctx, t, "waiters")

	if _, err := p.Navigate(ctx, browser.Navigation{URL: sc.Site + "/pages/actions.html"}); err != nil {
		t.Fatal(err)
	}
	if got := eval(ctx, t, p, "document.readyState + ' ' + document.title"); got != `"complete Actions"` {
		t.Errorf("after Navigate the page is %s, want the loaded actions page", got)
	}

	rep, err := p.Act(ctx, func(ctx context.Context) error {
		_, err := p.Evaluate(ctx, "document.getElementById('nav').click()")
		return err
	})
	if err != nil || rep.Navigated != sc.Site+"/pages/form.html" {
		t.Fatalf("clicking a link reported %+v, %v; want a navigation to the form", rep, err)
	}
	if got := eval(ctx, t, p, "document.readyState + ' ' + document.title"); got != `"complete Probe form"` {
		t.Errorf("after the action the page is %s, want the loaded form", got)
	}

	if _, err := p.Navigate(ctx, browser.Navigation{Type: "back"}); err != nil {
		t.Fatal(err)
	}
	if got := eval(ctx, t, p, "document.title"); got != `"Actions"` {
		t.Errorf("after back the title is %s", got)
	}

	if _, err := p.Evaluate(ctx, "document.getElementById('slow').click()"); err != nil {
		t.Fatal(err)
	}
	found, err := p.WaitForText(ctx, []string{"never shown", "Appeared later"})
	if err != nil || found != "Appeared later" {
		t.Errorf("WaitForText = %q, %v; want the text the button adds after a while", found, err)
	}

	rep, err = p.Act(ctx, func(ctx context.Context) error {
		_, err := p.Evaluate(ctx, "setTimeout(() => alert('hello dialog'))")
		return err
	})
	if err != nil || rep.Dialog == nil || rep.Dialog.Message != "hello dialog" {
		t.Fatalf("an action opening an alert reported %+v, %v", rep, err)
	}
	if d := p.Dialog(); d == nil || d.Type != "alert" {
		t.Fatalf("the page's open dialog is %+v, want the alert", d)
	}
	if _, err := p.Input().HandleDialog(ctx, true, ""); err != nil {
		t.Fatal(err)
	}
	if d := p.Dialog(); d != nil {
		t.Errorf("dialog %+v still open after it was accepted", d)
	}

	if _, err := p.Navigate(ctx, browser.Navigation{URL: "http://127.0.0.1:9/"}); err == nil || !strings.Contains(err.Error(), "ERR_UNSAFE_PORT") {
		t.Errorf("navigating to a refused port = %v, want Chrome's net error", err)
	}
}

// TestWaitForTextGivesUp checks that WaitForText ends with ErrTextNotFound
// when its context's deadline passes.
func TestWaitForTextGivesUp(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	sc, p := recordedPage(ctx, t, "waitfor_timeout")
	if _, err := p.Navigate(ctx, browser.Navigation{URL: sc.Site + "/pages/inner.html"}); err != nil {
		t.Fatal(err)
	}
	wctx, wcancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer wcancel()
	if _, err := p.WaitForText(wctx, []string{"never shown"}); !errors.Is(err, browser.ErrTextNotFound) {
		t.Errorf("WaitForText = %v, want ErrTextNotFound", err)
	}
}

// TestNavigateWaitsForLoad holds back the page's load event: Navigate must
// not return before it, so it times out; once the event comes, the page
// works on.
func TestNavigateWaitsForLoad(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	sc, p := recordedPage(ctx, t, "navigate_load")
	f := sc.Fake()
	if f != nil { // replaying; a recording is made at Chromium's pace
		f.Withhold("Page.lifecycleEvent", `"name":"load"`)
		nctx, ncancel := context.WithTimeout(ctx, 300*time.Millisecond)
		_, err := p.Navigate(nctx, browser.Navigation{URL: sc.Site + "/pages/common.html"})
		ncancel()
		if !errors.Is(err, browser.ErrNavigationTimeout) {
			t.Fatalf("Navigate without a load event = %v, want ErrNavigationTimeout", err)
		}
		f.Release()
	} else if _, err := p.Navigate(ctx, browser.Navigation{URL: sc.Site + "/pages/common.html"}); err != nil {
		t.Fatal(err)
	}
	if got := eval(ctx, t, p, "document.title"); got != `"Common page"` {
		t.Errorf("title = %s", got)
	}
}
