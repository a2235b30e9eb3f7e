package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// MCP 2026-07-28 (stateless) driven by raw JSON-RPC, following the
// specification's own examples: no initialize, every request carrying
// its protocol version and client capabilities in _meta.

// rpcReply is one JSON-RPC response, with the notifications that came
// before it.
type rpcReply struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
	notes []string // raw notifications received before the response
}

// modernMeta is the _meta of a 2026-07-28 request with caps as the
// client's capabilities.
func modernMeta(caps map[string]any) map[string]any {
	if caps == nil {
		caps = map[string]any{}
	}
	return map[string]any{
		"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
		"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "ExampleClient", "version": "1.0.0"},
		"io.modelcontextprotocol/clientCapabilities": caps,
	}
}

// toolCall is the params of a 2026-07-28 tools/call.
func toolCall(caps map[string]any, name string, args map[string]any) map[string]any {
	if args == nil {
		args = map[string]any{}
	}
	return map[string]any{"_meta": modernMeta(caps), "name": name, "arguments": args}
}

// stdioPeer speaks raw JSON-RPC lines to a devtools-mcp on its stdin and stdout.
type stdioPeer struct {
	t     *testing.T
	in    io.WriteCloser
	lines chan string
	id    atomic.Int64
}

func startStdioPeer(t *testing.T, args ...string) *stdioPeer {
	t.Helper()
	cmd := serverCommand(args...)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &stdioPeer{t: t, in: in, lines: make(chan string, 100)}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	t.Cleanup(func() {
		in.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("server stderr:\n%s", stderr.String())
		}
	})
	return p
}

// call sends a request and waits for its response.
func (p *stdioPeer) call(method string, params any) rpcReply {
	p.t.Helper()
	id := p.id.Add(1)
	line, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if _, err := fmt.Fprintf(p.in, "%s\n", line); err != nil {
		p.t.Fatal(err)
	}
	var notes []string
	timeout := time.After(60 * time.Second)
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				p.t.Fatalf("%s: the server closed stdout", method)
			}
			var r rpcReply
			if err := json.Unmarshal([]byte(l), &r); err != nil {
				p.t.Fatalf("stdout line is not JSON: %q", l)
			}
			if r.ID == nil {
				if strings.Contains(l, `"method":"roots/list"`) || strings.Contains(l, `"method":"elicitation/create"`) {
					p.t.Fatalf("the server sent a request to a 2026-07-28 client: %s", l)
				}
				notes = append(notes, l)
				continue
			}
			if string(r.ID) != fmt.Sprint(id) {
				p.t.Fatalf("response to id %s while waiting for %d: %s", r.ID, id, l)
			}
			r.notes = notes
			return r
		case <-timeout:
			p.t.Fatalf("%s: no response", method)
		}
	}
}

// complete asserts a complete 2026-07-28 result and decodes it into v.
func (r rpcReply) complete(t *testing.T, v any) {
	t.Helper()
	if r.Error != nil {
		t.Fatalf("error %d: %s", r.Error.Code, r.Error.Message)
	}
	var base struct {
		ResultType string `json:"resultType"`
		Meta       struct {
			ServerInfo struct{ Name, Version string } `json:"io.modelcontextprotocol/serverInfo"`
		} `json:"_meta"`
	}
	if err := json.Unmarshal(r.Result, &base); err != nil || base.ResultType != "complete" || base.Meta.ServerInfo.Name != "chrome_devtools" || base.Meta.ServerInfo.Version != version {
		t.Fatalf("not a complete 2026-07-28 result: %.500s", r.Result)
	}
	if v != nil {
		if err := json.Unmarshal(r.Result, v); err != nil {
			t.Fatal(err)
		}
	}
}

// text returns the text of a complete tools/call result, failing on isError.
func (r rpcReply) text(t *testing.T) string {
	t.Helper()
	var res struct {
		Content []struct{ Text string } `json:"content"`
		IsError bool                    `json:"isError"`
	}
	r.complete(t, &res)
	var b strings.Builder
	for _, c := range res.Content {
		b.WriteString(c.Text)
	}
	if res.IsError {
		t.Fatalf("tool error: %s", b.String())
	}
	return b.String()
}

func TestModernStdioDualEraProbe(t *testing.T) {
	site := pages(t, map[string]string{"/hello": `<title>Hello modern</title><h1>Hi</h1>`})
	p := startStdioPeer(t, headless...)

	// The probe a dual-era client sends first on stdio.
	var disc struct {
		SupportedVersions []string `json:"supportedVersions"`
		Capabilities      struct {
			Tools *struct{} `json:"tools"`
		} `json:"capabilities"`
		Instructions string `json:"instructions"`
		TTLMs        *int64 `json:"ttlMs"`
		CacheScope   string `json:"cacheScope"`
	}
	p.call("server/discover", map[string]any{"_meta": modernMeta(nil)}).complete(t, &disc)
	if disc.SupportedVersions[0] != "2026-07-28" || !slices.Contains(disc.SupportedVersions, "2025-11-25") || disc.Capabilities.Tools == nil ||
		disc.Instructions == "" || disc.TTLMs == nil || disc.CacheScope != "public" {
		t.Fatalf("server/discover = %+v", disc)
	}

	var list struct {
		Tools      []struct{ Name string } `json:"tools"`
		TTLMs      *int64                  `json:"ttlMs"`
		CacheScope string                  `json:"cacheScope"`
	}
	p.call("tools/list", map[string]any{"_meta": modernMeta(nil)}).complete(t, &list)
	if len(list.Tools) < 20 || list.TTLMs == nil || *list.TTLMs <= 0 || list.CacheScope != "public" {
		t.Fatalf("tools/list: %d tools, ttl %v, scope %q", len(list.Tools), list.TTLMs, list.CacheScope)
	}
	mustContain(t, p.call("tools/call", toolCall(nil, "navigate_page", map[string]any{"url": site.URL + "/hello"})).text(t), "Hello modern")
	mustContain(t, p.call("tools/call", toolCall(nil, "take_snapshot", nil)).text(t), `heading "Hi"`)

	// Progress, as in 2025: on the request it belongs to.
	params := toolCall(nil, "wait_for", map[string]any{"text": []string{"Hi"}})
	params["_meta"].(map[string]any)["progressToken"] = "p1"
	p.call("tools/call", params).text(t)

	// A version it does not speak gets the versions it does.
	bad := p.call("tools/list", map[string]any{"_meta": map[string]any{
		"io.modelcontextprotocol/protocolVersion": "1900-01-01", "io.modelcontextprotocol/clientCapabilities": map[string]any{}}})
	if bad.Error == nil || bad.Error.Code != -32022 || !strings.Contains(string(bad.Error.Data), `"supported":["2026-07-28","2025-11-25"`) || !strings.Contains(string(bad.Error.Data), `"requested":"1900-01-01"`) {
		t.Fatalf("unsupported version answer = %+v", bad.Error)
	}

	// The same process then serves a 2025-era client.
	var init struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	r := p.call("initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "old", "version": "1"}})
	if json.Unmarshal(r.Result, &init); init.ProtocolVersion != "2025-11-25" || strings.Contains(string(r.Result), "resultType") {
		t.Fatalf("initialize = %s", r.Result)
	}
}

func TestModernFilesWithoutRoots(t *testing.T) {
	ws := t.TempDir()
	p := startStdioPeer(t, append(headless, "--workspace="+ws)...)
	// A 2026-07-28 client declaring roots is still never asked for them
	// (stdioPeer fails on roots/list): files go where the flags say.
	caps := map[string]any{"roots": map[string]any{}}
	p.call("tools/call", toolCall(caps, "navigate_page", map[string]any{"url": "about:blank"})).text(t)
	inside := filepath.Join(ws, "shot.png")
	p.call("tools/call", toolCall(caps, "take_screenshot", map[string]any{"filePath": inside})).text(t)
	if _, err := os.Stat(inside); err != nil {
		t.Fatalf("screenshot inside --workspace not written: %v", err)
	}
	outside := filepath.Join(t.TempDir(), "shot.png")
	r := p.call("tools/call", toolCall(caps, "take_screenshot", map[string]any{"filePath": outside}))
	if !strings.Contains(string(r.Result), `"isError":true`) || !strings.Contains(string(r.Result), "outside") {
		t.Fatalf("screenshot outside --workspace = %s", r.Result)
	}
}

func TestModernSensitivePageConfirmationIsMultiRoundTrip(t *testing.T) {
	site := pages(t, map[string]string{"/bank/": `<title>Bank</title><button onclick="document.title='paid'">Pay</button>`})
	config := t.TempDir()
	os.MkdirAll(filepath.Join(config, "devtools-mcp"), 0o700)
	os.WriteFile(filepath.Join(config, "devtools-mcp", "sensitive-patterns.txt"), []byte(site.URL+"/bank/*\n"), 0o600)
	t.Setenv("XDG_CONFIG_HOME", config)
	p := startStdioPeer(t, append(headless, "--sensitivePages=on")...)

	forms := map[string]any{"elicitation": map[string]any{"form": map[string]any{}}}
	p.call("tools/call", toolCall(forms, "navigate_page", map[string]any{"url": site.URL + "/bank/"})).text(t)
	pay := uidOf(t, p.call("tools/call", toolCall(forms, "take_snapshot", nil)).text(t), `button "Pay"`)
	title := func() string {
		return p.call("tools/call", toolCall(forms, "take_snapshot", nil)).text(t)
	}

	click := toolCall(forms, "click", map[string]any{"uid": pay})
	first := p.call("tools/call", click)
	var ir struct {
		ResultType    string `json:"resultType"`
		InputRequests map[string]struct {
			Method string `json:"method"`
			Params struct {
				Mode    string `json:"mode"`
				Message string `json:"message"`
			} `json:"params"`
		} `json:"inputRequests"`
		RequestState string `json:"requestState"`
	}
	if err := json.Unmarshal(first.Result, &ir); err != nil || ir.ResultType != "input_required" || len(ir.InputRequests) != 1 || ir.RequestState == "" {
		t.Fatalf("guarded click = %s %+v", first.Result, first.Error)
	}
	var key string
	for k, req := range ir.InputRequests {
		key = k
		if req.Method != "elicitation/create" || req.Params.Mode != "form" {
			t.Fatalf("input request = %+v", req)
		}
		mustContain(t, req.Params.Message, "click", site.URL+"/bank/", site.URL+"/bank/*")
	}
	// Nothing reached the page while the question was open.
	mustContain(t, title(), `RootWebArea "Bank"`)

	retry := func(action, state string) rpcReply {
		params := toolCall(forms, "click", map[string]any{"uid": pay})
		params["inputResponses"] = map[string]any{key: map[string]any{"action": action}}
		params["requestState"] = state
		return p.call("tools/call", params)
	}
	declined := retry("decline", ir.RequestState)
	mustContain(t, string(declined.Result), `"isError":true`, "you declined")
	mustContain(t, title(), `RootWebArea "Bank"`)
	// An answer counts once: the spent state gets the question again.
	again := retry("accept", ir.RequestState)
	var ir2 struct {
		ResultType   string `json:"resultType"`
		RequestState string `json:"requestState"`
	}
	if json.Unmarshal(again.Result, &ir2); ir2.ResultType != "input_required" {
		t.Fatalf("a spent requestState counted: %s", again.Result)
	}
	mustContain(t, title(), `RootWebArea "Bank"`)
	retry("accept", ir2.RequestState).text(t)
	mustContain(t, title(), `RootWebArea "paid"`)

	// A client that cannot show forms gets the specified error.
	r := p.call("tools/call", toolCall(nil, "click", map[string]any{"uid": pay}))
	if r.Error == nil || r.Error.Code != -32021 || !strings.Contains(string(r.Error.Data), "elicitation") {
		t.Fatalf("guarded click without elicitation = %s %+v", r.Result, r.Error)
	}
}

// TestModernLongCallAsTask runs a heap snapshot as a task of the tasks
// extension for a client that declares it: the call answers at once with
// a task handle, and tasks/get gives the tool's answer once it is done.
func TestModernLongCallAsTask(t *testing.T) {
	ws := t.TempDir()
	p := startStdioPeer(t, append(headless, "--workspace="+ws)...)
	tasks := map[string]any{"extensions": map[string]any{"io.modelcontextprotocol/tasks": map[string]any{}}}
	p.call("tools/call", toolCall(tasks, "navigate_page", map[string]any{"url": "about:blank"})).text(t)

	path := filepath.Join(ws, "heap.heapsnapshot")
	r := p.call("tools/call", toolCall(tasks, "take_heapsnapshot", map[string]any{"filePath": path}))
	var task struct {
		ResultType     string          `json:"resultType"`
		TaskID         string          `json:"taskId"`
		Status         string          `json:"status"`
		PollIntervalMs int             `json:"pollIntervalMs"`
		Result         json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(r.Result, &task); err != nil || task.ResultType != "task" || task.TaskID == "" || task.Status != "working" {
		t.Fatalf("take_heapsnapshot with the tasks extension = %s %+v", r.Result, r.Error)
	}
	deadline := time.Now().Add(60 * time.Second)
	for task.Status == "working" {
		if time.Now().After(deadline) {
			t.Fatal("the task did not finish within 60s")
		}
		time.Sleep(time.Duration(task.PollIntervalMs) * time.Millisecond) // the interval the server asks for
		p.call("tasks/get", map[string]any{"_meta": modernMeta(tasks), "taskId": task.TaskID}).complete(t, &task)
	}
	if task.Status != "completed" || !strings.Contains(string(task.Result), "heap.heapsnapshot") || !strings.Contains(string(task.Result), `"resultType":"complete"`) {
		t.Fatalf("finished task: %s %s", task.Status, task.Result)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the snapshot was not written: %v", err)
	}
	// Without the extension the same call answers in place.
	mustContain(t, p.call("tools/call", toolCall(nil, "take_heapsnapshot", map[string]any{"filePath": filepath.Join(ws, "again")})).text(t), "again.heapsnapshot")
}
