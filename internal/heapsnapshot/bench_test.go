package heapsnapshot

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"testing"
)

// BenchmarkRead parses a snapshot recorded from Chromium (decompressed
// beforehand, so that the figure is the parser's).
func BenchmarkRead(b *testing.B) {
	f, err := os.Open("testdata/array-2.heapsnapshot.gz")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		b.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(context.Background(), bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}
