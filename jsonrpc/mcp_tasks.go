package jsonrpc

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"io"
	"sync"
	"time"
)

// The tasks extension (io.modelcontextprotocol/tasks) of MCP 2026-07-28:
// a client that declares it in a request's capabilities may get, instead
// of a tools/call result, a task handle (resultType "task") and then poll
// tasks/get until the call's result is there, or give up with
// tasks/cancel. The server decides per call; here a Handler that
// implements TaskRunner names its long calls (audits, traces, heap
// snapshots), and every other call is answered as usual.

// tasksExtension is the extension's identifier.
const tasksExtension = "io.modelcontextprotocol/tasks"

// Task timing: how long a task is kept after its creation, and how often a
// client is asked to poll.
const (
	taskTTL          = time.Hour
	taskPollInterval = time.Second
)

// TaskRunner is implemented by a Handler whose long tool calls may run as
// tasks. RunsAsTask reports whether the call name(args) is one; it must be
// cheap, and false for calls that may need to ask the user (a task cannot
// carry a multi round-trip request here).
type TaskRunner interface {
	RunsAsTask(name string, args json.RawMessage) bool
}

// taskStore holds the tasks of one Server, for the clients of every
// connection: tasks/get may come on another HTTP request than the call.
type taskStore struct {
	mu    sync.Mutex
	byID  map[string]*task
	clock func() time.Time
}

func newTaskStore() *taskStore {
	return &taskStore{byID: make(map[string]*task), clock: time.Now}
}

// task is one tools/call running on its own.
type task struct {
	id      string
	created time.Time
	cancel  context.CancelFunc

	// Guarded by the store's mu.
	status  string // working, completed, failed, cancelled
	updated time.Time
	result  json.RawMessage // completed
	err     *Error          // failed
}

// taskView is a task as tasks/get and CreateTaskResult show it.
type taskView struct {
	TaskID         string          `json:"taskId"`
	Status         string          `json:"status"`
	StatusMessage  string          `json:"statusMessage,omitempty"`
	CreatedAt      string          `json:"createdAt"`
	LastUpdatedAt  string          `json:"lastUpdatedAt"`
	TTLMs          int64           `json:"ttlMs"`
	PollIntervalMs int64           `json:"pollIntervalMs"`
	Result         json.RawMessage `json:"result,omitempty"`
	Error          *Error          `json:"error,omitempty"`
}

func (ts *taskStore) view(t *task) taskView {
	v := taskView{
		TaskID: t.id, Status: t.status,
		CreatedAt: t.created.UTC().Format(time.RFC3339Nano), LastUpdatedAt: t.updated.UTC().Format(time.RFC3339Nano),
		TTLMs: taskTTL.Milliseconds(), PollIntervalMs: taskPollInterval.Milliseconds(),
		Result: t.result, Error: t.err,
	}
	switch t.status {
	case "working":
		v.StatusMessage = "The tool call is running."
	case "failed":
		v.StatusMessage = "The tool call failed: " + t.err.Message
	case "cancelled":
		v.StatusMessage = "The tool call was cancelled."
	}
	return v
}

// get returns the live task with id, forgetting expired ones.
func (ts *taskStore) get(id string) *task {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	now := ts.clock()
	for k, t := range ts.byID {
		if now.Sub(t.created) > taskTTL {
			t.cancel()
			delete(ts.byID, k)
		}
	}
	return ts.byID[id]
}

// declaresTasks reports whether a 2026-07-28 request's capabilities name
// the tasks extension.
func declaresTasks(ss *Session) bool {
	var caps struct {
		Extensions map[string]json.RawMessage `json:"extensions"`
	}
	if json.Unmarshal(ss.clientCapabilities(), &caps) != nil {
		return false
	}
	v, ok := caps.Extensions[tasksExtension]
	return ok && !isNull(v)
}

// missingTasks is the -32021 error for a client that did not declare the
// extension.
func missingTasks(method string) *Error {
	return &Error{
		Code:    CodeMissingRequiredClientCapability,
		Message: "Missing required client capability: " + method + " needs the " + tasksExtension + " extension in clientCapabilities.extensions",
		Data:    json.RawMessage(`{"requiredCapabilities":{"extensions":{"` + tasksExtension + `":{}}}}`),
	}
}

// maybeTask starts a tools/call as a task when the client declared the
// extension and the Handler says the call is long; it returns the
// CreateTaskResult, or nil to answer the call as usual. The task runs
// under the server's lifetime, not the request's, and sends no progress
// or log notifications, which the extension does not carry.
func (c *conn) maybeTask(ss *Session, msg *incoming) any {
	runner, ok := c.s.handler.(TaskRunner)
	if !ok || !declaresTasks(ss) {
		return nil
	}
	var p struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if json.Unmarshal(msg.params, &p) != nil || !runner.RunsAsTask(p.Name, p.Arguments) {
		return nil
	}
	ts := c.s.tasks
	now := ts.clock()
	// The task's own Session: the request's client, but nowhere to send
	// notifications once the request is answered.
	tss := newSession(&lineWriter{w: io.Discard}, c.s.logger)
	tss.caller.end(errModernNoRequests)
	tss.clientCaps, tss.clientInfo, tss.protocolVersion, tss.modern = ss.clientCaps, ss.clientInfo, ss.protocolVersion, ss.modern
	ctx, cancel := context.WithCancel(context.WithValue(c.s.ctx, sessionKey{}, tss))
	t := &task{id: rand.Text(), created: now, updated: now, status: "working", cancel: cancel}
	ts.mu.Lock()
	ts.byID[t.id] = t
	view := ts.view(t)
	ts.mu.Unlock()

	params := stripProgress(msg.params)
	go func() {
		defer cancel()
		result, rerr := c.callTool(ctx, params)
		var raw json.RawMessage
		if rerr == nil {
			if _, interim := result.(*inputRequired); interim {
				rerr = errorf(CodeInternalError, "internal error: the call needs the user's answer, which a task cannot ask for; call it again without the tasks extension")
			} else if decorated, derr := c.decorate(result, "complete", nil); derr != nil {
				rerr = derr
			} else {
				raw, _ = decorated.(json.RawMessage)
			}
		}
		ts.mu.Lock()
		defer ts.mu.Unlock()
		if t.status != "working" {
			return // cancelled meanwhile
		}
		t.updated = ts.clock()
		if rerr != nil {
			t.status, t.err = "failed", rerr
		} else {
			t.status, t.result = "completed", raw
		}
	}()
	return &createdTask{view}
}

// createdTask marks a CreateTaskResult for dispatchModern.
type createdTask struct{ taskView }

// stripProgress removes params._meta.progressToken: a task reports none.
func stripProgress(params json.RawMessage) json.RawMessage {
	var p map[string]json.RawMessage
	if json.Unmarshal(params, &p) != nil {
		return params
	}
	var meta map[string]json.RawMessage
	if json.Unmarshal(p["_meta"], &meta) == nil && meta != nil {
		delete(meta, "progressToken")
		p["_meta"], _ = json.Marshal(meta)
	}
	out, err := json.Marshal(p)
	if err != nil {
		return params
	}
	return out
}

// taskMethod answers tasks/get, tasks/update and tasks/cancel.
func (c *conn) taskMethod(ss *Session, msg *incoming) (any, *Error) {
	if !declaresTasks(ss) {
		return nil, missingTasks(msg.method)
	}
	var p struct {
		TaskID json.RawMessage `json:"taskId"`
	}
	if err := objectParams(msg.method, msg.params, &p); err != nil {
		return nil, err
	}
	id, _ := unquote(p.TaskID)
	ts := c.s.tasks
	t := ts.get(id)
	if t == nil {
		return nil, errorf(CodeInvalidParams, "Failed to retrieve task: Task not found (taskId %s); tasks are kept for %s after they start", abbrev(p.TaskID), taskTTL)
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	switch msg.method {
	case "tasks/get":
		return ts.view(t), nil
	case "tasks/cancel":
		if t.status == "working" {
			t.status, t.updated = "cancelled", ts.clock()
			t.cancel()
		}
	}
	// tasks/update: these tasks never wait for input, so every response
	// is for a key that is not outstanding, which the extension says to
	// ignore.
	return struct{}{}, nil
}
