package heapsnapshot

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// scanner reads JSON from a stream through its own buffer, so that the
// large integer arrays of a snapshot are parsed straight into typed slices
// without a token or an interface value per number.
type scanner struct {
	r    io.Reader
	buf  []byte
	pos  int
	end  int
	err  error // from r, returned once the buffer is drained
	read int64 // bytes consumed before buf[0], for error positions
}

func newScanner(r io.Reader) *scanner {
	return &scanner{r: r, buf: make([]byte, 256<<10)}
}

// fill reads more input; it reports false at the end of input or on error.
func (s *scanner) fill() bool {
	if s.err != nil {
		return false
	}
	if s.pos > 0 {
		s.read += int64(s.pos)
		s.end = copy(s.buf, s.buf[s.pos:s.end])
		s.pos = 0
	}
	for s.end < len(s.buf) {
		n, err := s.r.Read(s.buf[s.end:])
		s.end += n
		if err != nil {
			s.err = err
			break
		}
		if n > 0 {
			break
		}
	}
	return s.pos < s.end
}

// offset is the position of the next unread byte in the input.
func (s *scanner) offset() int64 { return s.read + int64(s.pos) }

// syntax returns an error describing malformed input at the current position.
func (s *scanner) syntax(format string, args ...any) error {
	if s.err != nil && !errors.Is(s.err, io.EOF) {
		return fmt.Errorf("read snapshot: %w", s.err)
	}
	return fmt.Errorf("malformed heap snapshot at byte %d: %s", s.offset(), fmt.Sprintf(format, args...))
}

// peek skips white space and returns the next byte, or 0 at the end.
func (s *scanner) peek() byte {
	for {
		for s.pos < s.end {
			switch c := s.buf[s.pos]; c {
			case ' ', '\t', '\n', '\r':
				s.pos++
			default:
				return c
			}
		}
		if !s.fill() {
			return 0
		}
	}
}

// expect consumes c after optional white space.
func (s *scanner) expect(c byte) error {
	if got := s.peek(); got != c {
		if got == 0 {
			return s.syntax("unexpected end, want %q", c)
		}
		return s.syntax("found %q, want %q", got, c)
	}
	s.pos++
	return nil
}

// more is called inside an array or object after a value: it consumes a
// comma and reports true, or consumes the closing byte and reports false.
func (s *scanner) more(closing byte) (bool, error) {
	switch c := s.peek(); c {
	case ',':
		s.pos++
		return true, nil
	case closing:
		s.pos++
		return false, nil
	case 0:
		return false, s.syntax("unexpected end, want ',' or %q", closing)
	default:
		return false, s.syntax("found %q, want ',' or %q", c, closing)
	}
}

// ints parses an array of integers, calling add for each in order.
func (s *scanner) ints(add func(v int64) error) error {
	if err := s.expect('['); err != nil {
		return err
	}
	if s.peek() == ']' {
		s.pos++
		return nil
	}
	for {
		v, ok := s.quickInt()
		if !ok {
			var err error
			if v, err = s.int(); err != nil {
				return err
			}
		}
		if err := add(v); err != nil {
			return err
		}
		if s.pos < s.end && s.buf[s.pos] == ',' {
			s.pos++
			continue
		}
		if ok, err := s.more(']'); !ok {
			return err
		}
	}
}

// quickInt parses a non-negative integer that lies whole in the buffer,
// the common case; otherwise it consumes nothing and reports false.
func (s *scanner) quickInt() (int64, bool) {
	b := s.buf[s.pos:s.end]
	var v int64
	k := 0
	for ; k < len(b) && k < 18; k++ {
		c := b[k]
		if c < '0' || c > '9' {
			break
		}
		v = v*10 + int64(c-'0')
	}
	if k == 0 || k == len(b) || k == 18 {
		return 0, false
	}
	s.pos += k
	return v, true
}

// int parses one integer (snapshots contain no fractions or exponents).
func (s *scanner) int() (int64, error) {
	if s.peek() == 0 {
		return 0, s.syntax("unexpected end, want a number")
	}
	neg := false
	if s.buf[s.pos] == '-' {
		neg = true
		s.pos++
	}
	var v uint64
	digits := 0
	for {
		if s.pos == s.end && !s.fill() {
			break
		}
		c := s.buf[s.pos]
		if c < '0' || c > '9' {
			break
		}
		if v > (math.MaxInt64-9)/10 {
			return 0, s.syntax("number too large")
		}
		v = v*10 + uint64(c-'0')
		digits++
		s.pos++
	}
	if digits == 0 {
		return 0, s.syntax("want an integer")
	}
	if neg {
		return -int64(v), nil
	}
	return int64(v), nil
}

// stringInto parses a JSON string and appends its unescaped text to b.
func (s *scanner) stringInto(b *strings.Builder) error {
	if err := s.expect('"'); err != nil {
		return err
	}
	for {
		if s.pos == s.end && !s.fill() {
			return s.syntax("unterminated string")
		}
		// Copy the run of plain bytes at once.
		start := s.pos
		for s.pos < s.end {
			c := s.buf[s.pos]
			if c == '"' || c == '\\' || c < 0x20 {
				break
			}
			s.pos++
		}
		b.Write(s.buf[start:s.pos])
		if s.pos == s.end {
			continue
		}
		switch c := s.buf[s.pos]; {
		case c == '"':
			s.pos++
			return nil
		case c < 0x20:
			return s.syntax("control character in string")
		}
		s.pos++ // the backslash
		if err := s.escape(b); err != nil {
			return err
		}
	}
}

// escape decodes the escape sequence after a backslash into b. Lone
// surrogates become U+FFFD, as encoding/json does.
func (s *scanner) escape(b *strings.Builder) error {
	c, err := s.byte()
	if err != nil {
		return err
	}
	switch c {
	case '"', '\\', '/':
		b.WriteByte(c)
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'n':
		b.WriteByte('\n')
	case 'r':
		b.WriteByte('\r')
	case 't':
		b.WriteByte('\t')
	case 'u':
		r, err := s.hex4()
		if err != nil {
			return err
		}
		for utf16.IsSurrogate(r) {
			if r >= 0xdc00 || !s.lookingAt(`\u`) {
				r = utf8.RuneError
				break
			}
			s.pos += 2
			r2, err := s.hex4()
			if err != nil {
				return err
			}
			if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
				r = d
				break
			}
			// Not a pair: the first half is lost, the second stands for itself.
			b.WriteRune(utf8.RuneError)
			r = r2
		}
		b.WriteRune(r)
	default:
		return s.syntax("invalid escape \\%c", c)
	}
	return nil
}

func (s *scanner) byte() (byte, error) {
	if s.pos == s.end && !s.fill() {
		return 0, s.syntax("unexpected end in string")
	}
	c := s.buf[s.pos]
	s.pos++
	return c, nil
}

// lookingAt reports whether the input continues with lit, without consuming it.
func (s *scanner) lookingAt(lit string) bool {
	if s.end-s.pos < len(lit) {
		s.fill()
	}
	return s.end-s.pos >= len(lit) && string(s.buf[s.pos:s.pos+len(lit)]) == lit
}

func (s *scanner) hex4() (rune, error) {
	var r rune
	for range 4 {
		c, err := s.byte()
		if err != nil {
			return 0, err
		}
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, s.syntax("invalid \\u escape")
		}
		r = r<<4 | rune(c)
	}
	return r, nil
}

// raw returns the text of the next JSON object or array, for the small
// parts of a snapshot that encoding/json decodes (the meta data).
func (s *scanner) raw() ([]byte, error) {
	var out []byte
	depth := 0
	inString := false
	if c := s.peek(); c != '{' && c != '[' {
		return nil, s.syntax("want an object or array")
	}
	for {
		if s.pos == s.end && !s.fill() {
			return nil, s.syntax("unexpected end in value")
		}
		c := s.buf[s.pos]
		s.pos++
		out = append(out, c)
		switch {
		case inString:
			switch c {
			case '\\':
				c2, err := s.byte()
				if err != nil {
					return nil, err
				}
				out = append(out, c2)
			case '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth == 0 {
				return out, nil
			}
		}
	}
}

// skip consumes the next JSON value without keeping it.
func (s *scanner) skip() error {
	depth := 0
	inString := false
	if s.peek() == 0 {
		return s.syntax("unexpected end, want a value")
	}
	for {
		if s.pos == s.end && !s.fill() {
			if depth == 0 && !inString {
				return nil // a scalar at the end of input
			}
			return s.syntax("unexpected end in value")
		}
		c := s.buf[s.pos]
		switch {
		case inString:
			s.pos++
			switch c {
			case '\\':
				if _, err := s.byte(); err != nil {
					return err
				}
			case '"':
				inString = false
				if depth == 0 {
					return nil
				}
			}
		case c == '"':
			s.pos++
			inString = true
		case c == '{' || c == '[':
			s.pos++
			depth++
		case c == '}' || c == ']':
			if depth == 0 {
				return nil // the end of the enclosing container
			}
			s.pos++
			depth--
			if depth == 0 {
				return nil
			}
		case depth == 0 && c == ',':
			return nil
		default:
			s.pos++
		}
	}
}
