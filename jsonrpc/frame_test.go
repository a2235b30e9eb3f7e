package jsonrpc

import (
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
)

// readAll drains a lineReader into strings; a too-long line is "<long>".
func readAll(t *testing.T, lr *lineReader) []string {
	t.Helper()
	var got []string
	for {
		line, err := lr.next()
		switch {
		case err == nil:
			got = append(got, string(line))
		case errors.Is(err, errLineTooLong):
			got = append(got, "<long>")
		case errors.Is(err, io.EOF):
			return got
		default:
			t.Fatalf("next: %v", err)
		}
	}
}

func TestLineReader(t *testing.T) {
	cases := []struct {
		name, in string
		max      int
		want     []string
	}{
		{"empty", "", 10, nil},
		{"lf", "a\nbb\n", 10, []string{"a", "bb"}},
		{"crlf", "a\r\nbb\r\n", 10, []string{"a", "bb"}},
		{"blank lines", "\n\r\na\n\n", 10, []string{"", "", "a", ""}},
		{"no final newline", "a\nlast", 10, []string{"a", "last"}},
		{"exactly max", "12345\n", 5, []string{"12345"}},
		{"exactly max crlf", "12345\r\n", 5, []string{"12345"}},
		{"over max", "123456\nok\n", 5, []string{"<long>", "ok"}},
		{"over max crlf", "123456\r\nok\n", 5, []string{"<long>", "ok"}},
		{"over max at eof", "ok\n1234567890", 5, []string{"ok", "<long>"}},
		{"far over max", strings.Repeat("z", 200000) + "\nok\n", 1000, []string{"<long>", "ok"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, r := range []io.Reader{strings.NewReader(tc.in), iotest.OneByteReader(strings.NewReader(tc.in))} {
				got := readAll(t, newLineReader(r, tc.max))
				if strings.Join(got, "|") != strings.Join(tc.want, "|") || len(got) != len(tc.want) {
					t.Errorf("got %q, want %q", got, tc.want)
				}
			}
		})
	}
}

func TestLineReaderLongLines(t *testing.T) {
	// Lines much longer than the bufio buffer are assembled whole, and the
	// buffer kept between lines does not stay huge.
	long := strings.Repeat("a", 3<<20)
	lr := newLineReader(strings.NewReader(long+"\n"+"b\n"), DefaultMaxLineSize)
	line, err := lr.next()
	if err != nil || string(line) != long {
		t.Fatalf("long line: %d bytes, %v", len(line), err)
	}
	line, err = lr.next()
	if err != nil || string(line) != "b" {
		t.Fatalf("next line: %q, %v", line, err)
	}
	if cap(lr.buf) > keepBufferBelow {
		t.Errorf("buffer of %d bytes kept after a long line", cap(lr.buf))
	}
}

func TestLineReaderError(t *testing.T) {
	lr := newLineReader(io.MultiReader(strings.NewReader("a\npartial"), iotest.ErrReader(errBoom)), 100)
	if line, err := lr.next(); err != nil || string(line) != "a" {
		t.Fatalf("first line: %q, %v", line, err)
	}
	if _, err := lr.next(); !errors.Is(err, errBoom) {
		t.Fatalf("err = %v, want the read error", err)
	}
}

// recordingWriter records each Write call separately.
type recordingWriter struct {
	mu     sync.Mutex
	writes []string
}

func (w *recordingWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writes = append(w.writes, string(p))
	return len(p), nil
}

func TestLineWriterWholeLines(t *testing.T) {
	rw := &recordingWriter{}
	lw := &lineWriter{w: rw}
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Go(func() {
			line, err := encodeLine(map[string]string{"k": strings.Repeat(string(rune('a'+i%26)), 1000)})
			if err != nil {
				t.Error(err)
				return
			}
			if err := lw.writeLine(line); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if len(rw.writes) != 50 {
		t.Fatalf("%d writes, want 50", len(rw.writes))
	}
	for _, w := range rw.writes {
		if strings.Count(w, "\n") != 1 || !strings.HasSuffix(w, "\n") {
			t.Fatalf("write is not exactly one line: %.80q", w)
		}
	}
	lw.close()
	if err := lw.writeLine([]byte("{}\n")); !errors.Is(err, errWriterClosed) {
		t.Errorf("write after close = %v", err)
	}
}

type failingWriter struct{ n int }

func (w *failingWriter) Write(p []byte) (int, error) {
	w.n++
	return 0, errBoom
}

func TestLineWriterStickyError(t *testing.T) {
	fw := &failingWriter{}
	lw := &lineWriter{w: fw}
	for range 3 {
		if err := lw.writeLine([]byte("{}\n")); !errors.Is(err, errBoom) {
			t.Fatalf("err = %v", err)
		}
	}
	if fw.n != 1 {
		t.Errorf("writer called %d times after failing, want 1", fw.n)
	}
}

func TestEncodeLineNoHTMLEscape(t *testing.T) {
	b, err := encodeLine(map[string]string{"html": "<a href='x'>&</a>", "nl": "a\nb\u2028"})
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	if !strings.Contains(got, "<a href='x'>&</a>") {
		t.Errorf("HTML was escaped: %s", got)
	}
	if strings.Count(got, "\n") != 1 {
		t.Errorf("encoded line has raw newlines: %q", got)
	}
}

func TestIDKey(t *testing.T) {
	same := [][2]string{{`1`, `1`}, {`"abc"`, `"a\u0062c"`}, {`1`, `1`}, {`-0`, `0`}}
	for _, p := range same {
		if idKey([]byte(p[0])) != idKey([]byte(p[1])) {
			t.Errorf("idKey(%s) != idKey(%s)", p[0], p[1])
		}
	}
	diff := [][2]string{{`1`, `"1"`}, {`1`, `2`}, {`"a"`, `"b"`}, {`1.5`, `15`}}
	for _, p := range diff {
		if idKey([]byte(p[0])) == idKey([]byte(p[1])) {
			t.Errorf("idKey(%s) == idKey(%s)", p[0], p[1])
		}
	}
}
