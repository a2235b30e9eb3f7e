package main

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/devtools-mcp/devtools-mcp/e2e/internal/mcptext"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// refServer is the reference chrome-devtools-mcp, driven over stdio.
type refServer struct {
	session *mcp.ClientSession
}

// startRef starts the reference server's command with a headless, isolated
// Chromium at our viewport.
func startRef(ctx context.Context, command string) (*refServer, error) {
	args := strings.Fields(command)
	if len(args) == 0 {
		return nil, errors.New("empty reference command")
	}
	args = append(args, "--headless", "--isolated", fmt.Sprintf("--viewport=%dx%d", viewportWidth, viewportHeight))
	client := mcp.NewClient(&mcp.Implementation{Name: "snapcompare", Version: "1"}, nil)
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(args[0], args[1:]...)}, nil)
	if err != nil {
		return nil, fmt.Errorf("start the reference (%s): %w", command, err)
	}
	return &refServer{session: session}, nil
}

func (r *refServer) Close() { r.session.Close() }

// read navigates to url and returns the reference's snapshot lines (uids
// stripped) and how long take_snapshot took.
func (r *refServer) read(ctx context.Context, url string) ([]string, time.Duration, error) {
	if _, err := r.call(ctx, "navigate_page", map[string]any{"type": "url", "url": url}); err != nil {
		return nil, 0, err
	}
	start := time.Now()
	text, err := r.call(ctx, "take_snapshot", map[string]any{})
	if err != nil {
		return nil, 0, err
	}
	return lines(text), time.Since(start), nil
}

// call runs a tool and returns its text, or its error text as an error.
func (r *refServer) call(ctx context.Context, name string, args map[string]any) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	res, err := r.session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return "", fmt.Errorf("reference %s: %w", name, err)
	}
	text := mcptext.Join(res)
	if res.IsError {
		return "", fmt.Errorf("reference %s: %s", name, text)
	}
	return text, nil
}
