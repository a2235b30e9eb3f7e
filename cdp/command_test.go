package cdp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// goTyped runs a typed call in a goroutine and returns where its error will
// arrive, like goCall for Conn.Call.
func goTyped(call func() error) <-chan error {
	errc := make(chan error, 1)
	go func() { errc <- call() }()
	return errc
}

func TestCommandCallSendsMethodAndParamsAndDecodesResult(t *testing.T) {
	c, p := newTestConn(t)
	s := c.Session("S1")
	var got NavigateResult
	errc := goTyped(func() (err error) {
		got, err = PageNavigate.Call(t.Context(), s, NavigateParams{URL: "https://example.com/"})
		return err
	})
	req := p.expect(t)
	if req.Method != "Page.navigate" || req.SessionID != "S1" {
		t.Errorf("sent method %q in session %q, want Page.navigate in S1", req.Method, req.SessionID)
	}
	if string(req.Params) != `{"url":"https://example.com/"}` {
		t.Errorf("sent params %s", req.Params)
	}
	p.reply(t, req.ID, `{"frameId":"F1","loaderId":"L1","errorText":"net::ERR_NAME_NOT_RESOLVED"}`)
	if err := waitCall(t, errc); err != nil {
		t.Fatal(err)
	}
	want := NavigateResult{FrameID: "F1", LoaderID: "L1", ErrorText: "net::ERR_NAME_NOT_RESOLVED"}
	if got != want {
		t.Errorf("result %+v, want %+v", got, want)
	}
}

func TestCommandRefusalIsAnErrorNamingTheMethod(t *testing.T) {
	c, p := newTestConn(t)
	errc := goTyped(func() error {
		_, err := PageNavigate.Call(t.Context(), c.Session("S1"), NavigateParams{URL: "bad"})
		return err
	})
	req := p.expect(t)
	p.send(t, fmt.Sprintf(`{"id":%d,"error":{"code":-32000,"message":"Cannot navigate to invalid URL"}}`, req.ID))
	err := waitCall(t, errc)
	var ce *Error
	if !errors.As(err, &ce) {
		t.Fatalf("error %v (%T), want an *Error", err, err)
	}
	if ce.Method != "Page.navigate" || ce.Code != -32000 || ce.Message != "Cannot navigate to invalid URL" {
		t.Errorf("error %+v", ce)
	}
	if !strings.HasPrefix(err.Error(), "Page.navigate: ") {
		t.Errorf("error text %q does not start with the method", err)
	}
}

// TestRequestWireForms checks what each kind of declaration puts on the
// wire: no params key for Action, Query and Empty params (as a nil params
// to Session.Call), the params for a Command and a bound Request, and that
// Do ignores a result it has no place for.
func TestRequestWireForms(t *testing.T) {
	type params struct {
		N int `json:"n"`
	}
	withParams := Command[params, Empty]{"Test.withParams"}
	noParams := Command[Empty, Empty]{"Test.noParams"}
	action := Action{"Test.action"}
	query := Query[NodeID]{"Test.query"}
	ctx := t.Context()

	tests := []struct {
		name       string
		call       func(s *Session) error
		wantMethod string
		wantParams string // "" = no params key
	}{
		{"Action", func(s *Session) error { return action.Do(ctx, s) }, "Test.action", ""},
		{"Query.Do", func(s *Session) error { return query.Do(ctx, s) }, "Test.query", ""},
		{"Command with Empty params", func(s *Session) error {
			_, err := noParams.Call(ctx, s, Empty{})
			return err
		}, "Test.noParams", ""},
		{"Command", func(s *Session) error {
			_, err := withParams.Call(ctx, s, params{N: 7})
			return err
		}, "Test.withParams", `{"n":7}`},
		{"Command.Do", func(s *Session) error { return withParams.Do(ctx, s, params{N: 8}) }, "Test.withParams", `{"n":8}`},
		{"With", func(s *Session) error { return withParams.With(params{N: 9}).Do(ctx, s) }, "Test.withParams", `{"n":9}`},
		{"Request of an Action", func(s *Session) error {
			var r Request = action
			return r.Do(ctx, s)
		}, "Test.action", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, p := newTestConn(t)
			errc := goTyped(func() error { return tt.call(c.Session("")) })
			req := p.expect(t)
			if req.Method != tt.wantMethod {
				t.Errorf("method %q, want %q", req.Method, tt.wantMethod)
			}
			if string(req.Params) != tt.wantParams {
				t.Errorf("params %q, want %q (sent %s)", req.Params, tt.wantParams, req.raw)
			}
			p.reply(t, req.ID, `{"nodeId":3}`)
			if err := waitCall(t, errc); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestQueryCallDecodesResult(t *testing.T) {
	c, p := newTestConn(t)
	var got BrowserVersion
	errc := goTyped(func() (err error) {
		got, err = BrowserGetVersion.Call(t.Context(), c.Session(""))
		return err
	})
	req := p.expect(t)
	if req.Method != "Browser.getVersion" || req.Params != nil {
		t.Errorf("sent %s", req.raw)
	}
	p.reply(t, req.ID, `{"product":"Chrome/156.0.0.0","protocolVersion":"1.3"}`)
	if err := waitCall(t, errc); err != nil {
		t.Fatal(err)
	}
	if got.Product != "Chrome/156.0.0.0" || got.ProtocolVersion != "1.3" {
		t.Errorf("version %+v", got)
	}
}

func TestEventDecode(t *testing.T) {
	ev, err := PageFrameNavigated.Decode(json.RawMessage(`{"frame":{"id":"F","url":"https://a/"},"type":"Navigation"}`))
	if err != nil {
		t.Fatal(err)
	}
	if ev.Frame.ID != "F" || ev.Frame.URL != "https://a/" || ev.Type != "Navigation" {
		t.Errorf("event %+v", ev)
	}
	if ev, err := PageFrameNavigated.Decode(nil); err != nil || ev != (FrameNavigatedEvent{}) {
		t.Errorf("empty params decoded to %+v, %v; want the zero event", ev, err)
	}
	if _, err := PageFrameNavigated.Decode(json.RawMessage(`{"frame":7}`)); err == nil {
		t.Error("malformed params decoded without an error")
	}
}

// TestCallerIsSession pins that *Session is a Caller, and that a Caller other
// than a Session gets the same method, params and result pointer.
func TestCallerIsSession(t *testing.T) {
	var _ Caller = (*Session)(nil)
	var rec recordingCaller
	if _, err := DOMRequestNode.Call(t.Context(), &rec, NodeRef{ObjectID: "o1"}); err != nil {
		t.Fatal(err)
	}
	if rec.method != "DOM.requestNode" || rec.params != (NodeRef{ObjectID: "o1"}) {
		t.Errorf("called %q with %#v", rec.method, rec.params)
	}
	if _, ok := rec.result.(*NodeID); !ok {
		t.Errorf("result is a %T, want *NodeID", rec.result)
	}
}

// recordingCaller is a Caller that remembers its last call and answers
// nothing.
type recordingCaller struct {
	method         string
	params, result any
}

func (r *recordingCaller) Call(_ context.Context, method string, params, result any) error {
	r.method, r.params, r.result = method, params, result
	return nil
}
