package e2e

// The reference's chrome-devtools command line, answered by our binary when
// it is installed under that name: the examples of the reference's skills
// must run as written.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// refShell is a shell whose commands run the binary as chrome-devtools.
func refShell(t *testing.T) *shell {
	t.Helper()
	dir := t.TempDir()
	link := filepath.Join(dir, "chrome-devtools")
	if err := os.Symlink(binary, link); err != nil {
		t.Fatal(err)
	}
	runtime := t.TempDir()
	sh := &shell{t: t, prog: link, cwd: t.TempDir(), runtime: filepath.Join(runtime, "devtools-mcp"), session: "chrome-devtools",
		env: append(os.Environ(), "XDG_RUNTIME_DIR="+runtime, "DEVTOOLS_MCP_SESSION=", "CD4A_INTERNAL_DAEMON_SESSION_ID=")}
	t.Cleanup(func() {
		if t.Failed() {
			if log, err := os.ReadFile(sh.file(".log")); err == nil {
				t.Logf("daemon log:\n%s", log)
			}
		}
		if out, errOut, code := sh.run("stop"); code != 0 {
			t.Errorf("chrome-devtools stop: exit %d\n%s%s", code, out, errOut)
		}
	})
	return sh
}

// exampleWords splits a command line as a POSIX shell would for the quoting
// the examples use: single quotes, double quotes, plain words.
func exampleWords(line string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		switch c := line[i]; c {
		case ' ', '\t':
			if inWord {
				words, inWord = append(words, w.String()), false
				w.Reset()
			}
		case '\'', '"':
			end := strings.IndexByte(line[i+1:], c)
			if end < 0 {
				return nil, fmt.Errorf("unterminated %c in %q", c, line)
			}
			w.WriteString(line[i+1 : i+1+end])
			i += end + 1
			inWord = true
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}

// examples reads testdata/cli/examples.txt: the command lines of the
// reference's skills, each as its words after "chrome-devtools".
func examples(t *testing.T) [][]string {
	t.Helper()
	f, err := os.Open("testdata/cli/examples.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cmds [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		words, err := exampleWords(line)
		if err != nil || len(words) < 2 || words[0] != "chrome-devtools" {
			t.Fatalf("examples.txt: bad line %q (%v)", line, err)
		}
		cmds = append(cmds, words[1:])
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cmds
}

// exampleWant is what each example must print, by its command line as in
// examples.txt (words joined by spaces). A tool's error exits 0 in this
// grammar, as in the reference, so every example names the text of its
// success; ${site} is the test site's URL.
var exampleWant = map[string][]string{
	"status":                 {"The daemon of session"},
	"start":                  {"Started the daemon"},
	"start --headless=false": {"Started the daemon"},
	"stop":                   {"Stopped the daemon"},

	"list_pages": {"## Pages", "1: about:blank [selected]"},
	"navigate_page 1 --url https://example.com":                     {"Navigated to ${site}/cli/page.html.", "1: CLI examples"},
	"navigate_page 1 --type reload --ignoreCache true":              {"Reloaded ${site}/cli/page.html."},
	"navigate_page 1 --url https://example.com --timeout 5000":      {"Navigated to ${site}/cli/page.html."},
	"navigate_page 1 --type reload --handleBeforeUnload accept":     {"Reloaded ${site}/cli/page.html."},
	"navigate_page 1 --type back --initScript foo()":                {"Went back to about:blank."},
	"new_page https://example.com":                                  {"Opened page 2.", "2: CLI examples (${site}/cli/page.html) [selected]"},
	"new_page https://example.com --background true --timeout 5000": {"Opened page 3."},
	"new_page https://example.com --isolatedContext ctx":            {"Opened page 4.", "isolatedContext=ctx"},
	"select_page 1":                     {"1: CLI examples (${site}/cli/page.html) [selected]"},
	"select_page 1 --bringToFront true": {"1: CLI examples (${site}/cli/page.html) [selected]"},
	"close_page 1":                      {"## Pages", "3: CLI examples"},

	"take_snapshot 1": {"## Latest page snapshot", "RootWebArea", `button "Go"`},
	"click 1 id":      {"Successfully clicked on the element."},
	"click 1 id --dblClick true --includeSnapshot true": {"Successfully double clicked on the element.", "## Latest page snapshot", `"clicked 3"`},
	"drag 1 src dst":                                   {"Successfully dragged the element."},
	"drag 1 src dst --includeSnapshot true":            {"Successfully dragged the element.", "## Latest page snapshot"},
	"fill 1 id text":                                   {"Successfully filled out the element."},
	"fill 1 id text --includeSnapshot true":            {"Successfully filled out the element.", `textbox "Name"`},
	"handle_dialog 1 accept":                           {`Successfully accepted the alert dialog "hello there".`},
	"handle_dialog 1 dismiss --promptText hi":          {`Successfully dismissed the prompt dialog "Your name?".`},
	"hover 1 id":                                       {"Successfully hovered over the element."},
	"hover 1 id --includeSnapshot true":                {"Successfully hovered over the element.", "## Latest page snapshot"},
	"press_key 1 Enter":                                {"Successfully pressed key: Enter"},
	"press_key 1 Control+A --includeSnapshot true":     {"Successfully pressed key: Control+A", "## Latest page snapshot"},
	"type_text 1 hello":                                {"Typed 5 characters."},
	"type_text 1 hello --submitKey Enter":              {"Typed 5 characters."},
	"upload_file 1 id file.txt":                        {"Uploaded 1 file(s)."},
	"upload_file 1 id file.txt --includeSnapshot true": {"Uploaded 1 file(s).", `"uploaded file.txt"`},

	"emulate 1 --networkConditions Offline":             {"Emulating network conditions: Offline"},
	"emulate 1 --cpuThrottlingRate 4 --geolocation 0,0": {"Emulating CPU throttling: 4x", "Emulating geolocation: latitude=0, longitude=0"},
	"emulate 1 --colorScheme dark --viewport 1920x1080": {"Emulating color scheme: dark", "Emulating viewport: 1920x1080"},
	"emulate 1 --userAgent Mozilla/5.0...":              {"Emulating user agent: Mozilla/5.0..."},
	"resize_page 1 1920 1080":                           {"The page is now 1920x1080."},

	"performance_start_trace 1 --reload true --autoStop false":                     {"The performance trace is being recorded."},
	"performance_stop_trace 1":                                                     {"The performance trace has been stopped.", "NAVIGATION_0"},
	"performance_analyze_insight 1 NAVIGATION_0 LCPBreakdown":                      {"LCP"},
	"performance_start_trace 1 --reload true --autoStop true --filePath t.json.gz": {"The raw trace data was saved to", "t.json.gz"},
	"performance_stop_trace 1 --filePath t.json.gz":                                {"no performance trace is running on page 1"},

	"take_heapsnapshot 1 ./snap.heapsnapshot":                         {"Heap snapshot saved to", "snap.heapsnapshot"},
	"get_heapsnapshot_summary ./snap.heapsnapshot":                    {"## Heap Snapshot Data", "Statistics:"},
	"compare_heapsnapshots ./base.heapsnapshot ./target.heapsnapshot": {"### Heap Snapshot Diff"},
	"get_heapsnapshot_details ./snap.heapsnapshot":                    {"## Heap Snapshot Data", "Objects:"},
	"get_heapsnapshot_class_nodes ./snap.heapsnapshot 18":             {"## Objects of class", "nodeId,nodeName"},
	"get_heapsnapshot_dominators ./snap.heapsnapshot 123":             {"### Dominator Chain", "(GC roots)"},
	"get_heapsnapshot_duplicate_strings ./snap.heapsnapshot":          {"### Duplicate Strings"},
	"get_heapsnapshot_edges ./snap.heapsnapshot 123":                  {"## References of @123"},
	"get_heapsnapshot_object_details ./snap.heapsnapshot 123":         {"### Object Details", "id: @123"},
	"get_heapsnapshot_retainers ./snap.heapsnapshot 123":              {"## Retainers of @123"},
	"get_heapsnapshot_retaining_paths ./snap.heapsnapshot 123":        {"### Retaining Paths", "@123"},
	"close_heapsnapshot ./snap.heapsnapshot":                          {"Closed heap snapshot:"},

	"get_network_request 1": {"## Request ${site}/cli/", "Status: 200"},
	"get_network_request 1 --reqid 1 --requestFilePath req.md":  {"## Request ${site}/cli/data.json", "Status: 200"},
	"get_network_request 1 --reqid 1 --responseFilePath res.md": {"## Request ${site}/cli/data.json", "res.md"},
	"list_network_requests 1":                                   {"## Network requests", "page.html"},
	"list_network_requests 1 --pageSize 50 --pageIdx 0":         {"## Network requests", "page.html"},
	"list_network_requests 1 --resourceTypes fetch":             {"data.json"},
	"list_network_requests 1 --includePreservedRequests true":   {"page.html"},

	"evaluate_script () => document.title --pageId 1":                            {`"CLI examples"`},
	"evaluate_script (a) => a.innerText --pageId 1 --args 1_4":                   {"Script ran on page and returned:", `"Go"`},
	"evaluate_script --pageId 1 --sourcePath /path/to/script.js --format script": {"Script ran"},
	"get_console_message 1 1":                                                    {"page info message"},
	"get_css_styles 1 1_4":                                                       {"rgb(0, 0, 255)"},
	"get_css_styles 1 1_4 --pageSize 20 --pageIdx 1":                             {"button"},
	"list_console_messages 1":                                                    {"## Console messages", "page error message"},
	"list_console_messages 1 --pageSize 20 --pageIdx 1":                          {"## Console messages", "Invalid page number 1"},
	"list_console_messages 1 --types error --types info":                         {"page error message", "page info message"},
	"list_console_messages 1 --includePreservedMessages true":                    {"page error message"},
	"take_screenshot 1":                                                          {"Saved the image/png image to"},
	"take_screenshot 1 --fullPage true --format jpeg --quality 80":               {"Saved the image/jpeg image to"},
	"take_screenshot 1 --uid id --filePath s.png":                                {"s.png"},
	"take_snapshot 1 --verbose true --filePath s.txt":                            {"Saved snapshot to", "s.txt"},
	"screencast_start 1 --filePath screen.mp4":                                   {"Screencast recording started.", "screen.mp4"},
	"screencast_stop 1":                                                          {"The screencast recording has been stopped and saved to", "screen.mp4"},
	"lighthouse_audit 1 --mode navigation":                                       {"## Lighthouse audit results"},
	"lighthouse_audit 1 --mode snapshot --device mobile":                         {"## Lighthouse audit results"},
	"lighthouse_audit 1 --outputDirPath ./out":                                   {"## Lighthouse audit results"},

	"list_extensions":                       {"## Extensions"},
	"install_extension /path/to/extension":  {"Extension installed."},
	"reload_extension extension_id":         {"Extension reloaded."},
	"trigger_extension_action extension_id": {"Extension action triggered"},
	"uninstall_extension extension_id":      {"Extension uninstalled."},

	"install_pwa https://example.com/ https://example.com/": {"Installed PWA with manifest ID: ${site}/pwa/app"},
	"launch_pwa https://example.com/":                       {"Launched PWA with manifest ID: ${site}/pwa/app"},
	"get_os_app_state https://example.com/":                 {"OS app state for manifest ID: ${site}/pwa/app"},
	"uninstall_pwa https://example.com/":                    {"Uninstalled PWA with manifest ID: ${site}/pwa/app"},

	"click_at 1 100 200":  {"Successfully clicked at the coordinates."},
	"list_webmcp_tools 1": {"The page registered no WebMCP tools."},
	`execute_webmcp_tool 1 tool_name --input {"arg":"val"}`:        {"the page registered no WebMCP tools."},
	"list_3p_developer_tools 1":                                    {"The page exposes no third-party developer tools."},
	`execute_3p_developer_tool 1 tool_name --params {"arg":"val"}`: {"the page exposes no third-party developer tools."},
}

// TestRefCLIExamples runs every example command line of the reference's
// skills against our binary installed as chrome-devtools, with the
// examples' placeholders (example.com, "id", "extension_id", ...) replaced
// by real pages, uids and files, and checks what each prints.
func TestRefCLIExamples(t *testing.T) {
	site := fixtures(t)
	sh := refShell(t)
	for _, f := range []string{"file.txt", "script.js"} {
		if err := os.WriteFile(filepath.Join(sh.cwd, f), []byte("document.title = 'from a script file';\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	page := site.URL + "/cli/page.html"
	uids := map[string]string{}
	var extensionID string
	var missing []string        // examples of tools this server lacks
	listed := map[string]bool{} // the tools the daemon lists
	defer func() {
		if len(missing) > 0 {
			t.Logf("examples of tools not implemented yet: %q", missing)
		}
	}()
	for _, cmd := range examples(t) {
		key := strings.Join(cmd, " ")
		if len(uids) > 0 && slices.ContainsFunc(cmd, func(a string) bool { return slices.Contains([]string{"id", "1_4", "src", "dst"}, a) }) {
			// Navigations in between made the uids stale: take them anew.
			readUIDs(t, sh.ok("take_snapshot", "1"), uids)
		}
		args := rewriteExample(t, cmd, page, site.URL, uids, extensionID, sh.cwd)
		switch {
		case cmd[0] == "get_network_request" && len(cmd) > 3:
			args[3] = idOf(t, sh.ok("list_network_requests", "1"), "reqid", "/cli/data.json")
		case cmd[0] == "get_console_message":
			args[2] = idOf(t, sh.ok("list_console_messages", "1"), "msgid", "page info message")
		case key == "performance_start_trace 1 --reload true --autoStop false":
			sh.ok("emulate", "1") // clear the examples' throttling and offline mode
		}
		if cmd[0] == "stop" && len(uids) == 0 {
			// The service examples ran; the others need a daemon with the
			// tools they use turned on.
			sh.ok("stop")
			sh.ok("start", "--experimentalVision", "--experimentalScreencast", "--categoryPwa",
				"--categoryExperimentalWebmcp", "--categoryExperimentalThirdParty")
			listed = toolsListed(t, sh)
			continue
		}
		switch key {
		case "handle_dialog 1 accept":
			sh.ok("click", "1", uids[`button "Alert"`])
		case "handle_dialog 1 dismiss --promptText hi":
			sh.ok("click", "1", uids[`button "Prompt"`])
		case "screencast_stop 1":
			// Something to record: the page repaints a few times.
			for _, color := range []string{"red", "green", "blue"} {
				sh.ok("evaluate_script", "() => { document.body.style.background = '"+color+"' }", "--pageId", "1")
			}
		case "press_key 1 Enter":
			// Enter on the Prompt button, focused by the last click, would
			// open its dialog again.
			sh.ok("click", "1", uids[`textbox "Name"`])
		case "compare_heapsnapshots ./base.heapsnapshot ./target.heapsnapshot":
			sh.ok("take_heapsnapshot", "1", "base.heapsnapshot")
			sh.ok("take_heapsnapshot", "1", "target.heapsnapshot")
		}
		want, ok := exampleWant[key]
		if !ok {
			t.Errorf("examples.txt line %q has no entry in exampleWant", key)
		}
		out, errOut, code := sh.run(args...)
		t.Logf("chrome-devtools %q: exit %d\n%s%s", args, code, out, errOut)
		if !listed[cmd[0]] && !slices.Contains([]string{"start", "status", "stop"}, cmd[0]) {
			// A tool this server does not have yet (see docs/compatibility.md):
			// the command line must say so plainly.
			if code != 2 || !strings.Contains(errOut, fmt.Sprintf("unknown command or tool %q", cmd[0])) {
				t.Errorf("chrome-devtools %q (a tool not listed): exit %d\n%s%s", args, code, out, errOut)
			}
			missing = append(missing, key)
			continue
		}
		if code != 0 {
			t.Errorf("chrome-devtools %q: exit %d, want 0\n%s%s", args, code, out, errOut)
			continue
		}
		for _, w := range want {
			if w = strings.ReplaceAll(w, "${site}", site.URL); !strings.Contains(out, w) {
				t.Errorf("chrome-devtools %q printed\n%s\nwant it to contain %q", args, out, w)
			}
		}
		switch {
		case key == "take_snapshot 1" && len(uids) == 0:
			readUIDs(t, out, uids)
		case key == "lighthouse_audit 1 --outputDirPath ./out":
			for _, f := range []string{"report.json", "report.html"} {
				if _, err := os.Stat(filepath.Join(sh.cwd, "out", f)); err != nil {
					t.Errorf("lighthouse_audit --outputDirPath ./out: %v", err)
				}
			}
		case key == "screencast_stop 1":
			if fi, err := os.Stat(filepath.Join(sh.cwd, "screen.mp4")); err != nil || fi.Size() == 0 {
				t.Errorf("screencast_stop: screen.mp4 not written (%v)", err)
			}
		case key == "get_heapsnapshot_summary ./snap.heapsnapshot":
			// The same as JSON: the structured content's heapSnapshot.
			var res struct {
				HeapSnapshot struct {
					Stats      struct{ Total float64 }
					StaticData struct{ NodeCount float64 }
				}
			}
			raw := sh.ok(append(args, "--output-format=json")...)
			if err := json.Unmarshal([]byte(raw), &res); err != nil || res.HeapSnapshot.Stats.Total == 0 || res.HeapSnapshot.StaticData.NodeCount == 0 {
				t.Errorf("get_heapsnapshot_summary --output-format=json = %s (err %v)", raw, err)
			}
		case cmd[0] == "install_extension":
			m := regexp.MustCompile(`[a-p]{32}`).FindString(out)
			if m == "" {
				t.Fatalf("install_extension printed no extension id:\n%s", out)
			}
			extensionID = m
		}
	}
}

// rewriteExample replaces an example's placeholders by real values and
// runs what the example needs first (a dialog to handle, a snapshot file
// to read).
func rewriteExample(t *testing.T, cmd []string, page, site string, uids map[string]string, extensionID, cwd string) []string {
	args := append([]string(nil), cmd...)
	uidFor := map[string]string{
		"click": `button "Go"`, "hover": `button "Go"`, "take_screenshot": `button "Go"`, "get_css_styles": `button "Go"`,
		"evaluate_script": `button "Go"`, "fill": `textbox "Name"`, "upload_file": `"Upload"`,
	}[cmd[0]]
	for i, a := range args {
		switch {
		case a == "https://example.com" || a == "https://example.com/":
			args[i] = page
			if strings.HasSuffix(cmd[0], "_pwa") || cmd[0] == "get_os_app_state" {
				args[i] = site + "/pwa/app"
				if i == 2 {
					args[i] = site + "/pwa/"
				}
			}
		case a == "id" || a == "1_4":
			args[i] = uids[uidFor]
		case a == "src" || a == "dst":
			args[i] = uids[`button "`+a+`"`]
		case a == "extension_id":
			args[i] = extensionID
		case a == "/path/to/extension":
			abs, err := filepath.Abs("testdata/extension")
			if err != nil {
				t.Fatal(err)
			}
			args[i] = abs
		case a == "/path/to/script.js":
			args[i] = filepath.Join(cwd, "script.js")
		}
	}
	if cmd[0] == "close_page" {
		args[1] = "2" // a page an example opened, not the one the others use
	}
	return args
}

// readUIDs stores the uids of the example page's elements, by the text
// that names them in a snapshot.
func readUIDs(t *testing.T, snap string, uids map[string]string) {
	t.Helper()
	for _, name := range []string{`button "Go"`, `textbox "Name"`, `"Upload"`, `button "src"`, `button "dst"`, `button "Alert"`, `button "Prompt"`} {
		uids[name] = uidOf(t, snap, name)
	}
}

// idOf returns the id (reqid=N, msgid=N) on the first line of a listing
// that contains substr.
func idOf(t *testing.T, list, key, substr string) string {
	t.Helper()
	re := regexp.MustCompile(key + `=(\d+)`)
	for line := range strings.Lines(list) {
		if m := re.FindStringSubmatch(line); m != nil && strings.Contains(line, substr) {
			return m[1]
		}
	}
	t.Fatalf("no %s of %q in\n%s", key, substr, list)
	return ""
}

// toolsListed returns the names of the tools chrome-devtools help lists.
func toolsListed(t *testing.T, sh *shell) map[string]bool {
	t.Helper()
	_, list, ok := strings.Cut(sh.ok("help"), "\nTools:\n")
	if !ok {
		t.Fatal("chrome-devtools help lists no tools")
	}
	names := map[string]bool{}
	for line := range strings.Lines(list) {
		if f := strings.Fields(line); len(f) > 0 {
			names[f[0]] = true
		}
	}
	return names
}
