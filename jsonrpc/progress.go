package jsonrpc

import (
	"context"
	"encoding/json"
	"sync/atomic"
)

// progressKey is the context key of a call's *progressReporter.
type progressKey struct{}

// progressReporter sends notifications/progress for one tools/call that
// carried params._meta.progressToken.
type progressReporter struct {
	ctx   context.Context // the call's: its route carries the notifications
	ss    *Session
	token json.RawMessage
	done  atomic.Bool // the call has returned: MCP forbids progress after the response
}

// progressToken extracts a usable progressToken (string or number) from a
// request's _meta, or nil.
func progressToken(meta json.RawMessage) json.RawMessage {
	if isNull(meta) || meta[0] != '{' {
		return nil
	}
	var m struct {
		ProgressToken json.RawMessage `json:"progressToken"`
	}
	if json.Unmarshal(meta, &m) != nil || !validID(m.ProgressToken) {
		return nil
	}
	return m.ProgressToken
}

func (p *progressReporter) report(progress, total float64, message string) {
	if p.done.Load() {
		return
	}
	params := struct {
		ProgressToken json.RawMessage `json:"progressToken"`
		Progress      float64         `json:"progress"`
		Total         float64         `json:"total,omitempty"`
		Message       string          `json:"message,omitempty"`
	}{p.token, progress, total, message}
	if err := p.ss.notify(p.ctx, "notifications/progress", params); err != nil {
		p.ss.logger.Debug("jsonrpc: could not send progress", "err", err)
	}
}

// ProgressFrom returns a function that reports progress of the tool call
// running under ctx, so long operations (navigation, traces) can keep the
// client informed. When the client asked for progress (its request had
// params._meta.progressToken), each call sends notifications/progress with
// that token, progress, total (omitted when 0, meaning unknown) and message
// (omitted when empty); progress should increase with each call. Otherwise,
// and after the tool call has returned, the function does nothing. It is
// safe to call from any goroutine.
func ProgressFrom(ctx context.Context) func(progress, total float64, message string) {
	if p, ok := ctx.Value(progressKey{}).(*progressReporter); ok {
		return p.report
	}
	return func(float64, float64, string) {}
}
