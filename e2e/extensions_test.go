package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// extensionCopy copies testdata/extension into a temporary folder (where
// the path guard lets a client without roots point) and returns it.
func extensionCopy(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "extension")
	if err := os.CopyFS(dir, os.DirFS("testdata/extension")); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestExtensionsLifecycle(t *testing.T) {
	dir := extensionCopy(t)
	s := startServer(t, append(headless, "--categoryExtensions")...)
	mustContain(t, s.ok("list_extensions", nil), "## Extensions", "No extensions installed.")

	installed := s.ok("install_extension", map[string]any{"path": dir})
	m := regexp.MustCompile(`Extension installed\. Id: ([a-p]{32})`).FindStringSubmatch(installed)
	if m == nil {
		t.Fatalf("install_extension gave no id:\n%s", installed)
	}
	id := m[1]
	mustContain(t, s.ok("list_extensions", nil), `id=`+id+` "Probe extension" v1.0 Enabled`)

	// The action opens "clicked" next to the selected page.
	site := pages(t, map[string]string{"/": `<title>Host</title>`, "/clicked": `<title>Clicked by extension</title>`})
	s.ok("navigate_page", map[string]any{"url": site.URL})
	mustContain(t, s.ok("trigger_extension_action", map[string]any{"id": id}), "Extension action triggered for id "+id+" on page 1.")
	eventually(t, "the tab the action opens", func() bool {
		return strings.Contains(s.ok("list_pages", nil), "Clicked by extension")
	})

	// Reloading picks up the changed manifest.
	manifest := filepath.Join(dir, "manifest.json")
	data, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(manifest, []byte(strings.Replace(string(data), `"1.0"`, `"1.1"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	mustContain(t, s.ok("reload_extension", map[string]any{"id": id}), "Extension reloaded. Id: "+id)
	mustContain(t, s.ok("list_extensions", nil), `id=`+id+` "Probe extension" v1.1 Enabled`)

	mustContain(t, s.ok("uninstall_extension", map[string]any{"id": id}), "Extension uninstalled. Id: "+id)
	mustContain(t, s.ok("list_extensions", nil), "No extensions installed.")
	mustContain(t, s.fails("uninstall_extension", map[string]any{"id": id}), "no unpacked extension with id", "list_extensions")
	mustContain(t, s.fails("trigger_extension_action", map[string]any{"id": id}), "no unpacked extension with id", "none is installed")
}

func TestInstallExtensionChecksThePath(t *testing.T) {
	s := startServer(t, append(headless, "--categoryExtensions")...)
	mustContain(t, s.fails("install_extension", map[string]any{"path": "/usr/share"}), "--allowUnrestrictedPaths")
	empty := t.TempDir()
	mustContain(t, s.fails("install_extension", map[string]any{"path": empty}), "install the extension in "+empty, "anifest")
	mustContain(t, s.ok("list_extensions", nil), "No extensions installed.")
}

// commandLine returns the command line of the browser s launched.
func commandLine(s *server) string {
	s.ok("navigate_page", map[string]any{"url": "chrome://version"})
	return s.eval("() => document.getElementById('command_line').textContent")
}

func TestExtensionToolsNeedTheirFlag(t *testing.T) {
	const unsafe = "--enable-unsafe-extension-debugging"
	s := startServer(t, headless...)
	for _, name := range toolNames(t, s) {
		if strings.Contains(name, "extension") {
			t.Errorf("%s is listed without --categoryExtensions", name)
		}
	}
	if strings.Contains(commandLine(s), unsafe) {
		t.Errorf("Chrome got %s without --categoryExtensions", unsafe)
	}
	on := startServer(t, append(headless, "--categoryExtensions")...)
	names := toolNames(t, on)
	for _, name := range []string{"install_extension", "list_extensions", "reload_extension", "trigger_extension_action", "uninstall_extension"} {
		if !slices.Contains(names, name) {
			t.Errorf("%s is missing with --categoryExtensions", name)
		}
	}
	// Google Chrome serves the Extensions domain only with this argument.
	mustContain(t, commandLine(on), unsafe)
}

func TestEvaluateInExtensionServiceWorker(t *testing.T) {
	dir := extensionCopy(t)
	s := startServer(t, append(headless, "--categoryExtensions")...)
	installed := s.ok("install_extension", map[string]any{"path": dir})
	id := regexp.MustCompile(`Id: ([a-p]{32})`).FindStringSubmatch(installed)[1]

	var sw string
	eventually(t, "the extension's service worker in list_pages", func() bool {
		m := regexp.MustCompile(`(?m)^(sw-\d+): chrome-extension://` + id + `/worker\.js$`).FindStringSubmatch(s.ok("list_pages", nil))
		if m != nil {
			sw = m[1]
		}
		return m != nil
	})
	mustContain(t, s.ok("list_pages", nil), "## Extension Service Workers\n"+sw+": chrome-extension://"+id+"/worker.js")

	out := s.ok("evaluate_script", map[string]any{"function": "async () => ({id: chrome.runtime.id, hasDocument: typeof document !== 'undefined'})", "serviceWorkerId": sw})
	mustContain(t, out, "Script ran in service worker "+sw+" and returned:", `{"id":"`+id+`","hasDocument":false}`)
	mustContain(t, s.fails("evaluate_script", map[string]any{"function": "() => 1", "serviceWorkerId": "sw-999"}), `no extension service worker "sw-999"`, sw)
	mustContain(t, s.fails("evaluate_script", map[string]any{"function": "(el) => el", "args": []string{"1_1"}, "serviceWorkerId": sw}), "cannot be used in a service worker")
	mustContain(t, s.fails("evaluate_script", map[string]any{"function": "() => { throw new Error('boom') }", "serviceWorkerId": sw}), "boom")

	// Without the extensions category the argument is not offered.
	plain := startServer(t, headless...)
	mustContain(t, plain.fails("evaluate_script", map[string]any{"function": "() => 1", "serviceWorkerId": sw}), `unknown argument "serviceWorkerId"`)
}
