package e2e

// The README's quick start and install sections, run as a newcomer runs
// them: every shell command, in order, in a clean copy of the checkout.

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readmeSections are the README sections (with their subsections) whose
// shell commands a newcomer runs before anything else.
var readmeSections = []string{"Quick start", "Install"}

// readmeNotRun are the commands of those sections that cannot run here,
// each with the reason. A command that is neither run nor listed fails the
// test, so a new command in the README is either tried or explained.
var readmeNotRun = []struct {
	pattern *regexp.Regexp
	reason  string
}{
	{regexp.MustCompile(`(^|\s)go test\b`), "the test suite itself: running it from a test would recurse"},
	{regexp.MustCompile(`^npx -y devtools-mcp@latest\b`), "needs the npm package, published with the first release (TestNPMPackagesRunThroughNpx runs the packed one)"},
	{regexp.MustCompile(`^curl .*https://github\.com/.*/install\.sh \| sh$`), "needs a published release and the internet; the same install.sh runs from a locally built dist/"},
}

// readmeCommands returns the commands of the README's sections named, one
// per line of their ```sh blocks, without comments.
func readmeCommands(t *testing.T, readme string, sections []string) []string {
	t.Helper()
	f, err := os.Open(readme)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cmds []string
	in, block := false, false
	comment := regexp.MustCompile(`\s{2,}#.*$`)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if title, ok := strings.CutPrefix(line, "## "); ok && !block {
			in = false
			for _, s := range sections {
				in = in || title == s
			}
			continue
		}
		if strings.HasPrefix(line, "```") {
			block = !block && in && strings.TrimPrefix(line, "```") == "sh"
			continue
		}
		if !block {
			continue
		}
		line = strings.TrimSpace(comment.ReplaceAllString(line, ""))
		if line != "" && !strings.HasPrefix(line, "#") {
			cmds = append(cmds, line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cmds
}

// cleanCheckout copies the files git tracks (as they are in the work tree)
// into a new directory and commits them there, so that commands which read
// the history (the release's SOURCE_DATE_EPOCH) work and nothing built or
// left in the work tree is seen.
func cleanCheckout(t *testing.T, repo string) string {
	t.Helper()
	out, err := exec.Command("git", "-C", repo, "ls-files", "-z").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	dir := t.TempDir()
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		src := filepath.Join(repo, name)
		fi, err := os.Lstat(src)
		if os.IsNotExist(err) {
			continue // deleted in the work tree, not yet committed
		}
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, fi.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=readme", "-c", "user.email=readme@127.0.0.1", "commit", "-q", "-m", "checkout"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %q: %v\n%s", args, err, out)
		}
	}
	return dir
}

// TestReadmeQuickStartAndInstall runs every command of the README's quick
// start and install sections in order, in a clean copy of the checkout with
// a home directory of its own, and checks that each exits 0 and that the
// binary ends up installed where the README says.
func TestReadmeQuickStartAndInstall(t *testing.T) {
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	cmds := readmeCommands(t, filepath.Join(repo, "README.md"), readmeSections)
	if len(cmds) < 4 {
		t.Fatalf("found %d commands in the README's %q sections: %q; has the README's layout changed?", len(cmds), readmeSections, cmds)
	}
	dir := cleanCheckout(t, repo)
	home := t.TempDir()
	env := []string{"HOME=" + home}
	// A new home must not mean a cold Go cache and module download.
	for _, v := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		out, err := exec.Command("go", "env", v).Output()
		if err != nil {
			t.Fatalf("go env %s: %v", v, err)
		}
		env = append(env, v+"="+strings.TrimSpace(string(out)))
	}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "GO") {
			env = append(env, kv)
		}
	}
	ran := 0
commands:
	for _, c := range cmds {
		for _, skip := range readmeNotRun {
			if skip.pattern.MatchString(c) {
				t.Logf("not run: %s (%s)", c, skip.reason)
				continue commands
			}
		}
		cmd := exec.Command("bash", "-euo", "pipefail", "-c", c)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("README command %q: %v\n%s", c, err, out)
		}
		t.Logf("ran: %s\n%s", c, lastLines(string(out), 5))
		ran++
	}
	if ran == 0 {
		t.Fatal("no README command ran")
	}
	installed := filepath.Join(home, ".local", "bin", "devtools-mcp")
	out, err := exec.Command(installed, "--version").CombinedOutput()
	if err != nil {
		t.Fatalf("the installed %s --version: %v\n%s", installed, err, out)
	}
}

// lastLines returns the last n lines of s, for a log that stays readable.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
