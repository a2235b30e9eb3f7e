package browser

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"testing"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
	"github.com/devtools-mcp/devtools-mcp/internal/jsonscan"
	"github.com/devtools-mcp/devtools-mcp/snapshot"
)

// rePageRows is pagewalk.js's answer for Python's re module documentation
// (re.html, about 6,000 elements), as Runtime.callFunctionOn returned it:
// one JSON string holding the rows. BenchmarkSnapshotRows reads it.
const rePageRows = "testdata/re_rows.json.gz"

// rePage is where Debian's python3-doc package installs that page.
const rePage = "/usr/share/doc/python3-doc/html/library/re.html"

// TestRecordPageRows re-records rePageRows with Chromium. It only runs when
// RECORD_PAGE_ROWS=1, since the file is a fixture, not something to check:
//
//	RECORD_PAGE_ROWS=1 go test -run TestRecordPageRows ./internal/browser/
func TestRecordPageRows(t *testing.T) {
	if os.Getenv("RECORD_PAGE_ROWS") != "1" {
		t.Skip("set RECORD_PAGE_ROWS=1 to re-record " + rePageRows)
	}
	if _, err := os.Stat(rePage); err != nil {
		t.Skip(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	m, _, p := headlessPage(ctx, t)
	defer m.Close(ctx)
	if _, err := p.Navigate(ctx, Navigation{URL: "file://" + rePage}); err != nil {
		t.Fatal(err)
	}
	s, err := p.Session(ctx)
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.callInWorld(ctx, s, p.sessions().sessionFrame(s), cdp.CallFunctionOnParams{
		FunctionDeclaration: pagewalkJS,
		Arguments:           []cdp.CallArgument{{Value: 0}},
		ReturnByValue:       true,
	})
	if err != nil || res.ExceptionDetails != nil {
		t.Fatalf("pagewalk.js: %v %+v", err, res.ExceptionDetails)
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(res.Result.Value)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(rePageRows, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d bytes, %d gzipped", rePageRows, len(res.Result.Value), buf.Len())
}

// BenchmarkSnapshotRows measures the server's own work on a snapshot of
// re.html once pagewalk.js has answered: unescaping the answer, scanning its
// rows, building and numbering the snapshot and formatting it whole (as
// take_snapshot with filePath does). "first" is the first snapshot of the
// document, every node new to the tracker; "again" one more of the same
// document, every node known.
func BenchmarkSnapshotRows(b *testing.B) {
	answer := readGzip(b, rePageRows)
	take := func(b *testing.B, tr *snapshot.Tracker) int {
		text, err := jsonscan.NewBytes(answer).AppendString(make([]byte, 0, len(answer)))
		if err != nil {
			b.Fatal(err)
		}
		nodes, err := axNodes(text)
		if err != nil {
			b.Fatal(err)
		}
		// Ids as long as Chromium's: session and frame ids are 32 hex digits.
		const session, frame = "6E1C3F0A9B2D4E5F8A7B6C5D4E3F2A1B", "669D9F66EF513BB5CF051F572CDCAC3A"
		s := tr.Take(&snapshot.Frame{Scope: session, Nodes: nodes, World: frame, ID: frame}, false)
		out, err := s.Format(snapshot.Options{})
		if err != nil || s.Count() < 5000 {
			b.Fatalf("%d nodes, %v", s.Count(), err)
		}
		return len(out)
	}
	b.Run("first", func(b *testing.B) {
		b.SetBytes(int64(len(answer)))
		b.ReportAllocs()
		for b.Loop() {
			take(b, snapshot.NewTracker())
		}
	})
	b.Run("again", func(b *testing.B) {
		tr := snapshot.NewTracker()
		take(b, tr)
		b.SetBytes(int64(len(answer)))
		b.ReportAllocs()
		for b.Loop() {
			take(b, tr)
		}
	})
}

// readGzip returns the content of a gzipped file.
func readGzip(t testing.TB, name string) []byte {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
