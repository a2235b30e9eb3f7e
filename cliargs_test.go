package main

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
	}
	for _, tc := range cases {
		call, err := parseToolArgs(params, tc.argv)
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
