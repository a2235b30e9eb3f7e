// Package mcptext reads the text an agent gets from a tool call, for the
// end-to-end tests and the comparison commands that drive both servers.
package mcptext

import (
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Join joins the text parts of a tool result with newlines, the way an
// agent reads them; images and other parts are left out.
func Join(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}
