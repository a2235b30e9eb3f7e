package e2e

// The agent skills in skills/: each SKILL.md has the frontmatter agents
// load, and every devtools-mcp command in its examples runs, in order,
// against a page served on 127.0.0.1 in place of https://example.com/.

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSkillExamplesRun(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("..", "skills", "*", "SKILL.md"))
	if err != nil || len(dirs) < 7 {
		t.Fatalf("skills: %v %v, want the seven skills", dirs, err)
	}
	site := httptest.NewServer(http.FileServer(http.Dir(filepath.Join("testdata", "skills"))))
	defer site.Close()
	for _, path := range dirs {
		name := filepath.Base(filepath.Dir(path))
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			checkFrontmatter(t, string(raw), name)
			commands := skillCommands(string(raw))
			if len(commands) == 0 {
				t.Fatal("no example commands")
			}
			// A short runtime directory: the daemon's socket path must fit
			// the ~100 bytes Unix sockets allow.
			runtimeDir, err := os.MkdirTemp("", "sk")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(runtimeDir) })
			sh := shellIn(t, runtimeDir, "skill")
			sh.cwd = t.TempDir()
			for _, line := range commands {
				line = strings.ReplaceAll(line, "https://example.com/", site.URL+"/")
				words := shellWords(line)
				out := sh.ok(words[1:]...)
				t.Logf("$ %s\n%s", line, out)
			}
		})
	}
}

// checkFrontmatter checks the YAML header that Claude Code, Gemini CLI and
// Codex read: a name equal to the directory and a description saying when
// to use the skill.
func checkFrontmatter(t *testing.T, doc, dir string) {
	t.Helper()
	rest, ok := strings.CutPrefix(doc, "---\n")
	head, _, found := strings.Cut(rest, "\n---\n")
	if !ok || !found {
		t.Fatal("SKILL.md does not start with a --- frontmatter block")
	}
	fields := map[string]string{}
	for _, line := range strings.Split(head, "\n") {
		k, v, _ := strings.Cut(line, ": ")
		fields[k] = v
	}
	if fields["name"] != dir {
		t.Errorf("name %q, want the directory name %q", fields["name"], dir)
	}
	if d := fields["description"]; len(d) < 40 || len(d) > 1024 || !strings.Contains(d, "Use when") {
		t.Errorf("description %q: want 40 to 1024 characters saying when to use it", d)
	}
}

// skillCommands returns the devtools-mcp lines of the ```sh blocks.
func skillCommands(doc string) []string {
	var out []string
	inSh := false
	for _, line := range strings.Split(doc, "\n") {
		switch {
		case line == "```sh":
			inSh = true
		case line == "```":
			inSh = false
		case inSh && strings.HasPrefix(line, "devtools-mcp "):
			out = append(out, strings.TrimSpace(line))
		}
	}
	return out
}
