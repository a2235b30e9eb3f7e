package cdp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// testGuard bounds every wait in these tests, so that a bug fails a test instead
// of hanging it. Nothing waits for it to pass in a passing run.
const testGuard = 10 * time.Second

// fakePeer is the browser end of a fakeTransport.
type fakePeer struct {
	toConn   chan []byte   // what the browser sends
	fromConn chan []byte   // what the Conn wrote
	gone     chan struct{} // closed when the browser hangs up
	closed   chan struct{} // closed by Transport.Close
	hangOnce sync.Once
	closeOne sync.Once
}

// fakeTransport is a Transport whose peer is driven by the test.
type fakeTransport struct{ p *fakePeer }

func (f fakeTransport) Read() ([]byte, error) {
	select {
	case m := <-f.p.toConn:
		return m, nil
	case <-f.p.gone:
		return nil, io.EOF
	case <-f.p.closed:
		return nil, net.ErrClosed
	}
}

func (f fakeTransport) Write(ctx context.Context, msg []byte) error {
	select {
	case f.p.fromConn <- bytes.Clone(msg):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-f.p.closed:
		return net.ErrClosed
	}
}

func (f fakeTransport) Close() error {
	f.p.closeOne.Do(func() { close(f.p.closed) })
	return nil
}

// newTestConn returns a Conn over a fake transport and the fake browser. At
// the end of the test it closes the Conn and checks the reader goroutine
// returned.
func newTestConn(t *testing.T, opts ...Option) (*Conn, *fakePeer) {
	t.Helper()
	p := &fakePeer{
		toConn:   make(chan []byte),
		fromConn: make(chan []byte, 100),
		gone:     make(chan struct{}),
		closed:   make(chan struct{}),
	}
	c := NewConn(fakeTransport{p}, opts...)
	t.Cleanup(func() {
		c.Close()
		select {
		case <-c.readDone:
		case <-time.After(testGuard):
			t.Error("reader goroutine still running after Close")
		}
	})
	return c, p
}

// sentRequest is a request as the browser sees it.
type sentRequest struct {
	ID        int64           `json:"id"`
	Method    string          `json:"method"`
	SessionID string          `json:"sessionId"`
	Params    json.RawMessage `json:"params"`
	raw       []byte
}

// expect returns the next request the Conn wrote.
func (p *fakePeer) expect(t *testing.T) sentRequest {
	t.Helper()
	select {
	case b := <-p.fromConn:
		var r sentRequest
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("Conn wrote invalid JSON %q: %v", b, err)
		}
		r.raw = b
		return r
	case <-time.After(testGuard):
		t.Fatal("no request was sent")
		return sentRequest{}
	}
}

// send delivers one raw message to the Conn; it returns once the reader
// goroutine has taken it.
func (p *fakePeer) send(t *testing.T, msg string) {
	t.Helper()
	select {
	case p.toConn <- []byte(msg):
	case <-time.After(testGuard):
		t.Fatalf("Conn did not read %s", msg)
	}
}

func (p *fakePeer) reply(t *testing.T, id int64, result string) {
	t.Helper()
	p.send(t, fmt.Sprintf(`{"id":%d,"result":%s}`, id, result))
}

func (p *fakePeer) event(t *testing.T, sessionID, method, params string) {
	t.Helper()
	if sessionID == "" {
		p.send(t, fmt.Sprintf(`{"method":%q,"params":%s}`, method, params))
		return
	}
	p.send(t, fmt.Sprintf(`{"method":%q,"sessionId":%q,"params":%s}`, method, sessionID, params))
}

func (p *fakePeer) hangUp() { p.hangOnce.Do(func() { close(p.gone) }) }

// goCall runs Call in a goroutine and returns where its error will arrive.
func goCall(c *Conn, ctx context.Context, sessionID, method string, params, result any) <-chan error {
	errc := make(chan error, 1)
	go func() { errc <- c.Call(ctx, sessionID, method, params, result) }()
	return errc
}

// waitCall returns the error Call returned.
func waitCall(t *testing.T, errc <-chan error) error {
	t.Helper()
	select {
	case err := <-errc:
		return err
	case <-time.After(testGuard):
		t.Fatal("Call did not return")
		return nil
	}
}

func TestCallOutOfOrderReplies(t *testing.T) {
	c, p := newTestConn(t)
	type echo struct {
		N int `json:"n"`
	}
	const n = 5
	got := make([]echo, n)
	errcs := make([]<-chan error, n)
	for i := range n {
		errcs[i] = goCall(c, t.Context(), "", "Test.echo", echo{N: i}, &got[i])
	}
	reqs := make([]sentRequest, n)
	ids := map[int64]bool{}
	for i := range reqs {
		reqs[i] = p.expect(t)
		if reqs[i].ID <= 0 || ids[reqs[i].ID] {
			t.Fatalf("bad or reused id %d", reqs[i].ID)
		}
		ids[reqs[i].ID] = true
	}
	// Reply last first, echoing each request's params.
	for i := n - 1; i >= 0; i-- {
		p.reply(t, reqs[i].ID, string(reqs[i].Params))
	}
	for i := range n {
		if err := waitCall(t, errcs[i]); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		if got[i].N != i {
			t.Errorf("call %d got the reply for call %d", i, got[i].N)
		}
	}
}

func TestRequestEncoding(t *testing.T) {
	c, p := newTestConn(t)
	var nilParams *CloseTargetParams
	tests := []struct {
		name    string
		session string
		params  any
		want    string
	}{
		{"nil params", "", nil, `{"id":ID,"method":"M"}`},
		{"typed nil params", "", nilParams, `{"id":ID,"method":"M"}`},
		{"empty raw params", "", json.RawMessage(nil), `{"id":ID,"method":"M"}`},
		{"raw params", "S1", json.RawMessage(`{"a": [1, 2]}`), `{"id":ID,"method":"M","sessionId":"S1","params":{"a":[1,2]}}`},
		{"struct params", "S2", AttachToTargetParams{TargetID: "T", Flatten: true}, `{"id":ID,"method":"M","sessionId":"S2","params":{"targetId":"T","flatten":true}}`},
	}
	var last int64
	for _, tt := range tests {
		errc := goCall(c, t.Context(), tt.session, "M", tt.params, nil)
		req := p.expect(t)
		if req.ID <= last {
			t.Errorf("%s: id %d not above previous %d", tt.name, req.ID, last)
		}
		last = req.ID
		want := strings.Replace(tt.want, "ID", fmt.Sprint(req.ID), 1)
		if string(req.raw) != want {
			t.Errorf("%s: sent %s, want %s", tt.name, req.raw, want)
		}
		p.reply(t, req.ID, `{}`)
		if err := waitCall(t, errc); err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}

func TestCallResultDecoding(t *testing.T) {
	c, p := newTestConn(t)

	var raw json.RawMessage
	errc := goCall(c, t.Context(), "", "Browser.getVersion", nil, &raw)
	p.reply(t, p.expect(t).ID, `{"product":"Chrome/156"}`)
	if err := waitCall(t, errc); err != nil {
		t.Fatal(err)
	}
	if string(raw) != `{"product":"Chrome/156"}` {
		t.Errorf("raw result = %s", raw)
	}

	var res AttachToTargetResult
	errc = goCall(c, t.Context(), "", "Target.attachToTarget", AttachToTargetParams{TargetID: "T1", Flatten: true}, &res)
	p.reply(t, p.expect(t).ID, `{"sessionId":"S1"}`)
	if err := waitCall(t, errc); err != nil || res.SessionID != "S1" {
		t.Errorf("got %+v, %v", res, err)
	}

	var bad struct{ N int }
	errc = goCall(c, t.Context(), "", "Test.bad", nil, &bad)
	p.reply(t, p.expect(t).ID, `{"N":"not a number"}`)
	if err := waitCall(t, errc); err == nil || !strings.Contains(err.Error(), "Test.bad: decode result") {
		t.Errorf("undecodable result: got %v", err)
	}
}

func TestEventsRouting(t *testing.T) {
	c, p := newTestConn(t)
	var mu sync.Mutex
	got := map[string][]string{}
	record := func(name string) func(RawEvent) {
		return func(ev RawEvent) {
			mu.Lock()
			defer mu.Unlock()
			got[name] = append(got[name], ev.Method+string(ev.Params))
		}
	}
	subs := []*Subscription{
		c.SubscribeFunc("", record("browser")),
		c.SubscribeFunc("S1", record("s1")),
		c.Session("S1").SubscribeFunc(record("s1 again")),
		c.SubscribeFunc("S1", record("s1, E.d only"), Event[struct{}]{"E.d"}),
		c.SubscribeFunc("S2", record("s2")),
	}
	stopped := c.SubscribeFunc("S2", record("s2 closed"))
	subs = append(subs, stopped)

	errc := goCall(c, t.Context(), "S1", "Page.enable", nil, nil)
	req := p.expect(t)
	p.event(t, "S1", "E.a", `{"n":1}`)
	p.event(t, "S2", "E.b", `{"n":2}`)
	p.event(t, "", "E.c", `{"n":3}`)
	p.reply(t, req.ID, `{}`)
	p.event(t, "S1", "E.d", `{"n":4}`)
	if err := waitCall(t, errc); err != nil {
		t.Fatal(err)
	}
	roundTrip(t, c, p)
	if err := stopped.Sync(t.Context()); err != nil {
		t.Fatal(err)
	}
	stopped.Close()
	p.event(t, "S2", "E.e", `{"n":5}`)
	p.event(t, "S3", "E.f", `{"n":6}`)
	p.send(t, `{"method":"E.g","sessionId":"S1"}`)

	// A reply is dispatched after every message before it: once this call
	// returns, all the events above are queued, and Sync sees them handled.
	roundTrip(t, c, p)
	for _, s := range subs {
		if err := s.Sync(t.Context()); err != nil && s != stopped {
			t.Fatal(err)
		}
		defer s.Close()
	}

	want := map[string][]string{
		"browser":      {`E.c{"n":3}`},
		"s1":           {`E.a{"n":1}`, `E.d{"n":4}`, `E.g`},
		"s1 again":     {`E.a{"n":1}`, `E.d{"n":4}`, `E.g`},
		"s1, E.d only": {`E.d{"n":4}`},
		"s2":           {`E.b{"n":2}`, `E.e{"n":5}`},
		"s2 closed":    {`E.b{"n":2}`},
	}
	mu.Lock()
	defer mu.Unlock()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("events delivered:\n got %v\nwant %v", got, want)
	}
}

func TestCallCancelled(t *testing.T) {
	c, p := newTestConn(t)

	ctx, cancel := context.WithCancel(t.Context())
	errc := goCall(c, ctx, "", "Slow.op", nil, nil)
	req := p.expect(t)
	cancel()
	if err := waitCall(t, errc); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled call returned %v, want context.Canceled", err)
	}
	c.mu.Lock()
	if len(c.pending) != 0 {
		t.Errorf("cancelled call still pending: %v", c.pending)
	}
	c.mu.Unlock()

	// The late reply is dropped and does not disturb the next call.
	var got json.RawMessage
	errc = goCall(c, t.Context(), "", "Next.op", nil, &got)
	next := p.expect(t)
	p.reply(t, req.ID, `{"late":true}`)
	p.reply(t, next.ID, `{"next":true}`)
	if err := waitCall(t, errc); err != nil || string(got) != `{"next":true}` {
		t.Errorf("next call got %s, %v", got, err)
	}

	// A context that is already done sends nothing.
	if err := c.Call(ctx, "", "Never.sent", nil, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Call with done ctx returned %v", err)
	}
	if len(p.fromConn) != 0 {
		t.Errorf("Call with done ctx sent %s", <-p.fromConn)
	}
}

func TestConnectionLost(t *testing.T) {
	c, p := newTestConn(t)
	var errcs []<-chan error
	for i := range 3 {
		errcs = append(errcs, goCall(c, t.Context(), fmt.Sprint("S", i), "Page.navigate", nil, nil))
		p.expect(t)
	}
	p.hangUp()
	for i, errc := range errcs {
		err := waitCall(t, errc)
		if !errors.Is(err, ErrBrowserGone) || !errors.Is(err, io.EOF) {
			t.Errorf("pending call %d: got %v, want ErrBrowserGone and io.EOF", i, err)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "Page.navigate: the browser went away") {
			t.Errorf("pending call %d: error reads %q", i, err)
		}
	}
	select {
	case <-c.Done():
	case <-time.After(testGuard):
		t.Fatal("Done not closed")
	}
	if err := c.Err(); !errors.Is(err, ErrBrowserGone) {
		t.Errorf("Err() = %v", err)
	}
	// A later call fails at once, without waiting for its context.
	if err := waitCall(t, goCall(c, context.Background(), "", "Page.reload", nil, nil)); !errors.Is(err, ErrBrowserGone) {
		t.Errorf("later call: %v", err)
	}
	select {
	case <-c.readDone:
	case <-time.After(testGuard):
		t.Fatal("reader goroutine still running")
	}
	select {
	case <-p.closed:
	default:
		t.Error("transport not closed after the peer went away")
	}
}

func TestClose(t *testing.T) {
	c, p := newTestConn(t)
	errc := goCall(c, t.Context(), "", "Page.navigate", nil, nil)
	p.expect(t)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := waitCall(t, errc); !errors.Is(err, ErrBrowserGone) {
		t.Errorf("pending call: %v", err)
	}
	if err := c.Call(t.Context(), "", "Page.reload", nil, nil); !errors.Is(err, ErrBrowserGone) {
		t.Errorf("later call: %v", err)
	}
	if err := c.Err(); !errors.Is(err, ErrBrowserGone) {
		t.Errorf("Err() = %v", err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	select {
	case <-c.readDone:
	case <-time.After(testGuard):
		t.Error("reader goroutine still running after Close")
	}
}

func TestCloseFromSubscriber(t *testing.T) {
	c, p := newTestConn(t)
	sub := c.SubscribeFunc("", func(RawEvent) { c.Close() })
	defer sub.Close()
	p.event(t, "", "Inspector.detached", `{}`)
	select {
	case <-c.Done():
	case <-time.After(testGuard):
		t.Fatal("Close from a subscriber did not close the Conn")
	}
}

func TestProtocolError(t *testing.T) {
	c, p := newTestConn(t)
	tests := []struct {
		errJSON string
		want    Error
		text    string
	}{
		{
			`{"code":-32000,"message":"Cannot navigate to invalid URL"}`,
			Error{Method: "Page.navigate", Code: -32000, Message: "Cannot navigate to invalid URL"},
			"Page.navigate: Cannot navigate to invalid URL (-32000)",
		},
		{
			`{"code":-32602,"message":"Invalid parameters","data":"Failed to deserialize params.url"}`,
			Error{Method: "Page.navigate", Code: -32602, Message: "Invalid parameters", Data: "Failed to deserialize params.url"},
			"Page.navigate: Invalid parameters (-32602): Failed to deserialize params.url",
		},
		{
			`{"code":1,"message":"m","data":{"k":1}}`,
			Error{Method: "Page.navigate", Code: 1, Message: "m", Data: `{"k":1}`},
			`Page.navigate: m (1): {"k":1}`,
		},
	}
	for _, tt := range tests {
		var result json.RawMessage
		errc := goCall(c, t.Context(), "S", "Page.navigate", json.RawMessage(`{"url":"x"}`), &result)
		p.send(t, fmt.Sprintf(`{"id":%d,"sessionId":"S","error":%s}`, p.expect(t).ID, tt.errJSON))
		err := waitCall(t, errc)
		var pe *Error
		if !errors.As(err, &pe) {
			t.Fatalf("got %T %v, want *Error", err, err)
		}
		if *pe != tt.want {
			t.Errorf("got %+v, want %+v", *pe, tt.want)
		}
		if err.Error() != tt.text {
			t.Errorf("Error() = %q, want %q", err.Error(), tt.text)
		}
		if errors.Is(err, ErrBrowserGone) {
			t.Error("protocol error wraps ErrBrowserGone")
		}
	}
}

func TestDetachedSessionFailsPendingCalls(t *testing.T) {
	c, p := newTestConn(t)
	events := c.Subscribe("")
	defer events.Close()

	s1a := goCall(c, t.Context(), "S1", "Runtime.evaluate", nil, nil)
	p.expect(t)
	s1b := goCall(c, t.Context(), "S1", "Page.navigate", nil, nil)
	p.expect(t)
	s2 := goCall(c, t.Context(), "S2", "Page.navigate", nil, nil)
	req2 := p.expect(t)

	p.event(t, "", "Target.detachedFromTarget", `{"sessionId":"S1","targetId":"T1"}`)
	for _, errc := range []<-chan error{s1a, s1b} {
		err := waitCall(t, errc)
		if err == nil || !strings.Contains(err.Error(), "session S1 detached: target closed or crashed") {
			t.Errorf("call in detached session: %v", err)
		}
	}
	select {
	case ev := <-events.Events():
		if ev.Method != "Target.detachedFromTarget" {
			t.Errorf("browser subscriber got %s", ev.Method)
		}
	case <-time.After(testGuard):
		t.Error("detachedFromTarget not delivered to the browser subscriber")
	}
	// The other session is unaffected.
	select {
	case err := <-s2:
		t.Fatalf("call in S2 returned early: %v", err)
	default:
	}
	p.reply(t, req2.ID, `{}`)
	if err := waitCall(t, s2); err != nil {
		t.Errorf("call in S2: %v", err)
	}
}

func TestMalformedMessagesSkipped(t *testing.T) {
	var logs lockedBuffer
	c, p := newTestConn(t, WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	called := make(chan struct{}, 10)
	sub := c.SubscribeFunc("", func(RawEvent) { called <- struct{}{} })
	defer sub.Close()

	errc := goCall(c, t.Context(), "", "Test.op", nil, nil)
	req := p.expect(t)
	for _, m := range []string{
		`not json`, ``, `null`, `[1,2]`, `{}`, `{"id":"seven"}`, `{"id":1.5}`,
		`{"id":7,"method":"Server.request"}`, `{"method":42}`, `{"id":999999,"result":{}}`,
		`{"method":"Target.detachedFromTarget","params":"nope"}`,
		`{"method":"Target.detachedFromTarget","params":{"sessionId":5}}`,
		`{"id":` + fmt.Sprint(req.ID) + `,"error":"not an object"}`,
	} {
		p.send(t, m)
	}
	p.reply(t, req.ID, `{}`)
	if err := waitCall(t, errc); err != nil {
		t.Fatal(err)
	}
	if c.Err() != nil {
		t.Fatalf("Conn died: %v", c.Err())
	}
	if err := sub.Sync(t.Context()); err != nil {
		t.Fatal(err)
	}
	// Only the two well-formed (if useless) detachedFromTarget events are events.
	if len(called) != 2 {
		t.Errorf("subscriber called %d times, want 2", len(called))
	}
	if !strings.Contains(logs.String(), "malformed") {
		t.Errorf("malformed messages not logged:\n%s", logs.String())
	}
}

func TestMarshalError(t *testing.T) {
	c, p := newTestConn(t)
	err := c.Call(t.Context(), "", "Test.op", make(chan int), nil)
	if err == nil || !strings.Contains(err.Error(), "Test.op: encode params") {
		t.Errorf("got %v", err)
	}
	if len(p.fromConn) != 0 {
		t.Errorf("unencodable call sent %s", <-p.fromConn)
	}
	errc := goCall(c, t.Context(), "", "Test.ok", nil, nil)
	p.reply(t, p.expect(t).ID, `{}`)
	if err := waitCall(t, errc); err != nil {
		t.Error(err)
	}
}

func TestSession(t *testing.T) {
	c, p := newTestConn(t)
	s := c.Session("S9")
	if s.Conn != c || s.ID != "S9" {
		t.Fatalf("Session = %+v", s)
	}
	got := s.Subscribe()
	defer got.Close()
	var res CreateTargetResult
	errc := make(chan error, 1)
	go func() {
		errc <- s.Call(t.Context(), "Target.createTarget", CreateTargetParams{URL: "about:blank"}, &res)
	}()
	req := p.expect(t)
	if req.SessionID != "S9" || req.Method != "Target.createTarget" || string(req.Params) != `{"url":"about:blank"}` {
		t.Errorf("sent %s", req.raw)
	}
	p.event(t, "S9", "Page.loadEventFired", `{}`)
	p.reply(t, req.ID, `{"targetId":"T"}`)
	if err := waitCall(t, errc); err != nil || res.TargetID != "T" {
		t.Errorf("got %+v, %v", res, err)
	}
	if ev := next(t, got); ev.Method != "Page.loadEventFired" || ev.SessionID != "S9" {
		t.Errorf("subscriber got %s in %q", ev.Method, ev.SessionID)
	}
}

// TestLoggerKeepsMessagesOutWithoutProtocolLog checks that a debug logger
// alone never receives what the browser sends or is sent: cookies, tokens.
func TestLoggerKeepsMessagesOutWithoutProtocolLog(t *testing.T) {
	var logs lockedBuffer
	c, p := newTestConn(t, WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	errc := goCall(c, t.Context(), "", "Network.getCookies", map[string]string{"token": "s3cret-sent"}, nil)
	req := p.expect(t)
	p.send(t, `{"method":"Network.requestWillBeSent","params":{"headers":{"Authorization":"Bearer s3cret-event"}}}`)
	p.send(t, `{"bogus":"s3cret-malformed"`)
	p.reply(t, req.ID, `{"cookies":[{"name":"sid","value":"s3cret-reply"}]}`)
	if err := waitCall(t, errc); err != nil {
		t.Fatal(err)
	}
	if out := logs.String(); strings.Contains(out, "s3cret") {
		t.Errorf("the log holds message contents without WithProtocolLog:\n%s", out)
	}
}

func TestLoggerTruncates(t *testing.T) {
	var logs lockedBuffer
	c, p := newTestConn(t, WithProtocolLog(), WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	big := strings.Repeat("é", 2000)
	errc := goCall(c, t.Context(), "", "Test.big", map[string]string{"s": big}, nil)
	p.reply(t, p.expect(t).ID, fmt.Sprintf(`{"s":%q}`, big))
	if err := waitCall(t, errc); err != nil {
		t.Fatal(err)
	}
	out := logs.String()
	for _, want := range []string{"cdp send", "cdp recv", "Test.big"} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
	for line := range strings.Lines(out) {
		if len(line) > 700 {
			t.Errorf("log line of %d bytes not truncated", len(line))
		}
		if strings.Contains(line, `\x`) {
			t.Errorf("truncation split a character: %s", line)
		}
	}
}

// lockedBuffer is a bytes.Buffer safe for concurrent use.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
