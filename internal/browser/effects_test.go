package browser

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// sessionCommand is a command the fake browser received, with its session.
type sessionCommand struct {
	command
	SessionID string `json:"sessionId"`
	Params    struct {
		Expression string `json:"expression"`
	} `json:"params"`
}

// expectEach reads one method command for each of sessions, in any order
// (they are sent side by side), and returns them by session.
func (f *fakeTransport) expectEach(t *testing.T, method string, sessions ...string) map[string]sessionCommand {
	t.Helper()
	got := map[string]sessionCommand{}
	for range sessions {
		select {
		case msg := <-f.out:
			var c sessionCommand
			if err := json.Unmarshal(msg, &c); err != nil || c.Method != method {
				t.Fatalf("sent %s, want %s", msg, method)
			}
			got[c.SessionID] = c
		case <-time.After(10 * time.Second):
			t.Fatalf("%s was sent in %d of sessions %v", method, len(got), sessions)
		}
	}
	for _, s := range sessions {
		if _, ok := got[s]; !ok {
			t.Fatalf("%s was not sent in session %s (got %v)", method, s, got)
		}
	}
	return got
}

// fakePageWithFrame is fakePage with a cross-process iframe "FR" whose
// session is "FS".
func fakePageWithFrame(t *testing.T) (*Page, *fakeTransport) {
	t.Helper()
	p, ft := fakePage(t)
	p.events.addFrame("FR", p.session, p.browser.conn.Session("FS"))
	return p, ft
}

// actInBackground runs Act with an action that sends nothing (as a click
// whose commands were answered) and returns its result channel.
func actInBackground(ctx context.Context, p *Page) <-chan error {
	done := make(chan error, 1)
	go func() {
		_, err := p.Act(ctx, func(context.Context) error { return nil })
		done <- err
	}()
	return done
}

// TestActionsAwaitTheirEffectsInCrossProcessFrames checks that an action's
// effects are recorded and awaited in a cross-process iframe too: a click
// on a button of a cross-site frame that fetches and then changes the
// frame's DOM is over only when the frame says so, although the page's own
// window saw nothing.
func TestActionsAwaitTheirEffectsInCrossProcessFrames(t *testing.T) {
	p, ft := fakePageWithFrame(t)
	done := actInBackground(t.Context(), p)

	watch := ft.expectEach(t, "Runtime.evaluate", "S", "FS")
	for _, c := range watch {
		if !strings.Contains(c.Params.Expression, "Starts recording what the page does") {
			t.Fatalf("the watch in session %s ran %.80q", c.SessionID, c.Params.Expression)
		}
		ft.send(t, `{"id":%d,"sessionId":%q,"result":{"result":{"type":"undefined"}}}`, c.ID, c.SessionID)
	}
	settle := ft.expectEach(t, "Runtime.evaluate", "S", "FS")
	for _, c := range settle {
		if !strings.Contains(c.Params.Expression, "Ends the action effects-watch.js recorded") {
			t.Fatalf("the settle wait in session %s ran %.80q", c.SessionID, c.Params.Expression)
		}
	}
	ft.send(t, `{"id":%d,"sessionId":"S","result":{"result":{"type":"string","value":"none"}}}`, settle["S"].ID)
	// Nothing marks "Act has read that answer and kept waiting", so give
	// it a moment to return wrongly.
	select {
	case err := <-done:
		t.Fatalf("the action returned (%v) while its effects in the iframe were still going", err)
	case <-time.After(100 * time.Millisecond):
	}
	ft.send(t, `{"id":%d,"sessionId":"FS","result":{"result":{"type":"string","value":"settled"}}}`, settle["FS"].ID)
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the action did not return once the iframe settled")
	}
}

// TestActionsSkipFramesThatCannotRecord checks that an iframe whose
// recording fails (it went away) is not waited on: the action is over when
// the page is.
func TestActionsSkipFramesThatCannotRecord(t *testing.T) {
	p, ft := fakePageWithFrame(t)
	done := actInBackground(t.Context(), p)

	watch := ft.expectEach(t, "Runtime.evaluate", "S", "FS")
	ft.send(t, `{"id":%d,"sessionId":"S","result":{"result":{"type":"undefined"}}}`, watch["S"].ID)
	ft.send(t, `{"id":%d,"sessionId":"FS","error":{"code":-32001,"message":"Session with given id not found."}}`, watch["FS"].ID)
	settle := ft.expectEach(t, "Runtime.evaluate", "S")
	ft.send(t, `{"id":%d,"sessionId":"S","result":{"result":{"type":"string","value":"none"}}}`, settle["S"].ID)
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the action waited for an iframe that does not record")
	}
	select {
	case msg := <-ft.out:
		t.Fatalf("sent %s after the action was over", msg)
	default:
	}
}
