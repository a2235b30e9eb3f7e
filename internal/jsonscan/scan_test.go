package jsonscan

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"
)

// scanners returns Scanners over text in each way the package reads: in
// place, from a reader, and from a reader that gives one byte at a time
// (so that every token crosses a buffer refill).
func scanners(text string) map[string]*Scanner {
	return map[string]*Scanner{
		"bytes":    NewBytes([]byte(text)),
		"reader":   NewReader(strings.NewReader(text)),
		"one byte": NewReader(iotest.OneByteReader(strings.NewReader(text))),
	}
}

func TestRaw(t *testing.T) {
	for _, text := range []string{
		`0`, `-12.5e+3`, `"a\"b\\c\u00e9"`, `true`, `false`, `null`, `[]`, `{}`,
		` [1, [2, {"a": [true, null]}], "x"] `,
		`{"a":{"b":{"c":[]}},"d":-0.0}`,
	} {
		for how, s := range scanners(text) {
			raw, err := s.Raw()
			if err != nil || string(raw) != strings.TrimSpace(text) || !s.End() {
				t.Errorf("%s: Raw(%s) = %s, %v", how, text, raw, err)
			}
		}
	}
}

func TestRawErrors(t *testing.T) {
	for _, c := range []struct {
		text string
		at   int64
		msg  string
	}{
		{``, 0, "unexpected end, want a value"},
		{`x`, 0, `found 'x', want a value`},
		{`[1,]`, 3, `found ']', want a value`},
		{`[1 2]`, 3, `found '2', want ',' or ']'`},
		{`{"a":1]`, 6, `found ']', want ',' or '}'`},
		{`{"a" 1}`, 5, `found '1', want ':'`},
		{`{1:2}`, 1, `found '1', want a string key`},
		{`[tru]`, 1, "invalid literal"},
		{`[1.]`, 3, "invalid number"},
		{`01`, 1, "leading zero"},
		{`-`, 1, "invalid number"},
		{`"a` + "\x01" + `"`, 2, "control character in string"},
		{`"\q"`, 2, `invalid escape \q`},
		{`"\u12g4"`, 5, `invalid \u escape`},
		{`[1, 2`, 5, "unexpected end in value"},
		{`"abc`, 4, "unexpected end in value"},
		{`tr`, 2, "unexpected end in value"},
	} {
		for how, s := range scanners(c.text) {
			_, err := s.Raw()
			var se *SyntaxError
			if !errors.As(err, &se) || se.Offset != c.at || !strings.Contains(se.Msg, c.msg) {
				t.Errorf("%s: Raw(%q) = %v, want %q at byte %d", how, c.text, err, c.msg, c.at)
			}
		}
	}
}

// TestRawGrows checks a value longer than the buffer.
func TestRawGrows(t *testing.T) {
	long := `["` + strings.Repeat("x", 3*bufSize) + `", 1]`
	s := NewReader(strings.NewReader(long + ` 2`))
	raw, err := s.Raw()
	if err != nil || string(raw) != long {
		t.Fatalf("Raw: %d bytes, %v", len(raw), err)
	}
	if v, err := s.Int(); v != 2 || err != nil {
		t.Errorf("after the long value: %d, %v", v, err)
	}
}

func TestString(t *testing.T) {
	for _, c := range []struct{ json, want string }{
		{`""`, ""},
		{`"plain ünïcödé"`, "plain ünïcödé"},
		{`"tab\tnewline\nquote\"slash\/back\\"`, "tab\tnewline\nquote\"slash/back\\"},
		{`"\b\f\r"`, "\b\f\r"},
		{`"\u00e9t\u00E9 \ud83d\ude00"`, "été 😀"},
		{`"lone \ud83d end"`, "lone \uFFFD end"},
		{`"lone \ude00 low"`, "lone \uFFFD low"},
		{`"pair broken \ud83d\u0041"`, "pair broken \uFFFDA"},
		{`"two highs \ud83d\ud83d\ude00"`, "two highs \uFFFD😀"},
		{`"at the end \ud83d"`, "at the end \uFFFD"},
		{"\"not UTF-8 \xff\"", "not UTF-8 \xff"},
	} {
		for how, s := range scanners(c.json + ` "next"`) {
			got, err := s.String()
			if err != nil || string(got) != c.want {
				t.Errorf("%s: String(%s) = %q, %v; want %q", how, c.json, got, err, c.want)
				continue
			}
			if next, err := s.AppendString([]byte("a ")); string(next) != "a next" || err != nil {
				t.Errorf("%s: then AppendString = %q, %v", how, next, err)
			}
		}
	}
}

func TestStringErrors(t *testing.T) {
	for _, c := range []struct{ text, msg string }{
		{`1`, `found '1', want a string`},
		{``, `unexpected end, want a string`},
		{`"abc`, "unterminated string"},
		{`"a\`, "unterminated string"},
		{`"\u12`, "unterminated string"},
		{`"\x"`, `invalid escape \x`},
		{`"\u0g00"`, `invalid \u escape`},
		{"\"a\nb\"", "control character in string"},
	} {
		for how, s := range scanners(c.text) {
			_, err := s.String()
			if err == nil || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("%s: String(%q) = %v, want %q", how, c.text, err, c.msg)
			}
		}
	}
}

func TestIntsAndInt(t *testing.T) {
	text := `[0, 7, -3 ,123456789012345678, 9223372036854775807,1` + strings.Repeat(" ", 10) + `]`
	want := []int64{0, 7, -3, 123456789012345678, 9223372036854775807, 1}
	for how, s := range scanners(text) {
		var got []int64
		err := s.Ints(func(v int64) error {
			got = append(got, v)
			return nil
		})
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Ints = %v, %v", how, got, err)
		}
	}
	for text, msg := range map[string]string{
		`[1.5]`:                  `found '.', want ',' or ']'`,
		`[1,`:                    "unexpected end, want a number",
		`[-]`:                    "want an integer",
		`[99999999999999999999]`: "number too large",
		`{}`:                     `found '{', want '['`,
	} {
		for how, s := range scanners(text) {
			err := s.Ints(func(int64) error { return nil })
			if err == nil || !strings.Contains(err.Error(), msg) {
				t.Errorf("%s: Ints(%s) = %v, want %q", how, text, err, msg)
			}
		}
	}
	stop := errors.New("stop")
	if err := NewBytes([]byte(`[1,2]`)).Ints(func(int64) error { return stop }); err != stop {
		t.Errorf("Ints returned %v, not the callback's error", err)
	}
}

func TestNumber(t *testing.T) {
	for text, want := range map[string]float64{
		`0`: 0, `42`: 42, `-7`: -7, `1.5`: 1.5, `-2.5e3`: -2500, `1E2`: 100,
		`123456789012345678901`: 123456789012345678901,
	} {
		if got, ok := Number([]byte(text)); !ok || got != want {
			t.Errorf("Number(%s) = %v, %v; want %v", text, got, ok, want)
		}
	}
	for _, text := range []string{``, `-`, `"1"`, `true`, `1e999`} {
		if got, ok := Number([]byte(text)); ok {
			t.Errorf("Number(%s) = %v, a number", text, got)
		}
	}
}

// TestArrayObject walks nested containers with Array, Object and Key,
// with white space between every token.
func TestArrayObject(t *testing.T) {
	text := " { \"a\" : [ 1 , \"two\" , { } ] , \"b\\u0021\" \n : { \"c\" : null } , \"d\" : [ ] } "
	for how, s := range scanners(text) {
		var got []string
		err := s.Object(func(key []byte) error {
			k := string(key)
			switch k {
			case "a":
				return s.Array(func(i int) error {
					raw, err := s.Raw()
					got = append(got, k+string(rune('0'+i))+"="+string(raw))
					return err
				})
			case "b!":
				return s.Object(func(key []byte) error {
					got = append(got, k+"."+string(key))
					return s.Skip()
				})
			}
			got = append(got, k)
			return s.Skip()
		})
		want := []string{`a0=1`, `a1="two"`, `a2={ }`, "b!.c", "d"}
		if err != nil || !reflect.DeepEqual(got, want) || !s.End() {
			t.Errorf("%s: %q, %v", how, got, err)
		}
	}
	for text, msg := range map[string]string{
		`[1 2]`:    `found '2', want ',' or ']'`,
		`{"a" 1}`:  `found '1', want ':'`,
		`{"a":1,}`: `found '}', want a string`,
		`[`:        "unexpected end, want a value",
		`{"a":1`:   `unexpected end, want ',' or '}'`,
	} {
		s := NewBytes([]byte(text))
		var err error
		if text[0] == '[' {
			err = s.Array(func(int) error { return s.Skip() })
		} else {
			err = s.Object(func([]byte) error { return s.Skip() })
		}
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: %v, want %q", text, err, msg)
		}
	}
}

func TestMembers(t *testing.T) {
	var got []string
	for k, v := range Members([]byte(` { "a" : 1 , "b\"c" :{"x":[1, 2]}, "d":"e" } `)) {
		got = append(got, string(k)+"="+string(v))
	}
	if want := []string{`a=1`, `b\"c={"x":[1, 2]}`, `d="e"`}; !reflect.DeepEqual(got, want) {
		t.Errorf("Members = %q, want %q", got, want)
	}
	for _, bad := range []string{``, `[]`, `{"a":1 "b":2}`, `{"a" 1}`, `{"a":}`, `{1:2}`} {
		n := 0
		for range Members([]byte(bad)) {
			n++
		}
		if n > 1 {
			t.Errorf("Members(%s) went on through malformed input: %d members", bad, n)
		}
	}
	for range Members([]byte(`{"a":1,"b":2}`)) {
		break // yield's false ends the walk
	}
}

// TestKeyAcrossRefill checks that a key survives white space that runs
// past the buffer before its colon.
func TestKeyAcrossRefill(t *testing.T) {
	text := `{"key"` + strings.Repeat(" ", 2*bufSize) + `: 1}`
	s := NewReader(strings.NewReader(text))
	if err := s.Expect('{'); err != nil {
		t.Fatal(err)
	}
	key, err := s.Key()
	if err != nil || string(key) != "key" {
		t.Errorf("Key = %q, %v", key, err)
	}
}

// TestOffsets checks that errors count bytes from the start of the input
// after the buffer has moved on.
func TestOffsets(t *testing.T) {
	text := strings.Repeat("1 ", bufSize) + `x`
	s := NewReader(strings.NewReader(text))
	for range bufSize {
		if _, err := s.Int(); err != nil {
			t.Fatal(err)
		}
	}
	if off := s.Offset(); off != 2*bufSize-1 {
		t.Errorf("Offset = %d", off)
	}
	var se *SyntaxError
	if _, err := s.Raw(); !errors.As(err, &se) || se.Offset != 2*bufSize {
		t.Errorf("error %v, want one at byte %d", err, 2*bufSize)
	}
}

// TestReadError checks that a failing reader's error is returned as it is.
func TestReadError(t *testing.T) {
	broken := errors.New("disk on fire")
	s := NewReader(io.MultiReader(strings.NewReader(`[1, 2, `), iotest.ErrReader(broken)))
	err := s.Array(func(int) error { return s.Skip() })
	if err != broken || s.Err() != broken {
		t.Errorf("error %v (Err %v), want %v", err, s.Err(), broken)
	}
}

// TestNoProgress checks that a reader that returns nothing, forever, ends
// the scan instead of hanging it.
func TestNoProgress(t *testing.T) {
	s := NewReader(stuck{})
	if s.Peek() != 0 || !errors.Is(s.Err(), io.ErrNoProgress) {
		t.Errorf("Err = %v", s.Err())
	}
}

type stuck struct{}

func (stuck) Read([]byte) (int, error) { return 0, nil }

func TestPeekAcceptEnd(t *testing.T) {
	s := NewReader(iotest.OneByteReader(strings.NewReader("  \n\t[ ]\r\n")))
	if c := s.Peek(); c != '[' || s.Accept(']') || !s.Accept('[') || !s.Accept(']') || !s.End() || s.Peek() != 0 {
		t.Errorf("Peek %q, then Accept and End misread the input", c)
	}
	if err := s.Expect(']'); err == nil || !strings.Contains(err.Error(), "unexpected end, want ']'") {
		t.Errorf("Expect at the end: %v", err)
	}
	if !Valid([]byte(" {\"a\": [1]} ")) || Valid([]byte(`{} {}`)) || Valid(nil) {
		t.Error("Valid misjudged a value")
	}
}

// FuzzScan checks the scanner against encoding/json: it accepts exactly
// what json.Valid does, reading in place and from a one-byte reader alike
// (with the same error offsets), and a walk with Peek, Key, String, Array,
// Object and Number decodes the value json.Unmarshal does.
func FuzzScan(f *testing.F) {
	for _, seed := range []string{
		`{"a":[1,-2.5e3,"x\u00e9\n",true,false,null],"b":{}}`,
		`"\ud83d\ude00 \ud83d"`, `[1.]`, `{"a" 1}`, `01`, `[[[[]]]]`, ` 7 `, `"\q"`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		valid := json.Valid(data)
		s := NewBytes(data)
		_, err := s.Raw()
		ok := err == nil && s.End()
		if ok != valid {
			t.Fatalf("Raw accepts %q: %v (%v); json.Valid: %v", data, ok, err, valid)
		}
		slow := NewReader(iotest.OneByteReader(bytes.NewReader(data)))
		_, err2 := slow.Raw()
		if (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() {
			t.Fatalf("in place: %v; from a reader: %v", err, err2)
		}
		if !valid || !utf8.Valid(data) {
			return // encoding/json replaces bytes that are not UTF-8
		}
		var want any
		if json.Unmarshal(data, &want) != nil {
			return // a number out of float64's range
		}
		if m, ok := want.(map[string]any); ok {
			// Members sees the keys as written, escapes kept.
			n := 0
			for k, v := range Members(data) {
				if key, err := unquoteKey(k); err != nil || !Valid(v) {
					t.Fatalf("Members(%q) yields %q: %s (%v)", data, k, v, err)
				} else if _, ok := m[key]; !ok {
					t.Fatalf("Members(%q) yields key %q, not in %v", data, key, m)
				}
				n++
			}
			if n < len(m) {
				t.Fatalf("Members(%q) yields %d members, want at least %d", data, n, len(m))
			}
		}
		for _, s := range []*Scanner{NewBytes(data), NewReader(iotest.OneByteReader(bytes.NewReader(data)))} {
			got, err := walk(s)
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("walk(%q) = %#v, %v; json.Unmarshal: %#v", data, got, err, want)
			}
		}
	})
}

// unquoteKey decodes the text between a string's quotes, as Members yields
// keys.
func unquoteKey(inner []byte) (string, error) {
	s := NewBytes(append(append([]byte{'"'}, inner...), '"'))
	b, err := s.String()
	return string(b), err
}

// walk decodes the next value the way json.Unmarshal decodes into an any.
func walk(s *Scanner) (any, error) {
	switch c := s.Peek(); {
	case c == '{':
		m := map[string]any{}
		err := s.Object(func(key []byte) error {
			k := string(key)
			v, err := walk(s)
			m[k] = v
			return err
		})
		return m, err
	case c == '[':
		l := []any{}
		err := s.Array(func(int) error {
			v, err := walk(s)
			l = append(l, v)
			return err
		})
		return l, err
	case c == '"':
		b, err := s.String()
		return string(b), err
	}
	raw, err := s.Raw()
	if err != nil {
		return nil, err
	}
	switch string(raw) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	case "null":
		return nil, nil
	}
	if f, ok := Number(raw); ok {
		return f, nil
	}
	return nil, errors.New("not a number: " + string(raw))
}

// TestPlainEnd checks the eight-bytes-at-a-time scan against a byte loop,
// for every special byte at every position of a word, beside bytes on
// either side of the special ones and UTF-8.
func TestPlainEnd(t *testing.T) {
	fillers := []byte{' ', '!', '#', '[', ']', 0x7f, 0x80, 0xa2, 0xdc, 0xff, 'a'}
	specials := []byte{0, 0x01, 0x1f, '"', '\\'}
	for n := range 20 {
		for _, f := range fillers {
			for _, sp := range append(specials, f) {
				for at := range n {
					b := bytes.Repeat([]byte{f}, n)
					b[at] = sp
					want := at
					if sp == f {
						want = n
					}
					if got := plainEnd(b, 0); got != want {
						t.Fatalf("plainEnd(% x) = %d, want %d", b, got, want)
					}
				}
			}
		}
	}
}
