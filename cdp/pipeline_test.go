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

// TestSendThenWait checks that Send writes the command at once, before the
// caller awaits anything, so that commands sent one after the other reach
// Chrome in that order whatever goroutines await them, and that Wait
// decodes each reply, whichever comes first.
func TestSendThenWait(t *testing.T) {
	c, p := newTestConn(t)
	s := c.Session("S1")
	tree := PageGetFrameTree.Send(t.Context(), s)
	ax := AccessibilityGetFullAXTree.Send(t.Context(), s, GetFullAXTreeParams{FrameID: "F"})
	first, second := p.expect(t), p.expect(t)
	if first.Method != "Page.getFrameTree" || second.Method != "Accessibility.getFullAXTree" || string(second.Params) != `{"frameId":"F"}` {
		t.Fatalf("sent %s then %s", first.raw, second.raw)
	}
	p.reply(t, second.ID, `{"nodes":[{"nodeId":"1","ignored":false}]}`)
	p.reply(t, first.ID, `{"frameTree":{"frame":{"id":"F","url":"http://a/"}}}`)
	nodes, err := ax.Wait(t.Context())
	if err != nil || len(nodes.Nodes) != 1 || nodes.Nodes[0].NodeID != "1" {
		t.Errorf("AX tree = %+v, %v", nodes, err)
	}
	ft, err := tree.Wait(t.Context())
	if err != nil || ft.FrameTree.Frame.ID != "F" {
		t.Errorf("frame tree = %+v, %v", ft, err)
	}
	if n := len(c.Stalled(time.Now().Add(time.Hour))); n != 0 {
		t.Errorf("%d sessions still await replies after both waits", n)
	}
}
