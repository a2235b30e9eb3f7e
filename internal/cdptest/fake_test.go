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
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

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
	}}
}

// listen collects the methods of the events of session.
func listen(c *cdp.Conn, session string) func() []string {
	var mu sync.Mutex
	var got []string
	c.Listen(session, func(method string, _ json.RawMessage) {
		mu.Lock()
		got = append(got, method)
		mu.Unlock()
	})
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), got...)
	}
}

func TestFakeReplaysRepliesAndEvents(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c := cdp.NewConn(NewFake(t, navigation()))
	defer c.Close()
	events := listen(c, "S1")

	var att cdp.AttachToTargetResult
	if err := c.Call(ctx, "", "Target.attachToTarget", cdp.AttachToTargetParams{TargetID: "T1", Flatten: true}, &att); err != nil || att.SessionID != "S1" {
		t.Fatalf("attach = %+v, %v; want the recorded session S1", att, err)
	}
	var nav struct{ LoaderID string }
	if err := c.Call(ctx, "S1", "Page.navigate", map[string]string{"url": "http://x/"}, &nav); err != nil || nav.LoaderID != "L1" {
		t.Fatalf("navigate = %+v, %v; want loader L1", nav, err)
	}
	// A round trip orders everything queued before it.
	if err := c.Call(ctx, "S1", "Page.enable", nil, nil); err != nil {
		t.Fatalf("a tolerated command failed: %v", err)
	}
	if got := strings.Join(events(), " "); got != "Page.frameStartedLoading Page.loadEventFired" {
		t.Errorf("events = %s, want the recorded ones in order", got)
	}
	err := c.Call(ctx, "S1", "DOM.getDocument", nil, nil)
	var cerr *cdp.Error
	if !errors.As(err, &cerr) || cerr.Message != "no document" {
		t.Errorf("DOM.getDocument = %v, want the recorded refusal", err)
	}
}

// TestFakeToleratesTimingAndZeroValues checks that params differing only
// in numbers or in zero-valued members match, that recorded answers to one
// command are used in order, and that the last is repeated after that.
func TestFakeToleratesTimingAndZeroValues(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c := cdp.NewConn(NewFake(t, navigation()))
	defer c.Close()
	var values []int
	for _, params := range []string{
		`{"expression":"wait(1499)","awaitPromise":true}`,
		`{"expression":"wait(1200)","awaitPromise":true,"returnByValue":false}`,
		`{"expression":"wait(900)","awaitPromise":true,"userGesture":false,"objectGroup":""}`,
	} {
		var res struct{ Result struct{ Value int } }
		if err := c.Call(ctx, "S1", "Runtime.evaluate", json.RawMessage(params), &res); err != nil {
			t.Fatalf("evaluate %s: %v", params, err)
		}
		values = append(values, res.Result.Value)
	}
	if fmt.Sprint(values) != "[1 2 2]" {
		t.Errorf("answers = %v, want the two recorded in order, then the last again", values)
	}
	// An option the recording did not send still finds the command.
	var cerr *cdp.Error
	if err := c.Call(ctx, "S1", "DOM.getDocument", map[string]int{"depth": -1}, nil); !errors.As(err, &cerr) || cerr.Message != "no document" {
		t.Errorf("DOM.getDocument with an extra option = %v, want the recorded refusal", err)
	}
}

func TestFakeFailsOnUnexpectedCommands(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s := &spy{TB: t}
	c := cdp.NewConn(NewFake(s, navigation()))
	defer c.Close()

	err := c.Call(ctx, "S1", "Page.navigate", map[string]string{"url": "http://other/"}, nil)
	var cerr *cdp.Error
	if !errors.As(err, &cerr) || !strings.Contains(cerr.Message, "unexpected command Page.navigate") {
		t.Fatalf("unexpected navigate = %v, want a CDP error naming it", err)
	}
	if err := c.Call(ctx, "", "Browser.crash", nil, nil); err == nil {
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

func TestFakeRefusesAndDisconnects(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	f := NewFake(t, navigation())
	c := cdp.NewConn(f)
	defer c.Close()
	f.Refuse("Target.attachToTarget", "No target with given id found")
	err := c.Call(ctx, "", "Target.attachToTarget", cdp.AttachToTargetParams{TargetID: "T1", Flatten: true}, nil)
	var cerr *cdp.Error
	if !errors.As(err, &cerr) || cerr.Message != "No target with given id found" {
		t.Fatalf("refused attach = %v", err)
	}
	if err := c.Call(ctx, "", "Target.attachToTarget", cdp.AttachToTargetParams{TargetID: "T1", Flatten: true}, nil); err != nil {
		t.Fatalf("the refusal applies to one call only, the next failed: %v", err)
	}
	f.Disconnect()
	<-c.Done()
	if err := c.Call(ctx, "S1", "Page.enable", nil, nil); !errors.Is(err, cdp.ErrBrowserGone) {
		t.Errorf("call after Disconnect = %v, want ErrBrowserGone", err)
	}
}

// TestRecorderRoundTrip records a session played by a fake and checks
// that the saved recording holds the same exchanges, events included.
func TestRecorderRoundTrip(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r := NewRecorder(NewFake(t, navigation()))
	c := cdp.NewConn(r)
	loaded := make(chan struct{})
	c.Listen("S1", func(method string, _ json.RawMessage) {
		if method == "Page.loadEventFired" {
			close(loaded)
		}
	})
	if err := c.Call(ctx, "", "Target.attachToTarget", cdp.AttachToTargetParams{TargetID: "T1", Flatten: true}, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Call(ctx, "S1", "Page.navigate", map[string]string{"url": "http://x/"}, nil); err != nil {
		t.Fatal(err)
	}
	// The load event belongs to the navigation only if it arrives before
	// the next command is sent.
	select {
	case <-loaded:
	case <-ctx.Done():
		t.Fatal("no load event")
	}
	if err := c.Call(ctx, "S1", "DOM.getDocument", nil, nil); err == nil {
		t.Fatal("the recorded refusal was not replayed")
	}
	c.Close()

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
	if back.Header.Site != "http://127.0.0.1:1" || len(back.Exchanges) != 3 {
		t.Fatalf("loaded %+v with %d exchanges, want the site and 3", back.Header, len(back.Exchanges))
	}
	nav := back.Exchanges[1]
	if nav.Method != "Page.navigate" || nav.Session != "S1" || len(nav.Before) != 1 || len(nav.After) != 1 || !strings.Contains(string(nav.Result), "L1") {
		t.Errorf("navigate recorded as %+v", nav)
	}
	if !strings.Contains(string(back.Exchanges[2].Error), "no document") {
		t.Errorf("refusal recorded as %s", back.Exchanges[2].Error)
	}
}
