package e2e

// The client recipes in docs/clients.md, checked the way each client reads
// them: every JSON, TOML and YAML snippet must parse, and every snippet,
// shell commands included, must start this server with
// `npx -y devtools-mcp@latest`.

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"gopkg.in/yaml.v3"
)

// wantClients are the clients docs/clients.md must have a recipe for.
var wantClients = []string{
	"Claude Code", "Claude Desktop", "Codex", "Cursor", "VS Code", "Windsurf",
	"Cline", "Zed", "JetBrains AI Assistant", "Copilot CLI", "Gemini CLI",
	"opencode", "Goose", "LM Studio", "Continue", "Kiro", "Antigravity",
}

var npxCommand = []string{"npx", "-y", "devtools-mcp@latest"}

// snippet is one fenced code block under a "## Client" heading.
type snippet struct {
	client, lang, body string
	line               int
}

func TestClientRecipes(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "docs", "clients.md"))
	if err != nil {
		t.Fatal(err)
	}
	snippets := fencedBlocks(string(raw))
	seen := map[string]bool{}
	for _, s := range snippets {
		seen[s.client] = true
		got, err := recipeCommand(s)
		if err != nil {
			t.Errorf("docs/clients.md:%d (%s, %s): %v", s.line, s.client, s.lang, err)
			continue
		}
		if !slices.Equal(got, npxCommand) {
			t.Errorf("docs/clients.md:%d (%s): starts %q, want %q", s.line, s.client, got, npxCommand)
		}
	}
	for _, c := range wantClients {
		if !seen[c] {
			t.Errorf("docs/clients.md has no recipe for %s", c)
		}
	}
}

// fencedBlocks returns the code blocks of a Markdown file with the
// second-level heading above each.
func fencedBlocks(doc string) []snippet {
	var out []snippet
	var heading string
	var cur *snippet
	for i, line := range strings.Split(doc, "\n") {
		switch {
		case cur != nil && line == "```":
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.body += line + "\n"
		case strings.HasPrefix(line, "## "):
			heading = strings.TrimPrefix(line, "## ")
		case strings.HasPrefix(line, "```") && heading != "":
			cur = &snippet{client: heading, lang: strings.TrimPrefix(line, "```"), line: i + 1}
		}
	}
	return out
}

// recipeCommand is the command line a snippet makes its client run.
func recipeCommand(s snippet) ([]string, error) {
	var doc map[string]any
	switch s.lang {
	case "json":
		if err := json.Unmarshal([]byte(s.body), &doc); err != nil {
			return nil, err
		}
	case "toml":
		if _, err := toml.Decode(s.body, &doc); err != nil {
			return nil, err
		}
	case "yaml":
		if err := yaml.Unmarshal([]byte(s.body), &doc); err != nil {
			return nil, err
		}
	case "sh":
		return shellCommand(s.body)
	default:
		return nil, fmt.Errorf("unknown snippet language %q", s.lang)
	}
	return configCommand(doc)
}

// configCommand finds the devtools server in a client's configuration,
// under whichever key that client uses, and returns its command line.
func configCommand(doc map[string]any) ([]string, error) {
	for _, key := range []string{"mcpServers", "servers", "context_servers", "mcp", "mcp_servers", "extensions"} {
		switch servers := doc[key].(type) {
		case map[string]any:
			if entry, ok := servers["devtools"].(map[string]any); ok {
				return entryCommand(entry)
			}
		case []any: // Continue's block files list servers
			for _, s := range servers {
				if entry, ok := s.(map[string]any); ok && entry["name"] == "devtools" {
					return entryCommand(entry)
				}
			}
		}
	}
	return nil, errors.New("configuration without a devtools server")
}

// entryCommand reads command and args; Goose calls the command "cmd" and
// opencode gives the whole command line as one list.
func entryCommand(entry map[string]any) ([]string, error) {
	cmd := entry["command"]
	if cmd == nil {
		cmd = entry["cmd"]
	}
	var line []string
	switch c := cmd.(type) {
	case string:
		line = []string{c}
	case []any:
		line = strings.Fields(stringsOf(c))
	default:
		return nil, errors.New("server entry without a command")
	}
	if args, ok := entry["args"].([]any); ok {
		line = append(line, strings.Fields(stringsOf(args))...)
	}
	return line, nil
}

func stringsOf(vs []any) string {
	var ss []string
	for _, v := range vs {
		s, _ := v.(string)
		ss = append(ss, s)
	}
	return strings.Join(ss, " ")
}

// shellCommand reads a one-line shell command that registers the server:
// `client mcp add NAME -- CMD...`, `gemini mcp add NAME CMD...`, or
// `code --add-mcp JSON`.
func shellCommand(body string) ([]string, error) {
	words := shellWords(strings.TrimSpace(body))
	if i := slices.Index(words, "--add-mcp"); i >= 0 && i+1 < len(words) {
		var entry map[string]any
		if err := json.Unmarshal([]byte(words[i+1]), &entry); err != nil {
			return nil, err
		}
		if entry["name"] != "devtools" {
			return nil, errors.New("--add-mcp without the name devtools")
		}
		return entryCommand(entry)
	}
	if i := slices.Index(words, "--"); i >= 0 {
		return words[i+1:], nil
	}
	if i := slices.Index(words, "add"); i >= 0 && i+2 < len(words) && words[i+1] == "devtools" {
		return words[i+2:], nil
	}
	return nil, errors.New("shell command that adds no devtools server")
}

// shellWords splits a command line the way sh does for the quoting the
// recipes use: words separated by blanks, single quotes kept literal.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	for _, r := range s {
		switch {
		case quoted && r == '\'':
			quoted = false
		case quoted:
			cur.WriteRune(r)
		case r == '\'':
			quoted, inWord = true, true
		case r == ' ' || r == '\t' || r == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}
