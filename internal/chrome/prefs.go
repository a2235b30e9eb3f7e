package chrome

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Some of what Chrome does on its own has no switch, only a setting of
// the profile, which the launched browser's profile gets before Chrome
// starts (setPrefs).
//
// Speculative loads (speculation rules' prefetch and prerender, from a
// <script type="speculationrules"> or a Speculation-Rules header) are made
// by Chrome's browser process on the page's behalf, beside what DevTools
// can intercept: Fetch, Network.setBlockedURLs and network-condition rules
// never see those requests, and a navigation to a prefetched URL is served
// from the prefetch without a request either. Under a URL policy the only
// switch that stops them is the profile's "Preload pages" setting.

// quietPrefs are the settings every launched profile gets: they keep
// Chrome from calling Google's services on its own, where no switch does
// (TestLaunchedBrowserStaysAirGapped).
var quietPrefs = map[string]any{
	// Checking typed passwords against leaked ones
	// (passwordsleakcheck-pa.googleapis.com).
	"profile.password_manager_leak_detection": false,
	// Downloading spelling dictionaries (redirector.gvt1.com) and asking
	// the spelling service. Chromium 150 downloads the dictionaries listed
	// even with spelling off, and lists the old single dictionary's
	// default, the user's language, when that one is not set.
	"browser.enable_spellchecking":    false,
	"spellcheck.use_spelling_service": false,
	"spellcheck.dictionaries":         []any{},
	"spellcheck.dictionary":           "",
}

// noPreloadingPrefs turn off every speculative load of the profile
// ("Preload pages": never), for a URL policy.
var noPreloadingPrefs = map[string]any{"net.network_prediction_options": 2}

// setPrefs sets the preferences of the profile in dir, keyed by their
// dotted path, keeping the rest. A profile whose preferences cannot be
// read or written fails the launch: what they promise would not hold.
func setPrefs(dir string, set map[string]any) error {
	path := filepath.Join(dir, "Default", "Preferences")
	prefs := map[string]any{}
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("set the profile's preferences: %w", err)
	case len(data) > 0:
		// Numbers are kept as written: Chrome stores 64-bit ones.
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		if err := dec.Decode(&prefs); err != nil {
			return fmt.Errorf("set the profile's preferences: %s is not JSON: %w; remove it (Chrome starts that profile anew) or pass --isolated", path, err)
		}
	}
	changed := false
	for key, value := range set {
		changed = setPref(prefs, strings.Split(key, "."), value) || changed
	}
	if !changed {
		return nil
	}
	out, err := json.Marshal(prefs)
	if err == nil {
		err = os.MkdirAll(filepath.Dir(path), 0o700)
	}
	if err == nil {
		err = writeReplacing(path, out)
	}
	if err != nil {
		return fmt.Errorf("set the profile's preferences: %w", err)
	}
	return nil
}

// setPref sets the value at path in the nested prefs, replacing what is
// not an object on the way, and reports whether anything changed.
func setPref(prefs map[string]any, path []string, value any) bool {
	for _, name := range path[:len(path)-1] {
		next, ok := prefs[name].(map[string]any)
		if !ok {
			next = map[string]any{}
			prefs[name] = next
		}
		prefs = next
	}
	last := path[len(path)-1]
	old, _ := json.Marshal(prefs[last])
	now, _ := json.Marshal(value)
	prefs[last] = value
	return string(old) != string(now)
}

// writeReplacing writes data to a new file beside path and renames it over
// path, so that Chrome never reads half a file.
func writeReplacing(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".Preferences-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
