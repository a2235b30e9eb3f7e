package jsonrpc

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
)

// pipeEnds joins a read side and a write side into one connection; Close
// closes the write side, as closing stdin does for a server process.
type pipeEnds struct {
	io.Reader
	io.WriteCloser
}

// connect serves srv over pipes and returns a Client of it, with the
// channel that receives Serve's result.
func connect(t *testing.T, srv *Server) (*Client, <-chan error) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() {
		err := srv.Serve(context.Background(), inR, outW)
		outW.Close()
		served <- err
	}()
	c := NewClient(pipeEnds{outR, inW})
	t.Cleanup(func() {
		c.Close()
		inR.Close()
		recv(t, served, "Serve to return")
	})
	return c, served
}

func TestClientCallsAndInitialize(t *testing.T) {
	gates := map[string]chan struct{}{"a": make(chan struct{}), "b": make(chan struct{})}
	h := echoHandler()
	h["wait"] = func(ctx context.Context, args json.RawMessage) (*CallToolResult, error) {
		var a struct{ Gate string }
		if err := json.Unmarshal(args, &a); err != nil {
			return nil, err
		}
		<-gates[a.Gate]
		SessionFrom(ctx).Log("info", "wait", "released "+a.Gate) // dropped by the client
		return textResult(a.Gate), nil
	}
	h["ask"] = func(ctx context.Context, _ json.RawMessage) (*CallToolResult, error) {
		err := SessionFrom(ctx).call(ctx, "sampling/createMessage", nil, nil)
		return textResult(err.Error()), nil
	}
	srv := NewServer(ServerInfo{Name: "srv", Version: "9"}, h, WithLogger(testLogger(t)), WithInstructions("hi"))
	c, _ := connect(t, srv)
	ctx := t.Context()

	res, err := c.Initialize(ctx, ServerInfo{Name: "cli", Version: "1"})
	if err != nil {
		t.Fatal(err)
	}
	if res.ServerInfo != (ServerInfo{Name: "srv", Version: "9"}) || res.ProtocolVersion != protocolVersions[0] || res.Instructions != "hi" ||
		!strings.Contains(string(res.Capabilities), `"tools"`) {
		t.Fatalf("initialize = %+v", res)
	}
	if err := c.Call(ctx, "logging/setLevel", map[string]string{"level": "debug"}, nil); err != nil {
		t.Fatal(err)
	}

	// Two calls at once get their own answers, whatever the order.
	type outcome struct {
		res CallToolResult
		err error
	}
	results := map[string]chan outcome{"a": make(chan outcome, 1), "b": make(chan outcome, 1)}
	for gate, ch := range results {
		go func() {
			var r CallToolResult
			err := c.Call(ctx, "tools/call", map[string]any{"name": "wait", "arguments": map[string]string{"gate": gate}}, &r)
			ch <- outcome{r, err}
		}()
	}
	close(gates["b"])
	if o := recv(t, results["b"], "call b"); o.err != nil || o.res.Content[0].Text != "b" {
		t.Fatalf("call b = %+v, %v", o.res, o.err)
	}
	close(gates["a"])
	if o := recv(t, results["a"], "call a"); o.err != nil || o.res.Content[0].Text != "a" {
		t.Fatalf("call a = %+v, %v", o.res, o.err)
	}

	// The raw result can be kept as sent.
	var raw json.RawMessage
	if err := c.Call(ctx, "tools/call", map[string]any{"name": "echo", "arguments": map[string]string{"text": "x<y"}}, &raw); err != nil ||
		string(raw) != `{"content":[{"type":"text","text":"x<y"}]}` {
		t.Fatalf("raw result = %s, %v", raw, err)
	}

	// An error answer is an *Error.
	var rpcErr *Error
	if err := c.Call(ctx, "nope", nil, nil); !errors.As(err, &rpcErr) || rpcErr.Code != CodeMethodNotFound {
		t.Fatalf("unknown method: err = %v, want *Error %d", err, CodeMethodNotFound)
	}

	// The server's requests are declined.
	var r CallToolResult
	if err := c.Call(ctx, "tools/call", map[string]any{"name": "ask"}, &r); err != nil ||
		!strings.Contains(r.Content[0].Text, "does not implement sampling/createMessage") {
		t.Fatalf("server request: %+v, %v", r, err)
	}
}

func TestClientCancelTellsTheServer(t *testing.T) {
	started := make(chan struct{})
	sawCancel := make(chan error, 1)
	h := fakeHandler{"block": func(ctx context.Context, _ json.RawMessage) (*CallToolResult, error) {
		close(started)
		<-ctx.Done()
		sawCancel <- ctx.Err()
		return nil, ctx.Err()
	}}
	c, _ := connect(t, NewServer(ServerInfo{Name: "s", Version: "1"}, h, WithLogger(testLogger(t))))
	ctx, cancel := context.WithCancel(t.Context())
	errc := make(chan error, 1)
	go func() { errc <- c.Call(ctx, "tools/call", map[string]any{"name": "block"}, nil) }()
	recv(t, started, "the tool to start")
	cancel()
	if err := recv(t, errc, "Call to return"); !errors.Is(err, context.Canceled) {
		t.Fatalf("Call = %v, want context.Canceled", err)
	}
	if err := recv(t, sawCancel, "the server to cancel the tool"); !errors.Is(err, context.Canceled) {
		t.Fatalf("tool ctx = %v", err)
	}
	if err := c.Call(t.Context(), "ping", nil, nil); err != nil {
		t.Fatalf("ping after a cancelled call: %v", err)
	}
}

func TestClientConnectionEnds(t *testing.T) {
	// The "server" reads one request and goes away without answering.
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() {
		newLineReader(inR, 0).next()
		outW.Close()
		inR.Close()
	}()
	c := NewClient(pipeEnds{outR, inW})
	defer c.Close()
	if err := c.Call(t.Context(), "tools/call", map[string]any{"name": "slow"}, nil); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("Call when the server goes away = %v, want io.ErrUnexpectedEOF", err)
	}
	if err := c.Wait(t.Context()); err != nil {
		t.Fatalf("Wait = %v, want nil at EOF", err)
	}
	if err := c.Call(t.Context(), "ping", nil, nil); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("Call after the end = %v", err)
	}
}

func TestClientWaitHonoursContext(t *testing.T) {
	c, _ := connect(t, NewServer(ServerInfo{Name: "s", Version: "1"}, nil))
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := c.Wait(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait = %v, want context.Canceled while the server is still there", err)
	}
}

func TestClientGivesUpOnAnOverlongLine(t *testing.T) {
	r, w := io.Pipe()
	c := newClient(pipeEnds{r, nopCloser{io.Discard}}, 64)
	go func() {
		io.WriteString(w, `{"jsonrpc":"2.0","method":"notifications/message","params":"`+strings.Repeat("x", 100)+"\"}\n")
	}()
	err := c.Wait(t.Context())
	if err == nil || !strings.Contains(err.Error(), "64-byte limit") {
		t.Fatalf("Wait = %v, want the line limit", err)
	}
	if err := c.Call(t.Context(), "ping", nil, nil); err == nil || !strings.Contains(err.Error(), "64-byte limit") {
		t.Fatalf("Call after the overlong line = %v", err)
	}
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// TestClientKeepsAnAnswerSentJustBeforeTheEnd checks that a response that
// is the last thing on the stream reaches its call, however the call's
// goroutine is scheduled: a daemon answers stop and then closes, and the
// CLI must report the stop, not "the connection ended".
func TestClientKeepsAnAnswerSentJustBeforeTheEnd(t *testing.T) {
	for i := range 300 {
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		go func() {
			// Read the request, answer it and end the stream at once.
			line, err := newLineReader(inR, 1<<20).next()
			if err != nil {
				outW.CloseWithError(err)
				return
			}
			var req struct{ ID json.RawMessage }
			json.Unmarshal(line, &req)
			io.WriteString(outW, `{"jsonrpc":"2.0","id":`+string(req.ID)+`,"result":{"ok":true}}`+"\n")
			outW.Close()
		}()
		c := NewClient(pipeEnds{outR, inW})
		var got struct{ OK bool }
		if err := c.Call(t.Context(), "ping", nil, &got); err != nil || !got.OK {
			t.Fatalf("run %d: Call = %+v, %v; want the answer sent before the end", i, got, err)
		}
		c.Close()
		inR.Close()
	}
}
