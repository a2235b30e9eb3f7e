package jsonrpc

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"
)

// waitLimit bounds every wait in the tests so a bug fails the test instead
// of hanging it. Nothing sleeps: every wait is for an event.
const waitLimit = 20 * time.Second

// toolFunc implements one fake tool.
type toolFunc func(ctx context.Context, args json.RawMessage) (*CallToolResult, error)

// fakeHandler serves the tools in the map; unknown names get
// CodeInvalidParams, as a real Handler should.
type fakeHandler map[string]toolFunc

func (h fakeHandler) ListTools() []Tool {
	var tools []Tool
	for name := range h {
		tools = append(tools, Tool{
			Name:        name,
			Description: "test tool " + name,
			InputSchema: json.RawMessage(`{"type":"object"}`),
		})
	}
	slices.SortFunc(tools, func(a, b Tool) int { return strings.Compare(a.Name, b.Name) })
	return tools
}

func (h fakeHandler) CallTool(ctx context.Context, name string, args json.RawMessage) (*CallToolResult, error) {
	f, ok := h[name]
	if !ok {
		return nil, &Error{Code: CodeInvalidParams, Message: fmt.Sprintf("unknown tool %q", name)}
	}
	return f(ctx, args)
}

// message is any decoded server output line.
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   *Error          `json:"error"`
	raw     []byte
}

// client drives one Serve call through a pair of pipes.
type client struct {
	t      *testing.T
	s      *Server
	in     *io.PipeWriter
	lines  chan []byte
	served chan error
	cancel context.CancelFunc
	// sessions receives the session of this Serve when the test sends
	// sessionProbe (startServer only).
	sessions chan *Session
}

// sessionProbe is a notification the servers of startServer answer by
// handing their session to the test.
const sessionProbe = "test/session"

// testLogger sends server diagnostics to the test log.
func testLogger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(strings.TrimSuffix(string(p), "\n"))
	return len(p), nil
}

func startServer(t *testing.T, h Handler, opts ...Option) *client {
	t.Helper()
	sessions := make(chan *Session, 10)
	probe := func(ctx context.Context, _ json.RawMessage) { sessions <- SessionFrom(ctx) }
	opts = append([]Option{WithLogger(testLogger(t)), WithNotificationHandler(sessionProbe, probe)}, opts...)
	c := startWith(t, NewServer(ServerInfo{Name: "test-server", Version: "1.2.3"}, h, opts...))
	c.sessions = sessions
	return c
}

// session returns the Session of c's Serve call.
func (c *client) session() *Session {
	c.t.Helper()
	c.notification(sessionProbe, nil)
	return recv(c.t, c.sessions, "the session")
}

func startWith(t *testing.T, s *Server) *client {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &client{t: t, s: s, in: inW, lines: make(chan []byte, 1000), served: make(chan error, 1), cancel: cancel}
	go func() {
		err := s.Serve(ctx, inR, outW)
		outW.Close()
		c.served <- err
	}()
	go func() {
		br := bufio.NewReader(outR)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 {
				c.lines <- line
			}
			if err != nil {
				close(c.lines)
				return
			}
		}
	}()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		inR.Close()
		// Let the output reader finish so it does not outlive the test.
		timeout := time.After(waitLimit)
		for {
			select {
			case _, ok := <-c.lines:
				if !ok {
					return
				}
			case <-timeout:
				t.Error("cleanup: server output did not end")
				return
			}
		}
	})
	return c
}

// send writes one raw line to the server.
func (c *client) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatalf("writing to the server: %v", err)
	}
}

// sendJSON encodes v and writes it as one line.
func (c *client) sendJSON(v any) {
	c.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		c.t.Fatal(err)
	}
	c.send(string(b))
}

// request sends a request with a numeric or string id.
func (c *client) request(id any, method string, params any) {
	c.t.Helper()
	m := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		m["params"] = params
	}
	c.sendJSON(m)
}

// notification sends a notification.
func (c *client) notification(method string, params any) {
	c.t.Helper()
	m := map[string]any{"jsonrpc": "2.0", "method": method}
	if params != nil {
		m["params"] = params
	}
	c.sendJSON(m)
}

// next returns the next output line, decoded.
func (c *client) next() message {
	c.t.Helper()
	select {
	case line, ok := <-c.lines:
		if !ok {
			c.t.Fatal("server output ended while a message was expected")
		}
		return decodeMessage(c.t, line)
	case <-time.After(waitLimit):
		c.t.Fatal("timed out waiting for a message from the server")
	}
	panic("unreachable")
}

func decodeMessage(t *testing.T, line []byte) message {
	t.Helper()
	if len(line) == 0 || line[len(line)-1] != '\n' {
		t.Fatalf("output line is not newline-terminated: %.200q", line)
	}
	var m message
	if err := json.Unmarshal(line, &m); err != nil {
		t.Fatalf("output line is not JSON: %v: %.200q", err, line)
	}
	if m.JSONRPC != "2.0" {
		t.Fatalf("output line lacks jsonrpc 2.0: %.200q", line)
	}
	m.raw = line
	return m
}

// call sends a request and returns the next message, which must be its
// response.
func (c *client) call(id any, method string, params any) message {
	c.t.Helper()
	c.request(id, method, params)
	m := c.next()
	want, _ := json.Marshal(id)
	if string(m.ID) != string(want) || m.Method != "" {
		c.t.Fatalf("expected the response to id %s, got %.300s", want, m.raw)
	}
	return m
}

// result asserts a success response and decodes its result into v.
func (m message) result(t *testing.T, v any) {
	t.Helper()
	if m.Error != nil {
		t.Fatalf("expected a result, got error %d: %s", m.Error.Code, m.Error.Message)
	}
	if m.Result == nil {
		t.Fatalf("response has no result: %.300s", m.raw)
	}
	if v != nil {
		if err := json.Unmarshal(m.Result, v); err != nil {
			t.Fatalf("decoding result: %v", err)
		}
	}
}

// wantError asserts an error response with the given code and id.
func (m message) wantError(t *testing.T, code int, id string) {
	t.Helper()
	if m.Error == nil {
		t.Fatalf("expected error %d, got %.300s", code, m.raw)
	}
	if m.Error.Code != code {
		t.Fatalf("error code = %d (%s), want %d", m.Error.Code, m.Error.Message, code)
	}
	if m.Result != nil {
		t.Fatalf("error response also has a result: %.300s", m.raw)
	}
	if string(m.ID) != id {
		t.Fatalf("error id = %s, want %s (%.300s)", m.ID, id, m.raw)
	}
	if m.Error.Message == "" {
		t.Fatal("error message is empty")
	}
}

// closeAndDrain ends the input, waits for Serve to return, and returns
// every line the server wrote that was not yet read.
func (c *client) closeAndDrain() ([]message, error) {
	c.t.Helper()
	c.in.Close()
	var rest []message
	timeout := time.After(waitLimit)
	for {
		select {
		case line, ok := <-c.lines:
			if !ok {
				return rest, c.wait()
			}
			rest = append(rest, decodeMessage(c.t, line))
		case <-timeout:
			c.t.Fatal("timed out waiting for the server output to end")
		}
	}
}

// wait returns Serve's result.
func (c *client) wait() error {
	c.t.Helper()
	select {
	case err := <-c.served:
		c.served <- err // keep it for later callers
		return err
	case <-time.After(waitLimit):
		c.t.Fatal("timed out waiting for Serve to return")
	}
	return nil
}

// recv waits for a value on ch.
func recv[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(waitLimit):
		t.Fatalf("timed out waiting for %s", what)
	}
	panic("unreachable")
}

// textTool returns a tool result holding one text block.
func textResult(s string) *CallToolResult {
	return &CallToolResult{Content: []Content{TextContent(s)}}
}

// toolText decodes a tools/call result and returns its first text.
func toolText(t *testing.T, m message) (string, CallToolResult) {
	t.Helper()
	var r CallToolResult
	m.result(t, &r)
	if len(r.Content) == 0 {
		t.Fatalf("tool result has no content: %.300s", m.raw)
	}
	return r.Content[0].Text, r
}

var errBoom = errors.New("boom")
