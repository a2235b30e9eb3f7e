package cdp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// ErrBrowserGone is wrapped by every error caused by the connection to the
// browser dying or being closed, so that callers can tell a dead browser from
// a failed command with errors.Is.
var ErrBrowserGone = errors.New("the browser went away (connection closed)")

// Error is a protocol error reply ({"error":{"code","message","data"}}): the
// browser understood the command and refused it.
type Error struct {
	Method  string // the command that failed, such as "Page.navigate"
	Code    int    // the JSON-RPC error code, such as -32000
	Message string // the browser's explanation
	Data    string // extra detail, if the browser sent any
}

// Error reads like "Page.navigate: Cannot navigate to invalid URL (-32000)",
// followed by ": " and Data when present.
func (e *Error) Error() string {
	s := fmt.Sprintf("%s: %s (%d)", e.Method, e.Message, e.Code)
	if e.Data != "" {
		s += ": " + e.Data
	}
	return s
}

// Conn multiplexes calls and events over one Transport: one reader goroutine
// owns Read; replies are routed by message id to the waiting caller, events are
// routed by sessionId to subscriptions, which queue them for their own
// goroutine. A Conn is safe for concurrent use.
type Conn struct {
	t        Transport
	log      *slog.Logger
	rawLog   bool // log message contents (WithProtocolLog)
	nextID   atomic.Int64
	wsem     chan struct{} // holds a token while a message is being written
	done     chan struct{} // closed by shutdown
	readDone chan struct{} // closed when the reader goroutine returns

	// fanout is held while one event is queued for all its subscriptions,
	// so that Subscription.Sync sees an event queued for every
	// subscription or for none: a caller that got an event from one
	// subscription can Sync another and know that event is included.
	fanout sync.Mutex

	mu      sync.Mutex
	pending map[int64]*call            // by message id; nil once dead
	subs    map[string][]*Subscription // by session id; slices are copy-on-write
	err     error                      // why the connection died; nil while alive

	closeOnce sync.Once
	closeErr  error
}

// call is one command waiting for its reply.
type call struct {
	method  string
	session string
	sent    time.Time
	reply   chan reply // buffered, receives exactly one value
}

// reply is the outcome of a call: the raw result or an error.
type reply struct {
	result json.RawMessage
	err    error
}

// Option configures a Conn in NewConn.
type Option func(*Conn)

// WithLogger makes the Conn debug-log the malformed messages it skips (at
// slog.LevelDebug, without their content, which may hold cookies or
// tokens). The default is to log nothing.
func WithLogger(l *slog.Logger) Option {
	return func(c *Conn) {
		if l != nil {
			c.log = l
		}
	}
}

// WithProtocolLog makes the Conn's logger (see WithLogger) also receive
// every message it sends and receives, raw (truncated to about 500 bytes):
// cookies, tokens and page content included. Only for a user who asked for
// protocol logging explicitly.
func WithProtocolLog() Option {
	return func(c *Conn) { c.rawLog = true }
}

// NewConn returns a Conn speaking over t and starts its reader goroutine,
// which runs until the transport fails or the Conn is closed. The Conn owns t.
func NewConn(t Transport, opts ...Option) *Conn {
	c := &Conn{
		t:        t,
		log:      slog.New(slog.DiscardHandler),
		wsem:     make(chan struct{}, 1),
		done:     make(chan struct{}),
		readDone: make(chan struct{}),
		pending:  make(map[int64]*call),
		subs:     make(map[string][]*Subscription),
	}
	for _, o := range opts {
		o(c)
	}
	go c.readLoop()
	return c
}

// request is the wire form of a command.
type request struct {
	ID        int64           `json:"id"`
	Method    string          `json:"method"`
	SessionID string          `json:"sessionId,omitempty"`
	Params    json.RawMessage `json:"params,omitempty"`
}

// Call sends method with params (nil = omitted; anything json.Marshal takes,
// including json.RawMessage) in the given flattened session (sessionID "" =
// the browser target) and decodes the reply's result into result (nil =
// discard; *json.RawMessage works).
//
// It returns when the reply arrives, when ctx is done (the call is forgotten
// and a late reply is dropped), or when the connection dies (the error then
// wraps ErrBrowserGone). A refusal by the browser is returned as an *Error.
func (c *Conn) Call(ctx context.Context, sessionID, method string, params, result any) error {
	p, err := c.send(ctx, sessionID, method, params)
	if err != nil {
		return err
	}
	return p.await(ctx, result)
}

// sent is a command written to Chrome whose reply is awaited.
type sent struct {
	c      *Conn
	id     int64
	method string
	reply  chan reply
	waited func() // ends the command's wait on the ctx's WaitClock
}

// send writes a command and returns it for await, or the error that kept
// it from being written.
func (c *Conn) send(ctx context.Context, sessionID, method string, params any) (*sent, error) {
	req := request{Method: method, SessionID: sessionID}
	if params != nil {
		p, err := json.Marshal(params)
		if err != nil {
			return nil, fmt.Errorf("%s: encode params: %w", method, err)
		}
		if string(p) != "null" {
			req.Params = p
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}

	req.ID = c.nextID.Add(1)
	msg, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("%s: encode request: %w", method, err)
	}
	ch := make(chan reply, 1)
	c.mu.Lock()
	if c.err != nil {
		err := c.err
		c.mu.Unlock()
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	c.pending[req.ID] = &call{method: method, session: sessionID, sent: time.Now(), reply: ch}
	c.mu.Unlock()

	waited := WaitClockFrom(ctx).command(method)
	if err := c.write(ctx, msg); err != nil {
		waited()
		c.forget(req.ID)
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, fmt.Errorf("%s: %w", method, ctxErr)
		}
		// Anything else means the transport is broken.
		c.shutdown(err)
		return nil, fmt.Errorf("%s: %w", method, c.Err())
	}
	return &sent{c: c, id: req.ID, method: method, reply: ch, waited: waited}, nil
}

// await waits for the reply of a sent command and decodes its result into
// result (nil = discard).
func (p *sent) await(ctx context.Context, result any) error {
	defer p.waited()
	select {
	case r := <-p.reply:
		p.waited()
		if r.err != nil {
			return r.err
		}
		if result == nil || len(r.result) == 0 {
			return nil
		}
		if err := decodeResult(r.result, result); err != nil {
			return fmt.Errorf("%s: decode result: %w", p.method, err)
		}
		return nil
	case <-ctx.Done():
		p.c.forget(p.id)
		return fmt.Errorf("%s: %w", p.method, ctx.Err())
	}
}

// decodeResult decodes the result of a reply, raw, into result. A result
// that is a json.Unmarshaler (GetFullAXTreeResult) is handed raw directly:
// raw is one valid JSON value without white space around it, checked when
// the message was decoded (see incoming.decode), and that is what
// json.Unmarshal would hand it after checking raw and scanning it again,
// two passes that cost more than a hand-written decoder's one.
func decodeResult(raw []byte, result any) error {
	if u, ok := result.(json.Unmarshaler); ok {
		return u.UnmarshalJSON(raw)
	}
	return json.Unmarshal(raw, result)
}

// write sends one message, waiting for its turn at most until ctx is done or
// the connection dies.
func (c *Conn) write(ctx context.Context, msg []byte) error {
	select {
	case c.wsem <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	case <-c.done:
		return c.Err()
	}
	defer func() { <-c.wsem }()
	c.logMessage("cdp send", msg)
	return c.t.Write(ctx, msg)
}

// Stalled returns, by session id, the method of the oldest command of each
// session that has waited for its reply since before cutoff: what a
// watchdog asks to tell a target that stopped answering.
func (c *Conn) Stalled(cutoff time.Time) map[string]string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out map[string]string
	oldest := map[string]time.Time{}
	for _, p := range c.pending {
		if !p.sent.Before(cutoff) {
			continue
		}
		if t, ok := oldest[p.session]; ok && !p.sent.Before(t) {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		oldest[p.session] = p.sent
		out[p.session] = p.method
	}
	return out
}

// forget removes a pending call, so that its reply, if it still comes, is dropped.
func (c *Conn) forget(id int64) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// Done is closed when the connection has died or was closed; Err then tells why.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Err returns nil while the connection is alive, and afterwards why it died,
// as an error wrapping ErrBrowserGone.
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Close closes the transport. Pending and later calls fail with an error
// wrapping ErrBrowserGone. The reader goroutine returns as soon as the
// transport's Read does; Close does not wait for it, so it may be called from
// a subscriber.
func (c *Conn) Close() error {
	c.shutdown(nil)
	return c.closeTransport()
}

// closeTransport closes the transport once and remembers the outcome.
func (c *Conn) closeTransport() error {
	c.closeOnce.Do(func() { c.closeErr = c.t.Close() })
	return c.closeErr
}

// shutdown marks the connection dead because of cause (nil = closed by us),
// fails every pending call and closes the transport. Only the first call
// has any effect.
func (c *Conn) shutdown(cause error) {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return
	}
	c.err = ErrBrowserGone
	if cause != nil {
		c.err = fmt.Errorf("%w: %w", ErrBrowserGone, cause)
	}
	pending := c.pending
	c.pending = nil
	var subs []*Subscription
	for _, ss := range c.subs {
		subs = append(subs, ss...)
	}
	c.subs = map[string][]*Subscription{}
	close(c.done)
	c.mu.Unlock()

	for _, s := range subs {
		s.end()
	}

	for _, p := range pending {
		p.reply <- reply{err: fmt.Errorf("%s: %w", p.method, c.err)}
	}
	_ = c.closeTransport()
}

// readLoop owns Transport.Read: it dispatches messages until the transport
// fails or the connection is shut down.
func (c *Conn) readLoop() {
	defer close(c.readDone)
	for {
		msg, err := c.t.Read()
		if err != nil {
			c.shutdown(err)
			return
		}
		select {
		case <-c.done:
			return
		default:
		}
		c.logMessage("cdp recv", msg)
		c.dispatch(msg)
	}
}

// dispatch routes one message from the browser: a reply to its caller, an
// event to the subscriptions of its session. Malformed messages are logged and
// skipped.
func (c *Conn) dispatch(msg []byte) {
	var m incoming
	if err := m.decode(msg); err != nil {
		c.log.Debug("cdp: skipping malformed message", "err", err, c.content(msg))
		return
	}
	switch {
	case m.Method == "" && m.ID != 0:
		c.deliver(&m)
	case m.Method != "" && m.ID == 0:
		if m.Method == TargetDetachedFromTarget.Method {
			c.detached(json.RawMessage(m.Params))
		}
		c.fanout.Lock()
		c.mu.Lock()
		subs := c.subs[m.SessionID]
		if all := c.subs[AnySession]; len(all) > 0 {
			subs = append(slices.Clip(subs), all...)
		}
		c.mu.Unlock()
		ev := RawEvent{SessionID: m.SessionID, Method: m.Method, Params: json.RawMessage(m.Params)}
		for _, s := range subs {
			if s.wants(m.Method) {
				s.push(ev)
			}
		}
		c.fanout.Unlock()
	default:
		c.log.Debug("cdp: skipping message that is neither reply nor event", c.content(msg))
	}
}

// deliver hands a reply to the call waiting for it, if any.
func (c *Conn) deliver(m *incoming) {
	c.mu.Lock()
	p := c.pending[m.ID]
	delete(c.pending, m.ID)
	c.mu.Unlock()
	if p == nil {
		c.log.Debug("cdp: dropping reply nobody waits for", "id", m.ID)
		return
	}
	if e := m.Error; e != nil {
		pe := &Error{Method: p.method, Code: e.Code, Message: e.Message}
		if len(e.Data) > 0 && json.Unmarshal(e.Data, &pe.Data) != nil {
			pe.Data = string(e.Data) // not a string: keep the JSON text
		}
		p.reply <- reply{err: pe}
		return
	}
	p.reply <- reply{result: json.RawMessage(m.Result)}
}

// detached fails the pending calls of a session the browser has detached
// (its target closed or crashed): their replies will never come.
func (c *Conn) detached(params json.RawMessage) {
	ev, err := Decode[DetachedFromTargetEvent](params)
	if err != nil || ev.SessionID == "" {
		c.log.Debug("cdp: malformed Target.detachedFromTarget", "err", err)
		return
	}
	var failed []*call
	c.mu.Lock()
	for id, p := range c.pending {
		if p.session == ev.SessionID {
			failed = append(failed, p)
			delete(c.pending, id)
		}
	}
	c.mu.Unlock()
	for _, p := range failed {
		p.reply <- reply{err: fmt.Errorf("%s: session %s detached: target closed or crashed", p.method, ev.SessionID)}
	}
}

// content is the log attribute for msg: its text with WithProtocolLog, its
// length otherwise.
func (c *Conn) content(msg []byte) slog.Attr {
	if c.rawLog {
		return slog.String("msg", truncate(msg))
	}
	return slog.Int("len", len(msg))
}

// logMessage debug-logs a message sent or received, with WithProtocolLog.
func (c *Conn) logMessage(what string, msg []byte) {
	if c.rawLog && c.log.Enabled(context.Background(), slog.LevelDebug) {
		c.log.Debug(what, "msg", truncate(msg), "len", len(msg))
	}
}

// truncate shortens msg for the log, cutting at a character boundary.
func truncate(msg []byte) string {
	const limit = 500
	if len(msg) <= limit {
		return string(msg)
	}
	n := limit
	for n > 0 && !utf8.RuneStart(msg[n]) {
		n--
	}
	return string(msg[:n]) + "…"
}

// Session is a flattened CDP session: a Conn plus a sessionId ("" = the
// browser). It saves passing the session id to every call.
type Session struct {
	Conn *Conn
	ID   string
}

// Session returns the session with the given id on c ("" = the browser).
func (c *Conn) Session(id string) *Session { return &Session{Conn: c, ID: id} }

// Call is Conn.Call in this session.
func (s *Session) Call(ctx context.Context, method string, params, result any) error {
	return s.Conn.Call(ctx, s.ID, method, params, result)
}

// Pipeline sends reqs in order, each without waiting for the reply to the
// one before, then waits for all their replies: Chrome handles a session's
// commands in the order they arrive, so this is a sequence of Do at the
// cost of one round trip. It returns the first error; after one, the
// replies still due are not awaited.
func (s *Session) Pipeline(ctx context.Context, reqs ...Request) error {
	var sents []*sent
	for _, r := range reqs {
		var p *sent
		var err error
		switch r := r.(type) {
		case boundCommand:
			p, err = s.Conn.send(ctx, s.ID, r.method, r.params)
		case Action:
			p, err = s.Conn.send(ctx, s.ID, r.Method, nil)
		default: // no method to send ahead: in turn, after those sent
			if err = awaitAll(ctx, sents); err == nil {
				err = r.Do(ctx, s)
			}
			sents = nil
		}
		if err != nil {
			forgetAll(sents)
			return err
		}
		if p != nil {
			sents = append(sents, p)
		}
	}
	return awaitAll(ctx, sents)
}

// awaitAll awaits the replies of sents in turn, discarding their results,
// and returns the first error; the replies after it are not awaited.
func awaitAll(ctx context.Context, sents []*sent) error {
	for i, p := range sents {
		if err := p.await(ctx, nil); err != nil {
			forgetAll(sents[i+1:])
			return err
		}
	}
	return nil
}

// forgetAll drops the replies of sents, which will not be awaited.
func forgetAll(sents []*sent) {
	for _, p := range sents {
		p.c.forget(p.id)
		p.waited()
	}
}
