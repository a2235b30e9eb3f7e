package tools_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/devtools-mcp/devtools-mcp/cdp"
	"github.com/devtools-mcp/devtools-mcp/internal/browser"
	"github.com/devtools-mcp/devtools-mcp/tools"
)

// TestNumbersOutOfRange checks that every kind of numeric argument is
// refused out of its range, before anything reaches the browser (here none
// can be reached), with a message naming the range: a window width that
// would kill Chrome, 1e100 that an int conversion would turn negative.
func TestNumbersOutOfRange(t *testing.T) {
	m := browser.NewManager(browser.Options{Dial: func(context.Context) (cdp.Transport, error) {
		return nil, errors.New("no Chrome here")
	}})
	s := tools.NewServer(tools.Options{Conditions: map[tools.Condition]bool{tools.ConditionMemoryDebugging: true, tools.ConditionExperimentalVision: true}}, m, nil)
	for _, c := range []struct{ tool, args, want string }{
		{"resize_page", `{"width":2147483647,"height":600}`, `argument "width" is 2.147483647e+09; give CSS pixels from 1 to 10000`},
		{"resize_page", `{"width":800,"height":-1}`, `argument "height" is -1; give CSS pixels from 1 to 10000`},
		{"resize_page", `{"width":1e100,"height":600}`, `give CSS pixels from 1 to 10000`},
		{"get_console_message", `{"msgid":1e100}`, `argument "msgid" is 1e+100; give a whole number from 0 to 9007199254740991`},
		{"get_console_message", `{"msgid":-3}`, `give a whole number from 0 to 9007199254740991`},
		{"get_network_request", `{"reqid":1.5}`, `argument "reqid" is 1.5; give a whole number`},
		{"select_page", `{"pageId":1e100}`, `pageId must be a whole number from list_pages, got 1e+100`},
		{"close_page", `{"pageId":-1}`, `pageId must be a whole number from list_pages, got -1`},
		{"list_network_requests", `{"pageSize":1e100}`, `give a whole number from 0 to 2147483647`},
		{"take_snapshot", `{"maxChars":-5}`, `argument "maxChars" is -5; give a whole number from 0 to 2147483647`},
		{"click_at", `{"x":1e300,"y":1}`, `argument "x" is 1e+300; give a number from -9007199254740991 to 9007199254740991`},
		{"wait_for", `{"text":["a"],"timeout":1e100}`, `give milliseconds from 1 to 600000`},
		{"get_heapsnapshot_retaining_paths", `{"filePath":"/x.heapsnapshot","nodeId":1,"maxDepth":1e100}`, `argument "maxDepth" is 1e+100`},
	} {
		res, err := s.CallTool(context.Background(), c.tool, []byte(c.args))
		if err != nil {
			t.Fatalf("%s %s: %v", c.tool, c.args, err)
		}
		var b strings.Builder
		for _, part := range res.Content {
			b.WriteString(part.Text)
		}
		if got := b.String(); !res.IsError || !strings.Contains(got, c.want) {
			t.Errorf("%s %s = %q (error %v), want an error with %q", c.tool, c.args, got, res.IsError, c.want)
		}
	}
}
