package jsonscan

import (
	"encoding/binary"
	"unicode/utf16"
	"unicode/utf8"
)

// plainEnd returns the index of the first byte from b[j] on that ends a
// run of plain string bytes: a quote, a backslash or a control character;
// len(b) when there is none. Past the first eight bytes it tests eight
// bytes at a time: a byte of w is below 0x20 (or zero after xor with a
// quote or backslash) when subtracting one from each byte borrows into its
// high bit, which was clear; the high bit of a byte of a xor is that of
// w's, as quote and backslash are ASCII.
func plainEnd(b []byte, j int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	// Most strings are short: look at their first bytes one by one.
	for end := min(j+8, len(b)); j < end; j++ {
		if c := b[j]; c < 0x20 || c == '"' || c == '\\' {
			return j
		}
	}
	for ; j+8 <= len(b); j += 8 {
		w := binary.LittleEndian.Uint64(b[j:])
		quote, backslash := w^(ones*'"'), w^(ones*'\\')
		if ((w-ones*0x20)|(quote-ones)|(backslash-ones))&^w&highs != 0 {
			break
		}
	}
	for ; j < len(b); j++ {
		if c := b[j]; c < 0x20 || c == '"' || c == '\\' {
			break
		}
	}
	return j
}

// String reads a string and returns its text, unescaped. The bytes alias
// the input when the string has no escapes and lies whole in the buffer,
// and a buffer of the Scanner otherwise; either way they are valid until
// the next call that reads.
//
// Escapes decode as encoding/json decodes them (a lone surrogate becomes
// U+FFFD); other bytes are kept as they are, even when they are not UTF-8.
func (s *Scanner) String() ([]byte, error) {
	if !s.Accept('"') {
		return nil, s.unexpected("a string")
	}
	b := s.buf[s.pos:]
	if j := plainEnd(b, 0); j < len(b) && b[j] == '"' {
		s.pos += j + 1
		return b[:j:j], nil
	}
	var err error
	s.scratch, err = s.appendString(s.scratch[:0])
	return s.scratch, err
}

// AppendString reads a string and appends its unescaped text to dst, for
// strings kept beyond the next read or too long to hold in the buffer.
func (s *Scanner) AppendString(dst []byte) ([]byte, error) {
	if !s.Accept('"') {
		return dst, s.unexpected("a string")
	}
	return s.appendString(dst)
}

// appendString appends the rest of a string, after its opening quote.
func (s *Scanner) appendString(dst []byte) ([]byte, error) {
	for {
		// Copy the run of plain bytes at once.
		start := s.pos
		s.pos = plainEnd(s.buf, s.pos)
		dst = append(dst, s.buf[start:s.pos]...)
		if s.pos == len(s.buf) {
			if !s.fill(s.pos) {
				return dst, s.Errorf("unterminated string")
			}
			continue
		}
		switch c := s.buf[s.pos]; {
		case c == '"':
			s.pos++
			return dst, nil
		case c < 0x20:
			return dst, s.Errorf("control character in string")
		}
		s.pos++ // the backslash
		var err error
		if dst, err = s.escape(dst); err != nil {
			return dst, err
		}
	}
}

// escape decodes the escape sequence after a backslash onto dst.
func (s *Scanner) escape(dst []byte) ([]byte, error) {
	c, err := s.byte()
	if err != nil {
		return dst, err
	}
	switch c {
	case '"', '\\', '/':
		return append(dst, c), nil
	case 'b':
		return append(dst, '\b'), nil
	case 'f':
		return append(dst, '\f'), nil
	case 'n':
		return append(dst, '\n'), nil
	case 'r':
		return append(dst, '\r'), nil
	case 't':
		return append(dst, '\t'), nil
	case 'u':
	default:
		s.pos--
		return dst, s.Errorf("invalid escape \\%c", c)
	}
	r, err := s.hex4()
	if err != nil {
		return dst, err
	}
	for utf16.IsSurrogate(r) {
		if r >= 0xdc00 || !s.lookingAt(`\u`) {
			r = utf8.RuneError
			break
		}
		s.pos += 2
		r2, err := s.hex4()
		if err != nil {
			return dst, err
		}
		if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
			r = d
			break
		}
		// Not a pair: the first half is lost, the second stands for itself.
		dst = utf8.AppendRune(dst, utf8.RuneError)
		r = r2
	}
	return utf8.AppendRune(dst, r), nil
}

// byte consumes one byte of a string.
func (s *Scanner) byte() (byte, error) {
	if s.pos == len(s.buf) && !s.fill(s.pos) {
		return 0, s.Errorf("unterminated string")
	}
	c := s.buf[s.pos]
	s.pos++
	return c, nil
}

// lookingAt reports whether the input continues with lit, without
// consuming it.
func (s *Scanner) lookingAt(lit string) bool {
	for len(s.buf)-s.pos < len(lit) && s.fill(s.pos) {
	}
	return len(s.buf)-s.pos >= len(lit) && string(s.buf[s.pos:s.pos+len(lit)]) == lit
}

// hex4 reads the four hex digits of a \u escape.
func (s *Scanner) hex4() (rune, error) {
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
			s.pos--
			return 0, s.Errorf("invalid \\u escape")
		}
		r = r<<4 | rune(c)
	}
	return r, nil
}
