package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// lateBusySite serves /late, a page that turns busy by itself a moment
// after it loaded (an endless loop started from a timer, not during any
// call), and /calm. The page tells the server when its loop starts, on
// the returned channel, so that tests know the page is busy without
// sleeping and without a call that would see it busy first.
func lateBusySite(t *testing.T) (*httptest.Server, <-chan struct{}) {
	t.Helper()
	busy := make(chan struct{}, 8)
	mux := http.NewServeMux()
	mux.HandleFunc("/late", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<title>late</title><h1>Late</h1><script>
addEventListener("load", () => setTimeout(() => { fetch("/going-busy", {keepalive: true}); while (true) {} }, 300));
</script>`)
	})
	mux.HandleFunc("/going-busy", func(w http.ResponseWriter, r *http.Request) {
		select {
		case busy <- struct{}{}:
		default:
		}
	})
	mux.HandleFunc("/calm", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<title>calm</title><h1>Calm</h1>`)
	})
	site := httptest.NewServer(mux)
	t.Cleanup(site.Close)
	return site, busy
}

// awaitBusy waits for a /late page to start its loop.
func awaitBusy(t *testing.T, busy <-chan struct{}) {
	t.Helper()
	select {
	case <-busy:
	case <-time.After(30 * time.Second):
		t.Fatal("the page never started its loop")
	}
}

// TestPageBusySinceTheLastCallIsTakenAway checks that navigate_page and
// close_page work on the first try on a page that turned busy after the
// call that loaded it returned, when no call has seen it busy yet.
func TestPageBusySinceTheLastCallIsTakenAway(t *testing.T) {
	site, busy := lateBusySite(t)
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL + "/late"})
	awaitBusy(t, busy)
	start := time.Now()
	if res := s.answerWithin(20*time.Second, "navigate_page", map[string]any{"url": site.URL + "/calm"}); res.IsError {
		t.Fatalf("navigate_page away from a page that turned busy failed after %v: %s", time.Since(start), text(res))
	}
	t.Logf("navigate_page away from the busy page took %v", time.Since(start))
	mustContain(t, s.ok("take_snapshot", nil), `"Calm"`)

	out := s.ok("new_page", map[string]any{"url": site.URL + "/late"})
	id := pageID(t, out, "/late")
	awaitBusy(t, busy)
	start = time.Now()
	if res := s.answerWithin(20*time.Second, "close_page", map[string]any{"pageId": id}); res.IsError {
		t.Fatalf("close_page on a page that turned busy failed after %v: %s", time.Since(start), text(res))
	}
	t.Logf("close_page on the busy page took %v", time.Since(start))
	if list := s.ok("list_pages", nil); pageLine(list, "/late") != "" {
		t.Fatalf("the busy page is still open:\n%s", list)
	}
}

// TestAttachToABusyTab checks that tabs already busy when the server
// attaches to the browser do not hang it: list_pages answers, a tool on
// such a tab says it is busy, navigate_page takes it away (to a page of the
// same site, which a navigation the server could not stop first would
// leave in the stuck process), and close_page closes one.
func TestAttachToABusyTab(t *testing.T) {
	site, busy := lateBusySite(t)
	ws, _, _ := chromium(t)
	conn := openTabs(t, ws, 0)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, q := range []string{"?one", "?two"} {
		if err := cdp.TargetCreateTarget.Do(ctx, conn.Session(""), cdp.CreateTargetParams{URL: site.URL + "/late" + q}); err != nil {
			t.Fatal(err)
		}
		awaitBusy(t, busy)
	}
	s := startServer(t, "--browserUrl", browserURL(ws), "--allowCloseUserTabs")
	res := s.answerWithin(20*time.Second, "list_pages", nil)
	if res.IsError {
		t.Fatalf("list_pages failed: %s", text(res))
	}
	one, two := pageID(t, text(res), "?one"), pageID(t, text(res), "?two")
	s.ok("select_page", map[string]any{"pageId": one})
	res = s.answerWithin(30*time.Second, "take_snapshot", nil)
	if !res.IsError || !strings.Contains(text(res), "busy") {
		t.Fatalf("take_snapshot on the busy tab: want a busy error, got: %s", text(res))
	}
	mustContain(t, text(res), "since before the server connected")
	start := time.Now()
	if res := s.answerWithin(30*time.Second, "navigate_page", map[string]any{"url": site.URL + "/calm"}); res.IsError {
		t.Fatalf("navigate_page away from the tab busy since before the attach failed after %v: %s", time.Since(start), text(res))
	}
	t.Logf("navigate_page away from the tab busy since before the attach took %v", time.Since(start))
	mustContain(t, s.ok("take_snapshot", nil), `"Calm"`)
	if res := s.answerWithin(30*time.Second, "close_page", map[string]any{"pageId": two}); res.IsError {
		t.Fatalf("close_page on the busy tab failed: %s", text(res))
	}
	if list := s.ok("list_pages", nil); pageLine(list, "?two") != "" {
		t.Fatalf("the busy tab is still open:\n%s", list)
	}
}
