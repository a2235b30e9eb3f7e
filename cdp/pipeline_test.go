package cdp

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

// TestPipelineSendsAllBeforeAnyReply checks that Pipeline writes every
// command, in order, before the first reply comes, so that a sequence of
// key events costs one round trip, that it waits for the replies in
// order, and that a refusal ends it (the replies after it are dropped).
func TestPipelineSendsAllBeforeAnyReply(t *testing.T) {
	c, p := newTestConn(t)
	s := c.Session("S1")
	errc := make(chan error, 1)
	go func() {
		errc <- s.Pipeline(t.Context(),
			InputDispatchKeyEvent.With(KeyEvent{Type: "keyDown", Key: "a"}),
			PageEnable,
			InputDispatchKeyEvent.With(KeyEvent{Type: "keyUp", Key: "a"}),
		)
	}()
	var reqs []sentRequest
	for range 3 {
		reqs = append(reqs, p.expect(t)) // no reply sent yet
	}
	want := []string{"Input.dispatchKeyEvent", "Page.enable", "Input.dispatchKeyEvent"}
	for i, r := range reqs {
		if r.Method != want[i] || r.SessionID != "S1" {
			t.Errorf("request %d = %s, want %s in session S1", i, r.raw, want[i])
		}
	}
	if string(reqs[0].Params) != `{"type":"keyDown","key":"a"}` {
		t.Errorf("first params = %s", reqs[0].Params)
	}
	p.reply(t, reqs[0].ID, `{}`)
	select {
	case err := <-errc:
		t.Fatalf("Pipeline returned %v with two replies still due", err)
	default:
	}
	p.send(t, fmt.Sprintf(`{"id":%d,"error":{"code":-32000,"message":"refused"}}`, reqs[1].ID))
	err := waitCall(t, errc)
	var cdpErr *Error
	if !errors.As(err, &cdpErr) || cdpErr.Method != "Page.enable" {
		t.Errorf("Pipeline = %v, want Page.enable's refusal", err)
	}
	p.reply(t, reqs[2].ID, `{}`) // late: dropped
	if n := len(c.Stalled(time.Now().Add(time.Hour))); n != 0 {
		t.Errorf("%d sessions still await replies after Pipeline returned", n)
	}
}
