package browser

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// guardedPage is fakePage in a browser whose socket guard runs.
func guardedPage(t *testing.T) (*Page, *fakeTransport) {
	t.Helper()
	p, ft := fakePage(t)
	b := p.browser
	b.filter = newURLFilter([]string{"*/ads/*"}, nil)
	t.Cleanup(b.filter.stop)
	errc := make(chan error, 1)
	go func() { errc <- b.filter.guardSockets(t.Context(), b) }()
	c := ft.expect(t, "Target.setAutoAttach")
	ft.send(t, `{"id":%d,"result":{}}`, c.ID)
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	p.sessions().follow(p.session)
	return p, ft
}

// sent is a command the fake browser received, with what it acts on.
type sent struct {
	command
	session string // the session it was sent in
	target  string // for Target.detachFromTarget: the session it ends
}

// next returns the next command the client sends, or ok false when none
// comes within wait.
func (f *fakeTransport) next(t *testing.T, wait time.Duration) (c sent, ok bool) {
	t.Helper()
	select {
	case msg := <-f.out:
		var m struct {
			command
			SessionID string `json:"sessionId"`
		}
		if err := json.Unmarshal(msg, &m); err != nil {
			t.Fatalf("sent %s: %v", msg, err)
		}
		var p struct {
			SessionID string `json:"sessionId"`
		}
		_ = json.Unmarshal(m.Params, &p)
		return sent{command: m.command, session: m.SessionID, target: p.SessionID}, true
	case <-time.After(wait):
		return sent{}, false
	}
}

// workerAttached has Chrome report a new dedicated worker W, paused, to
// the guard's session G (through the browser's auto-attach, as to the
// guard's own session of the page) and to the page's session S as P.
func workerAttached(t *testing.T, ft *fakeTransport) {
	t.Helper()
	const worker = `"targetInfo":{"targetId":"W","type":"worker","url":"http://x/w.js"},"waitingForDebugger":true`
	ft.send(t, `{"method":"Target.attachedToTarget","params":{"sessionId":"G",%s}}`, worker)
	ft.send(t, `{"sessionId":"S","method":"Target.attachedToTarget","params":{"sessionId":"P",%s}}`, worker)
	// Another client's session to the same worker (an explicit attach):
	// the guard must leave it alone.
	ft.send(t, `{"method":"Target.attachedToTarget","params":{"sessionId":"X",%s}}`, strings.Replace(worker, "true", "false", 1))
}

// TestPageLetsWorkersRunOnlyUnderTheSocketRule: Chrome lets a paused
// worker run as soon as any session asks. The page's session, which
// auto-attaches to its workers and lets them go, used to do so at once,
// racing the socket guard's offline rule: a service worker's WebSocket
// reached the network under a URL policy (TestURLPolicyRefusesWebSockets
// under load). The page must wait for the guard's rule.
func TestPageLetsWorkersRunOnlyUnderTheSocketRule(t *testing.T) {
	_, ft := guardedPage(t)
	workerAttached(t, ft)
	c, ok := ft.next(t, 10*time.Second)
	for ok && c.session != "G" {
		t.Errorf("sent %s in session %q before the guard's rule", c.Method, c.session)
		c, ok = ft.next(t, 10*time.Second)
	}
	if !ok || c.Method != "Network.enable" {
		t.Fatalf("the guard sent %+v, want Network.enable", c)
	}
	// Nothing marks "the page waits for the rule", so give it a moment
	// to let the worker run wrongly.
	if early, ok := ft.next(t, 200*time.Millisecond); ok {
		t.Fatalf("sent %s in session %q (ending %q) before the guard's rule was set", early.Method, early.session, early.target)
	}
	ft.send(t, `{"id":%d,"sessionId":"G","result":{}}`, c.ID)
	rule, _ := ft.next(t, 10*time.Second)
	if rule.Method != "Network.emulateNetworkConditionsByRule" || rule.session != "G" || !strings.Contains(string(rule.Params), `"ws://*:*/*"`) {
		t.Fatalf("sent %s %s in %q, want the offline rule in G", rule.Method, rule.Params, rule.session)
	}
	if early, ok := ft.next(t, 200*time.Millisecond); ok {
		t.Fatalf("sent %s in session %q before the rule was answered", early.Method, early.session)
	}
	ft.send(t, `{"id":%d,"sessionId":"G","result":{"ruleIds":["a","b"]}}`, rule.ID)
	nested, _ := ft.next(t, 10*time.Second)
	if nested.Method != "Target.setAutoAttach" || nested.session != "G" {
		t.Fatalf("sent %s in %q, want the worker's own auto-attach", nested.Method, nested.session)
	}
	ft.send(t, `{"id":%d,"sessionId":"G","result":{}}`, nested.ID)
	// A worker's requests go to the network, not to a service worker.
	bypass, _ := ft.next(t, 10*time.Second)
	if bypass.Method != "Network.setBypassServiceWorker" || bypass.session != "G" || !strings.Contains(string(bypass.Params), `"bypass":true`) {
		t.Fatalf("sent %s %s in %q, want the service worker bypass in G", bypass.Method, bypass.Params, bypass.session)
	}
	ft.send(t, `{"id":%d,"sessionId":"G","result":{}}`, bypass.ID)
	// Its background fetches fail, before its script runs.
	refuse, _ := ft.next(t, 10*time.Second)
	if refuse.Method != "Runtime.evaluate" || refuse.session != "G" || !strings.Contains(string(refuse.Params), "BackgroundFetchManager") {
		t.Fatalf("sent %s %s in %q, want the background fetch refusal in G", refuse.Method, refuse.Params, refuse.session)
	}
	ft.send(t, `{"id":%d,"sessionId":"G","result":{"result":{"type":"undefined"}}}`, refuse.ID)
	// Now the guard and the page both let it run, and the page detaches.
	want := map[string]bool{"Runtime.runIfWaitingForDebugger G": true, "Runtime.runIfWaitingForDebugger P": true, "Target.detachFromTarget S P": true}
	for len(want) > 0 {
		c, ok := ft.next(t, 10*time.Second)
		if !ok {
			t.Fatalf("never sent %v", want)
		}
		key := strings.TrimSpace(c.Method + " " + c.session + " " + c.target)
		if !want[key] {
			t.Fatalf("sent %q, want one of %v", key, want)
		}
		delete(want, key)
		ft.send(t, `{"id":%d,"sessionId":%q,"result":{}}`, c.ID, c.session)
	}
	if extra, ok := ft.next(t, 100*time.Millisecond); ok {
		t.Errorf("then sent %s in %q (another client's session?)", extra.Method, extra.session)
	}
}

// TestSocketGuardFailsClosed: a worker in which the rule could not be set
// (here Network.enable fails; a deadline used to do the same) is left
// paused by the guard and by the page, which only detaches.
func TestSocketGuardFailsClosed(t *testing.T) {
	_, ft := guardedPage(t)
	workerAttached(t, ft)
	c, _ := ft.next(t, 10*time.Second)
	if c.Method != "Network.enable" || c.session != "G" {
		t.Fatalf("sent %s in %q first, want Network.enable in G", c.Method, c.session)
	}
	ft.send(t, `{"id":%d,"sessionId":"G","error":{"code":-32000,"message":"boom"}}`, c.ID)
	for {
		c, ok := ft.next(t, 10*time.Second)
		if !ok {
			t.Fatal("the page never detached from the worker")
		}
		if c.Method == "Target.detachFromTarget" && c.target == "P" {
			ft.send(t, `{"id":%d,"sessionId":"S","result":{}}`, c.ID)
			break
		}
		t.Fatalf("sent %s in %q: the worker must stay paused", c.Method, c.session)
	}
	if late, ok := ft.next(t, 200*time.Millisecond); ok {
		t.Fatalf("then sent %s in %q: the worker must stay paused", late.Method, late.session)
	}
}
