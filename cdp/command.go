package cdp

import (
	"context"
	"encoding/json"
)

// This file holds the typed layer over Session.Call and Subscribe: every command
// and event the server uses is declared once, beside its param and result
// structs, as a Command, Query, Action or Event value named after its method
// without the dot (Page.navigate is PageNavigate, Target.targetCreated is
// TargetTargetCreated). A method name can then be paired with the wrong
// params, result or event struct only by editing that one declaration, and
// code outside this package writes no method names.

// Caller sends one command and decodes its reply; *Session is the Caller of
// every command (a Session with an empty ID speaks to the browser target).
type Caller interface {
	Call(ctx context.Context, method string, params, result any) error
}

// Empty stands for "no params" or "no result" in a Command. As params it is
// left off the wire, exactly like a nil params to Session.Call; as a result
// nothing is decoded.
type Empty struct{}

// Command is a protocol command taking params P and answering R.
type Command[P, R any] struct{ Method string }

// Call sends the command with params in session s and returns the decoded
// result. A refusal by the browser is an *Error naming the method.
func (c Command[P, R]) Call(ctx context.Context, s Caller, params P) (R, error) {
	var r R
	var result any = &r
	if _, ok := result.(*Empty); ok {
		result = nil
	}
	err := s.Call(ctx, c.Method, wireParams(params), result)
	return r, err
}

// Do sends the command with params in session s, waits for the reply and
// discards its result.
func (c Command[P, R]) Do(ctx context.Context, s Caller, params P) error {
	return s.Call(ctx, c.Method, wireParams(params), nil)
}

// With binds params to the command, making a Request that setup code can
// send in a list with others.
func (c Command[P, R]) With(params P) Request {
	return boundCommand{method: c.Method, params: wireParams(params)}
}

// Pending is a command sent whose reply is still to be awaited. Sending
// and awaiting apart let a caller fix the order in which Chrome gets
// commands (it handles a session's commands in turn, so a quick one sent
// behind a slow one waits for it) while their round trips overlap. Every
// Pending must be awaited with Wait.
type Pending[R any] struct {
	sent *sent
	err  error // the error that kept the command from being sent
}

// Wait waits for the reply and returns the decoded result, as Call does.
func (p *Pending[R]) Wait(ctx context.Context) (R, error) {
	var r R
	if p.err != nil {
		return r, p.err
	}
	var result any = &r
	if _, ok := result.(*Empty); ok {
		result = nil
	}
	return r, p.sent.await(ctx, result)
}

// Send sends the command with params in session s now and returns its
// reply to come.
func (c Command[P, R]) Send(ctx context.Context, s *Session, params P) *Pending[R] {
	p, err := s.Conn.send(ctx, s.ID, c.Method, wireParams(params))
	return &Pending[R]{sent: p, err: err}
}

// Query is a protocol command that takes no params and answers R.
type Query[R any] struct{ Method string }

// Call sends the query in session s and returns the decoded result.
func (q Query[R]) Call(ctx context.Context, s Caller) (R, error) {
	var r R
	err := s.Call(ctx, q.Method, nil, &r)
	return r, err
}

// Send sends the query in session s now and returns its reply to come.
func (q Query[R]) Send(ctx context.Context, s *Session) *Pending[R] {
	p, err := s.Conn.send(ctx, s.ID, q.Method, nil)
	return &Pending[R]{sent: p, err: err}
}

// Do sends the query in session s and discards its result.
func (q Query[R]) Do(ctx context.Context, s Caller) error {
	return s.Call(ctx, q.Method, nil, nil)
}

// Action is a protocol command that takes no params and answers nothing
// worth reading, such as Page.enable.
type Action struct{ Method string }

// Do sends the action in session s and waits for the reply.
func (a Action) Do(ctx context.Context, s Caller) error {
	return s.Call(ctx, a.Method, nil, nil)
}

// Request is a command ready to send, its params bound: an Action, a Query,
// or a Command's With.
type Request interface {
	Do(ctx context.Context, s Caller) error
}

// boundCommand is a Command with its params, as returned by With.
type boundCommand struct {
	method string
	params any
}

// Do sends the bound command and discards its result.
func (b boundCommand) Do(ctx context.Context, s Caller) error {
	return s.Call(ctx, b.method, b.params, nil)
}

// wireParams is params as Session.Call takes it: nil for Empty, which leaves
// the params off the wire.
func wireParams(params any) any {
	if _, ok := params.(Empty); ok {
		return nil
	}
	return params
}

// Event is a protocol event whose params decode to E.
type Event[E any] struct{ Method string }

// Decode decodes the params of the event, as a Subscription delivers them
// in a RawEvent with this event's Method. Empty params decode to the zero E.
func (e Event[E]) Decode(params json.RawMessage) (E, error) {
	return Decode[E](params)
}
