// Command demo runs devtools-mcp against a small local page and prints what
// an MCP client, such as a coding agent, sees: the server's name, the tools
// it lists and the answers to a few tool calls.
//
// It speaks newline-delimited JSON-RPC to the server's stdin and stdout
// through jsonrpc.Client, the client side of the server's own framing, so
// the transcript is exactly what goes over the wire, minus the framing. The
// calls it makes depend on the tools listed, so it keeps working as the tool
// set grows.
//
// Usage:
//
//	go run ./internal/demo ./devtools-mcp
package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // lets image.DecodeConfig read JPEG screenshots
	_ "image/png"  // and PNG ones, the default
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/devtools-mcp/devtools-mcp/jsonrpc"
)

// samplePage is the page the demo drives: a support form with the usual
// controls, each labelled, so the accessibility snapshot has names to show.
const samplePage = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Contact support - Acme</title></head>
<body>
  <h1>Contact support</h1>
  <form action="/ticket" method="post">
    <label for="name">Your name</label>
    <input id="name" name="name" autocomplete="name">
    <label for="email">Email</label>
    <input id="email" name="email" type="email" required>
    <label for="topic">Topic</label>
    <select id="topic" name="topic">
      <option>Billing</option>
      <option selected>Technical problem</option>
      <option>Something else</option>
    </select>
    <label><input type="checkbox" name="copy" checked> Send me a copy</label>
    <button type="submit">Open ticket</button>
  </form>
  <p><a href="/faq">Read the FAQ first</a></p>
</body>
</html>
`

// callTimeout bounds each request; the first tool call launches Chrome.
const callTimeout = 60 * time.Second

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./internal/demo ./devtools-mcp")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintf(os.Stderr, "\ndemo failed: %v\n", err)
		os.Exit(1)
	}
}

// run serves the sample page, starts the server and walks through the calls.
func run(binary string) error {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, samplePage)
	}))
	defer site.Close()
	page := site.URL + "/"
	fmt.Printf("Sample page: %s\n", page)

	args := []string{"--headless", "--isolated"}
	c, tools, err := connect(binary, args)
	if err != nil {
		return err
	}
	// Until the full tool set has navigation, fall back to the --slim tools.
	if !slices.Contains(tools, "navigate_page") && !slices.Contains(tools, "navigate") {
		fmt.Println("The default tool set has no navigation tool yet; restarting with --slim.")
		c.close()
		args = append(args, "--slim")
		if c, tools, err = connect(binary, args); err != nil {
			return err
		}
	}
	defer c.close()

	for _, s := range plan(tools, page) {
		if s.tool == "" {
			fmt.Printf("\n(no %s tool listed; skipped)\n", s.what)
			continue
		}
		if err := c.call(s.tool, s.args); err != nil {
			return c.withStderr(fmt.Errorf("%s: %w", s.tool, err))
		}
	}
	return nil
}

// step is one tool call of the demo; tool is empty when the server lists no
// tool for it.
type step struct {
	what, tool string
	args       map[string]any
}

// plan picks the calls to make from the listed tools, preferring the full
// tool set's names over the --slim ones.
func plan(tools []string, page string) []step {
	has := func(name string) bool { return slices.Contains(tools, name) }
	var steps []step
	if has("navigate_page") {
		steps = append(steps, step{"navigation", "navigate_page", map[string]any{"type": "url", "url": page}})
	} else {
		steps = append(steps, step{"navigation", "navigate", map[string]any{"url": page}})
	}
	if has("take_snapshot") {
		steps = append(steps, step{"snapshot", "take_snapshot", map[string]any{}})
	}
	switch {
	case has("evaluate_script"):
		steps = append(steps, step{"script", "evaluate_script", map[string]any{"function": "() => document.title"}})
	case has("evaluate"):
		steps = append(steps, step{"script", "evaluate", map[string]any{"script": "document.title"}})
	default:
		steps = append(steps, step{what: "script"})
	}
	switch {
	case has("take_screenshot"):
		steps = append(steps, step{"screenshot", "take_screenshot", map[string]any{}})
	case has("screenshot"):
		steps = append(steps, step{"screenshot", "screenshot", map[string]any{}})
	default:
		steps = append(steps, step{what: "screenshot"})
	}
	if has("list_pages") {
		steps = append(steps, step{"page list", "list_pages", map[string]any{}})
	}
	return steps
}

// connect starts the server with args, initializes the session and lists the
// tools, printing both.
func connect(binary string, args []string) (*client, []string, error) {
	fmt.Printf("\n$ %s %s\n", binary, strings.Join(args, " "))
	c, err := start(binary, args)
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	info, err := c.rpc.Initialize(ctx, jsonrpc.ServerInfo{Name: "devtools-mcp-demo", Version: "1"})
	var list struct{ Tools []struct{ Name string } }
	if err == nil {
		err = c.request("tools/list", map[string]any{}, &list)
	}
	if err != nil {
		return nil, nil, c.withStderr(err)
	}
	fmt.Printf("Server: %s %s (MCP %s)\n", info.ServerInfo.Name, info.ServerInfo.Version, info.ProtocolVersion)
	var names []string
	for _, t := range list.Tools {
		names = append(names, t.Name)
	}
	shown := strings.Join(names, ", ")
	if shown == "" {
		shown = "none"
	}
	fmt.Printf("Tools (%d): %s\n", len(names), shown)
	return c, names, nil
}

// client is one running server and the MCP connection to its stdio.
type client struct {
	cmd    *exec.Cmd
	rpc    *jsonrpc.Client
	stderr bytes.Buffer // read only after the server exited
	closed bool
}

// stdio joins the server's stdout and stdin into one connection; closing
// it closes stdin, which ends the server's session.
type stdio struct {
	io.Reader
	io.WriteCloser
}

// start runs the server. Its stderr is kept, to be shown if something fails.
func start(binary string, args []string) (*client, error) {
	c := &client{cmd: exec.Command(binary, args...)}
	c.cmd.Stderr = &c.stderr
	stdin, err := c.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := c.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := c.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", binary, err)
	}
	c.rpc = jsonrpc.NewClient(stdio{stdout, stdin})
	return c, nil
}

// request sends a request and decodes the result of its response into out,
// waiting at most callTimeout.
func (c *client) request(method string, params, out any) error {
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	err := c.rpc.Call(ctx, method, params, out)
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%s: no answer within %s", method, callTimeout)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	return nil
}

// call runs a tool and prints the call and its answer: text indented, images
// as their type and size. A tool that reports an error is an error.
func (c *client) call(name string, args map[string]any) error {
	var shown bytes.Buffer
	enc := json.NewEncoder(&shown)
	enc.SetEscapeHTML(false) // show "=>" as typed
	enc.Encode(args)
	fmt.Printf("\n> %s %s", name, shown.Bytes())
	var res struct {
		IsError bool `json:"isError"`
		Content []struct {
			Type, Text, Data, MimeType string
		}
	}
	if err := c.request("tools/call", map[string]any{"name": name, "arguments": args}, &res); err != nil {
		return err
	}
	var texts []string
	for _, part := range res.Content {
		switch part.Type {
		case "text":
			texts = append(texts, part.Text)
			printIndented(part.Text)
		case "image":
			fmt.Printf("    [%s]\n", describeImage(part.MimeType, part.Data))
		default:
			fmt.Printf("    [%s content]\n", part.Type)
		}
	}
	if res.IsError {
		return fmt.Errorf("the tool reported an error: %s", strings.Join(texts, "\n"))
	}
	return nil
}

// maxLines caps how much of one answer is printed.
const maxLines = 60

// printIndented prints text four spaces in, cut after maxLines lines.
func printIndented(text string) {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	for i, l := range lines {
		if i == maxLines {
			fmt.Printf("    ... (%d more lines)\n", len(lines)-maxLines)
			break
		}
		fmt.Printf("    %s\n", l)
	}
}

// describeImage gives an image's type and pixel size, e.g. "image/png, 800x600".
func describeImage(mimeType, data string) string {
	raw, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return fmt.Sprintf("%s, bad base64: %v", mimeType, err)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(raw))
	if err != nil {
		return fmt.Sprintf("%s, %d bytes", mimeType, len(raw))
	}
	return fmt.Sprintf("%s, %dx%d", mimeType, cfg.Width, cfg.Height)
}

// close ends the session by closing stdin, as MCP clients do, and waits for
// the server to close Chrome and exit; it is killed if it takes too long.
func (c *client) close() {
	if c.closed {
		return
	}
	c.closed = true
	c.rpc.Close()
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		c.cmd.Process.Kill()
		<-done
	}
}

// withStderr stops the server and adds what it logged to err, for a
// clearer failure.
func (c *client) withStderr(err error) error {
	c.close()
	if s := strings.TrimSpace(c.stderr.String()); s != "" {
		return errors.Join(err, fmt.Errorf("server stderr:\n%s", s))
	}
	return err
}
