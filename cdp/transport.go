// Package cdp is a small client for the Chrome DevTools Protocol (CDP).
//
// A [Transport] moves whole JSON messages to and from the browser, either over
// a WebSocket ([DialWebSocket]) or over the pipes Chrome opens with
// --remote-debugging-pipe ([NewPipeTransport]). A [Conn] multiplexes calls and
// events over one Transport, using flattened sessions to talk to pages and
// other targets.
//
// Each command and event the server uses is declared once, beside its param
// and result structs, and named after its method: PageNavigate is
// Command[NavigateParams, NavigateResult]{"Page.navigate"}, sent with
// PageNavigate.Call(ctx, session, params). [Query] and [Action] are the
// commands without params (and, for Action, without a result worth reading);
// an [Event] decodes its own params. Code outside this package writes no
// method names (a test enforces it).
//
// Events reach their readers through a [Subscription]: the Conn's one reader
// goroutine only appends each event to the queue of every subscription of
// its session, and each subscription delivers from its own goroutine, on a
// channel ([Conn.Subscribe]) or to a function ([Conn.SubscribeFunc]). A
// waiter thus reads events on its own goroutine, with its context, and a
// slow subscriber holds up nobody else. [Subscription.Sync] tells a caller
// that the events which came before a reply were handled.
package cdp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// Transport moves whole CDP messages (one JSON object each) in both directions.
type Transport interface {
	// Read blocks until the next whole message arrives. After Close, or when the peer goes away, it returns an error.
	// The message is the caller's for good: Conn keeps slices of it, so Read must not reuse its bytes.
	Read() ([]byte, error)
	// Write sends one whole message. Conn serializes calls to Write; ctx bounds the write.
	Write(ctx context.Context, msg []byte) error
	// Close releases the transport and unblocks Read.
	Close() error
}

// pipeTransport implements Chrome's --remote-debugging-pipe framing: every
// message is a JSON text followed by a NUL byte.
type pipeTransport struct {
	r  io.ReadCloser
	w  io.WriteCloser
	br *bufio.Reader

	closed    atomic.Bool
	closeOnce sync.Once
	closeErr  error
}

// NewPipeTransport speaks Chrome's --remote-debugging-pipe framing: each
// message is JSON followed by a NUL byte. r is the browser's output (its fd 4),
// w its input (its fd 3). Messages may be of any size and may arrive split
// across reads.
//
// Close closes both r and w; for Close to unblock a pending Read, r must
// unblock its Read when closed, as the ends of an [os.Pipe] do. If w supports
// SetWriteDeadline (as an [os.File] pipe end does), the context given to Write
// can interrupt a write blocked on a full pipe; otherwise the context is only
// checked before writing.
func NewPipeTransport(r io.ReadCloser, w io.WriteCloser) Transport {
	return &pipeTransport{r: r, w: w, br: bufio.NewReaderSize(r, 64<<10)}
}

// Read returns the next NUL-terminated message, without the NUL. Empty frames
// are skipped.
func (p *pipeTransport) Read() ([]byte, error) {
	for {
		if p.closed.Load() {
			return nil, fmt.Errorf("read pipe: %w", os.ErrClosed)
		}
		msg, err := p.br.ReadBytes(0)
		if err != nil {
			if err == io.EOF && len(msg) > 0 {
				err = io.ErrUnexpectedEOF
			}
			return nil, fmt.Errorf("read pipe: %w", err)
		}
		if msg = msg[:len(msg)-1]; len(msg) > 0 {
			return msg, nil
		}
	}
}

// writeDeadliner is implemented by pipe ends that can interrupt a blocked write.
type writeDeadliner interface {
	SetWriteDeadline(t time.Time) error
}

// Write sends msg followed by the NUL terminator. A write that fails after
// part of the message went out leaves the stream unframed, so it closes the
// transport.
func (p *pipeTransport) Write(ctx context.Context, msg []byte) (err error) {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("write pipe: %w", err)
	}
	if d, ok := p.w.(writeDeadliner); ok {
		fired := make(chan struct{})
		stop := context.AfterFunc(ctx, func() {
			_ = d.SetWriteDeadline(time.Unix(1, 0))
			close(fired)
		})
		defer func() {
			if !stop() {
				<-fired
			}
			_ = d.SetWriteDeadline(time.Time{})
		}()
	}
	n, err := p.w.Write(msg)
	if err == nil {
		_, err = p.w.Write([]byte{0})
		n++
	}
	if err == nil {
		return nil
	}
	if n > 0 { // part of the message went out: the framing is lost
		_ = p.Close()
	}
	if ctx.Err() != nil {
		err = ctx.Err()
	}
	return fmt.Errorf("write pipe: %w", err)
}

// Close closes both pipe ends. Only the first call does anything.
func (p *pipeTransport) Close() error {
	p.closeOnce.Do(func() {
		p.closed.Store(true)
		p.closeErr = errors.Join(p.w.Close(), p.r.Close())
		if p.closeErr != nil {
			p.closeErr = fmt.Errorf("close pipe: %w", p.closeErr)
		}
	})
	return p.closeErr
}
