package tools

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/devtools-mcp/devtools-mcp/internal/browser"
)

// errNoServiceWorkers answers the serviceWorkerId argument, kept for
// drop-in compatibility.
var errNoServiceWorkers = errors.New("serviceWorkerId is not supported by this server yet; omit it to use the page")

func consoleTools() []*Tool {
	return []*Tool{
		define(Tool{
			Name: "list_console_messages", Description: "Lists the page's console messages, uncaught errors and DevTools issues since the last navigation.",
			Category: CategoryDebugging, ReadOnly: true, Scope: ScopePage,
		}, listConsoleMessages),
		define(Tool{
			Name: "get_console_message", Description: "Shows one console message with its arguments and stack trace.",
			Category: CategoryDebugging, ReadOnly: true, Scope: ScopePage,
		}, getConsoleMessage),
	}
}

// listConsoleMessagesArgs are list_console_messages's arguments.
type listConsoleMessagesArgs struct {
	pageArgs
	Types                    []string `json:"types,omitempty" enum:"log,debug,info,error,warn,dir,dirxml,table,trace,clear,startGroup,startGroupCollapsed,endGroup,assert,profile,profileEnd,count,timeEnd,verbose,issue" jsonschema:"Only messages of these types."`
	IncludePreservedMessages bool     `json:"includePreservedMessages,omitempty" jsonschema:"Also the messages of the last 3 navigations."`
	IncludeStackTraces       bool     `json:"includeStackTraces,omitempty" jsonschema:"Show each message's stack trace."`
	ServiceWorkerID          string   `json:"serviceWorkerId,omitempty" jsonschema:"Not supported yet."`
}

// listConsoleMessages runs list_console_messages.
func listConsoleMessages(ctx context.Context, c *Call, args *listConsoleMessagesArgs) error {
	if args.ServiceWorkerID != "" {
		return errNoServiceWorkers
	}
	if _, err := c.Page.Session(ctx); err != nil { // collecting starts on attach
		return err
	}
	msgs := slices.DeleteFunc(c.Page.Collected().ConsoleMessages(args.IncludePreservedMessages), func(m *browser.ConsoleMessage) bool {
		return len(args.Types) > 0 && !slices.Contains(args.Types, m.Type)
	})
	c.Resp.Linef("## Console messages")
	if len(msgs) == 0 {
		c.Resp.Linef("<no console messages found>")
		return nil
	}
	groups := groupMessages(msgs)
	shown, err := paginate(c, groups, args.pageArgs)
	if err != nil {
		return err
	}
	structured := make([]consoleMessageJSON, 0, len(shown))
	for _, g := range shown {
		m := g.first
		msg := c.pageText(m.Text)
		line := fmt.Sprintf("msgid=%d [%s] %s (%d args)", m.ID, m.Type, msg, len(m.Args))
		js := consoleMessageJSON{Type: m.Type, Text: msg, ArgsCount: len(m.Args), ID: m.ID}
		if g.count > 1 {
			line += fmt.Sprintf(" [%d times]", g.count)
			js.Count = g.count
		}
		c.Resp.Linef("%s", line)
		if args.IncludeStackTraces && m.Stack != nil {
			stack := consoleStack(ctx, c, m)
			for _, l := range stack {
				c.Resp.Linef("  %s", l)
			}
			js.StackTrace = strings.Join(stack, "\n")
		}
		structured = append(structured, js)
	}
	c.Resp.Set("consoleMessages", structured)
	if args.IncludeStackTraces {
		c.Resp.Linef("Note: stack trace line and column numbers use 1-based indexing")
	}
	return nil
}

// getConsoleMessageArgs are get_console_message's arguments.
type getConsoleMessageArgs struct {
	MsgID float64 `json:"msgid" bound:"id" jsonschema:"msgid from list_console_messages."`
}

// getConsoleMessage runs get_console_message.
func getConsoleMessage(ctx context.Context, c *Call, args *getConsoleMessageArgs) error {
	m, err := c.Page.Collected().ConsoleMessage(int(args.MsgID))
	if err != nil {
		return err
	}
	c.Resp.Linef("ID: %d", m.ID)
	msg := c.pageText(m.Text)
	c.Resp.Linef("Message: %s> %s", m.Type, msg)
	detail := consoleMessageDetail{ID: m.ID, Type: m.Type, Text: msg, ArgsCount: len(m.Args), Args: []string{}}
	if len(m.Args) > 0 {
		c.Resp.Linef("### Arguments")
		for i := range m.Args {
			arg := c.pageText(c.Page.Collected().ArgJSON(ctx, m, i))
			c.Resp.Linef("Arg #%d: %s", i, arg)
			detail.Args = append(detail.Args, arg)
		}
	}
	if m.Stack != nil {
		c.Resp.Linef("### Stack trace")
		stack := consoleStack(ctx, c, m)
		for _, l := range stack {
			c.Resp.Linef("%s", l)
		}
		c.Resp.Linef("Note: line and column numbers use 1-based indexing")
		detail.StackTrace = strings.Join(stack, "\n")
	}
	c.Resp.Set("consoleMessage", detail)
	return nil
}

// consoleStack renders m's stack trace, its frames moved to their original
// sources, their URLs redacted as the call shows page text.
func consoleStack(ctx context.Context, c *Call, m *browser.ConsoleMessage) []string {
	return stackLines(m.Stack, func(f browser.CallFrame) browser.CallFrame {
		f = c.Page.Collected().MapFrame(ctx, f)
		f.URL = c.pageText(f.URL)
		return f
	})
}

// messageGroup is a run of identical consecutive messages.
type messageGroup struct {
	first *browser.ConsoleMessage
	count int
}

// groupMessages folds consecutive messages with the same type, text and
// argument count, as DevTools does.
func groupMessages(msgs []*browser.ConsoleMessage) []messageGroup {
	var out []messageGroup
	for _, m := range msgs {
		if n := len(out); n > 0 {
			if f := out[n-1].first; f.Type == m.Type && f.Text == m.Text && len(f.Args) == len(m.Args) {
				out[n-1].count++
				continue
			}
		}
		out = append(out, messageGroup{first: m, count: 1})
	}
	return out
}

// stackLines renders a stack trace, async parts included, one frame a
// line with 1-based line and column numbers, at most 50 frames. mapFrame
// moves a frame to its original source (source maps).
func stackLines(st *browser.StackTrace, mapFrame func(browser.CallFrame) browser.CallFrame) []string {
	var lines []string
	for ; st != nil; st = st.Parent {
		if len(lines) > 0 {
			lines = append(lines, "--- "+cmp.Or(st.Description, "async")+" ---")
		}
		for _, f := range st.CallFrames {
			f = mapFrame(f)
			name := f.FunctionName
			if name == "" {
				name = "<anonymous>"
			}
			lines = append(lines, fmt.Sprintf("at %s (%s:%d:%d)", name, f.URL, f.LineNumber+1, f.ColumnNumber+1))
		}
	}
	if len(lines) > 50 {
		lines = append(lines[:50], fmt.Sprintf("... and %d more frames", len(lines)-50))
	}
	return lines
}
