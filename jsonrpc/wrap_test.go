package jsonrpc

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
)

// recording is a Middleware that appends its name to *log on every call.
func recording(name string, log *[]string) Middleware {
	return func(next CallFunc) CallFunc {
		return func(ctx context.Context, tool string, args json.RawMessage) (*CallToolResult, error) {
			*log = append(*log, name+" "+tool)
			return next(ctx, tool, args)
		}
	}
}

// TestWrapRunsMiddlewareOutermostFirst checks that a wrapped handler's
// call goes through every middleware in order, first one outermost, and
// reaches the handler with its arguments, and that the tool list is the
// handler's.
func TestWrapRunsMiddlewareOutermostFirst(t *testing.T) {
	var log []string
	h := Wrap(fakeHandler{"echo": echoTool}, recording("outer", &log), recording("inner", &log))
	res, err := h.CallTool(t.Context(), "echo", json.RawMessage(`{"x":1}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].Text; got != `{"x":1}` {
		t.Errorf("the call answered %q, want the handler's echo", got)
	}
	if want := []string{"outer echo", "inner echo"}; !slices.Equal(log, want) {
		t.Errorf("middleware ran as %q, want %q", log, want)
	}
	if got := len(h.ListTools()); got != 1 {
		t.Errorf("the wrapped handler lists %d tools, want the handler's 1", got)
	}
	if _, ok := h.(TaskRunner); ok {
		t.Error("a handler that runs no tasks became a TaskRunner by being wrapped")
	}
}

// TestWrapKeepsTasks checks that the server still runs a wrapped
// TaskRunner's long calls as tasks, through the middleware.
func TestWrapKeepsTasks(t *testing.T) {
	h := newTaskHandler()
	var log []string
	c := startServer(t, Wrap(h, recording("mw", &log)))
	close(h.release) // a call not run as a task answers at once
	var created taskState
	c.call(1, "tools/call", modernParams(tasksCaps, map[string]any{"name": "long"})).result(t, &created)
	if created.ResultType != "task" || created.TaskID == "" {
		t.Fatalf("a wrapped TaskRunner's long call answered %+v, want a task", created)
	}
	for id := 2; ; id++ {
		var st taskState
		c.call(id, "tasks/get", modernParams(tasksCaps, map[string]any{"taskId": created.TaskID})).result(t, &st)
		if st.Status == "working" {
			continue
		}
		if st.Status != "completed" {
			t.Fatalf("the task ended %+v", st)
		}
		break
	}
	if !slices.Equal(log, []string{"mw long"}) {
		t.Errorf("middleware saw %q, want the task's call", log)
	}
}
