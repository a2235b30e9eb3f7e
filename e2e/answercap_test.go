package e2e

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestHugeAnswersAreCut checks that an answer too big to send whole (here
// a script's 5 MB result) is cut with a marker that names a file holding
// the whole answer, readable only by the user.
func TestHugeAnswersAreCut(t *testing.T) {
	site := pages(t, map[string]string{"/calm": `<title>calm</title><h1>Calm</h1>`})
	s := startServer(t, headless...)
	s.ok("navigate_page", map[string]any{"url": site.URL + "/calm"})
	got := s.ok("evaluate_script", map[string]any{"function": `() => "a".repeat(5000000) + "THE END"`})
	if len(got) > 250_000 {
		t.Fatalf("the answer has %d bytes; want it cut near 200000", len(got))
	}
	m := regexp.MustCompile(`answer cut at \d+ of (\d+) bytes; the whole answer was saved to (\S+)\]`).FindStringSubmatch(got)
	if m == nil {
		t.Fatalf("no cut marker naming a file in the answer's end: %q", got[max(0, len(got)-300):])
	}
	path := m[2]
	t.Cleanup(func() { os.Remove(path) })
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "THE END") || !strings.HasPrefix(string(data), "Script ran on page and returned:") {
		t.Errorf("the saved answer (%d bytes) is not the whole answer", len(data))
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the saved answer's mode is %v (%v); want 0600", fi.Mode().Perm(), err)
	}
}
