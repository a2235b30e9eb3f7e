package tools

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/devtools-mcp/devtools-mcp/internal/browser"
	"github.com/devtools-mcp/devtools-mcp/jsonrpc"
	"github.com/devtools-mcp/devtools-mcp/snapshot"
)

// Response is what a handler fills: text lines, images, and which sections
// the server appends (the page list, ...). Handlers never format sections
// themselves, so every tool shows them the same way.
type Response struct {
	lines        []string
	images       []jsonrpc.Content
	includePages bool
	pageTools    bool
	snapshot     *snapshotRequest
	err          error
	structured   map[string]any // the tool's own structured fields (Set)
}

// snapshotRequest says how to render the page snapshot appended to a response.
type snapshotRequest struct {
	verbose  bool
	uid      string
	maxChars int
	filePath string
	taken    *snapshot.Snapshot // the snapshot rendered, for structured content
}

// defaultSnapshotChars caps inline snapshots so one big page cannot flood
// the agent's context; filePath saves the whole tree.
const defaultSnapshotChars = 60000

// Linef appends one line (or several, if the text has newlines) of text.
func (r *Response) Linef(format string, args ...any) {
	r.lines = append(r.lines, fmt.Sprintf(format, args...))
}

// Image appends an image content block.
func (r *Response) Image(data []byte, mimeType string) {
	r.images = append(r.images, jsonrpc.ImageContent(data, mimeType))
}

// IncludePages appends the page list to the answer, for tools that change
// which pages exist or which one is selected.
func (r *Response) IncludePages() { r.includePages = true }

// IncludePageTools appends the tools the page exposes itself (third-party
// developer tools, WebMCP tools) when those categories are on, for tools
// that navigate or switch pages.
func (r *Response) IncludePageTools() { r.pageTools = true }

// IncludeSnapshot appends a snapshot of the page acted on.
func (r *Response) IncludeSnapshot(verbose bool) {
	r.snapshot = &snapshotRequest{verbose: verbose, maxChars: defaultSnapshotChars}
}

// Error marks the call failed with err; lines written so far are kept.
func (r *Response) Error(err error) { r.err = err }

// result renders the response as an MCP tool result.
func (r *Response) result(ctx context.Context, c *Call) *jsonrpc.CallToolResult {
	var b strings.Builder
	for _, l := range r.lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	if r.err == nil && r.snapshot != nil && c.Page != nil {
		if err := writeSnapshot(ctx, c, &b, r.snapshot); err != nil {
			r.err = stoppedBy(ctx, err)
		}
	}
	if r.err != nil {
		b.WriteString(r.err.Error())
		b.WriteByte('\n')
	}
	if c.Page != nil {
		if d := c.Page.Dialog(); d != nil {
			fmt.Fprintf(&b, "# Open dialog\n%s: %s", d.Type, c.pageText(d.Message))
			if d.Type == "prompt" {
				fmt.Fprintf(&b, " (default value: %q)", c.pageText(d.DefaultPrompt))
			}
			b.WriteString(".\nCall handle_dialog to accept or dismiss it before continuing.\n")
		}
	}
	if r.includePages && c.Browser != nil {
		if err := c.Browser.Refresh(ctx); err != nil {
			fmt.Fprintf(&b, "(titles may be out of date: %v)\n", err)
		}
		b.WriteString("## Pages\n")
		writePages(&b, c.Browser, c.attached())
	}
	if r.pageTools && r.err == nil {
		writePageTools(ctx, &b, c)
	}
	res := &jsonrpc.CallToolResult{IsError: r.err != nil}
	text, saved := capAnswer(strings.TrimRight(b.String(), "\n"))
	if text != "" || len(r.images) == 0 {
		res.Content = append(res.Content, jsonrpc.TextContent(text))
	}
	res.Content = append(res.Content, r.images...)
	if c.Server != nil && c.Server.opts.StructuredContent {
		sc := r.structuredContent(c)
		for _, k := range []string{"message", "errorMessage"} {
			if m, ok := sc[k].(string); ok && len(m) > maxAnswer {
				sc[k] = cutAnswer(m, len(m), saved)
			}
		}
		res.StructuredContent = sc
	}
	return res
}

// maxAnswer is the most bytes of text an answer carries, well above a
// snapshot's default cap (defaultSnapshotChars): a script's result, a
// request body or a console message can be any size, and an answer of
// hundreds of megabytes swamps the client and the server's memory.
const maxAnswer = 200_000

// capAnswer cuts text longer than maxAnswer, saving the whole of it to a
// file of the user's in the temp directory (as screenshots too big to send
// are) and saying so where the cut is; saved is that file's path, or the
// reason it could not be saved.
func capAnswer(text string) (_ string, saved string) {
	if len(text) <= maxAnswer {
		return text, ""
	}
	path, err := writeTemp("devtools-mcp-answer-*.txt", []byte(text))
	if err != nil {
		saved = "nowhere (" + err.Error() + ")"
	} else {
		saved = path
	}
	return cutAnswer(text, len(text), saved), saved
}

// cutAnswer keeps the first maxAnswer bytes of text (whole characters)
// and a marker telling the full size and where the whole answer is.
func cutAnswer(text string, size int, saved string) string {
	cut := maxAnswer
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return fmt.Sprintf("%s\n[… answer cut at %d of %d bytes; the whole answer was saved to %s]", text[:cut], cut, size, saved)
}

// writeSnapshot takes a snapshot of page and writes it inline, or saves it
// whole to the requested file.
func writeSnapshot(ctx context.Context, c *Call, b *strings.Builder, req *snapshotRequest) error {
	snap, err := c.Page.Snapshots().Snapshot(ctx, req.verbose)
	if err != nil {
		return err
	}
	req.taken = snap
	if req.filePath != "" {
		text, err := snap.Format(snapshot.Options{UID: req.uid})
		if err != nil {
			return err
		}
		if err := c.writeFile(ctx, "filePath", req.filePath, []byte(text)); err != nil {
			return err
		}
		fmt.Fprintf(b, "Saved snapshot to %s.\n", req.filePath)
		return nil
	}
	text, err := snap.Format(snapshot.Options{UID: req.uid, MaxChars: req.maxChars})
	if err != nil {
		return err
	}
	b.WriteString("## Latest page snapshot\n")
	b.WriteString(text)
	if !strings.HasSuffix(text, "\n") {
		b.WriteByte('\n')
	}
	return nil
}

// writePages writes one line per open page: "id: title (url)", marking the
// selected and crashed ones.
// In a browser the server attached to, the pages the agent opened are marked.
func writePages(b *strings.Builder, br *browser.Browser, attached bool) {
	selected := br.Selected()
	for _, p := range br.Pages() {
		st := p.State()
		info := st.Info
		fmt.Fprintf(b, "%d: ", p.ID)
		// Chrome titles an untitled page with its URL; show that once.
		if title := info.Title; title == "" || strings.HasSuffix(info.URL, title) {
			b.WriteString(info.URL)
		} else {
			if r := []rune(title); len(r) > 100 {
				title = string(r[:100]) + "…"
			}
			fmt.Fprintf(b, "%s (%s)", title, info.URL)
		}
		if p == selected {
			b.WriteString(" [selected]")
		}
		if attached && st.Owned {
			b.WriteString(" [opened by agent]")
		}
		if name := br.ContextName(p); name != "" {
			b.WriteString(" isolatedContext=" + name)
		}
		if status := st.Crashed; status != "" {
			fmt.Fprintf(b, " [crashed: %s]", status)
		}
		b.WriteByte('\n')
	}
}
