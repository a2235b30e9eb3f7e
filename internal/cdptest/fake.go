package cdptest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// ErrClosed is returned by a Fake's Read and Write after Close or Disconnect.
var ErrClosed = errors.New("cdptest: transport closed")

// tolerated reports whether the fake answers method with an empty result
// when the recording has none left that match: switching a domain's events
// on or off and other set-up whose only effect the recording already shows.
// Browser.getVersion is tolerated too: an empty answer is a browser of
// unknown version, which only turns off version warnings; and
// Browser.setDownloadBehavior, whose effect no recorded page shows; and
// Runtime.getIsolateId, the busy probe, answered as by a page that is not
// busy; and Emulation.setFocusEmulationEnabled, which only keeps a page in
// the background drawn as the recorded pages were.
// A client that enables a domain once more, or in another order, after a
// refactor still replays; any other unrecorded command fails the test.
func tolerated(method string) bool {
	switch method {
	case cdp.AccessibilityEnable.Method, cdp.AuditsEnable.Method, cdp.CSSEnable.Method, cdp.CSSDisable.Method,
		cdp.DOMEnable.Method, cdp.DOMDisable.Method, cdp.LogEnable.Method, cdp.NetworkEnable.Method,
		cdp.PageEnable.Method, cdp.RuntimeEnable.Method, cdp.HeapProfilerEnable.Method,
		cdp.PageSetLifecycleEventsEnabled.Method, cdp.RuntimeRunIfWaitingForDebugger.Method, cdp.TargetSetAutoAttach.Method,
		cdp.BrowserGetVersion.Method, cdp.BrowserSetDownloadBehavior.Method, cdp.RuntimeGetIsolateId.Method,
		cdp.EmulationSetFocusEmulationEnabled.Method:
		return true
	}
	return false
}

// Fake is a [cdp.Transport] that plays Chromium from a Recording.
//
// Each command the client writes is matched against the recorded commands
// of the same method and session that have not been used yet, in recorded
// order: first by equal params, then by params equal but for their numbers
// (timeouts, deadlines and coordinates that depend on timing), then by
// params one of which has only members the other has too, with the same
// values (a client that stopped or started sending an option). Params are
// compared as JSON values with false, 0, "" and null members dropped, so that
// a client that starts or stops sending a zero value still matches. The order
// in which the client sends commands does not matter. The matched command's
// Before events, its reply and its After events are then queued for Read, in
// that order.
//
// A command that Chromium had not answered when the recording ended gets
// no answer either: the client's context ends its wait, as it did then.
// A command whose recorded matches are all used gets the last one's reply
// again, without its events (a poll repeated more often than when it was
// recorded). A few set-up commands, such as enabling a domain's events, get
// an empty result when nothing recorded matches. Any other command fails
// the test, naming the command and what was recorded for its method, and
// gets a CDP error reply, so the client never waits for an answer.
type Fake struct {
	t   testing.TB
	rec *Recording

	norms []params // of the recorded commands

	mu      sync.Mutex
	used    []bool
	refuse  map[string]string
	crashOn string
	hold    func(json.RawMessage) bool // events to hold back; nil: none
	held    []json.RawMessage
	out     [][]byte
	wake    chan struct{}
	closed  bool
	done    chan struct{}
	cleaned bool // the test ended: report nothing more
}

// NewFake returns a fake playing rec. Unexpected commands are reported
// with t.Errorf until the test's cleanup runs.
func NewFake(t testing.TB, rec *Recording) *Fake {
	f := &Fake{t: t, rec: rec, used: make([]bool, len(rec.Exchanges)), norms: make([]params, len(rec.Exchanges)),
		refuse: map[string]string{}, wake: make(chan struct{}, 1), done: make(chan struct{})}
	for i, e := range rec.Exchanges {
		f.norms[i] = normalizeParams(e.Params)
	}
	t.Cleanup(func() {
		f.mu.Lock()
		f.cleaned = true
		f.mu.Unlock()
		f.Close()
	})
	return f
}

// Refuse makes the next command of method fail with a CDP error carrying
// message, as Chromium refuses a command it cannot carry out.
func (f *Fake) Refuse(method, message string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.refuse[method] = message
}

// DisconnectOn makes the fake drop the connection, without answering, when
// the client next sends method: a browser that dies while carrying out a
// command.
func (f *Fake) DisconnectOn(method string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.crashOn = method
}

// Withhold holds back the events of method whose message contains text
// (e.g. `"name":"load"`) until Release: a page that takes its time, to
// check that a waiter waits for the event.
func (f *Fake) Withhold(method, text string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.hold = func(msg json.RawMessage) bool {
		var ev struct{ Method string }
		return json.Unmarshal(msg, &ev) == nil && ev.Method == method && strings.Contains(string(msg), text)
	}
}

// Release emits the events held back since Withhold, in order, and holds
// back no more.
func (f *Fake) Release() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.hold = nil
	held := f.held
	f.held = nil
	f.queue(held...)
}

// Disconnect drops the connection as a crashed or closed browser does:
// pending and later reads fail.
func (f *Fake) Disconnect() { f.Close() }

// Read returns the next queued reply or event, blocking until there is one
// or the fake is closed; once closed, what is still queued is dropped.
func (f *Fake) Read() ([]byte, error) {
	for {
		f.mu.Lock()
		if f.closed {
			f.mu.Unlock()
			return nil, ErrClosed
		}
		if len(f.out) > 0 {
			msg := f.out[0]
			f.out = f.out[1:]
			f.mu.Unlock()
			return msg, nil
		}
		f.mu.Unlock()
		select {
		case <-f.wake:
		case <-f.done:
		}
	}
}

// Close makes Read and Write fail from now on.
func (f *Fake) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.closed {
		f.closed = true
		close(f.done)
	}
	return nil
}

// command is the wire form of a command the client sent.
type command struct {
	ID        int64           `json:"id"`
	Method    string          `json:"method"`
	SessionID string          `json:"sessionId"`
	Params    json.RawMessage `json:"params"`
}

// Write answers one command; see Fake for how.
func (f *Fake) Write(ctx context.Context, msg []byte) error {
	var c command
	if err := json.Unmarshal(msg, &c); err != nil {
		f.fail("cdptest: the client sent a malformed command %s: %v", msg, err)
		return fmt.Errorf("cdptest: malformed command: %w", err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return ErrClosed
	}
	if c.Method == f.crashOn {
		f.closed = true
		close(f.done)
		return nil
	}
	if text, ok := f.refuse[c.Method]; ok {
		delete(f.refuse, c.Method)
		f.queue(reply(c, nil, errorObject(-32000, text)))
		return nil
	}
	i, fresh := f.match(c)
	switch {
	case i >= 0:
		e := f.rec.Exchanges[i]
		if fresh {
			f.queue(e.Before...)
		}
		if e.Unanswered {
			return nil // as recorded: the client's context ends the wait
		}
		f.queue(reply(c, e.Result, e.Error))
		if fresh {
			f.queue(e.After...)
		}
	case tolerated(c.Method):
		f.queue(reply(c, json.RawMessage(`{}`), nil))
	default:
		text := f.unexpected(c)
		if !f.cleaned {
			f.t.Errorf("%s", text)
		}
		f.queue(reply(c, nil, errorObject(-32601, text)))
	}
	return nil
}

// match finds the recorded exchange answering c: an unused one (fresh) or
// the last used one again. It returns -1 when there is none.
//
// Candidates have c's method and session. They are tried by closeness:
// equal params, params equal but for digits, then params of which one side
// is a subset of the other, member by member and digits aside (a client
// that stopped or started sending a member); an unused candidate of the
// first closeness that has one wins, else the last used candidate of the
// closest kind is repeated.
func (f *Fake) match(c command) (i int, fresh bool) {
	sent := normalizeParams(c.Params)
	const kinds = 3
	var firstUnused, lastUsed [kinds]int
	for k := range kinds {
		firstUnused[k], lastUsed[k] = -1, -1
	}
	for i, e := range f.rec.Exchanges {
		if e.Method != c.Method || e.Session != c.SessionID {
			continue
		}
		rec := f.norms[i]
		k := -1
		switch {
		case rec.exact == sent.exact:
			k = 0
		case rec.loose == sent.loose:
			k = 1
		case subset(rec.members, sent.members) || subset(sent.members, rec.members):
			k = 2
		default:
			continue
		}
		if !f.used[i] && firstUnused[k] < 0 {
			firstUnused[k] = i
		}
		if f.used[i] {
			lastUsed[k] = i
		}
	}
	for k := range kinds {
		if i := firstUnused[k]; i >= 0 {
			f.used[i] = true
			if k > 0 && !f.cleaned {
				f.t.Logf("cdptest: %s %s answered with the recorded %s", c.Method, clip(c.Params), clip(f.rec.Exchanges[i].Params))
			}
			return i, true
		}
	}
	for k := range kinds {
		if i := lastUsed[k]; i >= 0 {
			return i, false
		}
	}
	return -1, false
}

// unexpected describes a command the recording cannot answer.
func (f *Fake) unexpected(c command) string {
	var b strings.Builder
	fmt.Fprintf(&b, "cdptest: unexpected command %s", c.Method)
	if c.SessionID != "" {
		fmt.Fprintf(&b, " in session %s", c.SessionID)
	}
	fmt.Fprintf(&b, " with params %s", clip(c.Params))
	var same []string
	for i, e := range f.rec.Exchanges {
		if e.Method == c.Method {
			use := "unused"
			if f.used[i] {
				use = "used"
			}
			same = append(same, fmt.Sprintf("\n\t%s session %q params %s", use, e.Session, clip(e.Params)))
		}
	}
	if len(same) == 0 {
		b.WriteString("; the recording has no such command. Next unused recorded commands:")
		n := 0
		for i, e := range f.rec.Exchanges {
			if !f.used[i] && n < 5 {
				fmt.Fprintf(&b, "\n\t%s session %q params %s", e.Method, e.Session, clip(e.Params))
				n++
			}
		}
		return b.String()
	}
	b.WriteString("; recorded commands of that method:")
	for _, s := range same {
		b.WriteString(s)
	}
	return b.String()
}

// fail reports a test failure unless the test already ended.
func (f *Fake) fail(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.cleaned {
		f.t.Errorf(format, args...)
	}
}

// queue appends messages for Read, keeping back those Withhold holds.
// f.mu must be held.
func (f *Fake) queue(msgs ...json.RawMessage) {
	for _, m := range msgs {
		if f.hold != nil && f.hold(m) {
			f.held = append(f.held, m)
			continue
		}
		f.out = append(f.out, m)
	}
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// reply builds the reply to c.
func reply(c command, result, errObj json.RawMessage) json.RawMessage {
	m := map[string]any{"id": c.ID}
	if c.SessionID != "" {
		m["sessionId"] = c.SessionID
	}
	if errObj != nil {
		m["error"] = errObj
	} else {
		if result == nil {
			result = json.RawMessage(`{}`)
		}
		m["result"] = result
	}
	b, _ := json.Marshal(m)
	return b
}

// errorObject is a CDP error reply's "error" member.
func errorObject(code int, message string) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"code": code, "message": message})
	return b
}

var digits = regexp.MustCompile(`[0-9]+`)

// params is a command's params in the forms match compares.
type params struct {
	exact   string            // canonical JSON without zero-valued members
	loose   string            // exact with every run of digits replaced
	members map[string]string // top-level member -> its loose JSON
}

// normalizeParams returns the comparable forms of raw params.
func normalizeParams(raw json.RawMessage) params {
	p := params{exact: "{}", loose: "{}", members: map[string]string{}}
	if len(raw) == 0 {
		return p
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		p.exact, p.loose = string(raw), string(raw)
		return p
	}
	v = dropZero(v)
	if b, _ := json.Marshal(v); string(b) != "null" {
		p.exact, p.loose = string(b), digits.ReplaceAllString(string(b), "#")
	}
	if m, ok := v.(map[string]any); ok {
		for k, x := range m {
			b, _ := json.Marshal(x)
			p.members[k] = digits.ReplaceAllString(string(b), "#")
		}
	}
	return p
}

// subset reports whether every member of a is in b with the same value.
func subset(a, b map[string]string) bool {
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// dropZero removes object members that are false, 0, "", null or empty.
func dropZero(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			x = dropZero(x)
			if isZero(x) {
				delete(v, k)
			} else {
				v[k] = x
			}
		}
		return v
	case []any:
		for i, x := range v {
			v[i] = dropZero(x)
		}
		return v
	}
	return v
}

func isZero(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case bool:
		return !v
	case float64:
		return v == 0
	case string:
		return v == ""
	case map[string]any:
		return len(v) == 0
	case []any:
		return len(v) == 0
	}
	return false
}

// clip shortens JSON for failure messages.
func clip(b json.RawMessage) string {
	const limit = 300
	if len(b) <= limit {
		return string(b)
	}
	return string(b[:limit]) + "…"
}
