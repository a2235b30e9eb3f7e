package jsonrpc

import (
	"context"
	"encoding/json"
)

// SubscriptionFilter is the notifications a subscriptions/listen request
// opts in to, and the subset the server agrees to send.
type SubscriptionFilter struct {
	ToolsListChanged      bool     `json:"toolsListChanged,omitempty"`
	PromptsListChanged    bool     `json:"promptsListChanged,omitempty"`
	ResourcesListChanged  bool     `json:"resourcesListChanged,omitempty"`
	ResourceSubscriptions []string `json:"resourceSubscriptions,omitempty"`
	// TaskIDs asks for notifications/tasks (the tasks extension).
	TaskIDs []string `json:"taskIds,omitempty"`
}

// listen answers subscriptions/listen, MCP 2026-07-28's long-lived stream
// of change notifications. It acknowledges the subscription with the
// subset of the filter this server honours and then holds the request
// open until the client ends it (notifications/cancelled on stdio,
// closing the response stream over HTTP) or the server shuts down, when
// it answers with the graceful-closure result.
//
// The subset is empty: this server has no prompts or resources, its
// tool list is fixed by the command line for the life of the process (it
// declares tools.listChanged false), so there is never a
// notifications/tools/list_changed to send, and task status is only
// polled (tasks/get), never pushed.
func (c *conn) listen(ctx context.Context, msg *incoming, ss *Session) (any, *Error) {
	const method = "subscriptions/listen"
	var p struct {
		Notifications json.RawMessage `json:"notifications"`
	}
	if err := objectParams(method, msg.params, &p); err != nil {
		return nil, err
	}
	var asked SubscriptionFilter
	if isNull(p.Notifications) || p.Notifications[0] != '{' || json.Unmarshal(p.Notifications, &asked) != nil {
		return nil, errorf(CodeInvalidParams, `invalid params for %s: "notifications" must be an object such as {"toolsListChanged": true}`, method)
	}
	if len(asked.TaskIDs) > 0 && !declaresTasks(ss) {
		return nil, missingTasks("subscribing to task notifications")
	}
	subMeta := map[string]json.RawMessage{metaSubscriptionID: msg.id}
	ack := struct {
		Meta          map[string]json.RawMessage `json:"_meta"`
		Notifications SubscriptionFilter         `json:"notifications"`
	}{subMeta, SubscriptionFilter{}}
	if err := ss.notify(ctx, "notifications/subscriptions/acknowledged", ack); err != nil {
		return nil, errorf(CodeInternalError, "internal error: acknowledging the subscription failed: %v", err)
	}
	<-ctx.Done()
	return struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}{subMeta}, nil
}
