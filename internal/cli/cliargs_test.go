package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestParseToolArgs(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{
		"pageId":{"type":"number"},
		"uid":{"type":"string"},
		"texts":{"type":["null","array"],"items":{"type":"string"}},
		"filePath":{"type":"string"},
		"kinds":{"type":["null","array"],"items":{"type":"string","enum":["a","b"]}},
		"verbose":{"type":"boolean"},
		"timeout":{"type":"integer"}},
		"required":["texts","uid"]}`)
	params, err := toolParams(schema)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, p := range params {
		order = append(order, p.name)
	}
	if got := strings.Join(order, " "); got != "texts uid pageId filePath kinds verbose timeout" {
		t.Fatalf("parameter order = %s; want the required list's order, then the properties'", got)
	}
	cwd, _ := os.Getwd()
	cases := []struct {
		argv []string
		want string // JSON of the arguments, or the error
		json bool
	}{
		{[]string{"one", "u1"}, `{"texts":["one"],"uid":"u1"}`, false},
		{[]string{`["x","y"]`, "u1", "--page-id", "2", "--timeout=500", "--verbose"}, `{"pageId":2,"texts":["x","y"],"timeout":500,"uid":"u1","verbose":true}`, false},
		{[]string{"--uid", "u1", "--texts", "x", "--texts", "y", "--verbose=false", "--output-format", "json"}, `{"texts":["x","y"],"uid":"u1","verbose":false}`, true},
		{[]string{"--kinds", "a", "--kinds", "b", "--", "-x", "--u"}, `{"kinds":["a","b"],"texts":["-x"],"uid":"--u"}`, false},
		{[]string{"t", "u", "--filePath", "out.json"}, `{"filePath":` + strconv.Quote(filepath.Join(cwd, "out.json")) + `,"texts":["t"],"uid":"u"}`, false},
		{[]string{"t", "u", "--pageId", "-1.5"}, `{"pageId":-1.5,"texts":["t"],"uid":"u"}`, false},
		{[]string{"t"}, "missing the required argument <uid>", false},
		{[]string{"t", "u", "extra"}, `unexpected argument "extra"`, false},
		{[]string{"t", "u", "--kinds", "c"}, "<kinds> must be one of a, b", false},
		{[]string{"t", "u", "--timeout", "1.5"}, "<timeout> must be a whole number", false},
		{[]string{"t", "u", "--pageId", "NaN"}, "<pageId> must be a number", false},
		{[]string{"t", "u", "--verbose=maybe"}, "<verbose> must be true or false", false},
		{[]string{"[1,", "u"}, "<texts> is not a valid JSON array", false},
		{[]string{"t", "u", "--nope"}, "unknown option --nope; the options are --pageId, --filePath, --kinds, --verbose, --timeout", false},
		// A switch takes a following true or false, as in the reference.
		{[]string{"t", "u", "--verbose", "false"}, `{"texts":["t"],"uid":"u","verbose":false}`, false},
		{[]string{"--verbose", "true", "t", "u"}, `{"texts":["t"],"uid":"u","verbose":true}`, false},
		{[]string{"--verbose", "t", "u"}, `{"texts":["t"],"uid":"u","verbose":true}`, false},
		// An option fills its slot; positionals fill the others.
		{[]string{"--texts", "x", "u"}, `{"texts":["x"],"uid":"u"}`, false},
		{[]string{"t", "u", "--output-format", "md"}, `{"texts":["t"],"uid":"u"}`, false},
		{[]string{"t", "u", "--output-format", "xml"}, "--output-format must be md (or text) or json", false},
	}
	for _, tc := range cases {
		call, err := parseToolArgs("some_tool", params, tc.argv, grammar{prog: "devtools-mcp"})
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			b, _ := json.Marshal(call.args)
			got = string(b)
			if call.json != tc.json {
				t.Errorf("%q: json output = %v", tc.argv, call.json)
			}
		}
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("%q:\n got %s\nwant %s", tc.argv, got, tc.want)
		}
	}
}

// TestRefGrammar checks the reference's chrome-devtools grammar: the page id
// first for page tools, evaluate_script's function first and its page as
// an option.
func TestRefGrammar(t *testing.T) {
	click, err := toolParams(json.RawMessage(`{"type":"object","properties":{
		"pageId":{"type":"number"},"uid":{"type":"string"},"dblClick":{"type":"boolean"}},"required":["uid"]}`))
	if err != nil {
		t.Fatal(err)
	}
	eval, err := toolParams(json.RawMessage(`{"type":"object","properties":{
		"pageId":{"type":"number"},"function":{"type":"string"},"args":{"type":"array","items":{"type":"string"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	heap, err := toolParams(json.RawMessage(`{"type":"object","properties":{
		"filePath":{"type":"string"},"id":{"type":"number"}},"required":["filePath","id"]}`))
	if err != nil {
		t.Fatal(err)
	}
	ref := grammar{prog: "chrome-devtools", ref: true}
	ours := grammar{prog: "devtools-mcp"}
	cases := []struct {
		tool   string
		params []param
		g      grammar
		argv   []string
		want   string
	}{
		{"click", click, ref, []string{"1", "1_2", "--dblClick", "true"}, `{"dblClick":true,"pageId":1,"uid":"1_2"}`},
		{"click", click, ref, []string{"--pageId", "2", "1_2"}, `{"pageId":2,"uid":"1_2"}`},
		{"click", click, ref, []string{"1_2"}, "<pageId> must be a number"},
		{"click", click, ref, []string{"1"}, "missing the required argument <uid>"},
		{"click", click, ours, []string{"1_2"}, `{"uid":"1_2"}`},
		{"click", click, ours, []string{"1", "1_2"}, `unexpected argument "1_2"`},
		{"evaluate_script", eval, ref, []string{"() => document.title", "--pageId", "1"}, `{"function":"() =\u003e document.title","pageId":1}`},
		{"evaluate_script", eval, ref, []string{"--pageId", "1"}, `{"pageId":1}`},
		{"evaluate_script", eval, ours, []string{"() => 1"}, `{"function":"() =\u003e 1"}`},
		{"evaluate_script", eval, ours, []string{"() => 1", "extra"}, `unexpected argument "extra"`},
		{"get_heapsnapshot_class_nodes", heap, ref, []string{"/s.heapsnapshot", "18"}, `{"filePath":"/s.heapsnapshot","id":18}`},
	}
	for _, tc := range cases {
		call, err := parseToolArgs(tc.tool, tc.params, tc.argv, tc.g)
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			b, _ := json.Marshal(call.args)
			got = string(b)
		}
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s %s %q:\n got %s\nwant %s", tc.g.prog, tc.tool, tc.argv, got, tc.want)
		}
	}
}

func TestCutSessionID(t *testing.T) {
	t.Setenv(refSessionEnv, "")
	rest, id, err := cutSessionID([]string{"click", "--sessionId", "ab-12", "1", "u", "--", "--sessionId=x"})
	if err != nil || id != "ab-12" || strings.Join(rest, " ") != "click 1 u -- --sessionId=x" {
		t.Errorf("got %q %q %v", rest, id, err)
	}
	if _, _, err := cutSessionID([]string{"list_pages", "--sessionId=../x"}); err == nil {
		t.Error("a session id with a path in it was accepted")
	}
	t.Setenv(refSessionEnv, "beef")
	if _, id, _ := cutSessionID([]string{"list_pages"}); id != "beef" {
		t.Errorf("the environment's session id was not used: %q", id)
	}
}
