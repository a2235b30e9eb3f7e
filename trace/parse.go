package trace

import (
	"io"

	"github.com/devtools-mcp/devtools-mcp/internal/jsonscan"
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
	return scanError(s, scanTrace(s, fn))
}

// scanTrace reads the whole trace: an object with a traceEvents array or
// a bare array of events.
func scanTrace(s *jsonscan.Scanner, fn func(*event)) error {
	switch s.Peek() {
	case '[':
		if err := scanEvents(s, fn); err != nil {
			return err
		}
	case '{':
		if err := scanObject(s, fn); err != nil {
			return err
		}
	default:
		if s.End() {
			return s.Errorf("empty input; want a JSON trace")
		}
		return s.Errorf("a trace starts with '{' or '['")
	}
	if !s.End() {
		return s.Errorf("data after the trace")
	}
	return s.Err()
}

// scanObject reads the top-level object, streaming the traceEvents array
// and skipping the rest.
func scanObject(s *jsonscan.Scanner, fn func(*event)) error {
	return s.Object(func(key []byte) error {
		if string(key) == "traceEvents" && s.Peek() == '[' {
			return scanEvents(s, fn)
		}
		return s.Skip()
	})
}

// scanEvents reads an array of events.
func scanEvents(s *jsonscan.Scanner, fn func(*event)) error {
	var ev event
	return s.Array(func(int) error {
		if s.Peek() != '{' {
			return s.Errorf("a trace event must be an object")
		}
		v, err := s.Raw()
		if err != nil {
			return err
		}
		decodeEvent(v, &ev)
		fn(&ev)
		return nil
	})
}

// decodeEvent fills ev from the JSON object b.
func decodeEvent(b []byte, ev *event) {
	*ev = event{}
	for key, v := range jsonscan.Members(b) {
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
				ev.id = decodeID2(v)
			}
		case "args":
			if len(v) > 0 && v[0] == '{' {
				ev.args = v
			}
		}
	}
}

// decodeID2 reads {"local": id} or {"global": id}, returning the last id.
func decodeID2(b []byte) []byte {
	var id []byte
	for _, v := range jsonscan.Members(b) {
		id = idValue(v)
	}
	return id
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
	if f, ok := jsonscan.Number(v); ok {
		return f
	}
	return 0
}
