// Package jsonscan reads JSON a token at a time, from a stream or from a
// byte slice. It serves the parsers of big inputs (traces, heap snapshots,
// the rows pagewalk.js returns) that cannot afford encoding/json's
// reflection or a value per token: integers are read straight from the
// input bytes, strings are returned as slices of the input when they have
// no escapes, and values a parser does not need are checked and skipped
// in place.
//
// A Scanner reads through its own buffer. Byte slices it returns alias that
// buffer (or, for a Scanner over a byte slice, the slice itself) and are
// valid until the next call that reads.
package jsonscan

import (
	"fmt"
	"io"
)

// bufSize is the initial buffer of a Scanner over a reader; it grows when a
// single value read whole (Raw, Skip) does not fit.
const bufSize = 256 << 10

// SyntaxError reports malformed JSON and where it was found, counted in
// bytes from the start of the input.
type SyntaxError struct {
	Offset int64
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("malformed JSON at byte %d: %s", e.Offset, e.Msg)
}

// Scanner reads JSON tokens. buf[pos:] is unread; off is the input offset
// of buf[0].
//
// Methods return a *SyntaxError for malformed input, and the reader's own
// error (see Err) when reading failed; an error that a callback passed to
// a method returns is returned unchanged.
type Scanner struct {
	r       io.Reader // nil when scanning a byte slice
	buf     []byte
	pos     int
	off     int64
	eof     bool   // no input beyond buf
	err     error  // a read error other than io.EOF
	scratch []byte // unescaped strings that could not alias buf
}

// NewReader returns a Scanner that reads r.
func NewReader(r io.Reader) *Scanner {
	return &Scanner{r: r, buf: make([]byte, 0, bufSize)}
}

// NewBytes returns a Scanner over data, which it reads in place.
func NewBytes(data []byte) *Scanner {
	return &Scanner{buf: data, eof: true}
}

// Err returns the error reading the input failed with, other than io.EOF.
func (s *Scanner) Err() error { return s.err }

// Offset returns the input offset of the next unread byte.
func (s *Scanner) Offset() int64 { return s.off + int64(s.pos) }

// fill reads more input, keeping buf[keep:] (keep <= pos) and growing the
// buffer when it is full. It reports whether it read any bytes.
func (s *Scanner) fill(keep int) bool {
	if s.eof {
		return false
	}
	if keep > 0 {
		n := copy(s.buf, s.buf[keep:])
		s.buf = s.buf[:n]
		s.pos -= keep
		s.off += int64(keep)
	}
	if len(s.buf) == cap(s.buf) {
		nb := make([]byte, len(s.buf), max(bufSize, 2*cap(s.buf)))
		copy(nb, s.buf)
		s.buf = nb
	}
	for range 100 {
		n, err := s.r.Read(s.buf[len(s.buf):cap(s.buf)])
		s.buf = s.buf[:len(s.buf)+n]
		if err != nil {
			s.eof = true
			if err != io.EOF {
				s.err = err
			}
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
	s.eof, s.err = true, io.ErrNoProgress
	return false
}

// Errorf returns a *SyntaxError at the current offset, or the read error
// when reading failed (malformed input is then most likely cut short).
func (s *Scanner) Errorf(format string, args ...any) error {
	return s.errorAt(s.pos, fmt.Sprintf(format, args...))
}

// errorAt is Errorf at buf[i].
func (s *Scanner) errorAt(i int, msg string) error {
	if s.err != nil {
		return s.err
	}
	return &SyntaxError{Offset: s.off + int64(i), Msg: msg}
}

// unexpected reports what was found where want (a description) was due.
func (s *Scanner) unexpected(want string) error {
	if s.End() {
		return s.Errorf("unexpected end, want %s", want)
	}
	return s.Errorf("found %q, want %s", s.buf[s.pos], want)
}

// Peek skips white space and returns the next byte without consuming it;
// 0 at the end of the input.
func (s *Scanner) Peek() byte {
	for {
		for s.pos < len(s.buf) {
			switch c := s.buf[s.pos]; c {
			case ' ', '\t', '\n', '\r':
				s.pos++
			default:
				return c
			}
		}
		if !s.fill(s.pos) {
			return 0
		}
	}
}

// End skips white space and reports whether the input is over.
func (s *Scanner) End() bool {
	s.Peek()
	return s.pos == len(s.buf)
}

// Accept consumes c, after white space, when it comes next.
func (s *Scanner) Accept(c byte) bool {
	if s.Peek() == c && s.pos < len(s.buf) {
		s.pos++
		return true
	}
	return false
}

// Expect consumes c after white space, or fails.
func (s *Scanner) Expect(c byte) error {
	if s.Accept(c) {
		return nil
	}
	return s.unexpected(fmt.Sprintf("%q", c))
}

// More is called in an array or object after an element: it consumes a
// comma and reports true, or consumes closing (']' or '}') and reports
// false.
func (s *Scanner) More(closing byte) (bool, error) {
	switch s.Peek() {
	case ',':
		s.pos++
		return true, nil
	case closing:
		if s.pos < len(s.buf) {
			s.pos++
			return false, nil
		}
	}
	return false, s.unexpected(fmt.Sprintf("',' or %q", closing))
}

// Array reads an array, calling each with the index of every element;
// each must read the element.
func (s *Scanner) Array(each func(i int) error) error {
	if err := s.Expect('['); err != nil {
		return err
	}
	if s.Accept(']') {
		return nil
	}
	for i := 0; ; i++ {
		if err := each(i); err != nil {
			return err
		}
		if more, err := s.More(']'); !more {
			return err
		}
	}
}

// Object reads an object, calling each with the unescaped key of every
// member; each must read the member's value. The key is valid until each
// reads from s.
func (s *Scanner) Object(each func(key []byte) error) error {
	if err := s.Expect('{'); err != nil {
		return err
	}
	if s.Accept('}') {
		return nil
	}
	for {
		key, err := s.Key()
		if err != nil {
			return err
		}
		if err := each(key); err != nil {
			return err
		}
		if more, err := s.More('}'); !more {
			return err
		}
	}
}

// Key reads an object member's key and the colon after it, returning the
// unescaped key like String.
func (s *Scanner) Key() ([]byte, error) {
	key, err := s.String()
	if err != nil {
		return nil, err
	}
	i := skipWS(s.buf, s.pos)
	if i < len(s.buf) && s.buf[i] == ':' {
		s.pos = i + 1
		return key, nil
	}
	if i == len(s.buf) && !s.eof {
		// The white space runs past the buffer, and reading on moves the
		// buffer: keep the key in scratch (where it may be already).
		s.scratch = append(s.scratch[:0], key...)
		key = s.scratch
	}
	if err := s.Expect(':'); err != nil {
		return nil, err
	}
	return key, nil
}
