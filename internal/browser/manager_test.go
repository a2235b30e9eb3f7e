package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/devtools-mcp/devtools-mcp/internal/chrome"
)

// TestGetWaitGivesUpWithItsContext starts a Manager whose browser takes
// long to reach (its /json/version answers only when the test says) and
// checks that a second Get, waiting for that start, returns when its own
// context ends instead of queueing behind it.
func TestGetWaitGivesUpWithItsContext(t *testing.T) {
	entered := make(chan struct{}, 1)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		entered <- struct{}{}
		<-release
		http.Error(w, "not a browser", http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	var once sync.Once
	letGo := func() { once.Do(func() { close(release) }) }
	defer letGo() // before srv.Close, which waits for the handler

	m := NewManager(Options{Attach: chrome.AttachOptions{BrowserURL: srv.URL}})
	first := make(chan error, 1)
	go func() {
		_, err := m.Get(t.Context())
		first <- err
	}()
	select {
	case <-entered:
	case <-time.After(10 * time.Second):
		t.Fatal("the first Get never asked for the browser")
	}

	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	began := time.Now()
	_, err := m.Get(ctx)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("second Get while the first starts the browser = %v, want a deadline error", err)
	}
	if waited := time.Since(began); waited > 5*time.Second {
		t.Errorf("second Get returned after %v, long after its context ended", waited)
	}
	select {
	case err := <-first:
		t.Fatalf("the first Get returned (%v) before its browser answered", err)
	default:
	}

	letGo()
	select {
	case err := <-first:
		if err == nil || !strings.Contains(err.Error(), "503") {
			t.Errorf("first Get = %v, want the browser URL's 503", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the first Get did not return after its browser answered")
	}
	// The semaphore is free again: a Get now goes on to the browser.
	ctx, cancel = context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	go func() { <-entered; letGo() }()
	if _, err := m.Get(ctx); err == nil || errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Get after the failed start = %v, want the browser URL's error", err)
	}
}

// fakeChrome is an HTTP debugging endpoint whose /json/version answers when
// the test lets it, and whose browser WebSocket answers every command with
// an empty result. hungUp gets a value each time a client hangs up.
type fakeChrome struct {
	entered chan struct{}
	letGo   func()
	hungUp  chan struct{}
	url     string
}

func newFakeChrome(t *testing.T) *fakeChrome {
	f := &fakeChrome{entered: make(chan struct{}, 1), hungUp: make(chan struct{}, 4)}
	release := make(chan struct{})
	var once sync.Once
	f.letGo = func() { once.Do(func() { close(release) }) }
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	mux.HandleFunc("/json/version", func(w http.ResponseWriter, r *http.Request) {
		f.entered <- struct{}{}
		<-release
		fmt.Fprintf(w, `{"webSocketDebuggerUrl":"ws://%s/devtools/browser/x"}`, r.Host)
	})
	mux.HandleFunc("/devtools/browser/x", func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer func() { f.hungUp <- struct{}{} }()
		for {
			_, msg, err := c.Read(context.Background())
			if err != nil {
				return
			}
			var req struct {
				ID int64 `json:"id"`
			}
			if json.Unmarshal(msg, &req) == nil {
				c.Write(context.Background(), websocket.MessageText, fmt.Appendf(nil, `{"id":%d,"result":{}}`, req.ID))
			}
		}
	})
	t.Cleanup(srv.Close)
	t.Cleanup(f.letGo) // before srv.Close, which waits for the handlers
	f.url = srv.URL
	return f
}

// TestCloseDuringStartShutsTheBrowserDown closes the Manager while a Get is
// still attaching: Close returns when its context ends, and the Get, once
// attached, disconnects instead of handing out a browser nobody will close.
func TestCloseDuringStartShutsTheBrowserDown(t *testing.T) {
	f := newFakeChrome(t)
	m := NewManager(Options{Attach: chrome.AttachOptions{BrowserURL: f.url}})
	first := make(chan error, 1)
	go func() {
		_, err := m.Get(t.Context())
		first <- err
	}()
	<-f.entered

	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	closed := make(chan struct{})
	go func() { m.Close(ctx); close(closed) }()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not return when its context ended")
	}

	f.letGo()
	select {
	case err := <-first:
		if err == nil || !strings.Contains(err.Error(), "closed") {
			t.Errorf("Get across a Close = %v, want an error saying the browser was closed", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Get did not return")
	}
	select {
	case <-f.hungUp:
	case <-time.After(10 * time.Second):
		t.Fatal("the browser started across the Close is still connected")
	}

	// Attaching works again afterwards, and Close disconnects.
	if _, err := m.Get(t.Context()); err != nil {
		t.Fatalf("Get after Close: %v", err)
	}
	m.Close(t.Context())
}

// TestAttachToNothing checks that a manager given a browser URL says it
// attaches, and that attaching where no Chrome listens explains itself.
func TestAttachToNothing(t *testing.T) {
	m := NewManager(Options{Attach: chrome.AttachOptions{BrowserURL: "http://127.0.0.1:9"}})
	if !m.Attached() {
		t.Error("a manager with a browser URL does not say it attaches")
	}
	if _, err := m.Get(t.Context()); err == nil || !strings.Contains(err.Error(), "could not reach Chrome") {
		t.Errorf("attaching to nothing = %v", err)
	}
}
