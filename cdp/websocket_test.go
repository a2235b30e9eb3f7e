package cdp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// wsServer starts a WebSocket server running handle for each connection and
// returns its ws:// URL.
func wsServer(t *testing.T, handle func(r *http.Request, c *websocket.Conn)) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		c.SetReadLimit(-1)
		handle(r, c)
	}))
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http")
}

// echoHandler sends every message back until the connection ends.
func echoHandler(r *http.Request, c *websocket.Conn) {
	for {
		typ, msg, err := c.Read(r.Context())
		if err != nil {
			return
		}
		if err := c.Write(r.Context(), typ, msg); err != nil {
			return
		}
	}
}

func dialTest(t *testing.T, url string, header http.Header) Transport {
	t.Helper()
	tr, err := DialWebSocket(t.Context(), url, header)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	return tr
}

func TestWebSocketLargeMessage(t *testing.T) {
	tr := dialTest(t, wsServer(t, echoHandler), nil)
	big := bigMessage(11 << 20)
	errc := make(chan error, 1)
	go func() { errc <- tr.Write(t.Context(), big) }()
	got, err := tr.Read()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, big) {
		t.Fatalf("read %d bytes, want %d", len(got), len(big))
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
}

func TestWebSocketHeaders(t *testing.T) {
	url := wsServer(t, func(r *http.Request, c *websocket.Conn) {
		c.Write(r.Context(), websocket.MessageText, []byte(r.Header.Get("Authorization")+"|"+r.Header.Get("X-Extra")))
		c.Read(r.Context()) // until the client goes
	})
	tr := dialTest(t, url, http.Header{"Authorization": {"Bearer s3cret"}, "X-Extra": {"1"}})
	got, err := tr.Read()
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "Bearer s3cret|1" {
		t.Errorf("server saw headers %q", got)
	}
}

func TestWebSocketDialError(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	url := "ws" + strings.TrimPrefix(srv.URL, "http") + "/devtools/browser/nope"
	_, err := DialWebSocket(t.Context(), url, nil)
	if err == nil || !strings.HasPrefix(err.Error(), "connect to "+url+": ") {
		t.Errorf("got %v", err)
	}
}

func TestWebSocketClose(t *testing.T) {
	tr := dialTest(t, wsServer(t, echoHandler), nil)
	errc := make(chan error, 1)
	go func() {
		_, err := tr.Read()
		errc <- err
	}()
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-errc:
		if err == nil {
			t.Error("Read returned no error after Close")
		}
	case <-time.After(testGuard):
		t.Fatal("Close did not unblock Read")
	}
	if err := tr.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if err := tr.Write(t.Context(), []byte(`{}`)); err == nil {
		t.Error("Write after Close succeeded")
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := tr.Write(ctx, []byte(`{}`)); !errors.Is(err, context.Canceled) {
		t.Errorf("Write with done ctx = %v", err)
	}
}

func TestConnOverWebSocket(t *testing.T) {
	// A fake browser: answers the first call, then drops the connection
	// while the second is pending.
	url := wsServer(t, func(r *http.Request, c *websocket.Conn) {
		ctx := r.Context()
		_, msg, err := c.Read(ctx)
		if err != nil {
			return
		}
		var req sentRequest
		if json.Unmarshal(msg, &req) != nil {
			return
		}
		reply, _ := json.Marshal(map[string]any{"id": req.ID, "result": map[string]string{"product": "Chrome/156"}})
		c.Write(ctx, websocket.MessageText, reply)
		c.Read(ctx)
	})
	c := NewConn(dialTest(t, url, nil))
	defer c.Close()

	var v struct{ Product string }
	if err := c.Call(t.Context(), "", "Browser.getVersion", nil, &v); err != nil || v.Product != "Chrome/156" {
		t.Fatalf("got %+v, %v", v, err)
	}
	if err := c.Call(t.Context(), "", "Browser.close", nil, nil); !errors.Is(err, ErrBrowserGone) {
		t.Errorf("call when the browser went away: %v", err)
	}
	select {
	case <-c.Done():
	case <-time.After(testGuard):
		t.Fatal("Done not closed")
	}
	select {
	case <-c.readDone:
	case <-time.After(testGuard):
		t.Error("reader goroutine still running")
	}
}
