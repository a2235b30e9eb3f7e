package e2e

import (
	"slices"
	"strings"
	"testing"
)

func TestPWAToolsNeedTheirFlag(t *testing.T) {
	pwa := []string{"get_os_app_state", "install_pwa", "launch_pwa", "uninstall_pwa"}
	off := toolNames(t, startServer(t, headless...))
	on := toolNames(t, startServer(t, append(headless, "--categoryPwa")...))
	for _, n := range pwa {
		if slices.Contains(off, n) {
			t.Errorf("%s is listed without --categoryPwa", n)
		}
		if !slices.Contains(on, n) {
			t.Errorf("%s is not listed with --categoryPwa; got %v", n, on)
		}
	}
}

// TestPWALifecycle installs testdata/pwa in headless Chromium, reads its OS
// state, launches it at another page of the app and uninstalls it.
func TestPWALifecycle(t *testing.T) {
	site := fixtures(t)
	s := startServer(t, append(headless, "--categoryPwa")...)
	id := site.URL + "/pwa/app" // the manifest's "id" resolved against its URL
	got := s.ok("install_pwa", map[string]any{"manifestId": id, "installUrlOrBundleUrl": site.URL + "/pwa/", "displayMode": "standalone"})
	mustContain(t, got, "Installed PWA with manifest ID: "+id, "Display mode set to: standalone")

	got = s.ok("get_os_app_state", map[string]any{"manifestId": id})
	mustContain(t, got, "OS app state for manifest ID: "+id, "Badge count: 0", "File handlers: []")

	other := site.URL + "/pwa/other.html"
	got = s.ok("launch_pwa", map[string]any{"manifestId": id, "url": other})
	mustContain(t, got, "Launched PWA with manifest ID: "+id, "## Pages")
	_, list, _ := strings.Cut(got, "## Pages")
	if line := pageLine(list, other); !strings.Contains(line, "[selected]") {
		t.Fatalf("the launched app page is not the selected page; got:\n%s", got)
	}
	mustContain(t, s.ok("list_pages", nil), other)
	if got := s.eval("() => document.querySelector('h1').textContent"); !strings.Contains(got, "Another page of the app") {
		t.Fatalf("evaluate_script on the launched page = %s", got)
	}

	mustContain(t, s.ok("uninstall_pwa", map[string]any{"manifestId": id}), "Uninstalled PWA with manifest ID: "+id)
	eventually(t, "the app window closes after uninstall", func() bool {
		return !strings.Contains(s.ok("list_pages", nil), other)
	})
	mustContain(t, s.fails("get_os_app_state", map[string]any{"manifestId": id}), "Unknown web-app manifest id", "install_pwa")
}

func TestPWAErrorsSayWhatIsNeeded(t *testing.T) {
	site := fixtures(t)
	s := startServer(t, append(headless, "--categoryPwa")...)
	got := s.fails("install_pwa", map[string]any{"manifestId": site.URL + "/pwa/wrong", "installUrlOrBundleUrl": site.URL + "/pwa/"})
	mustContain(t, got, "Couldn't fetch install info", "links a web app manifest", "equals manifestId")
	got = s.fails("launch_pwa", map[string]any{"manifestId": site.URL + "/pwa/app"})
	mustContain(t, got, "Check that the app is installed (install_pwa)")
	got = s.fails("install_pwa", map[string]any{"manifestId": site.URL + "/pwa/app", "installUrlOrBundleUrl": site.URL + "/pwa/", "displayMode": "window"})
	mustContain(t, got, `argument "displayMode"`)
}
