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

// TestKBMatchesDevTools checks sizes against what DevTools'
// formatBytesToKb answered for them (in the reference server, en-US).
func TestKBMatchesDevTools(t *testing.T) {
	for in, want := range map[int64]string{
		0: "0.0 kB", 12: "0.0 kB", 50: "0.1 kB", 250: "0.3 kB", 999: "1.0 kB", 1000: "1.0 kB", 12345: "12.3 kB",
		99949: "99.9 kB", 99950: "100.0 kB", 100000: "100 kB", 123456: "123 kB", 1234567: "1,235 kB",
		283000000: "283,000 kB", -5000: "-5.0 kB", -123456: "-123.5 kB",
	} {
		if got := skb(in); got != want {
			t.Errorf("skb(%d) = %q, want %q", in, got, want)
		}
	}
}
