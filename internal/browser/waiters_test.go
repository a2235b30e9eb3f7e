package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// fakeTransport is the browser end of a cdp.Conn, driven by the test.
type fakeTransport struct {
	in   chan []byte // to the Conn
	out  chan []byte // from the Conn
	done chan struct{}
}

func (f *fakeTransport) Read() ([]byte, error) {
	select {
	case m := <-f.in:
		return m, nil
	case <-f.done:
		return nil, io.EOF
	}
}

func (f *fakeTransport) Write(ctx context.Context, msg []byte) error {
	select {
	case f.out <- msg:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-f.done:
		return io.EOF
	}
}

func (f *fakeTransport) Close() error {
	select {
	case <-f.done:
	default:
		close(f.done)
	}
	return nil
}

// fakePage returns a page whose session "S" is attached to a fake browser.
func fakePage(t *testing.T) (*Page, *fakeTransport) {
	t.Helper()
	ft := &fakeTransport{in: make(chan []byte), out: make(chan []byte, 16), done: make(chan struct{})}
	m := NewManager(Options{})
	b := &Browser{m: m, log: m.log, bg: newBackground(m.log), conn: cdp.NewConn(ft), pages: map[string]*Page{}, contexts: map[string]string{}}
	t.Cleanup(b.release)
	p := newPage(b, 1, cdp.TargetInfo{TargetID: "F", Type: "page"})
	p.session = b.conn.Session("S")
	return p, ft
}

// command is a command the fake browser received.
type command struct {
	ID     int64           `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

func (f *fakeTransport) expect(t *testing.T, method string) command {
	t.Helper()
	select {
	case msg := <-f.out:
		var c command
		if err := json.Unmarshal(msg, &c); err != nil || c.Method != method {
			t.Fatalf("sent %s, want %s", msg, method)
		}
		return c
	case <-time.After(10 * time.Second):
		t.Fatalf("%s was not sent", method)
		return command{}
	}
}

// answerProbe answers the busy probe Navigate sends first, as a page that
// is not busy does.
func (f *fakeTransport) answerProbe(t *testing.T) {
	t.Helper()
	probe := f.expect(t, "Runtime.getIsolateId")
	f.send(t, `{"id":%d,"result":{"id":"1"}}`, probe.ID)
}

func (f *fakeTransport) send(t *testing.T, format string, args ...any) {
	t.Helper()
	select {
	case f.in <- fmt.Appendf(nil, format, args...):
	case <-time.After(10 * time.Second):
		t.Fatal("the Conn does not read")
	}
}

// TestNavigateWaitsForTheLoadOfItsDocument drives Navigate against a fake
// browser: it returns only once the main frame's load event of the loader
// Page.navigate answered came, not on the load of another document.
func TestNavigateWaitsForTheLoadOfItsDocument(t *testing.T) {
	p, ft := fakePage(t)
	done := make(chan error, 1)
	go func() {
		_, err := p.Navigate(t.Context(), Navigation{URL: "http://x/"})
		done <- err
	}()
	ft.answerProbe(t)
	nav := ft.expect(t, "Page.navigate")
	ft.send(t, `{"id":%d,"result":{"frameId":"F","loaderId":"L2"}}`, nav.ID)
	ft.send(t, `{"sessionId":"S","method":"Page.lifecycleEvent","params":{"frameId":"F","loaderId":"L1","name":"load"}}`)
	ft.send(t, `{"sessionId":"S","method":"Page.lifecycleEvent","params":{"frameId":"F","loaderId":"L2","name":"DOMContentLoaded"}}`)
	// Nothing marks "Navigate has read those events and kept waiting", so
	// give it a moment to return wrongly.
	select {
	case err := <-done:
		t.Fatalf("Navigate returned (%v) before its document loaded", err)
	case <-time.After(100 * time.Millisecond):
	}
	ft.send(t, `{"sessionId":"S","method":"Page.lifecycleEvent","params":{"frameId":"F","loaderId":"L2","name":"load"}}`)
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Navigate did not return after the load")
	}
}

// TestNavigateAnswersBeforeUnload checks that a beforeunload dialog opened
// while Page.navigate is unanswered is answered from Navigate's own
// goroutine, as asked, and that a dismissed one ends the navigation.
func TestNavigateAnswersBeforeUnload(t *testing.T) {
	p, ft := fakePage(t)
	type result struct {
		res NavigationResult
		err error
	}
	done := make(chan result, 1)
	go func() {
		res, err := p.Navigate(t.Context(), Navigation{URL: "http://x/", DismissBeforeUnload: true})
		done <- result{res, err}
	}()
	ft.answerProbe(t)
	nav := ft.expect(t, "Page.navigate")
	ft.send(t, `{"sessionId":"S","method":"Page.javascriptDialogOpening","params":{"type":"beforeunload","message":"Leave?"}}`)
	h := ft.expect(t, "Page.handleJavaScriptDialog")
	if string(h.Params) != `{"accept":false}` {
		t.Errorf("dialog answered with %s, want accept false", h.Params)
	}
	ft.send(t, `{"id":%d,"result":{}}`, h.ID)
	select {
	case r := <-done:
		if r.err != nil || r.res.BeforeUnload != "dismissed" {
			t.Errorf("Navigate = %+v, %v; want BeforeUnload dismissed", r.res, r.err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Navigate did not return after the dismissed dialog")
	}
	ft.send(t, `{"id":%d,"result":{"frameId":"F","loaderId":"L"}}`, nav.ID) // a late answer is dropped
}

// TestDialogReflectsEventsBeforeTheCall checks that Page.Dialog sees a
// dialog whose event was read before the call, though the page handles
// its events on a subscription of its own.
func TestDialogReflectsEventsBeforeTheCall(t *testing.T) {
	p, ft := fakePage(t)
	p.sessions().follow(p.session)
	ft.send(t, `{"sessionId":"S","method":"Page.javascriptDialogOpening","params":{"type":"alert","message":"Hi"}}`)
	// A reply after the event: once it is in, the event was read.
	errc := make(chan error, 1)
	go func() { errc <- cdp.RuntimeEnable.Do(t.Context(), p.session) }()
	ft.send(t, `{"id":%d,"result":{}}`, ft.expect(t, "Runtime.enable").ID)
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if d := p.Dialog(); d == nil || d.Message != "Hi" {
		t.Fatalf("Dialog() = %+v, want the alert", d)
	}
	ft.send(t, `{"sessionId":"S","method":"Page.javascriptDialogClosed","params":{"result":true}}`)
	go func() { errc <- cdp.RuntimeEnable.Do(t.Context(), p.session) }()
	ft.send(t, `{"id":%d,"result":{}}`, ft.expect(t, "Runtime.enable").ID)
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if d := p.Dialog(); d != nil {
		t.Fatalf("Dialog() = %+v after it closed", d)
	}
}
