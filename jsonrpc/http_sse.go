package jsonrpc

import (
	"bytes"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
)

// The Streamable HTTP transport never writes an http.ResponseWriter from a
// handler's goroutine. Messages for a client are queued on a postStream
// (one request's POST) or on the session's standaloneStream (its GET), and
// the goroutine serving that HTTP request writes them out. Queueing never
// blocks, so a slow or vanished HTTP client cannot stall a tool, and a
// session can shut down while its HTTP requests are still open.

// postStream is the route of one POSTed request: the messages the server
// sends while handling it, then its response. It implements route.
type postStream struct {
	fallback outbound // the session's GET stream, for messages sent after the POST is over
	logger   *slog.Logger
	wake     chan struct{} // signalled after each change; capacity 1

	mu       sync.Mutex
	queue    [][]byte // messages not yet written to the HTTP response
	final    []byte   // the response, once answered
	answered bool     // respond was called
	detached bool     // the POST is over: no one writes queue any more
}

func newPostStream(fallback outbound, logger *slog.Logger) *postStream {
	return &postStream{fallback: fallback, logger: logger, wake: make(chan struct{}, 1)}
}

func (p *postStream) signal() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// writeLine queues a request or notification for the POST's event stream.
// Once the POST has been answered or abandoned, the message goes to the
// session's GET stream instead, so a late roots/list still reaches the
// client.
func (p *postStream) writeLine(line []byte) error {
	p.mu.Lock()
	if p.answered || p.detached {
		p.mu.Unlock()
		return p.fallback.writeLine(line)
	}
	p.queue = append(p.queue, line)
	p.mu.Unlock()
	p.signal()
	return nil
}

// respond records the response (nil: none will come). A response to a
// POST whose client went away is dropped: the specification forbids
// sending it on the GET stream.
func (p *postStream) respond(line []byte) {
	p.mu.Lock()
	if p.answered {
		p.mu.Unlock()
		return
	}
	p.answered, p.final = true, line
	lost := p.detached && line != nil
	p.mu.Unlock()
	if lost {
		p.logger.Warn("jsonrpc: dropped a response: its HTTP client disconnected before it was ready")
	}
	p.signal()
}

// take removes and returns the queued messages and, once answered, the
// response.
func (p *postStream) take() (msgs [][]byte, final []byte, answered bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	msgs, p.queue = p.queue, nil
	return msgs, p.final, p.answered
}

// detach marks the POST as over; messages still queued go to the GET
// stream, so none is lost only because the POST ended first.
func (p *postStream) detach() {
	p.mu.Lock()
	p.detached = true
	rest := p.queue
	p.queue = nil
	p.mu.Unlock()
	for _, line := range rest {
		_ = p.fallback.writeLine(line) // the GET stream only fails once the session is over
	}
}

// maxStandaloneQueue bounds the messages kept for a session while no GET
// stream is open; older ones are dropped first.
const maxStandaloneQueue = 1024

// standaloneStream holds what the server sends outside any request's
// POST: notifications and requests made without a request's context, and
// those of requests whose POST is over. It is the io.Writer under the
// session's lineWriter, which hands it one whole line per Write. Messages
// wait in a bounded queue until a GET stream takes them.
type standaloneStream struct {
	wake chan struct{} // signalled after each change; capacity 1

	mu       sync.Mutex
	queue    [][]byte
	dropped  int  // messages dropped because the queue was full, not yet reported
	attached bool // a GET stream is open
	closed   bool
}

func newStandaloneStream() *standaloneStream {
	return &standaloneStream{wake: make(chan struct{}, 1)}
}

// Write queues one message. It never fails, because a failed write would
// end the session's lineWriter for good.
func (s *standaloneStream) Write(line []byte) (int, error) {
	s.mu.Lock()
	if !s.closed {
		if len(s.queue) == maxStandaloneQueue {
			s.queue = s.queue[1:]
			s.dropped++
		}
		s.queue = append(s.queue, bytes.Clone(line))
	}
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
	return len(line), nil
}

// attach claims the stream for one GET; it fails when another GET holds it.
func (s *standaloneStream) attach() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.attached || s.closed {
		return false
	}
	s.attached = true
	return true
}

func (s *standaloneStream) detach() {
	s.mu.Lock()
	s.attached = false
	s.mu.Unlock()
}

// take removes and returns the queued messages, how many were dropped
// since the last take, and whether the session has ended.
func (s *standaloneStream) take() (msgs [][]byte, dropped int, closed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	msgs, s.queue = s.queue, nil
	dropped, s.dropped = s.dropped, 0
	return msgs, dropped, s.closed
}

// close ends the stream: queued messages are discarded and the open GET,
// if any, returns.
func (s *standaloneStream) close() {
	s.mu.Lock()
	s.closed = true
	s.queue = nil
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// sseWriter writes Server-Sent Events to an HTTP response. Each MCP message
// is one "message" event whose data is the message's single JSON line.
// Events carry no id: this transport does not offer resumption with
// Last-Event-ID, so a client that loses a stream loses its unsent events.
type sseWriter struct {
	w  http.ResponseWriter
	rc *http.ResponseController
}

// startSSE sends the event-stream headers and returns the writer.
func startSSE(w http.ResponseWriter) *sseWriter {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no") // stop proxies such as nginx from holding events back
	w.WriteHeader(http.StatusOK)
	s := &sseWriter{w: w, rc: http.NewResponseController(w)}
	_ = s.flush() // a failure shows again on the first event
	return s
}

// event writes one message; line is compact JSON with or without its
// trailing newline, so it holds no newline inside.
func (s *sseWriter) event(line []byte) error {
	line = bytes.TrimSuffix(line, []byte("\n"))
	if _, err := fmt.Fprintf(s.w, "event: message\ndata: %s\n\n", line); err != nil {
		return fmt.Errorf("jsonrpc: writing an SSE event: %w", err)
	}
	return nil
}

// comment writes an SSE comment, which clients ignore; it keeps idle
// connections from being closed by proxies and detects dead clients.
func (s *sseWriter) comment(text string) error {
	if _, err := fmt.Fprintf(s.w, ": %s\n\n", text); err != nil {
		return fmt.Errorf("jsonrpc: writing an SSE comment: %w", err)
	}
	return s.flush()
}

func (s *sseWriter) flush() error {
	if err := s.rc.Flush(); err != nil {
		return fmt.Errorf("jsonrpc: flushing an SSE stream: %w", err)
	}
	return nil
}
