package trace

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"

	"github.com/devtools-mcp/devtools-mcp/internal/jsonscan"
)

// SyntaxError reports malformed trace JSON and where it was found, counted
// in bytes of the decompressed trace.
type SyntaxError struct {
	Offset int64
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("malformed trace at byte %d: %s", e.Offset, e.Msg)
}

// newScanner returns a JSON scanner over r, decompressing it when it
// starts with the gzip magic bytes.
func newScanner(r io.Reader) (*jsonscan.Scanner, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("trace: gzip: %w", err)
		}
		return jsonscan.NewReader(zr), nil
	}
	return jsonscan.NewReader(br), nil
}

// scanError turns the scanner's errors into the trace's: a *SyntaxError
// for malformed JSON, a wrapped error for a failed read.
func scanError(s *jsonscan.Scanner, err error) error {
	if err == nil {
		return nil
	}
	se, syntax := errors.AsType[*jsonscan.SyntaxError](err)
	switch {
	case syntax:
		return &SyntaxError{Offset: se.Offset, Msg: se.Msg}
	case s.Err() != nil:
		return fmt.Errorf("trace: read: %w", err)
	}
	return err
}
