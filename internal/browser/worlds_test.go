package browser

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// TestWorldsFollowChromesContexts checks that our isolated world's context
// is learnt from Runtime.executionContextCreated (the page's own worlds and
// other isolated worlds ignored, frames and sessions kept apart) and
// forgotten when Chrome destroys it or clears the session's contexts.
func TestWorldsFollowChromesContexts(t *testing.T) {
	var w worlds
	s1, s2 := &cdp.Session{ID: "S1"}, &cdp.Session{ID: "S2"}
	created := func(s *cdp.Session, id int, name, frame string, isDefault bool) {
		params, _ := json.Marshal(map[string]any{"context": map[string]any{
			"id": id, "name": name, "auxData": map[string]any{"frameId": frame, "isDefault": isDefault},
		}})
		w.onEvent(s, cdp.RawEvent{Method: cdp.RuntimeExecutionContextCreated.Method, Params: params})
	}
	created(s1, 1, "", "F1", true)
	created(s1, 2, "other", "F1", false)
	created(s1, 3, worldName, "F1", false)
	created(s1, 4, worldName, "F2", false)
	created(s2, 5, worldName, "F1", false)
	for _, c := range []struct {
		s     *cdp.Session
		frame string
		want  int
	}{{s1, "F1", 3}, {s1, "F2", 4}, {s2, "F1", 5}, {s2, "F2", 0}} {
		if got := w.get(c.s, c.frame); got != c.want {
			t.Errorf("world of %s in %s = %d, want %d", c.frame, c.s.ID, got, c.want)
		}
	}
	w.onEvent(s1, cdp.RawEvent{Method: cdp.RuntimeExecutionContextDestroyed.Method, Params: json.RawMessage(`{"executionContextId":3}`)})
	if got := w.get(s1, "F1"); got != 0 {
		t.Errorf("a destroyed world is still known: %d", got)
	}
	w.onEvent(s1, cdp.RawEvent{Method: cdp.RuntimeExecutionContextsCleared.Method, Params: json.RawMessage(`{}`)})
	if got := w.get(s1, "F2"); got != 0 {
		t.Errorf("a world of a cleared session is still known: %d", got)
	}
	if got := w.get(s2, "F1"); got != 5 {
		t.Errorf("clearing S1 forgot S2's world: %d", got)
	}
}

// TestNoContextIsChromesMissingContextRefusal checks which errors make
// callInWorld ask for the world again.
func TestNoContextIsChromesMissingContextRefusal(t *testing.T) {
	missing := &cdp.Error{Method: "Runtime.callFunctionOn", Code: -32000, Message: "Cannot find context with specified id"}
	if !noContext(fmt.Errorf("wrapped: %w", missing)) {
		t.Error("a missing context is not recognised")
	}
	if noContext(&cdp.Error{Method: "Runtime.callFunctionOn", Code: -32000, Message: "Target closed"}) || noContext(nil) {
		t.Error("another error is taken for a missing context")
	}
}
