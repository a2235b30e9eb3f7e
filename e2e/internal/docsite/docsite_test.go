package docsite

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

// TestServesOnlyFilesBelowTheDirs checks the one thing the comparison
// commands rely on: a listed tree's files are served as they are, and
// anything else (a sibling tree, a `..` escape, a directory) is not.
func TestServesOnlyFilesBelowTheDirs(t *testing.T) {
	root := t.TempDir()
	docs := filepath.Join(root, "docs")
	other := filepath.Join(root, "other")
	for _, d := range []string{filepath.Join(docs, "sub"), other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(name, body string) {
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(docs, "sub", "page.html"), "<p>page")
	write(filepath.Join(other, "secret.txt"), "secret")
	srv := httptest.NewServer(Dirs{docs: true})
	defer srv.Close()

	for path, want := range map[string]string{
		docs + "/sub/page.html":              "<p>page",
		other + "/secret.txt":                "",
		docs + "/../other/secret.txt":        "",
		docs + "/sub/../../other/secret.txt": "",
		docs + "/sub":                        "",
		docs:                                 "",
	} {
		req, err := http.NewRequest("GET", srv.URL, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.URL.Path = path // not cleaned by the client
		res, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if want == "" {
			if res.StatusCode != http.StatusNotFound {
				t.Errorf("%s: status %d (%q), want 404", path, res.StatusCode, body)
			}
			continue
		}
		if res.StatusCode != http.StatusOK || string(body) != want {
			t.Errorf("%s: status %d body %q, want 200 %q", path, res.StatusCode, body, want)
		}
	}
}
