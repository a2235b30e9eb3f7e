package cdp

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/devtools-mcp/devtools-mcp/internal/jsonscan"
)

// incoming is the wire form of a reply or an event.
type incoming struct {
	ID        int64    `json:"id"`
	Method    string   `json:"method"`
	SessionID string   `json:"sessionId"`
	Params    msgValue `json:"params"`
	Result    msgValue `json:"result"`
	Error     *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

// msgValue is a value in a message from the browser, kept as JSON like a
// json.RawMessage but not copied: it is a slice of the message, which
// Transport.Read hands over for good. A reply can be big (a full AX tree
// is tens of kilobytes) and its result is decoded once, so the copy was
// pure cost.
type msgValue []byte

// UnmarshalJSON keeps data, a slice of the message json.Unmarshal decodes.
func (v *msgValue) UnmarshalJSON(data []byte) error {
	*v = data
	return nil
}

// decode decodes msg into m, which must be zero, as json.Unmarshal does.
// json.Unmarshal checks a message whole and then scans it again to decode
// it, and the params or result that are most of a big message are only
// skipped over: a single pass with jsonscan, which checks what it skips,
// takes a fraction of that. Messages it does not expect (an error, a key
// that folds to a field's, a null where a string is due, an id that is not
// a plain integer, a string that is not UTF-8, malformed JSON) go to
// json.Unmarshal, which decides.
func (m *incoming) decode(msg []byte) error {
	if m.fast(msg) {
		return nil
	}
	*m = incoming{}
	return json.Unmarshal(msg, m)
}

// fast is decode's single pass: it reports whether it decoded msg.
func (m *incoming) fast(msg []byte) bool {
	s := jsonscan.NewBytes(msg)
	if !s.Accept('{') {
		return false
	}
	if !s.Accept('}') {
		for {
			key, err := s.Key()
			if err != nil {
				return false
			}
			// A repeated key overwrites, as with json.Unmarshal.
			var ok bool
			switch string(key) {
			case "id":
				ok = readInt64(s, &m.ID)
			case "method":
				ok = readString(s, &m.Method)
			case "sessionId":
				ok = readString(s, &m.SessionID)
			case "params":
				ok = readRaw(s, &m.Params)
			case "result":
				ok = readRaw(s, &m.Result)
			default: // "error" too: json.Unmarshal decodes the rare refusal
				ok = plainKey(key, "id", "method", "sessionId", "params", "result", "error") && s.Skip() == nil
			}
			if !ok {
				return false
			}
			if more, err := s.More('}'); err != nil {
				return false
			} else if !more {
				break
			}
		}
	}
	return s.End()
}

// plainKey reports whether key is ASCII and matches none of fields, even
// folding case as json.Unmarshal does; a key beyond ASCII might fold to one.
func plainKey(key []byte, fields ...string) bool {
	for _, c := range key {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	for _, f := range fields {
		if foldsTo(key, f) {
			return false
		}
	}
	return true
}

// foldsTo reports whether the ASCII key equals k but for case.
func foldsTo(key []byte, k string) bool {
	if len(key) != len(k) {
		return false
	}
	for i, c := range key {
		if l := c | 0x20; c != k[i] && (l != k[i]|0x20 || l < 'a' || l > 'z') {
			return false
		}
	}
	return true
}

// readInt64 reads a plain integer of at most 18 digits into v.
func readInt64(s *jsonscan.Scanner, v *int64) bool {
	if c := s.Peek(); c != '-' && (c < '0' || c > '9') {
		return false
	}
	raw, err := s.Raw()
	if err != nil {
		return false
	}
	n, ok := plainInt(raw)
	*v = n
	return ok
}

// plainInt returns the value of raw, a JSON number, when it is an integer
// of at most 18 digits, which fits an int64: json.Unmarshal refuses a
// fraction or an exponent where an integer is due.
func plainInt(raw []byte) (int64, bool) {
	digits := raw
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 18 {
		return 0, false
	}
	var v int64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if raw[0] == '-' {
		v = -v
	}
	return v, true
}

// readString reads a string in UTF-8 into v (json.Unmarshal would replace
// bytes that are not UTF-8).
func readString(s *jsonscan.Scanner, v *string) bool {
	if s.Peek() != '"' {
		return false
	}
	b, err := s.String()
	if err != nil || !utf8.Valid(b) {
		return false
	}
	*v = string(b)
	return true
}

// readRaw reads any value and keeps its JSON text, a slice of the message.
func readRaw(s *jsonscan.Scanner, v *msgValue) bool {
	raw, err := s.Raw()
	*v = raw
	return err == nil
}
