package e2e

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func TestInfiniteLoopIsStopped(t *testing.T) {
	site := pages(t, map[string]string{"/": `<title>Loop</title>`})
	s := startServer(t, append(headless, "--scriptTimeout", "1500")...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	other := pageID(t, s.ok("new_page", map[string]any{"url": site.URL, "background": true}), "[selected]")
	s.ok("select_page", map[string]any{"pageId": 1})
	done := make(chan string)
	go func() {
		res, _ := s.callErr("evaluate_script", map[string]any{"function": "() => { while (true) {} }"})
		done <- text(res)
	}()
	// While the page is stuck, other pages and the page list answer.
	mustContain(t, s.ok("list_pages", nil), "## Pages")
	if got := s.eval("() => 2", "pageId", other); got != "2" {
		t.Fatalf("other page answered %s", got)
	}
	mustContain(t, <-done, "did not finish in time and was stopped")
	if got := s.eval("() => document.title"); got != `"Loop"` {
		t.Fatalf("after the stopped loop the page answered %s", got)
	}
}

func TestCancelledCallReleasesThePage(t *testing.T) {
	r := startRaw(t, headless...)
	r.roundTrip(initLine("2025-06-18"))
	call := func(id int, tool, args string) {
		fmt.Fprintf(r.stdin, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`+"\n", id, tool, args)
	}
	call(5, "wait_for", `{"text":["never"],"timeout":600000}`)
	// Queued behind wait_for on the same page.
	call(6, "evaluate_script", `{"function":"() => 'after'"}`)
	fmt.Fprintln(r.stdin, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5,"reason":"test"}}`)
	msg := r.read()
	if msg["id"] != float64(6) {
		t.Fatalf("first answer after cancelling is %v, want the queued call (id 6); a cancelled call gets no answer", msg)
	}
	mustContain(t, fmt.Sprint(msg["result"]), "after")
}

func TestStdinCloseShutsDownAndClosesTheBrowser(t *testing.T) {
	cmd := exec.Command(binary, headless...)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := &rawServer{t: t, stdin: stdin, out: bufio.NewReader(stdout)}
	r.roundTrip(initLine("2025-06-18"))
	r.roundTrip(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_pages","arguments":{}}}`)
	children := childPIDs(t, cmd.Process.Pid)
	if len(children) == 0 {
		t.Fatal("no browser was launched")
	}
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"wait_for","arguments":{"text":["never"],"timeout":600000}}}`+"\n")
	stdin.Close()
	exited := make(chan error)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("server exited with %v", err)
		}
	case <-time.After(15 * time.Second):
		cmd.Process.Kill()
		t.Fatal("server still running 15 s after stdin closed")
	}
	for _, pid := range children {
		if err := syscall.Kill(pid, 0); err == nil {
			t.Fatalf("browser %d still running after the server exited", pid)
		}
	}
}

func TestEightPagesAtOnce(t *testing.T) {
	site := pages(t, map[string]string{"/": `<title>Page</title><script>document.title = 'Page ' + location.hash.slice(1)</script>`})
	s := startServer(t, headless...)
	ids := make([]int, 8)
	for i := range ids {
		ids[i] = pageID(t, s.ok("new_page", map[string]any{"url": fmt.Sprintf("%s/#%d", site.URL, i)}), "[selected]")
	}
	var wg sync.WaitGroup
	got := make([]string, len(ids))
	for i, id := range ids {
		wg.Go(func() {
			got[i] = s.eval("async () => { await new Promise(r => setTimeout(r, 200)); return document.title; }", "pageId", id)
		})
	}
	wg.Wait()
	for i := range ids {
		if want := fmt.Sprintf(`"Page %d"`, i); got[i] != want {
			t.Errorf("page %d answered %s, want %s", ids[i], got[i], want)
		}
	}
}

func TestFloodsStayBounded(t *testing.T) {
	site := pages(t, map[string]string{
		"/log":    `<title>Flood</title><script>for (let i = 0; i < 100000; i++) console.log('message ' + i); document.title = 'logged'</script>`,
		"/popups": `<title>Popups</title><script>for (let i = 0; i < 50; i++) window.open('about:blank#' + i)</script>`,
	})
	s := startServer(t, headless...)
	s.ok("list_pages", nil) // attach before the page logs
	s.ok("navigate_page", map[string]any{"url": site.URL + "/log", "timeout": 60000})
	eventually(t, "the last message", func() bool {
		return strings.Contains(s.ok("list_console_messages", map[string]any{"pageSize": 1, "pageIdx": 999}), "Showing")
	})
	list := s.ok("list_console_messages", map[string]any{"pageSize": 5})
	mustContain(t, list, "of 1000 (Page 1 of 200)")
	s.ok("navigate_page", map[string]any{"url": site.URL + "/popups"})
	eventually(t, "50 popups", func() bool { return strings.Count(s.ok("list_pages", nil), "about:blank") >= 50 })
	mustContain(t, s.ok("take_snapshot", nil), "Popups")
}

func TestAbsurdNumbersAreRefused(t *testing.T) {
	s := startServer(t, headless...)
	mustContain(t, s.fails("navigate_page", map[string]any{"url": "about:blank", "timeout": -5}), `"timeout"`, "0 for the default")
	mustContain(t, s.fails("wait_for", map[string]any{"text": []string{"x"}, "timeout": 1e12}), `"timeout"`)
	mustContain(t, s.fails("list_console_messages", map[string]any{"pageIdx": -1}), "0 or more")
	mustContain(t, s.fails("select_page", map[string]any{"pageId": 1.5}), "whole number")
	mustContain(t, s.fails("new_page", map[string]any{"url": strings.Repeat("x", 1<<20)}), "navigate")
}

func TestPagesThatNeverSettle(t *testing.T) {
	hang := make(chan struct{})
	t.Cleanup(func() { close(hang) })
	mux := http.NewServeMux()
	mux.HandleFunc("/never", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<title>Never done</title><p>still loading")
		w.(http.Flusher).Flush()
		select { // the body never ends
		case <-hang:
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>Loop</title><script>setTimeout(() => location.reload(), 30)</script>`)
	})
	site := httptest.NewServer(mux)
	defer site.Close()
	s := startServer(t, headless...)
	mustContain(t, s.ok("navigate_page", map[string]any{"url": site.URL + "/never", "timeout": 1500}), "timed out")
	mustContain(t, s.ok("take_snapshot", nil), "still loading")
	s.ok("navigate_page", map[string]any{"url": site.URL + "/loop"})
	for range 5 {
		// Every tool answers, whichever document it meets.
		s.call("take_snapshot", nil)
		s.call("evaluate_script", map[string]any{"function": "() => document.title"})
		mustContain(t, s.ok("list_pages", nil), "Loop")
	}
}

func TestKilledAttachedBrowserExplainsHowToReattach(t *testing.T) {
	ws, _, proc := chromium(t)
	s := startServer(t, "--browserUrl", browserURL(ws))
	s.ok("list_pages", nil)
	s.eval("() => 1")
	syscall.Kill(-proc.Pid, syscall.SIGKILL)
	var out string
	eventually(t, "the server to notice the browser is gone", func() bool {
		res := s.call("evaluate_script", map[string]any{"function": "() => 1"})
		out = text(res)
		return res.IsError
	})
	mustContain(t, out, "Chrome")
	if !strings.Contains(out, "reconnect") && !strings.Contains(out, "could not reach Chrome") {
		t.Fatalf("the error does not say how to get the browser back:\n%s", out)
	}
}
