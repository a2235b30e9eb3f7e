package jsonscan

import (
	"errors"
	"fmt"
	"iter"
)

// errShort is returned by skipValue when the value runs past the buffer.
var errShort = errors.New("short buffer")

// Raw reads the next value whole, checking its syntax, and returns its
// JSON text, valid until the next call that reads. The buffer grows to
// hold a value longer than it.
func (s *Scanner) Raw() ([]byte, error) {
	if s.End() {
		return nil, s.Errorf("unexpected end, want a value")
	}
	for {
		start := s.pos
		end, err := skipValue(s.buf, start, s.eof)
		switch {
		case err == nil:
			s.pos = end
			return s.buf[start:end], nil
		case err != errShort:
			se := err.(*SyntaxError)
			return nil, s.errorAt(int(se.Offset), se.Msg)
		case s.eof:
			return nil, s.errorAt(len(s.buf), "unexpected end in value")
		}
		s.fill(start)
	}
}

// Skip reads the next value, checking its syntax, and drops it.
func (s *Scanner) Skip() error {
	_, err := s.Raw()
	return err
}

// Valid reports whether data is one JSON value, with nothing but white
// space around it.
func Valid(data []byte) bool {
	s := NewBytes(data)
	_, err := s.Raw()
	return err == nil && s.End()
}

// skipValue returns the end of the JSON value at b[i] (after white space),
// checking its syntax. It returns errShort when b ends inside the value,
// or at the end of a number while b is not final (the number may go on),
// and otherwise a *SyntaxError whose Offset is an index into b.
func skipValue(b []byte, i int, final bool) (int, error) {
	var inline [32]byte
	stack := inline[:0] // open containers: '{' or '['
	for {
		// A value at b[i] (after white space).
		if i = skipWS(b, i); i >= len(b) {
			return 0, errShort
		}
		var err error
		switch c := b[i]; {
		case c == '{':
			if i = skipWS(b, i+1); i >= len(b) {
				return 0, errShort
			}
			if b[i] == '}' {
				i++
				break
			}
			stack = append(stack, '{')
			if i, err = skipKey(b, i); err != nil {
				return 0, err
			}
			continue
		case c == '[':
			if i = skipWS(b, i+1); i >= len(b) {
				return 0, errShort
			}
			if b[i] == ']' {
				i++
				break
			}
			stack = append(stack, '[')
			continue
		case c == '"':
			i, err = skipString(b, i)
		case c == '-' || c >= '0' && c <= '9':
			i, err = skipNumber(b, i, final)
		case c == 't':
			i, err = skipLiteral(b, i, "true")
		case c == 'f':
			i, err = skipLiteral(b, i, "false")
		case c == 'n':
			i, err = skipLiteral(b, i, "null")
		default:
			return 0, syntaxAt(i, fmt.Sprintf("found %q, want a value", c))
		}
		if err != nil {
			return 0, err
		}
		// After a value: close containers or go on to the next element.
		for {
			if len(stack) == 0 {
				return i, nil
			}
			if i = skipWS(b, i); i >= len(b) {
				return 0, errShort
			}
			top := stack[len(stack)-1]
			c := b[i]
			if c == ',' {
				i++
				if top == '{' {
					if i, err = skipKey(b, skipWS(b, i)); err != nil {
						return 0, err
					}
				}
				break
			}
			if top == '{' && c != '}' || top == '[' && c != ']' {
				return 0, syntaxAt(i, fmt.Sprintf("found %q, want ',' or %q", c, closer(top)))
			}
			stack = stack[:len(stack)-1]
			i++
		}
	}
}

func closer(open byte) byte {
	if open == '{' {
		return '}'
	}
	return ']'
}

func syntaxAt(i int, msg string) error {
	return &SyntaxError{Offset: int64(i), Msg: msg}
}

// skipKey skips `"key" :` at b[i].
func skipKey(b []byte, i int) (int, error) {
	if i >= len(b) {
		return 0, errShort
	}
	if b[i] != '"' {
		return 0, syntaxAt(i, fmt.Sprintf("found %q, want a string key", b[i]))
	}
	i, err := skipString(b, i)
	if err != nil {
		return 0, err
	}
	if i = skipWS(b, i); i >= len(b) {
		return 0, errShort
	}
	if b[i] != ':' {
		return 0, syntaxAt(i, fmt.Sprintf("found %q, want ':'", b[i]))
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

// skipLiteral skips lit (true, false or null) at b[i].
func skipLiteral(b []byte, i int, lit string) (int, error) {
	n := min(len(b)-i, len(lit))
	if string(b[i:i+n]) != lit[:n] {
		return 0, syntaxAt(i, "invalid literal")
	}
	if n < len(lit) {
		return 0, errShort
	}
	return i + n, nil
}

// skipString returns the index after the string at b[i] == '"'.
func skipString(b []byte, i int) (int, error) {
	for j := i + 1; ; j++ {
		if j = plainEnd(b, j); j >= len(b) {
			return 0, errShort
		}
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
				for k := j + 1; k <= j+4; k++ {
					if k >= len(b) {
						return 0, errShort
					}
					if !isHex(b[k]) {
						return 0, syntaxAt(k, "invalid \\u escape")
					}
				}
				j += 4
			default:
				return 0, syntaxAt(j, fmt.Sprintf("invalid escape \\%c", b[j]))
			}
		default:
			return 0, syntaxAt(j, "control character in string")
		}
	}
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// skipNumber returns the index after the number at b[i].
func skipNumber(b []byte, i int, final bool) (int, error) {
	j := i
	if b[j] == '-' {
		j++
	}
	start := j
	if j = digitsEnd(b, j); j == start {
		return noDigits(b, j, final)
	}
	if b[start] == '0' && j-start > 1 {
		return 0, syntaxAt(start+1, "invalid number: leading zero")
	}
	if j < len(b) && b[j] == '.' {
		j++
		start = j
		if j = digitsEnd(b, j); j == start {
			return noDigits(b, j, final)
		}
	}
	if j < len(b) && (b[j] == 'e' || b[j] == 'E') {
		j++
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			j++
		}
		start = j
		if j = digitsEnd(b, j); j == start {
			return noDigits(b, j, final)
		}
	}
	if j >= len(b) && !final {
		return 0, errShort // the number may go on in the next read
	}
	return j, nil
}

// digitsEnd returns the index after the run of digits at b[j].
func digitsEnd(b []byte, j int) int {
	for j < len(b) && b[j]-'0' < 10 {
		j++
	}
	return j
}

// noDigits is skipNumber's error where digits are due at b[j].
func noDigits(b []byte, j int, final bool) (int, error) {
	if j >= len(b) && !final {
		return 0, errShort
	}
	return 0, syntaxAt(j, "invalid number")
}

// Members yields the key (the bytes between its quotes, escapes kept) and
// the raw value of every member of obj, a JSON object as Raw returns it.
// It reads in place, the fast way through the small objects of a stream;
// on malformed input it stops early.
func Members(obj []byte) iter.Seq2[[]byte, []byte] {
	return func(yield func(key, value []byte) bool) {
		i := skipWS(obj, 0)
		if i >= len(obj) || obj[i] != '{' {
			return
		}
		for i++; ; i++ {
			k := skipWS(obj, i)
			if k >= len(obj) || obj[k] != '"' {
				return
			}
			kend, err := skipString(obj, k)
			if err != nil {
				return
			}
			if i = skipWS(obj, kend); i >= len(obj) || obj[i] != ':' {
				return
			}
			start := skipWS(obj, i+1)
			end, err := skipValue(obj, start, true)
			if err != nil || !yield(obj[k+1:kend-1], obj[start:end]) {
				return
			}
			if i = skipWS(obj, end); i >= len(obj) || obj[i] != ',' {
				return
			}
		}
	}
}
