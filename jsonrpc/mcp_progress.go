package jsonrpc

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"time"
)

// heartbeatInterval is how often a call that reports no progress of its
// own tells a client that asked for progress that it is still running.
const heartbeatInterval = time.Second

// progressKey is the context key of a call's *progressReporter.
type progressKey struct{}

// progressReporter sends notifications/progress for one tools/call that
// carried params._meta.progressToken.
type progressReporter struct {
	ctx   context.Context // the call's: its route carries the notifications
	ss    *Session
	token json.RawMessage
	done  atomic.Bool // the call has returned: MCP forbids progress after the response
	own   atomic.Bool // the tool has reported progress itself: no more heartbeats
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
	p.own.Store(true)
	p.send(progress, total, message)
}

// heartbeat sends, every interval, the seconds the call has been running,
// until stop is called or the tool reports progress of its own. Every call
// that takes more than a second thus shows the client it is alive (and
// resets a client's timeout that progress resets), whatever the tool.
func (p *progressReporter) heartbeat(tool string, every time.Duration) (stop func()) {
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for n := 1; ; n++ {
			select {
			case <-done:
				return
			case <-p.ctx.Done():
				return
			case <-t.C:
			}
			if p.own.Load() {
				return
			}
			secs := float64(n) * every.Seconds()
			p.send(secs, 0, fmt.Sprintf("%s: still running after %gs", tool, secs))
		}
	}()
	return func() { close(done) }
}

func (p *progressReporter) send(progress, total float64, message string) {
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
