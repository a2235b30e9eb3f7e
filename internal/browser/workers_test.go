package browser

import (
	"testing"
	"time"
)

// TestServiceWorkerScriptsRunOnceLoaded checks that a function for an
// extension service worker is sent only once Chrome said the worker's
// script loaded: Chrome lists the worker before that, and a function run
// then finds no chrome.tabs, or never gets an answer. The event may come
// right behind the reply to the attach; it counts only for that session.
func TestServiceWorkerScriptsRunOnceLoaded(t *testing.T) {
	for _, early := range []bool{false, true} {
		p, ft := fakePage(t)
		done := make(chan error, 1)
		var out string
		go func() {
			var err error
			out, err = p.browser.EvaluateInServiceWorker(t.Context(), "sw-1", "() => 1")
			done <- err
		}()
		list := ft.expect(t, "Target.getTargets")
		ft.send(t, `{"id":%d,"result":{"targetInfos":[{"targetId":"W","type":"service_worker","url":"chrome-extension://abc/sw.js"}]}}`, list.ID)
		attach := ft.expect(t, "Target.attachToTarget")
		ft.send(t, `{"id":%d,"result":{"sessionId":"WS"}}`, attach.ID)
		if early {
			ft.send(t, `{"sessionId":"WS","method":"Inspector.workerScriptLoaded","params":{}}`)
		} else {
			ft.send(t, `{"sessionId":"OTHER","method":"Inspector.workerScriptLoaded","params":{}}`)
			// Nothing marks "kept waiting": give it a moment to go wrong.
			select {
			case msg := <-ft.out:
				t.Fatalf("sent %s before the worker's script loaded", msg)
			case <-time.After(100 * time.Millisecond):
			}
			ft.send(t, `{"sessionId":"WS","method":"Inspector.workerScriptLoaded","params":{}}`)
		}
		eval := ft.expect(t, "Runtime.evaluate")
		ft.send(t, `{"id":%d,"sessionId":"WS","result":{"result":{"type":"string","value":"1"}}}`, eval.ID)
		detach := ft.expect(t, "Target.detachFromTarget")
		ft.send(t, `{"id":%d,"result":{}}`, detach.ID)
		if err := <-done; err != nil || out != "1" {
			t.Errorf("early=%v: got %q, %v; want 1", early, out, err)
		}
	}
}
