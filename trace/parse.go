package trace

import (
	"fmt"
	"io"
	"strconv"
)

// event is one trace event while it is parsed. Its byte slices alias the
// scanner's buffer and are valid only during the handler call.
type event struct {
	name []byte
	cat  []byte
	ph   byte
	ts   float64 // microseconds
	dur  float64 // microseconds; 0 when absent
	pid  int64
	tid  int64
	id   []byte // id, or id2's local or global id
	args []byte // the raw args object, nil when absent
}

// Parse reads a trace in Chrome's JSON trace event format, an object with
// a traceEvents array or a bare array of events, gzipped or not, and builds
// its model. Unknown events are skipped; malformed JSON is an error giving
// the byte offset.
func Parse(r io.Reader) (*Trace, error) {
	b := newBuilder()
	if err := scan(r, b.add); err != nil {
		return nil, err
	}
	return b.finish(), nil
}

// scan streams the events of a trace to fn.
func scan(r io.Reader, fn func(*event)) error {
	s, err := newScanner(r)
	if err != nil {
		return err
	}
	switch s.next() {
	case '[':
		if err := scanEvents(s, fn); err != nil {
			return err
		}
	case '{':
		s.pos++
		if err := scanObject(s, fn); err != nil {
			return err
		}
	case 0:
		return s.syntax(s.pos, "empty input; want a JSON trace")
	default:
		return s.syntax(s.pos, "a trace starts with '{' or '['")
	}
	if s.next() != 0 {
		return s.syntax(s.pos, "data after the trace")
	}
	if s.err != nil {
		return fmt.Errorf("trace: read: %w", s.err)
	}
	return nil
}

// scanObject reads the members of the top-level object (after its '{'),
// streaming the traceEvents array and skipping the rest.
func scanObject(s *scanner, fn func(*event)) error {
	if s.next() == '}' {
		s.pos++
		return nil
	}
	for {
		key, err := s.stringValue()
		if err != nil {
			return err
		}
		if err := s.expect(':', "':'"); err != nil {
			return err
		}
		if key == "traceEvents" && s.next() == '[' {
			if err := scanEvents(s, fn); err != nil {
				return err
			}
		} else if _, err := s.value(); err != nil {
			return err
		}
		switch s.next() {
		case ',':
			s.pos++
		case '}':
			s.pos++
			return nil
		default:
			return s.syntax(s.pos, "expected ',' or '}'")
		}
	}
}

// scanEvents reads an array of events (at its '[').
func scanEvents(s *scanner, fn func(*event)) error {
	s.pos++
	if s.next() == ']' {
		s.pos++
		return nil
	}
	var ev event
	for {
		v, err := s.value()
		if err != nil {
			return err
		}
		if v[0] != '{' {
			return s.syntax(s.pos-len(v), "a trace event must be an object")
		}
		decodeEvent(v, &ev)
		fn(&ev)
		switch s.next() {
		case ',':
			s.pos++
		case ']':
			s.pos++
			return nil
		default:
			return s.syntax(s.pos, "expected ',' or ']' after a trace event")
		}
	}
}

// decodeEvent fills ev from the well-formed JSON object b.
func decodeEvent(b []byte, ev *event) {
	*ev = event{}
	i := 1
	for {
		i = skipWS(b, i)
		if i >= len(b) || b[i] == '}' {
			return
		}
		if b[i] == ',' {
			i = skipWS(b, i+1)
		}
		kend, _ := skipString(b, i)
		key := b[i+1 : kend-1]
		i = skipWS(b, kend) + 1 // past ':'
		i = skipWS(b, i)
		end, err := skipValue(b, i)
		if err != nil {
			return
		}
		v := b[i:end]
		i = end
		switch string(key) {
		case "name":
			ev.name = rawString(v)
		case "cat":
			ev.cat = rawString(v)
		case "ph":
			if s := rawString(v); len(s) > 0 {
				ev.ph = s[0]
			}
		case "ts":
			ev.ts = number(v)
		case "dur":
			ev.dur = number(v)
		case "pid":
			ev.pid = int64(number(v))
		case "tid":
			ev.tid = int64(number(v))
		case "id":
			ev.id = idValue(v)
		case "id2":
			if len(v) > 0 && v[0] == '{' {
				var inner event
				decodeID2(v, &inner)
				ev.id = inner.id
			}
		case "args":
			if len(v) > 0 && v[0] == '{' {
				ev.args = v
			}
		}
	}
}

// decodeID2 reads {"local": id} or {"global": id}.
func decodeID2(b []byte, ev *event) {
	i := 1
	for {
		i = skipWS(b, i)
		if i >= len(b) || b[i] == '}' {
			return
		}
		if b[i] == ',' {
			i = skipWS(b, i+1)
		}
		kend, _ := skipString(b, i)
		i = skipWS(b, skipWS(b, kend)+1)
		end, err := skipValue(b, i)
		if err != nil {
			return
		}
		ev.id = idValue(b[i:end])
		i = end
	}
}

// rawString returns the bytes inside a string literal (escapes kept), or
// nil when v is not a string.
func rawString(v []byte) []byte {
	if len(v) < 2 || v[0] != '"' {
		return nil
	}
	return v[1 : len(v)-1]
}

// idValue returns an id given as a string or a number.
func idValue(v []byte) []byte {
	if s := rawString(v); s != nil {
		return s
	}
	if len(v) > 0 && (v[0] == '-' || v[0] >= '0' && v[0] <= '9') {
		return v
	}
	return nil
}

// number parses a JSON number, 0 when v is not one.
func number(v []byte) float64 {
	var n int64
	neg := false
	for k, c := range v {
		switch {
		case c >= '0' && c <= '9' && n < 1e17:
			n = n*10 + int64(c-'0')
		case c == '-' && k == 0:
			neg = true
		default:
			f, err := strconv.ParseFloat(string(v), 64)
			if err != nil {
				return 0
			}
			return f
		}
	}
	if neg {
		n = -n
	}
	return float64(n)
}
