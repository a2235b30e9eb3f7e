// Package cdptest replays recorded Chrome DevTools Protocol exchanges, so
// that the browser layer and the tools can be tested without a browser.
//
// A [Recording] is what Chromium answered during one scenario: every command
// the client sent (method, session, params), the result or error it got, and
// the events Chromium emitted around it. A [Fake] is a [cdp.Transport] that
// plays Chromium from a recording: it answers each command the client sends
// with the recorded reply of a matching command and emits the events that
// followed it. A [Recorder] wraps a real transport and writes a recording.
// [Open] ties both together for a test: it replays a recording file, or,
// when DEVTOOLS_MCP_RECORD=1 is set, launches Chromium and re-records it.
//
// Message ids are the client's: the fake answers every command with the id
// it came with. Session ids, target ids, frame ids and URLs are Chromium's
// and stay as recorded, since the client only ever learns them from the
// browser's own replies and events.
package cdptest

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// Exchange is one recorded command and what Chromium did around it.
type Exchange struct {
	Method  string          `json:"method"`
	Session string          `json:"session,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	// Result or Error is the reply; Error is the raw {"code","message"} object.
	Result json.RawMessage `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
	// Unanswered says Chromium had not answered when the recording ended
	// (the client gave up waiting); the fake does not answer either.
	Unanswered bool `json:"unanswered,omitempty"`
	// Before are the events (whole messages) that arrived after the command
	// was sent and before its reply; After those that arrived after its reply
	// and before the client sent its next command.
	Before []json.RawMessage `json:"before,omitempty"`
	After  []json.RawMessage `json:"after,omitempty"`
}

// Header is the first line of a recording file.
type Header struct {
	// Site is the base URL the scenario's pages were served from; replayed
	// tests use it literally, as the recorded browser saw it.
	Site string `json:"site,omitempty"`
	// Browser is the product that was recorded, e.g. "Chrome/156.0.0.0".
	Browser string `json:"browser,omitempty"`
}

// Recording is a header and the exchanges in the order the client sent them.
type Recording struct {
	Header    Header
	Exchanges []*Exchange
}

// Load reads a recording written by Save: JSON lines, gzipped when the name
// ends in .gz.
func Load(path string) (*Recording, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("load recording: %w", err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return nil, fmt.Errorf("load recording %s: %w", path, err)
		}
		defer zr.Close()
		r = zr
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 256<<20)
	rec := &Recording{}
	for n := 0; sc.Scan(); n++ {
		if n == 0 {
			if err := json.Unmarshal(sc.Bytes(), &rec.Header); err != nil {
				return nil, fmt.Errorf("load recording %s: header: %w", path, err)
			}
			continue
		}
		e := &Exchange{}
		if err := json.Unmarshal(sc.Bytes(), e); err != nil {
			return nil, fmt.Errorf("load recording %s: line %d: %w", path, n+1, err)
		}
		rec.Exchanges = append(rec.Exchanges, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("load recording %s: %w", path, err)
	}
	return rec, nil
}

// Save writes rec as JSON lines (the header first), gzipped when the name
// ends in .gz.
func (rec *Recording) Save(path string) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rec.Header); err != nil {
		return fmt.Errorf("save recording: %w", err)
	}
	for _, e := range rec.Exchanges {
		if err := enc.Encode(e); err != nil {
			return fmt.Errorf("save recording: %w", err)
		}
	}
	data := buf.Bytes()
	if strings.HasSuffix(path, ".gz") {
		var z bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
		if _, err := zw.Write(data); err != nil {
			return fmt.Errorf("save recording: %w", err)
		}
		if err := zw.Close(); err != nil {
			return fmt.Errorf("save recording: %w", err)
		}
		data = z.Bytes()
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("save recording: %w", err)
	}
	return nil
}
