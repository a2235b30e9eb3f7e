package e2e

import (
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// quick is the subset that go test -short runs: one or two tests of each
// area a newcomer would check first (startup and the protocol, snapshots
// and uids, input, scripts, console and network, screenshots, pages and
// navigation, emulation, a performance trace, HTTP and MCP 2026-07-28,
// the command line, and the URL, file and sensitive-page guards), still
// the real binary against a real Chromium. It runs in about two minutes on
// a loaded 2-core machine; the whole suite (go test ./..., as .ci/run
// runs it) takes 20 or more.
var quick = []string{
	"TestQuickSubsetExists",
	"TestInitializeNegotiatesProtocolVersion", "TestHelpAndVersion", "TestBadArgumentsNameTheField",
	"TestSnapshotOfAForm", "TestUIDsAreStableAndStaleOnesFail",
	"TestFillEveryKindOfField", "TestClickWaitsAndReportsWhatHappened", "TestKeysAndTyping",
	"TestEvaluateScript", "TestConsoleMessages", "TestNetworkRequests",
	"TestScreenshotFormats", "TestSlimNavigateEvaluateScreenshot",
	"TestNewPageSelectAndClose", "TestBackForwardReload",
	"TestEmulateViewport", "TestPerformanceTraceWithInteraction",
	"TestHTTPAnswersAsStdio", "TestStreamableHTTPWithTheOfficialSDK", "TestModernStdioDualEraProbe",
	"TestCLIStartStatusStop",
	"TestURLBlockAndAllowLists", "TestFilePathsStayInsideRoots", "TestSensitivePagesNeedConfirmation",
}

// selectQuick narrows the run to quick under -short, unless -run names
// tests itself. TestMain calls it once the flags are parsed.
func selectQuick() {
	run := flag.Lookup("test.run")
	if !testing.Short() || run == nil || run.Value.String() != "" {
		return
	}
	if err := run.Value.Set("^(" + strings.Join(quick, "|") + ")$"); err != nil {
		panic(err)
	}
}

// TestQuickSubsetExists checks that every name in quick is a test of this
// package, so that renaming one does not quietly shrink the -short run.
func TestQuickSubsetExists(t *testing.T) {
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	declared := map[string]bool{}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Test") {
				declared[fn.Name.Name] = true
			}
		}
	}
	for _, name := range quick {
		if !declared[name] {
			t.Errorf("quick names %s, which no *_test.go file of this package declares", name)
		}
	}
}
