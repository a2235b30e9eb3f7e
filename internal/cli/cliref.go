package cli

// The reference's second command, chrome-devtools, which its agent skills
// drive: `chrome-devtools <tool> <pageId> <required args...> [--flags]`.
// Installed under that name (a symlink or a copy), this binary answers the
// same grammar over the same kind of background daemon as our own command
// line, so shell scripts and skills written for the reference keep working.

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/devtools-mcp/devtools-mcp/internal/config"
	"github.com/devtools-mcp/devtools-mcp/jsonrpc"
)

// refCLIName is the reference's command-line client's name.
const refCLIName = "chrome-devtools"

// refSessionEnv is the reference's variable naming the daemon session.
const refSessionEnv = "CD4A_INTERNAL_DAEMON_SESSION_ID"

// IsChromeDevtools reports whether the program was invoked as
// chrome-devtools, the reference's command-line client.
func IsChromeDevtools(argv0 string) bool {
	name := strings.TrimSuffix(filepath.Base(argv0), ".exe")
	return name == refCLIName
}

const refUsage = `Usage:
  chrome-devtools <tool> <pageId> <required args...> [--option value] [--output-format=md|json]
  chrome-devtools <tool> --help   the tool's arguments
  chrome-devtools start [flags]   start, or restart, the daemon with server flags
  chrome-devtools status          whether the daemon runs (exit status 0 either way)
  chrome-devtools stop            stop the daemon and the browser it launched
  chrome-devtools help            this text and the list of tools

This is devtools-mcp answering the command line of chrome-devtools-mcp's
chrome-devtools client. Tools that act on a page take its id (list_pages)
as their first argument; evaluate_script takes the function first and the
page as --pageId. Then come the tool's other required arguments in order,
and optional ones as --name value (switches: --name, --name true, --name
false; lists: repeat the option). --output-format=json prints the tool's
structured content, with the paths of saved images under "images".

The first tool command starts a daemon (headless, temporary profile, memory
tools and extension tools on, files anywhere) that keeps the browser
between commands. A tool's error is printed on standard output with exit
status 0, as the reference does; usage errors exit with status 2.

--sessionId ID (hexadecimal digits and dashes; default
$CD4A_INTERNAL_DAEMON_SESSION_ID) selects another daemon, as does
$DEVTOOLS_MCP_SESSION (default "chrome-devtools").
`

// validRefSessionID is what the reference accepts as a session id.
var validRefSessionID = regexp.MustCompile(`^[a-fA-F0-9-]+$`)

// RunChromeDevtools runs the chrome-devtools command line; args are the
// arguments after the program name, version is the program's.
func RunChromeDevtools(args []string, stdout, stderr io.Writer, version string) int {
	args, id, err := cutSessionID(args)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", refCLIName, err)
		return 2
	}
	if len(args) == 0 {
		fmt.Fprintf(stderr, "%s: name a tool or a command\n\n%s", refCLIName, refUsage)
		return 2
	}
	if args[0] == "--version" {
		fmt.Fprintln(stdout, version)
		return 0
	}
	if args[0] == "-h" || args[0] == "--help" {
		args[0] = "help"
	}
	if args[0] == "" || strings.HasPrefix(args[0], "-") {
		fmt.Fprintf(stderr, "%s: %q is not a tool or a command\n\n%s", refCLIName, args[0], refUsage)
		return 2
	}
	session := cmp.Or(os.Getenv(sessionEnv), refCLIName)
	if id != "" {
		session += "-" + id
	}
	return dispatch(session, grammar{prog: refCLIName, ref: true}, args, stdout, stderr, version)
}

// cutSessionID removes the reference's --sessionId option from args (up to
// a "--") and returns the remaining arguments and the id, by default the
// one in $CD4A_INTERNAL_DAEMON_SESSION_ID.
func cutSessionID(args []string) ([]string, string, error) {
	id := os.Getenv(refSessionEnv)
	var rest []string
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		if !strings.HasPrefix(arg, "--") || config.NormalizeName(name) != "sessionid" {
			rest = append(rest, arg)
			continue
		}
		if !hasValue {
			if i+1 == len(args) {
				return nil, "", fmt.Errorf("--sessionId needs a value")
			}
			i++
			value = args[i]
		}
		id = value
	}
	if id != "" && !validRefSessionID.MatchString(id) {
		return nil, "", fmt.Errorf("invalid --sessionId %q: use hexadecimal digits and dashes", id)
	}
	return rest, id, nil
}

// refDaemonDefaults are the server flags the reference's command line
// starts its daemon with, besides ours (headless, isolated, files
// anywhere): the memory tools, structured content for --output-format=json,
// and the extension tools unless it attaches to a browser the user runs.
// Flags given to start come after them and so win.
func refDaemonDefaults(connects bool) []string {
	flags := []string{"--memoryDebugging", "--experimentalStructuredContent"}
	if !connects {
		flags = append(flags, "--categoryExtensions")
	}
	return flags
}

// savedImage is an image of a tool's answer saved to a file, as listed
// in --output-format=json.
type savedImage struct {
	FilePath string `json:"filePath"`
	MimeType string `json:"mimeType"`
}

// printRef writes a tool result the way the reference's command line does:
// the text (an error's too) on standard output with exit status 0, or with
// --output-format=json the structured content and the saved images, or,
// for an error or a result without structured content, the content as a
// JSON array.
func (c *cli) printRef(tool string, raw json.RawMessage, asJSON bool) int {
	var res struct {
		Content           []jsonrpc.Content `json:"content"`
		IsError           bool              `json:"isError"`
		StructuredContent map[string]any    `json:"structuredContent"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return c.failf("%s: the daemon's answer is not an MCP result: %v", tool, err)
	}
	if !asJSON {
		return c.writeBlocks(c.stdout, tool, res.Content)
	}
	if res.IsError {
		return c.printJSON(res.Content)
	}
	var images []savedImage
	var chunks []string
	for _, block := range res.Content {
		switch block.Type {
		case "text":
			chunks = append(chunks, block.Text)
		case "image":
			path, err := saveImage(tool, block)
			if err != nil {
				return c.failf("%s: %v", tool, err)
			}
			images = append(images, savedImage{path, block.MimeType})
			chunks = append(chunks, "Saved to "+path+".")
		}
	}
	if res.StructuredContent == nil {
		return c.printJSON(chunks)
	}
	if len(images) > 0 {
		res.StructuredContent["images"] = images
	}
	return c.printJSON(res.StructuredContent)
}

// printJSON writes v as one line of JSON, with <, > and & as they are.
func (c *cli) printJSON(v any) int {
	enc := json.NewEncoder(c.stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return c.failf("encode the answer: %v", err)
	}
	return 0
}
