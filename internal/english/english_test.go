package english

import "testing"

// TestCount checks the singular for one only: none and many take the plural.
func TestCount(t *testing.T) {
	for n, want := range map[int]string{0: "0 links found", 1: "1 link found", 2: "2 links found", 21: "21 links found"} {
		if got := Count(n, "link found", "links found"); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
}
