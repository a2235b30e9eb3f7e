package chrome

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// AttachOptions says how to reach a Chrome that is already running. At most
// one of BrowserURL, WSEndpoint and AutoConnect is set.
type AttachOptions struct {
	// BrowserURL is Chrome's HTTP debugging address, e.g. http://127.0.0.1:9222.
	BrowserURL string
	// WSEndpoint is the browser's WebSocket debugger URL.
	WSEndpoint string
	// WSHeaders are sent with the WebSocket handshake (WSEndpoint only).
	WSHeaders map[string]string
	// AutoConnect finds the endpoint in the DevToolsActivePort file of
	// UserDataDir, or of Channel's default profile.
	AutoConnect bool
	UserDataDir string
	Channel     string
}

// Enabled reports whether these options attach rather than launch.
func (o AttachOptions) Enabled() bool {
	return o.BrowserURL != "" || o.WSEndpoint != "" || o.AutoConnect
}

// Endpoint resolves the options to a WebSocket URL and handshake headers.
func (o AttachOptions) Endpoint(ctx context.Context) (string, http.Header, error) {
	switch {
	case o.WSEndpoint != "":
		h := http.Header{}
		for k, v := range o.WSHeaders {
			h.Set(k, v)
		}
		return o.WSEndpoint, h, nil
	case o.BrowserURL != "":
		ws, err := ResolveBrowserURL(ctx, o.BrowserURL)
		return ws, nil, err
	default:
		dir := o.UserDataDir
		if dir == "" {
			var err error
			if dir, err = UserDataDir(o.Channel); err != nil {
				return "", nil, err
			}
		}
		ws, err := ReadDevToolsActivePort(dir)
		return ws, nil, err
	}
}

// ResolveBrowserURL asks Chrome's HTTP debugging endpoint (/json/version) for
// the browser's WebSocket debugger URL.
func ResolveBrowserURL(ctx context.Context, browserURL string) (string, error) {
	u, err := url.Parse(browserURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("--browserUrl %q is not an http URL; use the form http://127.0.0.1:9222", browserURL)
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + "/json/version"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return "", fmt.Errorf("browser URL %s: %w", browserURL, err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", fmt.Errorf("could not reach Chrome at %s: %w. Is Chrome running with --remote-debugging-port? Start it like: chrome --remote-debugging-port=9222 --user-data-dir=/tmp/profile", browserURL, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return "", fmt.Errorf("read %s: %w", u, err)
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%s answered %s; is this a Chrome debugging port?", u, resp.Status)
	}
	var v struct {
		WebSocketDebuggerURL string `json:"webSocketDebuggerUrl"`
	}
	if err := json.Unmarshal(body, &v); err != nil || v.WebSocketDebuggerURL == "" {
		return "", fmt.Errorf("%s did not return a webSocketDebuggerUrl; is this a Chrome debugging port?", u)
	}
	return v.WebSocketDebuggerURL, nil
}

// ReadDevToolsActivePort reads the DevToolsActivePort file Chrome writes in
// its profile when remote debugging is on (port on line 1, path on line 2)
// and returns the browser's WebSocket URL.
func ReadDevToolsActivePort(userDataDir string) (string, error) {
	file := filepath.Join(userDataDir, "DevToolsActivePort")
	data, err := os.ReadFile(file)
	if err != nil {
		return "", fmt.Errorf("read %s: %w. Is Chrome running with this profile and remote debugging enabled? In Chrome 144+ turn it on at chrome://inspect/#remote-debugging", file, err)
	}
	lines := strings.Fields(string(data))
	if len(lines) < 2 {
		return "", fmt.Errorf("%s should hold a port and a path on two lines, got %q; restart Chrome with remote debugging enabled", file, string(data))
	}
	port, err := strconv.Atoi(lines[0])
	if err != nil || port <= 0 || port > 65535 {
		return "", fmt.Errorf("%s has an invalid port %q; restart Chrome with remote debugging enabled", file, lines[0])
	}
	return fmt.Sprintf("ws://127.0.0.1:%d%s", port, lines[1]), nil
}

// UserDataDir is where an installed Chrome of channel keeps the user's
// own profile, used by --autoConnect without --userDataDir.
func UserDataDir(channel string) (string, error) {
	if channel == "" {
		channel = "stable"
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("find home dir: %w; pass --userDataDir", err)
	}
	switch runtime.GOOS {
	case "darwin":
		name := map[string]string{"stable": "Chrome", "beta": "Chrome Beta", "dev": "Chrome Dev", "canary": "Chrome Canary"}[channel]
		return filepath.Join(home, "Library", "Application Support", "Google", name), nil
	case "windows":
		name := map[string]string{"stable": "Chrome", "beta": "Chrome Beta", "dev": "Chrome Dev", "canary": "Chrome SxS"}[channel]
		return filepath.Join(os.Getenv("LOCALAPPDATA"), "Google", name, "User Data"), nil
	default:
		// CHROME_CONFIG_HOME first, as Chrome itself and the reference do.
		config := cmp.Or(os.Getenv("CHROME_CONFIG_HOME"), os.Getenv("XDG_CONFIG_HOME"))
		if config == "" {
			config = filepath.Join(home, ".config")
		}
		name := map[string]string{"stable": "google-chrome", "beta": "google-chrome-beta", "dev": "google-chrome-unstable", "canary": "google-chrome-canary"}[channel]
		return filepath.Join(config, name), nil
	}
}
