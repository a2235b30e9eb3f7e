package browser

import (
	"context"
	"embed"
	"io/fs"
	"path"
	"strings"
	"testing"
	"time"
)

// snippetFiles are the scripts js.go embeds one by one: every file of js/
// and pagewalk.js. The test walks them, so a new snippet is checked
// without being listed here.
//
//go:embed js/*.js pagewalk.js
var snippetFiles embed.FS

// TestSnippetsCompile checks that every embedded snippet starts with its
// comment and compiles in Chromium to what its callers expect: a function,
// or for page-box.js, which is evaluated as it is, the JSON text it builds.
func TestSnippetsCompile(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	m, _, p := headlessPage(ctx, t)
	defer m.Close(ctx)
	n := 0
	err := fs.WalkDir(snippetFiles, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		src, err := snippetFiles.ReadFile(name)
		if err != nil {
			return err
		}
		n++
		js := string(src)
		if !strings.HasPrefix(js, "// ") {
			t.Errorf("%s does not start with a comment", name)
		}
		want := "function"
		if path.Base(name) == "page-box.js" {
			want = "string"
		}
		v, err := p.Evaluate(ctx, "typeof (\n"+js+"\n)")
		if err != nil || string(v.Value) != `"`+want+`"` {
			t.Errorf("%s: typeof is %s, %v; want %s", name, v.Value, err, want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 2 {
		t.Fatalf("walked %d snippets; the embed pattern matches nothing", n)
	}
	// A snippet called with arguments, as its caller calls it.
	v, err := p.Evaluate(ctx, "("+waitSizeJS+")(innerWidth, innerHeight)")
	if err != nil || !strings.HasPrefix(string(v.Value), "[") {
		t.Errorf("wait-size.js at the current size: %s, %v", v.Value, err)
	}
}
