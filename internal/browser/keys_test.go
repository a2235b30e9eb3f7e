package browser

import (
	"slices"
	"strings"
	"testing"
)

func TestParseKeys(t *testing.T) {
	for _, tc := range []struct {
		combo    string
		key      string
		bits     int
		text     string
		commands []string
	}{
		{"Enter", "Enter", 0, "\r", nil},
		{"a", "a", 0, "a", nil},
		{"A", "A", 8, "A", nil},
		{"Control+A", "a", 2, "", []string{"selectAll"}},
		{"ctrl+a", "a", 2, "", []string{"selectAll"}},
		{"Control+Shift+R", "R", 10, "", nil},
		{"Control+Shift+Z", "Z", 10, "", []string{"redo"}},
		{"Control++", "+", 10, "", nil},
		{"+", "+", 8, "+", nil},
		{"Shift+Tab", "Tab", 8, "", nil},
		{"Meta+ArrowLeft", "ArrowLeft", 4, "", []string{"moveWordLeft"}},
		{"Alt+F", "f", 1, "", nil},
		{"?", "?", 8, "?", nil},
	} {
		kp, err := parseKeys(tc.combo)
		if err != nil {
			t.Errorf("%q: %v", tc.combo, err)
			continue
		}
		if kp.key.key != tc.key || kp.bits != tc.bits || kp.key.text != tc.text || !slices.Equal(kp.commands, tc.commands) {
			t.Errorf("%q = key %q bits %d text %q commands %v; want %q %d %q %v", tc.combo, kp.key.key, kp.bits, kp.key.text, kp.commands, tc.key, tc.bits, tc.text, tc.commands)
		}
	}
	for combo, want := range map[string]string{
		"":           "no key given",
		"Hyper+Q":    "not a modifier",
		"Control+":   "unknown key",
		"Frobnicate": "unknown key",
	} {
		if _, err := parseKeys(combo); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want it to say %q", combo, err, want)
		}
	}
}

func FuzzParseKeys(f *testing.F) {
	for _, s := range []string{"Enter", "Control+Shift+R", "Control++", "+", "a+b+c", "++"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, combo string) {
		_, _ = parseKeys(combo) // must not panic
	})
}
