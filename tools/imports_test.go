package tools

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestToolsDoNotSpeakCDP keeps the tools on the browser layer: no file of
// the package imports cdp, whose commands and types the browser layer
// wraps.
func TestToolsDoNotSpeakCDP(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); path == "github.com/devtools-mcp/devtools-mcp/cdp" {
				t.Errorf("%s imports cdp; call a browser method instead (add one in internal/browser)", name)
			}
		}
	}
}
