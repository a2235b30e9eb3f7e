package chrome

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSetPrefsKeepsTheOtherPreferences(t *testing.T) {
	dir := t.TempDir()
	if err := setPrefs(dir, noPreloadingPrefs); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "Default", "Preferences")
	if got, _ := os.ReadFile(path); string(got) != `{"net":{"network_prediction_options":2}}` {
		t.Fatalf("a new profile's preferences: %s", got)
	}
	os.WriteFile(path, []byte(`{"browser":{"x":13370000000000000123},"net":{"network_prediction_options":0,"other":"y"},"profile":7}`), 0o600)
	if err := setPrefs(dir, map[string]any{"net.network_prediction_options": 2, "profile.password_manager_leak_detection": false}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != `{"browser":{"x":13370000000000000123},"net":{"network_prediction_options":2,"other":"y"},"profile":{"password_manager_leak_detection":false}}` {
		t.Fatalf("an existing profile's preferences: %s", got)
	}
	os.WriteFile(path, []byte(`{not json`), 0o600)
	if err := setPrefs(dir, noPreloadingPrefs); err == nil || !strings.Contains(err.Error(), "not JSON") {
		t.Fatalf("unreadable preferences: %v", err)
	}
}
