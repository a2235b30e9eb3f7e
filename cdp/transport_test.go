package cdp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

// pipeBrowser is the browser's side of a pipe transport.
type pipeBrowser struct {
	out *os.File // the browser's fd 4: what it writes, the transport reads
	in  *os.File // the browser's fd 3: what the transport writes
}

func newPipeTransport(t *testing.T) (Transport, *pipeBrowser) {
	t.Helper()
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	tr := NewPipeTransport(outR, inW)
	t.Cleanup(func() {
		tr.Close()
		outW.Close()
		inR.Close()
	})
	return tr, &pipeBrowser{out: outW, in: inR}
}

// bigMessage returns a JSON message of at least n bytes.
func bigMessage(n int) []byte {
	return []byte(`{"id":1,"result":{"data":"` + strings.Repeat("QUJD", n/4) + `"}}`)
}

// chunkReader returns its chunks one Read at a time, to split messages across
// reads exactly where a test wants.
type chunkReader struct{ chunks []string }

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.chunks) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.chunks[0])
	if r.chunks[0] = r.chunks[0][n:]; r.chunks[0] == "" {
		r.chunks = r.chunks[1:]
	}
	return n, nil
}

func (r *chunkReader) Close() error { return nil }

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

func readAll(t *testing.T, tr Transport) ([]string, error) {
	t.Helper()
	var msgs []string
	for {
		m, err := tr.Read()
		if err != nil {
			return msgs, err
		}
		msgs = append(msgs, string(m))
	}
}

func TestPipeReadSplitMessages(t *testing.T) {
	r := &chunkReader{chunks: []string{
		`{"id":1,`, `"result":{}}`, "\x00" + `{"method":"A"}` + "\x00" + `{"id"`, `:2}`, "\x00\x00", `{"id":3}` + "\x00",
	}}
	tr := NewPipeTransport(r, nopWriteCloser{io.Discard})
	got, err := readAll(t, tr)
	want := []string{`{"id":1,"result":{}}`, `{"method":"A"}`, `{"id":2}`, `{"id":3}`}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
	if !errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("at the end: %v, want io.EOF", err)
	}

	// A message cut off by EOF is an error, not a message.
	tr = NewPipeTransport(&chunkReader{chunks: []string{`{"id":1}` + "\x00" + `{"id":`}}, nopWriteCloser{io.Discard})
	got, err = readAll(t, tr)
	if len(got) != 1 || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("truncated stream: got %q, %v", got, err)
	}
}

func TestPipeLargeMessages(t *testing.T) {
	tr, b := newPipeTransport(t)
	big := bigMessage(11 << 20)

	// Browser to us, written in odd-sized pieces.
	go func() {
		data := append(append(bytes.Clone(big), 0), `{"id":2}`+"\x00"...)
		for len(data) > 0 {
			n := min(len(data), 7919)
			if _, err := b.out.Write(data[:n]); err != nil {
				return
			}
			data = data[n:]
		}
	}()
	got, err := tr.Read()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, big) {
		t.Fatalf("read %d bytes, want the %d written", len(got), len(big))
	}
	if got, err := tr.Read(); err != nil || string(got) != `{"id":2}` {
		t.Fatalf("next message: %q, %v", got, err)
	}

	// Us to the browser.
	errc := make(chan error, 1)
	go func() {
		errc <- tr.Write(t.Context(), big)
	}()
	br := bufio.NewReader(b.in)
	frame, err := br.ReadBytes(0)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(frame[:len(frame)-1], big) {
		t.Fatalf("browser read %d bytes, want %d", len(frame)-1, len(big))
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
}

func TestPipeWrite(t *testing.T) {
	tr, b := newPipeTransport(t)
	for _, m := range []string{`{"id":1,"method":"Browser.getVersion"}`, `{"id":2,"method":"Target.getTargets"}`} {
		if err := tr.Write(t.Context(), []byte(m)); err != nil {
			t.Fatal(err)
		}
	}
	tr.Close()
	got, err := io.ReadAll(b.in)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":1,"method":"Browser.getVersion"}` + "\x00" + `{"id":2,"method":"Target.getTargets"}` + "\x00"
	if string(got) != want {
		t.Errorf("browser read %q, want %q", got, want)
	}
	if err := tr.Write(t.Context(), []byte(`{}`)); err == nil {
		t.Error("Write after Close succeeded")
	}
}

func TestPipeWriteCancelled(t *testing.T) {
	tr, _ := newPipeTransport(t)
	// Nobody reads: the pipe fills up and the write blocks until ctx ends.
	// The deadline leaves time for the write to start even on a loaded
	// machine; a write cancelled before its first byte keeps the pipe open.
	ctx, cancel := context.WithTimeout(t.Context(), time.Second)
	defer cancel()
	errc := make(chan error, 1)
	go func() { errc <- tr.Write(ctx, bigMessage(4<<20)) }()
	var err error
	select {
	case err = <-errc:
	case <-time.After(testGuard):
		t.Fatal("Write still blocked after its context ended")
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Write = %v, want context.DeadlineExceeded", err)
	}
	// Half a message went out, so the transport is closed.
	if _, err := tr.Read(); err == nil {
		t.Error("Read after a broken write succeeded")
	}

	ctx, cancel = context.WithCancel(t.Context())
	cancel()
	if err := tr.Write(ctx, []byte(`{}`)); !errors.Is(err, context.Canceled) {
		t.Errorf("Write with done ctx = %v", err)
	}
}

func TestPipeCloseUnblocksRead(t *testing.T) {
	tr, _ := newPipeTransport(t)
	errc := make(chan error, 1)
	go func() {
		_, err := tr.Read()
		errc <- err
	}()
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-errc:
		if err == nil {
			t.Error("Read returned no error after Close")
		}
	case <-time.After(testGuard):
		t.Fatal("Close did not unblock Read")
	}
	if _, err := tr.Read(); err == nil {
		t.Error("Read after Close succeeded")
	}
	if err := tr.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestPipeReadAfterCloseIgnoresBufferedMessages(t *testing.T) {
	tr := NewPipeTransport(&chunkReader{chunks: []string{"{}\x00{}\x00"}}, nopWriteCloser{io.Discard})
	if _, err := tr.Read(); err != nil {
		t.Fatal(err)
	}
	tr.Close()
	if m, err := tr.Read(); err == nil {
		t.Errorf("Read after Close returned %q", m)
	}
}

func TestConnOverPipe(t *testing.T) {
	tr, b := newPipeTransport(t)
	c := NewConn(tr)
	defer c.Close()

	// A fake browser answering one call, then going away.
	go func() {
		br := bufio.NewReader(b.in)
		if _, err := br.ReadBytes(0); err != nil {
			return
		}
		b.out.Write([]byte(`{"method":"Target.targetCreated","params":{"targetInfo":{"targetId":"T"}}}` + "\x00" + `{"id":1,"result":{"product":"Chrome"}}` + "\x00"))
		if _, err := br.ReadBytes(0); err != nil {
			return
		}
		b.out.Close()
	}()

	created := make(chan TargetCreatedEvent, 1)
	sub := c.SubscribeFunc("", func(raw RawEvent) {
		if ev, err := TargetTargetCreated.Decode(raw.Params); err == nil {
			created <- ev
		}
	}, TargetTargetCreated)
	defer sub.Close()
	var v struct{ Product string }
	if err := c.Call(t.Context(), "", "Browser.getVersion", nil, &v); err != nil || v.Product != "Chrome" {
		t.Fatalf("got %+v, %v", v, err)
	}
	if ev := <-created; ev.TargetInfo.TargetID != "T" {
		t.Errorf("event: %+v", ev)
	}
	err := c.Call(t.Context(), "", "Browser.close", nil, nil)
	if !errors.Is(err, ErrBrowserGone) {
		t.Errorf("call when the browser went away: %v", err)
	}
	select {
	case <-c.readDone:
	case <-time.After(testGuard):
		t.Error("reader goroutine still running")
	}
}

func FuzzPipeRead(f *testing.F) {
	f.Add([]byte(`{"id":1}`+"\x00"), uint8(3))
	f.Add([]byte("\x00\x00{}\x00{\"a\":\x00"), uint8(0))
	f.Add([]byte(`{"id":1,"result":{}}`), uint8(255))
	f.Add([]byte{}, uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, chunk uint8) {
		var chunks []string
		for rest := data; len(rest) > 0; {
			n := min(len(rest), int(chunk)+1)
			chunks = append(chunks, string(rest[:n]))
			rest = rest[n:]
		}
		got, err := readAll(t, NewPipeTransport(&chunkReader{chunks: chunks}, nopWriteCloser{io.Discard}))

		frames := strings.Split(string(data), "\x00")
		tail := frames[len(frames)-1]
		var want []string
		for _, fr := range frames[:len(frames)-1] {
			if fr != "" {
				want = append(want, fr)
			}
		}
		if len(got) != len(want) {
			t.Fatalf("got %d messages, want %d", len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("message %d: got %q, want %q", i, got[i], want[i])
			}
		}
		if tail != "" && !errors.Is(err, io.ErrUnexpectedEOF) || tail == "" && (!errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)) {
			t.Fatalf("tail %q: error %v", tail, err)
		}
	})
}
