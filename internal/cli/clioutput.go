package cli

// How the command line prints a tool's answer: text as is, images saved to
// files, or the raw MCP result.

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/devtools-mcp/devtools-mcp/jsonrpc"
)

// print writes a tool result and returns the exit status: 1 when the tool
// reported an error.
func (c *cli) print(tool string, raw json.RawMessage, asJSON bool) int {
	var res struct {
		Content []jsonrpc.Content `json:"content"`
		IsError bool              `json:"isError"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return c.failf("%s: the daemon's answer is not an MCP result: %v", tool, err)
	}
	status := 0
	out := c.stdout
	if res.IsError {
		status, out = 1, c.stderr
	}
	if asJSON {
		fmt.Fprintf(c.stdout, "%s\n", raw)
		return status
	}
	if code := c.writeBlocks(out, tool, res.Content); code != 0 {
		return code
	}
	return status
}

// writeBlocks writes content blocks to out: text as is, images saved to
// files whose paths are written. It returns 1 when an image cannot be saved.
func (c *cli) writeBlocks(out io.Writer, tool string, content []jsonrpc.Content) int {
	for _, block := range content {
		switch block.Type {
		case "text":
			fmt.Fprint(out, block.Text)
			if !strings.HasSuffix(block.Text, "\n") {
				fmt.Fprintln(out)
			}
		case "image":
			path, err := saveImage(tool, block)
			if err != nil {
				return c.failf("%s: %v", tool, err)
			}
			fmt.Fprintf(out, "Saved the %s image to %s\n", block.MimeType, path)
		default:
			b, _ := json.Marshal(block) // cannot fail: plain fields
			fmt.Fprintf(out, "%s\n", b)
		}
	}
	return 0
}

// saveImage writes an image block to a new file in the current directory,
// or in the temp directory when the current one is not writable, and
// returns its absolute path.
func saveImage(tool string, block jsonrpc.Content) (string, error) {
	data, err := base64.StdEncoding.DecodeString(block.Data)
	if err != nil {
		return "", fmt.Errorf("decode the image: %w", err)
	}
	ext := strings.TrimPrefix(block.MimeType, "image/")
	if ext == "jpeg" {
		ext = "jpg"
	}
	f, err := os.CreateTemp(".", tool+"-*."+ext)
	if err != nil {
		f, err = os.CreateTemp("", tool+"-*."+ext)
	}
	if err != nil {
		return "", fmt.Errorf("save the image: %w", err)
	}
	_, werr := f.Write(data)
	if err := errors.Join(werr, f.Close()); err != nil {
		return "", fmt.Errorf("save the image: %w", err)
	}
	return filepath.Abs(f.Name())
}
