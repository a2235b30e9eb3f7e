package jsonscan

import (
	"math"
	"strconv"
)

// Int reads an integer: an optional minus sign and decimal digits. It
// stops before a fraction or an exponent, which the caller then meets as
// an unexpected byte.
func (s *Scanner) Int() (int64, error) {
	if s.End() {
		return 0, s.Errorf("unexpected end, want a number")
	}
	neg := s.buf[s.pos] == '-'
	if neg {
		s.pos++
	}
	var v uint64
	digits := 0
	for {
		if s.pos == len(s.buf) && !s.fill(s.pos) {
			break
		}
		c := s.buf[s.pos]
		if c < '0' || c > '9' {
			break
		}
		d := uint64(c - '0')
		if v > (math.MaxInt64-d)/10 {
			return 0, s.Errorf("number too large")
		}
		v = v*10 + d
		digits++
		s.pos++
	}
	if digits == 0 {
		return 0, s.Errorf("want an integer")
	}
	if neg {
		return -int64(v), nil
	}
	return int64(v), nil
}

// Ints reads an array of integers, calling add for each in order. It is
// the fast way through the big integer arrays of a heap snapshot.
func (s *Scanner) Ints(add func(v int64) error) error {
	if err := s.Expect('['); err != nil {
		return err
	}
	if s.Accept(']') {
		return nil
	}
	for {
		v, ok := s.quickInt()
		if !ok {
			var err error
			if v, err = s.Int(); err != nil {
				return err
			}
		}
		if err := add(v); err != nil {
			return err
		}
		if s.pos < len(s.buf) && s.buf[s.pos] == ',' {
			s.pos++
			continue
		}
		if more, err := s.More(']'); !more {
			return err
		}
	}
}

// quickInt reads a non-negative integer that lies whole in the buffer
// right at pos, the common case; otherwise it consumes nothing and
// reports false.
func (s *Scanner) quickInt() (int64, bool) {
	b := s.buf[s.pos:]
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

// Number returns the value of the JSON number v, as Raw returns it; ok is
// false when v is not a number. Integers below 10^17 are converted without
// strconv.
func Number(v []byte) (f float64, ok bool) {
	var n int64
	neg := false
	for k, c := range v {
		switch {
		case c >= '0' && c <= '9' && n < 1e17:
			n = n*10 + int64(c-'0')
		case c == '-' && k == 0 && len(v) > 1:
			neg = true
		default:
			f, err := strconv.ParseFloat(string(v), 64)
			return f, err == nil
		}
	}
	if len(v) == 0 {
		return 0, false
	}
	if neg {
		n = -n
	}
	return float64(n), true
}
