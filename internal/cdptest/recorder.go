package cdptest

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// Recorder is a [cdp.Transport] that passes messages to and from another
// transport and keeps them as a Recording. Each event is kept with the
// command the client sent last: among its Before events while that command
// waits for its reply, among its After events once it got it.
type Recorder struct {
	t cdp.Transport

	mu      sync.Mutex
	rec     Recording
	byID    map[int64]*Exchange
	last    *Exchange
	replied map[*Exchange]bool
}

// NewRecorder records what passes through t.
func NewRecorder(t cdp.Transport) *Recorder {
	return &Recorder{t: t, byID: map[int64]*Exchange{}, replied: map[*Exchange]bool{}}
}

// Write records a command and sends it.
func (r *Recorder) Write(ctx context.Context, msg []byte) error {
	var c command
	if err := json.Unmarshal(msg, &c); err != nil {
		return fmt.Errorf("cdptest: record malformed command: %w", err)
	}
	e := &Exchange{Method: c.Method, Session: c.SessionID, Params: c.Params}
	r.mu.Lock()
	r.rec.Exchanges = append(r.rec.Exchanges, e)
	r.byID[c.ID] = e
	r.last = e
	r.mu.Unlock()
	return r.t.Write(ctx, msg)
}

// incoming is the wire form of a reply or an event.
type incoming struct {
	ID     int64           `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// Read receives a reply or event and records it.
func (r *Recorder) Read() ([]byte, error) {
	msg, err := r.t.Read()
	if err != nil {
		return nil, err
	}
	var m incoming
	if json.Unmarshal(msg, &m) != nil {
		return msg, nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case m.Method == "" && m.ID != 0:
		if e := r.byID[m.ID]; e != nil {
			e.Result, e.Error = m.Result, m.Error
			r.replied[e] = true
			delete(r.byID, m.ID)
		}
	case m.Method != "" && r.last != nil:
		ev := json.RawMessage(append([]byte(nil), msg...))
		if r.replied[r.last] {
			r.last.After = append(r.last.After, ev)
		} else {
			r.last.Before = append(r.last.Before, ev)
		}
	}
	return msg, nil
}

// Close closes the recorded transport.
func (r *Recorder) Close() error { return r.t.Close() }

// Recording returns what was recorded so far. Commands still waiting for
// their reply are marked Unanswered.
func (r *Recorder) Recording() *Recording {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := &Recording{Header: r.rec.Header}
	for _, e := range r.rec.Exchanges {
		c := *e
		c.Unanswered = !r.replied[e]
		out.Exchanges = append(out.Exchanges, &c)
	}
	return out
}
