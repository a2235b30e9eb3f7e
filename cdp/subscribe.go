package cdp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
)

// RawEvent is one CDP event as a Subscription delivers it, its params not
// decoded yet: the Event declaration of its Method decodes them.
type RawEvent struct {
	SessionID string          // the session it came in ("" = the browser target)
	Method    string          // such as "Page.lifecycleEvent"
	Params    json.RawMessage // valid for good; must not be modified
}

// EventType is an event declaration (an Event of any params type), as
// Subscribe takes them to say which events it wants.
type EventType interface{ eventMethod() string }

func (e Event[E]) eventMethod() string { return e.Method }

// Is reports whether ev is an event of this declaration.
func (e Event[E]) Is(ev RawEvent) bool { return ev.Method == e.Method }

// methodsOf returns the method names of events, nil for none.
func methodsOf(events []EventType) []string {
	if len(events) == 0 {
		return nil
	}
	methods := make([]string, len(events))
	for i, e := range events {
		methods[i] = e.eventMethod()
	}
	return methods
}

// ErrSubscriptionClosed is returned by Subscription.Sync when the
// subscription was closed before it caught up.
var ErrSubscriptionClosed = errors.New("cdp: subscription closed")

// ErrSyncFromSubscriber is returned by Subscription.Sync when it is called
// from the subscription's own function (SubscribeFunc), which would wait
// for itself forever. It is a programming error: the caller should panic.
var ErrSyncFromSubscriber = errors.New("cdp: Sync called from the subscription's own function, which would wait for itself")

// Subscription receives the events of some methods in one or more sessions.
// The reader goroutine only appends each event to the subscription's own
// unbounded queue; a goroutine of the subscription delivers them from there,
// in arrival order, either on the channel Events returns (Subscribe) or to a
// function (SubscribeFunc). So a slow subscriber never holds up the reader,
// replies, or other subscribers, and no event is dropped while the
// subscription is open.
//
// Delivery ends when Close is called (undelivered events are discarded) or
// when the connection dies (the events queued until then are delivered
// first). Then the Events channel is closed and Done is closed.
type Subscription struct {
	conn    *Conn
	methods []string       // nil = every method
	events  chan RawEvent  // Subscribe; nil for SubscribeFunc
	fn      func(RawEvent) // SubscribeFunc; nil for Subscribe
	stop    chan struct{}
	done    chan struct{}
	stopped sync.Once
	// goroutine is the id of the goroutine that runs fn (SubscribeFunc),
	// 0 until it started: Sync refuses to wait when called on it.
	goroutine atomic.Uint64

	mu        sync.Mutex
	sessions  []string      // the sessions it is registered for
	queue     []RawEvent    // not delivered yet, oldest first
	wake      chan struct{} // has a value when queue or ended changed
	ended     bool          // no more events will be queued
	closed    bool          // Close was called
	queued    uint64        // events ever queued
	delivered uint64        // events handed to the subscriber
	progress  chan struct{} // closed when delivered advances, for Sync; nil when nobody waits
}

// AnySession, given to Subscribe or SubscribeFunc as the session, receives
// the events of every session, the browser's included. It is for the
// events of a session that a command is about to open (Target.attachToTarget):
// such a session's first events may be dispatched before its id is known
// to the caller, too early for AddSession. Name the events wanted: every
// event of every session is a lot.
const AnySession = "*"

// Subscribe returns a subscription to the events declared by events (every
// event when none is given) of session sessionID ("" = browser-level
// events, AnySession = all), delivered on the channel Events returns. Close
// it when done.
func (c *Conn) Subscribe(sessionID string, events ...EventType) *Subscription {
	s := c.newSubscription(methodsOf(events))
	s.events = make(chan RawEvent)
	c.register(s, sessionID)
	go s.run()
	return s
}

// SubscribeFunc is Subscribe with fn called for each event instead of a
// channel. fn runs on the subscription's own goroutine, one event after
// the other: it may block and make calls, at the price of delaying this
// subscription's later events only. Close it when done.
func (c *Conn) SubscribeFunc(sessionID string, fn func(RawEvent), events ...EventType) *Subscription {
	s := c.newSubscription(methodsOf(events))
	s.fn = fn
	c.register(s, sessionID)
	go s.run()
	return s
}

func (c *Conn) newSubscription(methods []string) *Subscription {
	return &Subscription{
		conn:    c,
		methods: slices.Clone(methods),
		stop:    make(chan struct{}),
		done:    make(chan struct{}),
		wake:    make(chan struct{}, 1),
	}
}

// register adds s to the subscribers of sessionID, or ends it at once when
// the connection is dead.
func (c *Conn) register(s *Subscription, sessionID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		s.end()
		return
	}
	s.mu.Lock()
	closed := s.closed
	if !closed {
		s.sessions = append(s.sessions, sessionID)
	}
	s.mu.Unlock()
	if !closed {
		c.subs[sessionID] = append(slices.Clip(c.subs[sessionID]), s)
	}
}

// unregister removes s from every session it is registered for.
func (c *Conn) unregister(s *Subscription) {
	s.mu.Lock()
	sessions := s.sessions
	s.sessions = nil
	s.mu.Unlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, id := range sessions {
		subs := slices.DeleteFunc(slices.Clone(c.subs[id]), func(x *Subscription) bool { return x == s })
		if len(subs) == 0 {
			delete(c.subs, id)
		} else {
			c.subs[id] = subs
		}
	}
}

// AddSession makes s receive the events of one more session too, such as
// an iframe's that attached after s was made. Events of different sessions
// are delivered in the order the reader received them.
func (s *Subscription) AddSession(sessionID string) {
	s.conn.register(s, sessionID)
}

// Events returns the channel the events arrive on (nil for SubscribeFunc).
// It is closed when delivery ends.
func (s *Subscription) Events() <-chan RawEvent { return s.events }

// Done is closed when delivery has ended and the subscription's goroutine
// has returned.
func (s *Subscription) Done() <-chan struct{} { return s.done }

// Close stops delivery and frees the subscription's goroutine; the events
// not delivered yet are discarded. A function of SubscribeFunc that is
// running finishes; Close does not wait for it, so it may be called from
// inside it. Close is idempotent.
func (s *Subscription) Close() {
	s.stopped.Do(func() {
		s.mu.Lock()
		s.closed, s.ended = true, true
		s.queue = nil
		s.mu.Unlock()
		close(s.stop)
		s.conn.unregister(s)
	})
}

// Sync waits until every event queued for s before Sync was called has
// been delivered: received from Events, or handled by the SubscribeFunc
// function. Since the reader queues an event before it dispatches any
// later reply, a caller that got a reply can Sync to know that the events
// which came before it were handled. An event being queued for several
// subscriptions counts once it is queued for all of them, so a caller that
// received an event from one subscription can Sync another and know that
// the event was handled there too. It must not be called by the subscriber
// itself (the goroutine reading Events or running the function): from the
// function, it returns ErrSyncFromSubscriber instead of waiting forever.
func (s *Subscription) Sync(ctx context.Context) error {
	s.conn.fanout.Lock()
	s.mu.Lock()
	target := s.queued
	s.mu.Unlock()
	s.conn.fanout.Unlock()
	for {
		s.mu.Lock()
		if s.delivered >= target {
			s.mu.Unlock()
			return nil
		}
		if s.progress == nil {
			s.progress = make(chan struct{})
		}
		progress := s.progress
		s.mu.Unlock()
		if id := s.goroutine.Load(); id != 0 && id == goroutineID() {
			return ErrSyncFromSubscriber
		}
		select {
		case <-progress:
		case <-s.done:
			s.mu.Lock()
			caughtUp := s.delivered >= target
			s.mu.Unlock()
			if caughtUp {
				return nil
			}
			return ErrSubscriptionClosed
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// wants reports whether s takes events of method.
func (s *Subscription) wants(method string) bool {
	return s.methods == nil || slices.Contains(s.methods, method)
}

// push queues ev; it runs on the reader goroutine and never blocks.
func (s *Subscription) push(ev RawEvent) {
	s.mu.Lock()
	if s.ended {
		s.mu.Unlock()
		return
	}
	s.queue = append(s.queue, ev)
	s.queued++
	s.mu.Unlock()
	s.signal()
}

// end says no more events will come: the goroutine returns once it has
// delivered the queued ones.
func (s *Subscription) end() {
	s.mu.Lock()
	s.ended = true
	s.mu.Unlock()
	s.signal()
}

func (s *Subscription) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// run is the subscription's goroutine: it delivers queued events until
// Close, or until the connection died and the queue is empty.
func (s *Subscription) run() {
	defer close(s.done)
	if s.fn != nil {
		s.goroutine.Store(goroutineID())
	}
	if s.events != nil {
		defer close(s.events)
	}
	for {
		s.mu.Lock()
		batch, ended := s.queue, s.ended
		s.queue = nil
		s.mu.Unlock()
		if len(batch) == 0 {
			if ended {
				return
			}
			select {
			case <-s.wake:
				continue
			case <-s.stop:
				return
			}
		}
		for i := range batch {
			if !s.deliver(batch[i]) {
				return
			}
			batch[i] = RawEvent{} // let the params be collected
			s.mu.Lock()
			s.delivered++
			if s.progress != nil {
				close(s.progress)
				s.progress = nil
			}
			s.mu.Unlock()
		}
	}
}

// deliver hands ev to the subscriber; false means s was closed.
func (s *Subscription) deliver(ev RawEvent) bool {
	select {
	case <-s.stop:
		return false
	default:
	}
	if s.fn != nil {
		s.fn(ev)
		return true
	}
	select {
	case s.events <- ev:
		return true
	case <-s.stop:
		return false
	}
}

// Subscribe is Conn.Subscribe for this session's events.
func (s *Session) Subscribe(events ...EventType) *Subscription {
	return s.Conn.Subscribe(s.ID, events...)
}

// SubscribeFunc is Conn.SubscribeFunc for this session's events.
func (s *Session) SubscribeFunc(fn func(RawEvent), events ...EventType) *Subscription {
	return s.Conn.SubscribeFunc(s.ID, fn, events...)
}

// goroutineID returns the id of the calling goroutine, from the first line
// of its stack trace ("goroutine 18 [running]:"). Go keeps goroutines
// anonymous on purpose; Sync needs the id only to turn a self-deadlock,
// a programming error, into an error.
func goroutineID() uint64 {
	var buf [64]byte
	line := buf[:runtime.Stack(buf[:], false)]
	line = bytes.TrimPrefix(line, []byte("goroutine "))
	if i := bytes.IndexByte(line, ' '); i > 0 {
		line = line[:i]
	}
	id, _ := strconv.ParseUint(string(line), 10, 64)
	return id
}
