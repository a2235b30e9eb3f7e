package cdp

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// protocolDomains are the domains of the protocol of Chromium 156
// (browser_protocol.json and js_protocol.json): a string literal made of
// one of them, a dot and a lower-case name is a method or event name.
var protocolDomains = []string{
	"Accessibility", "Ads", "Animation", "Audits", "Autofill", "BackgroundService",
	"BluetoothEmulation", "Browser", "CSS", "CacheStorage", "Cast", "Console",
	"CrashReportContext", "DOM", "DOMDebugger", "DOMSnapshot", "DOMStorage", "Debugger",
	"DeviceAccess", "DeviceOrientation", "DigitalCredentials", "Emulation",
	"EventBreakpoints", "Extensions", "FedCm", "Fetch", "FileSystem", "FindInPage",
	"HeadlessExperimental", "HeapProfiler", "IO", "IndexedDB", "Input", "Inspector",
	"LayerTree", "Log", "Media", "Memory", "Network", "Overlay", "PWA", "Page",
	"Performance", "PerformanceTimeline", "Preload", "Profiler", "Runtime", "Schema",
	"Security", "ServiceWorker", "SmartCardEmulation", "Storage", "SystemInfo", "Target",
	"Tethering", "Tracing", "WebAudio", "WebAuthn", "WebMCP",
}

// methodName matches a string that is a protocol method or event name.
var methodName = regexp.MustCompile(`^(` + strings.Join(protocolDomains, "|") + `)\.[a-z][A-Za-z]*$`)

// notYetTyped are files that still call the protocol by name, with why.
// Empty it as they are converted.
var notYetTyped = map[string]string{}

// TestNoMethodNamesOutsideCDP enforces that code outside this package names
// protocol methods and events only through the declarations here (such as
// PageNavigate), so that a method cannot be sent with another's params or
// decoded into another's result. Tests may spell names out.
func TestNoMethodNamesOutsideCDP(t *testing.T) {
	root := ".."
	fset := token.NewFileSet()
	var found []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "cdp" || (rel != "." && strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") || notYetTyped[rel] != "" {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			if s, err := strconv.Unquote(lit.Value); err == nil && methodName.MatchString(s) {
				pos := fset.Position(lit.Pos())
				found = append(found, rel+":"+strconv.Itoa(pos.Line)+": "+lit.Value)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) > 0 {
		t.Errorf("protocol names written as strings outside cdp/; use the declarations in cdp/ (add one beside its structs if missing):\n%s", strings.Join(found, "\n"))
	}
}

// TestDeclarations checks the declarations of this package: each names a
// method of a protocol domain, is named after it (Page.navigate is
// PageNavigate), and no method is declared twice.
func TestDeclarations(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	declared := map[string]string{} // method -> where
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok || gen.Tok != token.VAR {
				continue
			}
			for _, spec := range gen.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, v := range vs.Values {
					method, ok := declaredMethod(v)
					if !ok {
						continue
					}
					name := vs.Names[i].Name
					where := fset.Position(vs.Names[i].Pos()).String()
					if !methodName.MatchString(method) {
						t.Errorf("%s: %s declares %q, which is not a method of a protocol domain", where, name, method)
					}
					if want := goName(method); name != want {
						t.Errorf("%s: %s declares %s; name it %s", where, name, method, want)
					}
					if prev, dup := declared[method]; dup {
						t.Errorf("%s: %s is declared again (first at %s)", where, method, prev)
					}
					declared[method] = where
				}
			}
		}
	}
	if len(declared) < 100 {
		t.Errorf("found only %d declarations; has their form changed?", len(declared))
	}
}

// declaredMethod returns the method of a declaration such as
// Command[P, R]{"Page.navigate"} or Action{"Page.enable"}.
func declaredMethod(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.CompositeLit)
	if !ok || len(lit.Elts) != 1 {
		return "", false
	}
	typ := lit.Type
	switch x := typ.(type) {
	case *ast.IndexExpr:
		typ = x.X
	case *ast.IndexListExpr:
		typ = x.X
	}
	id, ok := typ.(*ast.Ident)
	if !ok {
		return "", false
	}
	switch id.Name {
	case "Command", "Query", "Action", "Event":
	default:
		return "", false
	}
	s, ok := lit.Elts[0].(*ast.BasicLit)
	if !ok || s.Kind != token.STRING {
		return "", false
	}
	method, err := strconv.Unquote(s.Value)
	return method, err == nil
}

// goName is the Go name of a method's declaration: the domain followed by
// the method with its first letter upper-cased.
func goName(method string) string {
	domain, name, _ := strings.Cut(method, ".")
	r := []rune(name)
	if len(r) > 0 {
		r[0] = unicode.ToUpper(r[0])
	}
	return domain + string(r)
}
