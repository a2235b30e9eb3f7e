package e2e

// The release as a user gets it: the archives and checksums built by
// `go run ./internal/release`, the npm packages run through npx, the
// install script against a local file server, and the registry manifest.
// One release for linux/amd64 is built per test run and shared.

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const releaseVersion = "1.2.3"

var releaseOnce struct {
	sync.Once
	dir string
	err error
	out []byte
}

// releaseDir builds the release once for this machine's platform (the
// only one the tests can run) and returns its directory.
func releaseDir(t *testing.T) string {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the release tests run the linux binary")
	}
	releaseOnce.Do(func() {
		// Under the run's own temporary directory, which TestMain removes:
		// the release outlives the first test that asks for it.
		releaseOnce.dir, releaseOnce.out, releaseOnce.err = buildRelease(filepath.Dir(binary), "..")
	})
	if releaseOnce.err != nil {
		t.Fatalf("release: %v\n%s", releaseOnce.err, releaseOnce.out)
	}
	return releaseOnce.dir
}

// buildRelease runs the release command on the module at source into a
// new directory under parent.
func buildRelease(parent, source string) (string, []byte, error) {
	dir, err := os.MkdirTemp(parent, "release-")
	if err != nil {
		return "", nil, err
	}
	abs, err := filepath.Abs(source)
	if err != nil {
		return "", nil, err
	}
	cmd := exec.Command("go", "run", "./internal/release", "-version", releaseVersion,
		"-targets", runtime.GOOS+"/"+runtime.GOARCH, "-source", abs, "-out", dir)
	cmd.Dir = abs
	cmd.Env = append(os.Environ(), "SOURCE_DATE_EPOCH=1767225600")
	out, err := cmd.CombinedOutput()
	return dir, out, err
}

func TestReleaseIsReproducible(t *testing.T) {
	first := releaseDir(t)
	// The second build starts from a copy of the source in another
	// directory, so a build path leaking into the bytes shows up.
	src := filepath.Join(t.TempDir(), "elsewhere", "devtools-mcp")
	copySource(t, "..", src)
	second, out, err := buildRelease(t.TempDir(), src)
	if err != nil {
		t.Fatalf("second release: %v\n%s", err, out)
	}
	a, b := releaseFiles(t, first), releaseFiles(t, second)
	if len(a) != len(b) {
		t.Fatalf("the two releases have different files:\n%v\n%v", keys(a), keys(b))
	}
	for name, body := range a {
		if !bytes.Equal(body, b[name]) {
			t.Errorf("%s differs between two builds of the same source (%d vs %d bytes)", name, len(body), len(b[name]))
		}
	}
	sums := string(a["SHA256SUMS"])
	for _, want := range []string{"devtools-mcp_1.2.3_linux_amd64.tar.gz", "devtools-mcp_1.2.3_linux_amd64.cdx.json", "install.sh", "server.json"} {
		if runtime.GOARCH == "amd64" && !strings.Contains(sums, "  "+want+"\n") {
			t.Errorf("SHA256SUMS has no line for %s:\n%s", want, sums)
		}
	}
	check := exec.Command("sha256sum", "-c", "SHA256SUMS")
	check.Dir = first
	if out, err := check.CombinedOutput(); err != nil {
		t.Errorf("sha256sum -c SHA256SUMS: %v\n%s", err, out)
	}
}

func TestReleaseBinaryAndSBOM(t *testing.T) {
	dir := releaseDir(t)
	bin := filepath.Join(dir, "bin", runtime.GOOS+"/"+runtime.GOARCH, "devtools-mcp")
	out, err := exec.Command(bin, "--version").Output()
	if err != nil || strings.TrimSpace(string(out)) != releaseVersion {
		t.Fatalf("%s --version = %q, %v; want %s", bin, out, err, releaseVersion)
	}
	var bom struct {
		BOMFormat string `json:"bomFormat"`
		Metadata  struct {
			Component struct {
				Name, Version, PURL string
			}
		}
		Components []struct{ Name, Version, PURL string }
	}
	raw, err := os.ReadFile(filepath.Join(dir, "devtools-mcp_1.2.3_"+runtime.GOOS+"_"+runtime.GOARCH+".cdx.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &bom); err != nil {
		t.Fatalf("SBOM is not JSON: %v", err)
	}
	if bom.BOMFormat != "CycloneDX" || bom.Metadata.Component.Version != releaseVersion {
		t.Errorf("SBOM metadata = %+v, want CycloneDX for version %s", bom.Metadata, releaseVersion)
	}
	// The binary's dependencies are exactly the two the design allows.
	var deps []string
	for _, c := range bom.Components {
		deps = append(deps, c.Name)
	}
	if strings.Join(deps, " ") != "github.com/coder/websocket github.com/google/jsonschema-go" {
		t.Errorf("SBOM components = %v, want the two modules the binary is built from", deps)
	}
}

func TestInstallScript(t *testing.T) {
	dir := releaseDir(t)
	if runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		t.Skip("no release build for this architecture")
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer srv.Close()
	home := t.TempDir()
	out, err := runInstall(t, dir, srv.URL, home)
	if err != nil {
		t.Fatalf("install.sh: %v\n%s", err, out)
	}
	installed := filepath.Join(home, ".local", "bin", "devtools-mcp")
	got, err := exec.Command(installed, "--version").Output()
	if err != nil || strings.TrimSpace(string(got)) != releaseVersion {
		t.Fatalf("installed binary --version = %q, %v\ninstall.sh said:\n%s", got, err, out)
	}
	if !strings.Contains(out, "is not on your PATH") {
		t.Errorf("install.sh did not say that ~/.local/bin is not on the PATH:\n%s", out)
	}
}

func TestInstallScriptRefusesAChecksumMismatch(t *testing.T) {
	dir := releaseDir(t)
	// A mirror that serves a tampered archive with the genuine checksums.
	mirror := t.TempDir()
	copySource(t, dir, mirror)
	archive := filepath.Join(mirror, "devtools-mcp_1.2.3_"+runtime.GOOS+"_"+runtime.GOARCH+".tar.gz")
	body, err := os.ReadFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	body[len(body)/2] ^= 0xff
	if err := os.WriteFile(archive, body, 0o644); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(mirror)))
	defer srv.Close()
	home := t.TempDir()
	out, err := runInstall(t, mirror, srv.URL, home)
	if err == nil {
		t.Fatalf("install.sh installed a tampered archive:\n%s", out)
	}
	if !strings.Contains(out, "checksum mismatch") || !strings.Contains(out, "nothing was installed") {
		t.Errorf("install.sh failed without saying why:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(home, ".local", "bin", "devtools-mcp")); err == nil {
		t.Error("a binary was installed despite the mismatch")
	}
}

// runInstall runs the release's install.sh as `curl ... | sh` would: the
// script on standard input of a plain sh.
func runInstall(t *testing.T, dir, baseURL, home string) (string, error) {
	t.Helper()
	script, err := os.Open(filepath.Join(dir, "install.sh"))
	if err != nil {
		t.Fatal(err)
	}
	defer script.Close()
	cmd := exec.Command("sh")
	cmd.Stdin = script
	cmd.Env = []string{"HOME=" + home, "PATH=/usr/bin:/bin", "DEVTOOLS_MCP_BASE_URL=" + baseURL}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func TestNPMPackagesRunThroughNpx(t *testing.T) {
	dir := releaseDir(t)
	npmOS := map[string]string{"windows": "win32"}[runtime.GOOS]
	if npmOS == "" {
		npmOS = runtime.GOOS
	}
	npmCPU := map[string]string{"amd64": "x64"}[runtime.GOARCH]
	if npmCPU == "" {
		npmCPU = runtime.GOARCH
	}
	packs := t.TempDir()
	var tarballs []string
	for _, pkg := range []string{npmOS + "-" + npmCPU, "devtools-mcp"} {
		cmd := exec.Command("npm", "pack", "--silent", "--pack-destination", packs)
		cmd.Dir = filepath.Join(dir, "npm", pkg)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("npm pack %s: %v", pkg, err)
		}
		tarballs = append(tarballs, filepath.Join(packs, strings.TrimSpace(string(out))))
	}
	project := t.TempDir()
	if err := os.WriteFile(filepath.Join(project, "package.json"), []byte(`{"name":"uses-devtools-mcp","version":"1.0.0","private":true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	install := exec.Command("npm", append([]string{"install", "--offline", "--no-audit", "--no-fund"}, tarballs...)...)
	install.Dir = project
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("npm install of the packed tarballs: %v\n%s", err, out)
	}
	cmd := exec.Command("npx", "--offline", "devtools-mcp", "--headless", "--isolated")
	cmd.Dir = project
	s := startCommand(t, mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil), cmd)
	if got := s.session.InitializeResult().ServerInfo.Version; got != releaseVersion {
		t.Errorf("serverInfo.version through npx = %q, want %q", got, releaseVersion)
	}
	page := pages(t, map[string]string{"/": "<title>Through npx</title><p>hello"})
	s.ok("navigate_page", map[string]any{"url": page.URL + "/"})
	if got := s.ok("evaluate_script", map[string]any{"function": "() => document.title"}); !strings.Contains(got, "Through npx") {
		t.Errorf("evaluate_script through npx = %q", got)
	}
}

func TestServerJSONMatchesTheRegistryFormat(t *testing.T) {
	dir := releaseDir(t)
	var schema jsonschema.Schema
	readJSON(t, filepath.Join("testdata", "release", "server.schema.json"), &schema)
	resolved, err := schema.Resolve(nil)
	if err != nil {
		t.Fatalf("resolve the registry schema: %v", err)
	}
	var manifest map[string]any
	readJSON(t, filepath.Join(dir, "server.json"), &manifest)
	if err := resolved.Validate(manifest); err != nil {
		t.Errorf("server.json does not match the registry format: %v", err)
	}
	// The npm launcher names the same server, which is how the registry
	// checks that the package belongs to it.
	var pkg struct{ Name, Version, MCPName string }
	readJSON(t, filepath.Join(dir, "npm", "devtools-mcp", "package.json"), &pkg)
	if pkg.MCPName != manifest["name"] || pkg.Version != manifest["version"] {
		t.Errorf("npm package %+v does not match server.json name %v version %v", pkg, manifest["name"], manifest["version"])
	}
	// And the schema rejects what the registry rejects.
	for name, bad := range map[string]string{
		"version range":   `{"name":"io.github.a/b","description":"d","version":"^1.2.3"}`,
		"latest package":  `{"name":"io.github.a/b","description":"d","version":"1.0.0","packages":[{"registryType":"npm","identifier":"x","version":"latest","transport":{"type":"stdio"}}]}`,
		"name w/o slash":  `{"name":"devtools-mcp","description":"d","version":"1.0.0"}`,
		"unknown package": `{"name":"io.github.a/b","description":"d","version":"1.0.0","packages":[{"registryType":"npm","identifier":"x","version":"1.0.0","transport":{"type":"stdio"},"command":"x"}]}`,
	} {
		var v map[string]any
		if err := json.Unmarshal([]byte(bad), &v); err != nil {
			t.Fatal(err)
		}
		if resolved.Validate(v) == nil {
			t.Errorf("the schema accepts a manifest with a %s", name)
		}
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// releaseFiles reads every file of a release, by relative path.
func releaseFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		files[rel], err = os.ReadFile(path)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func keys(m map[string][]byte) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

// copySource copies a directory tree (regular files only, skipping .git
// and build output).
func copySource(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") && rel != "." {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		body, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), body, info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
}
