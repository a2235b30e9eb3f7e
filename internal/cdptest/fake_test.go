package cdptest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// These tests speak the wire format to the fake directly, as cdp.Conn
// does: the fake answers synchronously, so every message a command causes
// can be read right after it is written.

// spy is a testing.TB that keeps the failures the fake reports instead of
// failing the test, so that tests can check them.
type spy struct {
	testing.TB
	mu     sync.Mutex
	errors []string
}

func (s *spy) Errorf(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.errors = append(s.errors, fmt.Sprintf(format, args...))
}

func (s *spy) reported() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.errors...)
}

// message is a reply or an event as the fake sends it.
type message struct {
	ID        int64           `json:"id"`
	Method    string          `json:"method"`
	SessionID string          `json:"sessionId"`
	Result    json.RawMessage `json:"result"`
	Error     *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// wire is a minimal CDP client over a transport.
type wire struct {
	t    *testing.T
	tr   cdp.Transport
	next int64
}

// send writes a command and returns its id.
func (w *wire) send(session, method, params string) int64 {
	w.t.Helper()
	w.next++
	m := map[string]any{"id": w.next, "method": method}
	if session != "" {
		m["sessionId"] = session
	}
	if params != "" {
		m["params"] = json.RawMessage(params)
	}
	b, _ := json.Marshal(m)
	if err := w.tr.Write(context.Background(), b); err != nil {
		w.t.Fatalf("write %s: %v", method, err)
	}
	return w.next
}

// read returns the next message.
func (w *wire) read() message {
	w.t.Helper()
	b, err := w.tr.Read()
	if err != nil {
		w.t.Fatalf("read: %v", err)
	}
	var m message
	if err := json.Unmarshal(b, &m); err != nil {
		w.t.Fatalf("the fake sent %s: %v", b, err)
	}
	return m
}

// call sends a command and reads up to its reply, returning the reply and
// the methods of the events before it.
func (w *wire) call(session, method, params string) (message, []string) {
	w.t.Helper()
	id := w.send(session, method, params)
	var events []string
	for {
		m := w.read()
		if m.Method != "" {
			events = append(events, m.Method)
			continue
		}
		if m.ID != id {
			w.t.Fatalf("reply to %d while waiting for %d", m.ID, id)
		}
		if m.SessionID != session {
			w.t.Errorf("reply in session %q to a command in %q", m.SessionID, session)
		}
		return m, events
	}
}

// event is an event message for recordings.
func event(session, method, params string) json.RawMessage {
	m := `{"method":"` + method + `","params":` + params
	if session != "" {
		m += `,"sessionId":"` + session + `"`
	}
	return json.RawMessage(m + "}")
}

// navigation is a small recording: attach, then a navigation whose load
// events come before and after the reply.
func navigation() *Recording {
	return &Recording{Exchanges: []*Exchange{
		{Method: "Target.attachToTarget", Params: json.RawMessage(`{"targetId":"T1","flatten":true}`), Result: json.RawMessage(`{"sessionId":"S1"}`)},
		{Method: "Page.navigate", Session: "S1", Params: json.RawMessage(`{"url":"http://x/"}`), Result: json.RawMessage(`{"frameId":"F1","loaderId":"L1"}`),
			Before: []json.RawMessage{event("S1", "Page.frameStartedLoading", `{"frameId":"F1"}`)},
			After:  []json.RawMessage{event("S1", "Page.loadEventFired", `{"timestamp":1}`)}},
		{Method: "Runtime.evaluate", Session: "S1", Params: json.RawMessage(`{"expression":"wait(1500)","awaitPromise":true}`), Result: json.RawMessage(`{"result":{"type":"number","value":1}}`)},
		{Method: "Runtime.evaluate", Session: "S1", Params: json.RawMessage(`{"expression":"wait(1500)","awaitPromise":true}`), Result: json.RawMessage(`{"result":{"type":"number","value":2}}`)},
		{Method: "DOM.getDocument", Session: "S1", Error: json.RawMessage(`{"code":-32000,"message":"no document"}`)},
		{Method: "Runtime.evaluate", Session: "S1", Params: json.RawMessage(`{"expression":"blocked()"}`), Unanswered: true,
			Before: []json.RawMessage{event("S1", "Page.javascriptDialogOpening", `{"type":"alert"}`)}},
	}}
}

func TestFakeReplaysRepliesAndEvents(t *testing.T) {
	w := &wire{t: t, tr: NewFake(t, navigation())}
	if r, _ := w.call("", "Target.attachToTarget", `{"targetId":"T1","flatten":true}`); string(r.Result) != `{"sessionId":"S1"}` {
		t.Fatalf("attach answered %s, want the recorded session", r.Result)
	}
	r, before := w.call("S1", "Page.navigate", `{"url":"http://x/"}`)
	if !strings.Contains(string(r.Result), `"loaderId":"L1"`) || fmt.Sprint(before) != "[Page.frameStartedLoading]" {
		t.Fatalf("navigate answered %s after %v", r.Result, before)
	}
	if ev := w.read(); ev.Method != "Page.loadEventFired" || ev.SessionID != "S1" {
		t.Fatalf("after the navigation's reply came %+v, want its load event", ev)
	}
	if r, _ := w.call("S1", "Page.enable", ""); r.Error != nil || string(r.Result) != "{}" {
		t.Errorf("a tolerated set-up command answered %+v", r)
	}
	if r, _ := w.call("S1", "DOM.getDocument", ""); r.Error == nil || r.Error.Message != "no document" {
		t.Errorf("DOM.getDocument answered %+v, want the recorded refusal", r)
	}
}

// TestFakeToleratesTimingAndOptions checks that params differing only in
// numbers, zero-valued members or an option match, that recorded answers
// to one command are used in order, and that the last is repeated after.
func TestFakeToleratesTimingAndOptions(t *testing.T) {
	w := &wire{t: t, tr: NewFake(t, navigation())}
	var values []string
	for _, params := range []string{
		`{"expression":"wait(1499)","awaitPromise":true}`,
		`{"expression":"wait(1200)","awaitPromise":true,"returnByValue":false}`,
		`{"expression":"wait(900)","awaitPromise":true,"userGesture":false,"objectGroup":""}`,
	} {
		r, _ := w.call("S1", "Runtime.evaluate", params)
		values = append(values, string(r.Result))
	}
	want := []string{`{"result":{"type":"number","value":1}}`, `{"result":{"type":"number","value":2}}`, `{"result":{"type":"number","value":2}}`}
	if fmt.Sprint(values) != fmt.Sprint(want) {
		t.Errorf("answers = %v, want the two recorded in order, then the last again", values)
	}
	if r, _ := w.call("S1", "DOM.getDocument", `{"depth":-1}`); r.Error == nil || r.Error.Message != "no document" {
		t.Errorf("DOM.getDocument with an extra option answered %+v, want the recorded refusal", r)
	}
}

// TestFakeLeavesUnansweredCommandsUnanswered checks that a command Chrome
// never answered while recording gets its events but no reply.
func TestFakeLeavesUnansweredCommandsUnanswered(t *testing.T) {
	w := &wire{t: t, tr: NewFake(t, navigation())}
	w.send("S1", "Runtime.evaluate", `{"expression":"blocked()"}`)
	if ev := w.read(); ev.Method != "Page.javascriptDialogOpening" {
		t.Fatalf("got %+v, want the dialog that blocked the command", ev)
	}
	id := w.send("S1", "Page.enable", "")
	if r := w.read(); r.ID != id {
		t.Errorf("got %+v, want only the reply to the next command", r)
	}
}

func TestFakeFailsOnUnexpectedCommands(t *testing.T) {
	s := &spy{TB: t}
	w := &wire{t: t, tr: NewFake(s, navigation())}
	r, _ := w.call("S1", "Page.navigate", `{"url":"http://other/"}`)
	if r.Error == nil || !strings.Contains(r.Error.Message, "unexpected command Page.navigate") {
		t.Fatalf("an unexpected navigate answered %+v, want a CDP error naming it", r)
	}
	if r, _ := w.call("", "Browser.crash", ""); r.Error == nil {
		t.Fatal("an unrecorded command succeeded")
	}
	got := s.reported()
	if len(got) != 2 {
		t.Fatalf("reported %d failures, want 2: %q", len(got), got)
	}
	for _, want := range []string{`params {"url":"http://other/"}`, `recorded commands of that method:`, `unused session "S1" params {"url":"http://x/"}`} {
		if !strings.Contains(got[0], want) {
			t.Errorf("report %q does not say %q", got[0], want)
		}
	}
	for _, want := range []string{"unexpected command Browser.crash", "the recording has no such command", "Target.attachToTarget"} {
		if !strings.Contains(got[1], want) {
			t.Errorf("report %q does not say %q", got[1], want)
		}
	}
}

func TestFakeScriptedFailures(t *testing.T) {
	f := NewFake(t, navigation())
	w := &wire{t: t, tr: f}
	f.Refuse("Target.attachToTarget", "No target with given id found")
	if r, _ := w.call("", "Target.attachToTarget", `{"targetId":"T1","flatten":true}`); r.Error == nil || r.Error.Message != "No target with given id found" {
		t.Fatalf("refused attach answered %+v", r)
	}
	if r, _ := w.call("", "Target.attachToTarget", `{"targetId":"T1","flatten":true}`); r.Error != nil {
		t.Fatalf("the refusal applies to one call only, the next answered %+v", r)
	}

	f.Withhold("Page.loadEventFired", "")
	w.call("S1", "Page.navigate", `{"url":"http://x/"}`)
	id := w.send("S1", "Page.enable", "")
	if r := w.read(); r.ID != id {
		t.Fatalf("got %+v while the load event is held back", r)
	}
	f.Release()
	if ev := w.read(); ev.Method != "Page.loadEventFired" {
		t.Fatalf("after Release came %+v, want the held load event", ev)
	}

	f.DisconnectOn("DOM.getDocument")
	w.send("S1", "DOM.getDocument", "")
	if _, err := f.Read(); !errors.Is(err, ErrClosed) {
		t.Errorf("read after the fatal command = %v, want ErrClosed", err)
	}
	if err := f.Write(context.Background(), []byte(`{"id":99,"method":"Page.enable"}`)); !errors.Is(err, ErrClosed) {
		t.Errorf("write after the fatal command = %v, want ErrClosed", err)
	}
}

// TestRecorderRoundTrip records a session played by a fake and checks that
// the saved recording holds the same exchanges, events included.
func TestRecorderRoundTrip(t *testing.T) {
	r := NewRecorder(NewFake(t, navigation()))
	w := &wire{t: t, tr: r}
	w.call("", "Target.attachToTarget", `{"targetId":"T1","flatten":true}`)
	w.call("S1", "Page.navigate", `{"url":"http://x/"}`)
	w.read() // the load event, read before the next command goes out
	w.call("S1", "DOM.getDocument", "")
	w.send("S1", "Runtime.evaluate", `{"expression":"blocked()"}`)
	w.read() // the dialog; no reply comes

	path := filepath.Join(t.TempDir(), "r.jsonl.gz")
	rec := r.Recording()
	rec.Header.Site = "http://127.0.0.1:1"
	if err := rec.Save(path); err != nil {
		t.Fatal(err)
	}
	back, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.Header.Site != "http://127.0.0.1:1" || len(back.Exchanges) != 4 {
		t.Fatalf("loaded %+v with %d exchanges, want the site and 4", back.Header, len(back.Exchanges))
	}
	nav := back.Exchanges[1]
	if nav.Method != "Page.navigate" || nav.Session != "S1" || len(nav.Before) != 1 || len(nav.After) != 1 || !strings.Contains(string(nav.Result), "L1") {
		t.Errorf("navigate recorded as %+v", nav)
	}
	if !strings.Contains(string(back.Exchanges[2].Error), "no document") {
		t.Errorf("refusal recorded as %s", back.Exchanges[2].Error)
	}
	if blocked := back.Exchanges[3]; !blocked.Unanswered || len(blocked.Before) != 1 {
		t.Errorf("the unanswered command recorded as %+v", blocked)
	}
}
