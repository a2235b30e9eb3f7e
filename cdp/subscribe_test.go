package cdp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

// next returns the next event of sub, failing the test when none comes.
func next(t *testing.T, sub *Subscription) RawEvent {
	t.Helper()
	select {
	case ev, ok := <-sub.Events():
		if !ok {
			t.Fatal("subscription closed early")
		}
		return ev
	case <-time.After(testGuard):
		t.Fatal("no event delivered")
		return RawEvent{}
	}
}

// closed waits until sub's channel is closed, failing on any event.
func closed(t *testing.T, sub *Subscription) {
	t.Helper()
	select {
	case ev, ok := <-sub.Events():
		if ok {
			t.Fatalf("event %s %s delivered, want the channel closed", ev.Method, ev.Params)
		}
	case <-time.After(testGuard):
		t.Fatal("subscription channel not closed")
	}
	select {
	case <-sub.Done():
	case <-time.After(testGuard):
		t.Fatal("subscription goroutine still running")
	}
}

// roundTrip makes one call and answers it: the reader has dispatched every
// message sent before when it returns.
func roundTrip(t *testing.T, c *Conn, p *fakePeer) {
	t.Helper()
	errc := goCall(c, t.Context(), "", "Test.roundTrip", nil, nil)
	p.reply(t, p.expect(t).ID, `{}`)
	if err := waitCall(t, errc); err != nil {
		t.Fatal(err)
	}
}

// TestSlowSubscriberBlocksNobody sends many events to a subscriber that
// reads none of them: the reader keeps dispatching replies, another
// subscriber gets every event, and the slow one gets all of them, in
// order, once it reads.
func TestSlowSubscriberBlocksNobody(t *testing.T) {
	c, p := newTestConn(t)
	slow := c.Subscribe("S1")
	defer slow.Close()
	fast := c.Subscribe("S1", Event[json.RawMessage]{"E.n"})
	defer fast.Close()
	stuck := make(chan struct{})
	blocked := c.SubscribeFunc("S1", func(RawEvent) { <-stuck })
	defer blocked.Close()
	defer close(stuck)

	const n = 500
	for i := range n {
		p.event(t, "S1", "E.n", fmt.Sprintf(`{"n":%d}`, i))
		p.event(t, "S1", "E.other", `{}`)
	}
	roundTrip(t, c, p) // a reply behind the unread events still comes
	for i := range n {
		if ev := next(t, fast); string(ev.Params) != fmt.Sprintf(`{"n":%d}`, i) || ev.Method != "E.n" || ev.SessionID != "S1" {
			t.Fatalf("fast subscriber's event %d = %s %s in %q", i, ev.Method, ev.Params, ev.SessionID)
		}
	}
	for i := range n {
		if ev := next(t, slow); string(ev.Params) != fmt.Sprintf(`{"n":%d}`, i) {
			t.Fatalf("slow subscriber's event %d = %s %s", 2*i, ev.Method, ev.Params)
		}
		if ev := next(t, slow); ev.Method != "E.other" {
			t.Fatalf("slow subscriber's event %d = %s", 2*i+1, ev.Method)
		}
	}
}

// TestSubscriptionSessions checks that a subscription sees its sessions'
// events only, from sessions added later too, in arrival order.
func TestSubscriptionSessions(t *testing.T) {
	c, p := newTestConn(t)
	sub := c.Session("S1").Subscribe()
	defer sub.Close()
	browser := c.Subscribe("")
	defer browser.Close()

	p.event(t, "S2", "E.before", `{}`)
	roundTrip(t, c, p) // E.before is dispatched, to nobody
	sub.AddSession("S2")
	p.event(t, "S2", "E.a", `{}`)
	p.event(t, "S3", "E.elsewhere", `{}`)
	p.event(t, "S1", "E.b", `{}`)
	p.event(t, "", "E.browser", `{}`)
	p.event(t, "S2", "E.c", `{}`)
	var got []string
	for range 3 {
		ev := next(t, sub)
		got = append(got, ev.SessionID+":"+ev.Method)
	}
	if fmt.Sprint(got) != "[S2:E.a S1:E.b S2:E.c]" {
		t.Errorf("events = %v, want [S2:E.a S1:E.b S2:E.c]", got)
	}
	if ev := next(t, browser); ev.Method != "E.browser" || ev.SessionID != "" {
		t.Errorf("browser-level event = %q in %q", ev.Method, ev.SessionID)
	}
}

// TestSubscriptionToAnySession checks that AnySession receives the wanted
// events of every session, the browser's and sessions never named
// included, and that a session's own subscribers still get them once.
func TestSubscriptionToAnySession(t *testing.T) {
	c, p := newTestConn(t)
	all := c.Subscribe(AnySession, Event[json.RawMessage]{"E.wanted"})
	defer all.Close()
	own := c.Subscribe("S1")
	defer own.Close()

	p.event(t, "S9", "E.other", `{}`)
	p.event(t, "S9", "E.wanted", `{}`)
	p.event(t, "", "E.wanted", `{}`)
	p.event(t, "S1", "E.wanted", `{}`)
	var got []string
	for range 3 {
		ev := next(t, all)
		got = append(got, ev.SessionID+":"+ev.Method)
	}
	if fmt.Sprint(got) != "[S9:E.wanted :E.wanted S1:E.wanted]" {
		t.Errorf("events = %v, want [S9:E.wanted :E.wanted S1:E.wanted]", got)
	}
	if ev := next(t, own); ev.SessionID != "S1" || ev.Method != "E.wanted" {
		t.Errorf("the session's own subscriber got %s:%s", ev.SessionID, ev.Method)
	}
	p.event(t, "S1", "E.last", `{}`)
	if ev := next(t, own); ev.Method != "E.last" {
		t.Errorf("the session's own subscriber got %s:%s twice", ev.SessionID, ev.Method)
	}
}

// TestSubscriptionClose checks that Close ends delivery at once, drops
// what was not delivered, and that later events go nowhere.
func TestSubscriptionClose(t *testing.T) {
	c, p := newTestConn(t)
	sub := c.Subscribe("S1")
	other := c.Subscribe("S1")
	defer other.Close()
	p.event(t, "S1", "E.a", `{}`)
	p.event(t, "S1", "E.b", `{}`)
	next(t, other)
	next(t, other) // both are queued for sub too
	sub.Close()
	sub.Close() // idempotent
	closed(t, sub)
	p.event(t, "S1", "E.c", `{}`)
	if ev := next(t, other); ev.Method != "E.c" {
		t.Errorf("other subscriber got %s after the close, want E.c", ev.Method)
	}
	c.mu.Lock()
	n := len(c.subs["S1"])
	c.mu.Unlock()
	if n != 1 {
		t.Errorf("%d subscriptions registered for S1 after one closed, want 1", n)
	}
	sub.AddSession("S2") // after Close: no effect
	c.mu.Lock()
	n = len(c.subs["S2"])
	c.mu.Unlock()
	if n != 0 {
		t.Errorf("a closed subscription was registered again")
	}

	// Closing from inside the function stops it after that event.
	var got []string
	var self *Subscription
	self = c.SubscribeFunc("S1", func(ev RawEvent) {
		got = append(got, ev.Method)
		self.Close()
	})
	p.event(t, "S1", "E.d", `{}`)
	p.event(t, "S1", "E.e", `{}`)
	select {
	case <-self.Done():
	case <-time.After(testGuard):
		t.Fatal("a subscription closed from its function kept running")
	}
	if fmt.Sprint(got) != "[E.d]" {
		t.Errorf("function got %v, want [E.d]", got)
	}
}

// TestConnectionDeathEndsSubscriptions checks that the events that came
// before the connection died are still delivered, then the channel is
// closed; a subscription made afterwards is closed from the start.
func TestConnectionDeathEndsSubscriptions(t *testing.T) {
	c, p := newTestConn(t)
	sub := c.Subscribe("S1")
	defer sub.Close()
	p.event(t, "S1", "E.last", `{}`)
	p.hangUp()
	<-c.Done()
	if ev := next(t, sub); ev.Method != "E.last" {
		t.Errorf("event = %s, want E.last", ev.Method)
	}
	closed(t, sub)

	late := c.Subscribe("S1")
	closed(t, late)
	if err := late.Sync(t.Context()); err != nil {
		t.Errorf("Sync of an ended, empty subscription: %v", err)
	}
}

// TestSubscriptionSync checks that Sync waits until the function handled
// every event queued before it, and gives up with its context.
func TestSubscriptionSync(t *testing.T) {
	c, p := newTestConn(t)
	release := make(chan struct{})
	var handled []string
	sub := c.SubscribeFunc("S1", func(ev RawEvent) {
		<-release
		handled = append(handled, ev.Method)
	}, Event[json.RawMessage]{"E.a"}, Event[struct{}]{"E.b"})
	defer sub.Close()

	p.event(t, "S1", "E.a", `{}`)
	p.event(t, "S1", "E.skipped", `{}`)
	p.event(t, "S1", "E.b", `{}`)
	roundTrip(t, c, p) // once its reply is in, Sync covers the events

	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if err := sub.Sync(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Sync while the function is blocked = %v, want a deadline error", err)
	}
	synced := make(chan error, 1)
	go func() { synced <- sub.Sync(t.Context()) }()
	close(release)
	select {
	case err := <-synced:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(testGuard):
		t.Fatal("Sync did not return")
	}
	if fmt.Sprint(handled) != "[E.a E.b]" {
		t.Errorf("handled %v before Sync returned, want [E.a E.b]", handled)
	}

	sub.Close()
	p.event(t, "S1", "E.a", `{}`)
	if err := sub.Sync(t.Context()); err != nil {
		t.Errorf("Sync after Close with nothing queued before: %v", err)
	}
}

// TestSyncOnClosedSubscription checks that Sync does not hang when the
// subscription is closed before it caught up.
func TestSyncOnClosedSubscription(t *testing.T) {
	c, p := newTestConn(t)
	sub := c.Subscribe("S1") // nobody reads it
	p.event(t, "S1", "E.a", `{}`)
	roundTrip(t, c, p)
	synced := make(chan error, 1)
	go func() { synced <- sub.Sync(t.Context()) }()
	sub.Close()
	select {
	case err := <-synced:
		if !errors.Is(err, ErrSubscriptionClosed) {
			t.Errorf("Sync = %v, want ErrSubscriptionClosed", err)
		}
	case <-time.After(testGuard):
		t.Fatal("Sync did not return after Close")
	}
}

// TestSyncCoversAnEventOtherSubscriptionsGot checks that once one
// subscription delivered an event, Sync on another subscription to it
// waits until that one handled it too: a waiter that saw a dialog open can
// ask the page's state for it.
func TestSyncCoversAnEventOtherSubscriptionsGot(t *testing.T) {
	c, p := newTestConn(t)
	watch := c.Subscribe("S1")
	defer watch.Close()
	// Subscriptions queued for between the two make the window wide in
	// which an event is queued for one and not yet for the other.
	for range 500 {
		defer c.SubscribeFunc("S1", func(RawEvent) {}).Close()
	}
	var mu sync.Mutex
	handled := 0
	state := c.SubscribeFunc("S1", func(RawEvent) {
		mu.Lock()
		handled++
		mu.Unlock()
	})
	defer state.Close()

	const n = 200
	go func() {
		for i := range n {
			p.event(t, "S1", "E.a", fmt.Sprintf(`{"i":%d}`, i))
		}
	}()
	for i := range n {
		next(t, watch)
		if err := state.Sync(t.Context()); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		got := handled
		mu.Unlock()
		if got <= i {
			t.Fatalf("after event %d reached one subscription, Sync on the other returned with %d handled", i, got)
		}
	}
}

// TestSyncFromTheSubscriberIsRefused checks that the function of a
// subscription calling its own Sync, which would wait for itself, gets
// ErrSyncFromSubscriber at once instead of hanging.
func TestSyncFromTheSubscriberIsRefused(t *testing.T) {
	c, p := newTestConn(t)
	got := make(chan error, 1)
	var sub *Subscription
	ready := make(chan struct{})
	sub = c.SubscribeFunc("S1", func(RawEvent) {
		<-ready
		got <- sub.Sync(t.Context())
	}, Event[json.RawMessage]{"E.a"})
	defer sub.Close()
	close(ready)
	p.event(t, "S1", "E.a", `{}`)
	select {
	case err := <-got:
		if !errors.Is(err, ErrSyncFromSubscriber) {
			t.Fatalf("Sync from the subscriber = %v, want ErrSyncFromSubscriber", err)
		}
	case <-time.After(testGuard):
		t.Fatal("Sync from the subscriber hung")
	}
	// Another goroutine's Sync still waits and returns.
	if err := sub.Sync(t.Context()); err != nil {
		t.Fatalf("Sync from outside = %v", err)
	}
}
