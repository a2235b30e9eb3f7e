// Package tooltest runs tool calls against a tools.Server whose browser is
// a recorded Chromium (see internal/cdptest), and checks the answers an
// agent would read. The tools package tests its handlers with it, and the
// browser package tests the browser layer beneath them with the same
// scenarios; neither needs Chromium unless it re-records.
//
// The recordings are testdata/<scenario>.jsonl.gz. After changing a
// scenario, or when the browser layer sends other commands than when they
// were recorded, re-record them from Chromium (headless, --no-sandbox as
// root) with
//
//	DEVTOOLS_MCP_RECORD=1 go test -run TestScenarios ./tools/
//
// A recording is written only when its test passes against Chromium, so the
// expectations are checked against the real browser first.
package tooltest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/devtools-mcp/devtools-mcp/internal/browser"
	"github.com/devtools-mcp/devtools-mcp/internal/cdptest"
	"github.com/devtools-mcp/devtools-mcp/jsonrpc"
	"github.com/devtools-mcp/devtools-mcp/tools"
)

// here is this package's directory, where the recordings are kept.
var here = func() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}()

// Env is one tools.Server over one recorded browser.
type Env struct {
	T        testing.TB
	Server   *tools.Server
	Manager  *browser.Manager
	Scenario *cdptest.Scenario
	// Dir is a temporary directory for files the tools write.
	Dir string

	ctx  context.Context
	last string // the text of the latest answer that held a snapshot
	node string // the first node id of the latest answer listing nodes
	prev string // the text of the latest answer
	ext  string // the id of the extension installed last
}

// Start opens the recording name (testdata/name.jsonl.gz in this package),
// serving e2e/testdata's pages when re-recording, and returns a server
// with opts driving a browser.Manager with bopts (whose Dial it sets). The browser closes when the test ends.
func Start(t testing.TB, name string, opts tools.Options, bopts browser.Options) *Env {
	t.Helper()
	return start(t, cdptest.Open(t, recording(name), site()), opts, bopts)
}

// site serves e2e/testdata, the pages the end-to-end tests use too.
func site() http.Handler {
	return http.FileServer(http.Dir(Testdata()))
}

// Testdata is the directory of the end-to-end tests' pages and fixtures.
func Testdata() string { return filepath.Join(here, "..", "..", "e2e", "testdata") }

// Replay is Start for tests that script failures into the fake: it always
// replays, also while the scenarios are being re-recorded.
func Replay(t testing.TB, name string, opts tools.Options, bopts browser.Options) *Env {
	t.Helper()
	return start(t, cdptest.Replay(t, recording(name)), opts, bopts)
}

// recording is the path of the recording name.
func recording(name string) string { return filepath.Join(here, "testdata", name+".jsonl.gz") }

func start(t testing.TB, sc *cdptest.Scenario, opts tools.Options, bopts browser.Options) *Env {
	bopts.Dial = sc.Dial
	m := browser.NewManager(bopts)
	timeout := 20 * time.Second
	if cdptest.Rerecording() {
		timeout = 90 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	e := &Env{T: t, Server: tools.NewServer(opts, m, nil), Manager: m, Scenario: sc, Dir: t.TempDir(), ctx: ctx}
	t.Cleanup(func() {
		m.Close(ctx)
		cancel()
	})
	return e
}

// Answer is a tool's result as the agent reads it.
type Answer struct {
	Text    string
	IsError bool
	Images  int
}

// Call calls tool with args (JSON, with placeholders expanded; see Expand).
func (e *Env) Call(tool, args string) Answer {
	e.T.Helper()
	if args == "" {
		args = "{}"
	}
	res, err := e.Server.CallTool(e.ctx, tool, json.RawMessage(e.Expand(args)))
	if err != nil {
		var je *jsonrpc.Error
		if errors.As(err, &je) {
			return Answer{Text: je.Message, IsError: true}
		}
		e.T.Fatalf("%s %s: %v", tool, args, err)
	}
	var a Answer
	a.IsError = res.IsError
	var texts []string
	for _, c := range res.Content {
		switch c.Type {
		case "text":
			texts = append(texts, c.Text)
		case "image":
			a.Images++
		}
	}
	a.Text = strings.Join(texts, "\n")
	if strings.Contains(a.Text, "## Latest page snapshot") {
		e.last = a.Text
	}
	e.prev = a.Text
	if m := extRE.FindStringSubmatch(a.Text); m != nil {
		e.ext = m[1]
	}
	if m := nodeRE.FindStringSubmatch(a.Text); m != nil {
		e.node = m[1]
	}
	return a
}

var placeholder = regexp.MustCompile(`\{\{([a-z]+)(?::([^}]*))?\}\}`)

// Expand replaces the placeholders of s: {{site}} with the base URL of the
// recorded pages, {{crosssite}} with the same server under another site name, {{dir}} with Dir, and {{uid:label}} with the uid of the
// first element whose snapshot line (in the latest answer holding a
// snapshot) names label, {{id:text}} with the msgid or reqid of the first
// line of the previous answer that contains text, {{ext}} with the id of
// the extension installed last, and {{node}} with the first node id of the latest
// answer that listed heap snapshot nodes (a CSV table headed nodeId).
func (e *Env) Expand(s string) string {
	e.T.Helper()
	return placeholder.ReplaceAllStringFunc(s, func(m string) string {
		p := placeholder.FindStringSubmatch(m)
		switch p[1] {
		case "site":
			return e.Scenario.Site
		case "crosssite":
			return strings.Replace(e.Scenario.Site, "127.0.0.1", "localhost", 1)
		case "dir":
			return filepath.ToSlash(e.Dir)
		case "uid":
			return e.UID(p[2])
		case "id":
			return e.ID(p[2])
		case "ext":
			if e.ext == "" {
				e.T.Fatalf("no extension was installed yet")
			}
			return e.ext
		case "node":
			if e.node == "" {
				e.T.Fatalf("no answer listed heap snapshot nodes yet")
			}
			return e.node
		}
		e.T.Fatalf("unknown placeholder %s", m)
		return ""
	})
}

var (
	uidRE  = regexp.MustCompile(`uid=(\S+)`)
	nodeRE = regexp.MustCompile(`(?m)^nodeId,.*\n(\d+),`)
	extRE  = regexp.MustCompile(`Extension installed\. Id: ([a-p]{32})`)
)

// UID returns the uid of the first snapshot line whose name is label.
func (e *Env) UID(label string) string {
	e.T.Helper()
	for line := range strings.SplitSeq(e.last, "\n") {
		if strings.Contains(line, `"`+label+`"`) {
			if m := uidRE.FindStringSubmatch(line); m != nil {
				return m[1]
			}
		}
	}
	e.T.Fatalf("no snapshot line with uid contains %q in:\n%s", label, e.last)
	return ""
}

var listedID = regexp.MustCompile(`\b(?:msgid|reqid)=(\d+)`)

// ID returns the msgid or reqid of the first line of the previous answer
// that contains text.
func (e *Env) ID(text string) string {
	e.T.Helper()
	for line := range strings.SplitSeq(e.prev, "\n") {
		if m := listedID.FindStringSubmatch(line); m != nil && strings.Contains(line, text) {
			return m[1]
		}
	}
	e.T.Fatalf("no listed id on a line containing %q in:\n%s", text, e.prev)
	return ""
}

// Step is one tool call and what its answer must say.
type Step struct {
	Tool string
	Args string
	// Want are texts the answer contains (placeholders expanded); Not
	// texts it does not.
	Want, Not []string
	// Error says the answer is a tool error.
	Error bool
	// Images is how many images the answer carries.
	Images int
}

// Check calls s.Tool and checks the answer against s.
func (e *Env) Check(s Step) Answer {
	e.T.Helper()
	args := e.Expand(cmpOr(s.Args, "{}"))
	a := e.Call(s.Tool, args)
	if os.Getenv("TOOLTEST_SHOW") == "1" {
		e.T.Logf("%s %s ->\n%s", s.Tool, args, a.Text)
	}
	fail := func(format string, v ...any) {
		e.T.Helper()
		e.T.Errorf("%s %s: %s\nthe answer was:\n%s", s.Tool, args, fmt.Sprintf(format, v...), a.Text)
	}
	if a.IsError != s.Error {
		fail("error = %v, want %v", a.IsError, s.Error)
	}
	for _, w := range s.Want {
		if w = e.Expand(w); !strings.Contains(a.Text, w) {
			fail("the answer does not contain %q", w)
		}
	}
	for _, n := range s.Not {
		if n = e.Expand(n); strings.Contains(a.Text, n) {
			fail("the answer contains %q", n)
		}
	}
	if a.Images != s.Images {
		fail("%d images, want %d", a.Images, s.Images)
	}
	return a
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// Run starts the scenario's recording and checks its steps in order.
func Run(t *testing.T, sc Scenario) {
	t.Helper()
	e := start(t, cdptest.Open(t, recording(sc.Name), site(), sc.ChromeArgs...), sc.Options, sc.Browser)
	if sc.Setup != nil {
		sc.Setup(e)
	}
	for _, s := range sc.Steps {
		e.Check(s)
	}
	if sc.After != nil {
		sc.After(e)
	}
}

// WantFile checks that the tools wrote name in Dir and that it contains want.
func (e *Env) WantFile(name, want string) {
	e.T.Helper()
	b, err := os.ReadFile(filepath.Join(e.Dir, name))
	if err != nil {
		e.T.Errorf("the tools did not write %s: %v", name, err)
		return
	}
	if !strings.Contains(string(b), want) {
		e.T.Errorf("%s (%d bytes) does not contain %q", name, len(b), want)
	}
}

// Scenario is a named sequence of steps over one recording.
type Scenario struct {
	Name    string
	Options tools.Options
	Browser browser.Options
	Steps   []Step
	// ChromeArgs are added to Chromium's command line when recording.
	ChromeArgs []string
	// Setup, when set, runs before the steps, e.g. to put files in Dir.
	Setup func(e *Env)
	// After, when set, runs after the steps, e.g. to check files the tools wrote.
	After func(e *Env)
}
