package trace

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// SyntaxError reports malformed trace JSON and where it was found, counted
// in bytes of the decompressed trace.
type SyntaxError struct {
	Offset int64
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("malformed trace at byte %d: %s", e.Offset, e.Msg)
}

// errShort is returned by skipValue when the value runs past the buffer.
var errShort = errors.New("short buffer")

// scanner reads a JSON trace from a stream one top-level event at a time.
// buf[pos:] is unread; off is the stream offset of buf[0].
type scanner struct {
	r   io.Reader
	buf []byte
	pos int
	off int64
	eof bool
	err error // a read error other than EOF
}

// newScanner returns a scanner over r, decompressing it when it starts
// with the gzip magic bytes.
func newScanner(r io.Reader) (*scanner, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("trace: gzip: %w", err)
		}
		return &scanner{r: zr, buf: make([]byte, 0, 256<<10)}, nil
	}
	return &scanner{r: br, buf: make([]byte, 0, 256<<10)}, nil
}

// fill reads more input, keeping buf[keep:] (keep <= pos) and growing the
// buffer when it is full.
func (s *scanner) fill(keep int) bool {
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
		nb := make([]byte, len(s.buf), 2*cap(s.buf))
		copy(nb, s.buf)
		s.buf = nb
	}
	for {
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
}

func (s *scanner) syntax(at int, msg string) error {
	if s.err != nil {
		return fmt.Errorf("trace: read: %w", s.err)
	}
	return &SyntaxError{Offset: s.off + int64(at), Msg: msg}
}

// next skips whitespace and returns the next byte without consuming it;
// 0 at the end of input.
func (s *scanner) next() byte {
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

// expect consumes c (after whitespace) or fails.
func (s *scanner) expect(c byte, what string) error {
	if s.next() != c {
		return s.syntax(s.pos, "expected "+what)
	}
	s.pos++
	return nil
}

// value returns the next whole JSON value, valid until the next call.
func (s *scanner) value() ([]byte, error) {
	if s.next() == 0 {
		return nil, s.syntax(s.pos, "unexpected end of input")
	}
	start := s.pos
	for {
		end, err := skipValue(s.buf, start)
		if err == nil {
			s.pos = end
			return s.buf[start:end], nil
		}
		if err != errShort {
			var se *SyntaxError
			errors.As(err, &se)
			return nil, s.syntax(int(se.Offset), se.Msg)
		}
		if !s.fill(start) {
			return nil, s.syntax(len(s.buf), "unexpected end of input")
		}
		start = s.pos
	}
}

// stringValue reads the next value, which must be a string.
func (s *scanner) stringValue() (string, error) {
	v, err := s.value()
	if err != nil {
		return "", err
	}
	if v[0] != '"' {
		return "", s.syntax(s.pos-len(v), "expected a string")
	}
	return unquote(v), nil
}

// skipValue returns the end of the JSON value starting at b[i], checking
// its syntax. Errors are errShort when b ends inside the value, else a
// *SyntaxError whose Offset is an index into b.
func skipValue(b []byte, i int) (int, error) {
	var stack []byte // open containers: '{' or '['
	var inline [32]byte
	stack = inline[:0]
	bad := func(at int, msg string) (int, error) {
		return 0, &SyntaxError{Offset: int64(at), Msg: msg}
	}
	for {
		// A value at b[i] (after whitespace).
		i = skipWS(b, i)
		if i >= len(b) {
			return 0, errShort
		}
		switch c := b[i]; {
		case c == '{':
			i = skipWS(b, i+1)
			if i >= len(b) {
				return 0, errShort
			}
			if b[i] == '}' {
				i++
				break
			}
			stack = append(stack, '{')
			var err error
			if i, err = skipKey(b, i); err != nil {
				return 0, err
			}
			continue
		case c == '[':
			i = skipWS(b, i+1)
			if i >= len(b) {
				return 0, errShort
			}
			if b[i] == ']' {
				i++
				break
			}
			stack = append(stack, '[')
			continue
		case c == '"':
			end, err := skipString(b, i)
			if err != nil {
				return 0, err
			}
			i = end
		case c == '-' || c >= '0' && c <= '9':
			end, err := skipNumber(b, i)
			if err != nil {
				return 0, err
			}
			i = end
		case c == 't':
			if i+4 > len(b) {
				return 0, errShort
			}
			if string(b[i:i+4]) != "true" {
				return bad(i, "invalid literal")
			}
			i += 4
		case c == 'f':
			if i+5 > len(b) {
				return 0, errShort
			}
			if string(b[i:i+5]) != "false" {
				return bad(i, "invalid literal")
			}
			i += 5
		case c == 'n':
			if i+4 > len(b) {
				return 0, errShort
			}
			if string(b[i:i+4]) != "null" {
				return bad(i, "invalid literal")
			}
			i += 4
		default:
			return bad(i, fmt.Sprintf("unexpected character %q", c))
		}
		// After a value: close containers or move to the next element.
		for {
			if len(stack) == 0 {
				return i, nil
			}
			i = skipWS(b, i)
			if i >= len(b) {
				return 0, errShort
			}
			top := stack[len(stack)-1]
			switch b[i] {
			case ',':
				i++
				if top == '{' {
					var err error
					if i, err = skipKey(b, skipWS(b, i)); err != nil {
						return 0, err
					}
				}
			case '}':
				if top != '{' {
					return bad(i, "unexpected '}'")
				}
				stack = stack[:len(stack)-1]
				i++
				continue
			case ']':
				if top != '[' {
					return bad(i, "unexpected ']'")
				}
				stack = stack[:len(stack)-1]
				i++
				continue
			default:
				return bad(i, "expected ',' or the end of an object or array")
			}
			break
		}
	}
}

// skipKey skips `"key" :` at b[i].
func skipKey(b []byte, i int) (int, error) {
	if i >= len(b) {
		return 0, errShort
	}
	if b[i] != '"' {
		return 0, &SyntaxError{Offset: int64(i), Msg: "expected a string key"}
	}
	i, err := skipString(b, i)
	if err != nil {
		return 0, err
	}
	i = skipWS(b, i)
	if i >= len(b) {
		return 0, errShort
	}
	if b[i] != ':' {
		return 0, &SyntaxError{Offset: int64(i), Msg: "expected ':'"}
	}
	return i + 1, nil
}

func skipWS(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString returns the index after the string starting at b[i] == '"'.
func skipString(b []byte, i int) (int, error) {
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			return j + 1, nil
		case c == '\\':
			j++
			if j >= len(b) {
				return 0, errShort
			}
			switch b[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if j+4 >= len(b) {
					return 0, errShort
				}
				for _, h := range b[j+1 : j+5] {
					if !isHex(h) {
						return 0, &SyntaxError{Offset: int64(j), Msg: "invalid \\u escape"}
					}
				}
				j += 4
			default:
				return 0, &SyntaxError{Offset: int64(j), Msg: "invalid escape"}
			}
		case c < 0x20:
			return 0, &SyntaxError{Offset: int64(j), Msg: "control character in string"}
		}
	}
	return 0, errShort
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// skipNumber returns the index after the number at b[i].
func skipNumber(b []byte, i int) (int, error) {
	j := i
	if b[j] == '-' {
		j++
	}
	digits := func() int {
		k := j
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		return j - k
	}
	if digits() == 0 {
		if j >= len(b) {
			return 0, errShort
		}
		return 0, &SyntaxError{Offset: int64(j), Msg: "invalid number"}
	}
	if j < len(b) && b[j] == '.' {
		j++
		if digits() == 0 {
			if j >= len(b) {
				return 0, errShort
			}
			return 0, &SyntaxError{Offset: int64(j), Msg: "invalid number"}
		}
	}
	if j < len(b) && (b[j] == 'e' || b[j] == 'E') {
		j++
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			j++
		}
		if digits() == 0 {
			if j >= len(b) {
				return 0, errShort
			}
			return 0, &SyntaxError{Offset: int64(j), Msg: "invalid number"}
		}
	}
	if j >= len(b) {
		return 0, errShort // the number may go on in the next read
	}
	return j, nil
}

// unquote returns the text of a well-formed JSON string literal.
func unquote(v []byte) string {
	inner := v[1 : len(v)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		return string(inner)
	}
	var s string
	_ = json.Unmarshal(v, &s) // v was checked by skipString
	return s
}
