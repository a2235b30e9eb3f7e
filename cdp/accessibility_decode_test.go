package cdp

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"testing"
)

// readAXTree returns a real answer to Accessibility.getFullAXTree from
// testdata, as Chromium sent it: name is fullaxtree-<name>.json.gz.
func readAXTree(tb testing.TB, name string) []byte {
	tb.Helper()
	gz, err := os.ReadFile("testdata/fullaxtree-" + name + ".json.gz")
	if err != nil {
		tb.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		tb.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// BenchmarkDecodeFullAXTree decodes the answer of a small form page (43 KB,
// 88 nodes), which the first take_snapshot waits for.
func BenchmarkDecodeFullAXTree(b *testing.B) {
	data := readAXTree(b, "form")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		var r GetFullAXTreeResult
		if err := json.Unmarshal(data, &r); err != nil {
			b.Fatal(err)
		}
	}
}
