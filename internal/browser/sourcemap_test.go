package browser

import (
	"os"
	"testing"
)

func TestSourceMapLookup(t *testing.T) {
	data, err := os.ReadFile("../../e2e/testdata/pages/bundle.js.map")
	if err != nil {
		t.Fatal(err)
	}
	sm, err := ParseSourceMap(data, "http://127.0.0.1:8080/pages/bundle.js.map")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ col, line, origCol int }{
		{16, 1, 2}, // console.error
		{30, 1, 2}, // inside the call, before new Error
		{40, 1, 26},
		{55, 3, 0}, // the call of fail
		{0, 0, 0},
	} {
		src, line, col, ok := sm.Lookup(0, tc.col)
		if !ok || src != "http://127.0.0.1:8080/src/app.ts" || line != tc.line || col != tc.origCol {
			t.Errorf("Lookup(0, %d) = %s:%d:%d %v, want app.ts:%d:%d", tc.col, src, line, col, ok, tc.line, tc.origCol)
		}
	}
	if _, _, _, ok := sm.Lookup(5, 0); ok {
		t.Error("a line the map does not cover was mapped")
	}
	for _, bad := range []string{`{}`, `{"version":3,"sources":["a"],"mappings":"A!"}`, `{"version":3,"sources":["a"],"mappings":"g"}`, `not json`} {
		if _, err := ParseSourceMap([]byte(bad), ""); err == nil {
			t.Errorf("ParseSourceMap(%s) succeeded", bad)
		}
	}
}

func FuzzParseSourceMap(f *testing.F) {
	f.Add([]byte(`{"version":3,"sources":["a.ts"],"mappings":"AAAA,SAAS;AACA"}`), 0, 5)
	f.Fuzz(func(t *testing.T, data []byte, line, col int) {
		if sm, err := ParseSourceMap(data, "http://x/"); err == nil {
			sm.Lookup(line, col) // must not panic
		}
	})
}
