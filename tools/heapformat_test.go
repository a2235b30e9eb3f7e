package tools

import (
	"strings"
	"testing"
)

func TestParseByteSize(t *testing.T) {
	for in, want := range map[string]uint64{
		"1024": 1024, "0": 0, "500KB": 500e3, "500 kb": 500e3, "1.5MiB": 1572864, "2k": 2000,
		"3 bytes": 3, "1GiB": 1 << 30, "1.5gb": 1.5e9, "2TiB": 2 << 40, "1tb": 1e12, "7B": 7,
	} {
		if got, err := parseByteSize(in); err != nil || got != want {
			t.Errorf("parseByteSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for in, want := range map[string]string{"1XB": "unknown unit", "abc": "invalid size", "-1": "invalid size"} {
		if _, err := parseByteSize(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("parseByteSize(%q) = %v; want an error saying %q", in, err, want)
		}
	}
}
