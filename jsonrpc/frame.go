package jsonrpc

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
)

// The framing layer (frame*.go): how messages travel, not what they mean.
// A stream carries one JSON-RPC message per line; lineReader splits it,
// with a hard cap on a line's size, and lineWriter writes whole lines
// under a mutex so concurrent senders never interleave (this file).
// parseMessage classifies each line as a request, a notification or a
// response and rejects malformed envelopes with the code JSON-RPC
// prescribes (frame_message.go); Error is the error object of the wire
// (frame_error.go). Nothing here knows about connections, sessions or MCP
// methods; the HTTP transport reuses it for the bodies it is POSTed.

// DefaultMaxLineSize is the largest message, in bytes, that Serve accepts
// unless WithMaxLineSize says otherwise. Tool arguments and results such as
// screenshots or page snapshots can run to tens of megabytes, so the cap
// is generous; it exists only so one runaway line cannot exhaust memory.
const DefaultMaxLineSize = 64 << 20

// keepBufferBelow bounds the line buffer a lineReader keeps between lines,
// so one huge message does not pin its memory for the rest of the session.
const keepBufferBelow = 1 << 20

// errLineTooLong reports a line longer than the reader's cap. The line's
// bytes have been consumed and discarded; the next call reads the next line.
var errLineTooLong = errors.New("jsonrpc: line exceeds the size limit")

// lineReader splits a byte stream into newline-terminated lines of bounded
// length. Unlike bufio.Scanner it has no small fixed limit, and a line over
// the limit is skipped rather than ending the stream.
type lineReader struct {
	br  *bufio.Reader
	max int
	buf []byte
}

func newLineReader(r io.Reader, max int) *lineReader {
	if max <= 0 {
		max = DefaultMaxLineSize
	}
	return &lineReader{br: bufio.NewReaderSize(r, 64<<10), max: max}
}

// next returns the next line without its "\n" or "\r\n" terminator. The
// returned slice is only valid until the following call. A final line
// without a terminator is returned as a line; after it next returns io.EOF.
// A line longer than the cap yields errLineTooLong, and other read errors
// are returned as they are (a partial line is dropped).
func (lr *lineReader) next() ([]byte, error) {
	if cap(lr.buf) > keepBufferBelow {
		lr.buf = nil
	}
	lr.buf = lr.buf[:0]
	tooLong := false
	for {
		chunk, err := lr.br.ReadSlice('\n')
		// Allow two extra bytes for the "\r\n" terminator; the exact
		// check on the content happens once the line is complete.
		if !tooLong && len(lr.buf)+len(chunk) > lr.max+2 {
			tooLong = true
			lr.buf = lr.buf[:0]
		}
		if !tooLong {
			lr.buf = append(lr.buf, chunk...)
		}
		switch {
		case err == nil:
			// Complete line.
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if !tooLong && len(lr.buf) == 0 {
				return nil, io.EOF
			}
			// Final line without a newline: return it now, and io.EOF
			// on the next call.
		default:
			return nil, err
		}
		if tooLong {
			return nil, errLineTooLong
		}
		line := bytes.TrimSuffix(lr.buf, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) > lr.max {
			return nil, errLineTooLong
		}
		return line, nil
	}
}

// errWriterClosed is returned for writes after the session has ended.
var errWriterClosed = errors.New("jsonrpc: the connection is closed")

// lineWriter writes whole messages, one per line, to the client. The mutex
// guarantees that concurrent writers never interleave their bytes. After
// the first write error every later write fails fast with that error,
// because a broken stdout does not heal.
type lineWriter struct {
	mu     sync.Mutex
	w      io.Writer
	err    error
	closed bool
}

// writeLine writes b, which must already end in a newline, in one piece.
func (lw *lineWriter) writeLine(b []byte) error {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	if lw.closed {
		return errWriterClosed
	}
	if lw.err != nil {
		return lw.err
	}
	if _, err := lw.w.Write(b); err != nil {
		lw.err = fmt.Errorf("jsonrpc: writing a message: %w", err)
		return lw.err
	}
	return nil
}

// close makes every later write fail with errWriterClosed, so nothing is
// written to the caller's writer once Serve has returned.
func (lw *lineWriter) close() {
	lw.mu.Lock()
	lw.closed = true
	lw.mu.Unlock()
}

// encodeLine encodes v as compact JSON followed by a newline. HTML
// characters are left unescaped: the output is read by programs, not
// browsers, and page content is full of '<' and '&'.
func encodeLine(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// marshalJSON is json.Marshal without HTML escaping.
func marshalJSON(v any) (json.RawMessage, error) {
	b, err := encodeLine(v)
	if err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b, []byte("\n")), nil
}
