package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestArchivesAreDeterministic(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "devtools-mcp")
	if err := os.WriteFile(bin, []byte("binary"), 0o700); err != nil {
		t.Fatal(err)
	}
	members := []member{{name: "devtools-mcp", path: bin, mode: 0o755}}
	date := time.Unix(1767225600, 0).UTC()
	var a, b bytes.Buffer
	if err := writeTarGz(&a, members, date); err != nil {
		t.Fatal(err)
	}
	// A later modification time on disk must not reach the archive.
	if err := os.Chtimes(bin, time.Now(), time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := writeTarGz(&b, members, date); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("two archives of the same files differ")
	}
	gz, err := gzip.NewReader(&a)
	if err != nil {
		t.Fatal(err)
	}
	hdr, err := tar.NewReader(gz).Next()
	if err != nil {
		t.Fatal(err)
	}
	if hdr.Name != "devtools-mcp" || hdr.Mode != 0o755 || !hdr.ModTime.Equal(date) || hdr.Uname != "root" {
		t.Errorf("header = %s %o %v %s, want devtools-mcp 755 %v root", hdr.Name, hdr.Mode, hdr.ModTime, hdr.Uname, date)
	}
}

func TestSumsAreSortedAndCheckable(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"b.zip", "a.tar.gz"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sums := filepath.Join(dir, "SHA256SUMS")
	if err := writeSums(sums, []string{filepath.Join(dir, "b.zip"), filepath.Join(dir, "a.tar.gz")}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(sums)
	// sha256("a.tar.gz") and sha256("b.zip"), as sha256sum prints them.
	lines := strings.Split(strings.TrimSpace(string(got)), "\n")
	if len(lines) != 2 || !strings.HasSuffix(lines[0], "  a.tar.gz") || !strings.HasSuffix(lines[1], "  b.zip") || len(lines[0]) != 64+2+len("a.tar.gz") {
		t.Errorf("SHA256SUMS =\n%s", got)
	}
}

func TestParseArgsRefusesBadInput(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"-version", "v1.2.3"},
		{"-version", "1.2"},
		{"-version", "1.2.3", "-targets", "plan9/386"},
		{"-version", "1.2.3", "extra"},
		{"-version", "1.2.3", "-source", "/nonexistent"},
	} {
		if _, err := parseArgs(args); err == nil {
			t.Errorf("parseArgs(%q) accepted it", args)
		}
	}
	t.Setenv("SOURCE_DATE_EPOCH", "yesterday")
	if _, err := parseArgs([]string{"-version", "1.2.3", "-source", "../.."}); err == nil || !strings.Contains(err.Error(), "SOURCE_DATE_EPOCH") {
		t.Errorf("a malformed SOURCE_DATE_EPOCH gave %v", err)
	}
}

func TestInstallScriptGetsTheReleaseDefaults(t *testing.T) {
	cfg := config{version: "1.2.3", out: t.TempDir(), baseURL: "https://example.invalid/v1.2.3"}
	path, err := copyInstallScript(cfg)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(path)
	defer f.Close()
	body, _ := io.ReadAll(f)
	if !strings.Contains(string(body), "DEVTOOLS_MCP_VERSION:-1.2.3}") || !strings.Contains(string(body), "DEVTOOLS_MCP_BASE_URL:-https://example.invalid/v1.2.3}") || strings.Contains(string(body), "@VERSION@") {
		t.Errorf("install.sh defaults not filled in:\n%s", body)
	}
}

// TestPackageJSONReadsAsWritten checks that the launcher's package.json
// spells its engine range as a person (and npm's docs) would, not with the
// HTML escapes encoding/json adds by default.
func TestPackageJSONReadsAsWritten(t *testing.T) {
	src := t.TempDir()
	for _, name := range []string{"LICENSE", "README.md"} {
		if err := os.WriteFile(filepath.Join(src, name), []byte(name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := t.TempDir()
	dir := filepath.Join(out, "devtools-mcp")
	cfg := config{version: "1.2.3", out: out, source: src}
	if err := writePackageDir(cfg, dir, packageJSON{Name: "devtools-mcp", Engines: map[string]string{"node": ">=18"}}); err != nil {
		t.Fatal(err)
	}
	body, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(body), `"node": ">=18"`) || strings.Contains(string(body), `\u00`) {
		t.Errorf("package.json:\n%s\nwant \"node\": \">=18\" spelt plainly", body)
	}
}
