package browser

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
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

	m := NewManager(Options{Attach: AttachOptions{BrowserURL: srv.URL}})
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
