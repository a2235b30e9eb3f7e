package jsonrpc

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// taskHandler runs "long" as a task; it waits for release (or its
// cancellation) and says which happened.
type taskHandler struct {
	fakeHandler
	release chan struct{}
}

func (h taskHandler) RunsAsTask(name string, _ json.RawMessage) bool { return name == "long" }

func newTaskHandler() taskHandler {
	h := taskHandler{fakeHandler: fakeHandler{"echo": echoTool}, release: make(chan struct{})}
	h.fakeHandler["long"] = func(ctx context.Context, _ json.RawMessage) (*CallToolResult, error) {
		select {
		case <-h.release:
			return textResult("long done"), nil
		case <-ctx.Done():
			return nil, &Error{Code: CodeInternalError, Message: "stopped"}
		}
	}
	return h
}

var tasksCaps = map[string]any{"extensions": map[string]any{"io.modelcontextprotocol/tasks": map[string]any{}}}

// taskState decodes a tasks/get or CreateTaskResult.
type taskState struct {
	ResultType     string          `json:"resultType"`
	TaskID         string          `json:"taskId"`
	Status         string          `json:"status"`
	CreatedAt      string          `json:"createdAt"`
	TTLMs          int64           `json:"ttlMs"`
	PollIntervalMs int64           `json:"pollIntervalMs"`
	Result         json.RawMessage `json:"result"`
}

func TestTasks(t *testing.T) {
	h := newTaskHandler()
	c := startServer(t, h)
	var disc struct {
		Capabilities struct {
			Extensions map[string]json.RawMessage `json:"extensions"`
		} `json:"capabilities"`
	}
	c.call(1, "server/discover", modernParams(nil, nil)).result(t, &disc)
	if _, ok := disc.Capabilities.Extensions["io.modelcontextprotocol/tasks"]; !ok {
		t.Fatalf("server/discover does not declare the tasks extension: %+v", disc)
	}

	// Declared: the long call answers with a task at once.
	var created taskState
	c.call(2, "tools/call", modernParams(tasksCaps, map[string]any{"name": "long"})).result(t, &created)
	if created.ResultType != "task" || created.Status != "working" || created.TaskID == "" || created.TTLMs <= 0 || created.PollIntervalMs <= 0 || created.CreatedAt == "" {
		t.Fatalf("CreateTaskResult = %+v", created)
	}
	get := func(id int) taskState {
		var st taskState
		c.call(id, "tasks/get", modernParams(tasksCaps, map[string]any{"taskId": created.TaskID})).result(t, &st)
		if st.ResultType != "complete" || st.TaskID != created.TaskID {
			t.Fatalf("tasks/get = %+v", st)
		}
		return st
	}
	if st := get(3); st.Status != "working" {
		t.Fatalf("status before the call ends = %q", st.Status)
	}
	// Calls that are not long, and clients without the extension, are answered as usual.
	if text, _ := toolText(t, c.call(4, "tools/call", modernParams(tasksCaps, map[string]any{"name": "echo", "arguments": map[string]any{"x": 1}}))); text != `{"x":1}` {
		t.Fatal(text)
	}
	c.call(5, "tasks/get", modernParams(nil, map[string]any{"taskId": created.TaskID})).wantError(t, CodeMissingRequiredClientCapability, "5")
	c.call(6, "tasks/get", modernParams(tasksCaps, map[string]any{"taskId": "nope"})).wantError(t, CodeInvalidParams, "6")
	c.call(8, "subscriptions/listen", modernParams(nil, map[string]any{"notifications": map[string]any{"taskIds": []string{created.TaskID}}})).wantError(t, CodeMissingRequiredClientCapability, "8")
	c.call(7, "tasks/update", modernParams(tasksCaps, map[string]any{"taskId": created.TaskID, "inputResponses": map[string]any{}})).result(t, nil)

	close(h.release)
	var st taskState
	for id := 10; ; id++ {
		if st = get(id); st.Status != "working" {
			break
		}
	}
	if st.Status != "completed" || !strings.Contains(string(st.Result), "long done") || !strings.Contains(string(st.Result), `"resultType":"complete"`) {
		t.Fatalf("finished task = %+v %s", st, st.Result)
	}
	// Cancelling a finished task changes nothing.
	c.call(100, "tasks/cancel", modernParams(tasksCaps, map[string]any{"taskId": created.TaskID})).result(t, nil)
	if get(101).Status != "completed" {
		t.Fatal("cancel changed a completed task")
	}
}

func TestTaskCancel(t *testing.T) {
	h := newTaskHandler()
	c := startServer(t, h)
	var created taskState
	c.call(1, "tools/call", modernParams(tasksCaps, map[string]any{"name": "long"})).result(t, &created)
	c.call(2, "tasks/cancel", modernParams(tasksCaps, map[string]any{"taskId": created.TaskID})).result(t, nil)
	var st taskState
	c.call(3, "tasks/get", modernParams(tasksCaps, map[string]any{"taskId": created.TaskID})).result(t, &st)
	if st.Status != "cancelled" {
		t.Fatalf("status after cancel = %q", st.Status)
	}
	// Without the extension the same call is answered in place.
	go close(h.release)
	if text, _ := toolText(t, c.call(4, "tools/call", modernParams(nil, map[string]any{"name": "long"}))); text != "long done" {
		t.Fatal(text)
	}
}

func TestTasksOverHTTP(t *testing.T) {
	h := newTaskHandler()
	s := startHTTP(t, h, HTTPOptions{})
	var created taskState
	single(t, s.modernClient().modernPost(1, "tools/call", modernParams(tasksCaps, map[string]any{"name": "long"}))).result(t, &created)
	if created.ResultType != "task" {
		t.Fatalf("CreateTaskResult = %+v", created)
	}
	// Polled on another request, as a stateless client does; Mcp-Name
	// carries the task id.
	c := s.modernClient()
	c.header[headerMethod], c.header[headerName] = "tasks/get", "other"
	if e := httpErrorBody(t, c.post(request(2, "tasks/get", modernParams(tasksCaps, map[string]any{"taskId": created.TaskID}))), http.StatusBadRequest); e.Code != CodeHeaderMismatch {
		t.Fatalf("wrong Mcp-Name: %+v", e)
	}
	close(h.release)
	for id := 3; ; id++ {
		c.header[headerName] = created.TaskID
		var st taskState
		single(t, c.post(request(id, "tasks/get", modernParams(tasksCaps, map[string]any{"taskId": created.TaskID})))).result(t, &st)
		if st.Status == "completed" {
			break
		}
		if st.Status != "working" {
			t.Fatalf("task = %+v", st)
		}
	}
}
