package chrome

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/devtools-mcp/devtools-mcp/internal/urlpattern"
)

// WebDriverOptions say where to get browsers from a W3C WebDriver
// endpoint: a Selenium Grid, Selenoid, Moon, a hosted grid, or a local
// chromedriver. The server asks it for a Chrome session, then drives that
// Chrome over the CDP endpoint the session names, as an attached browser.
type WebDriverOptions struct {
	// URL is the endpoint, e.g. http://127.0.0.1:4444 or
	// http://grid:4444/wd/hub; user:password in it is sent as basic auth.
	URL string
	// Capabilities are merged into the session's alwaysMatch capabilities
	// (platformName, browserVersion, se:... and vendor options, for grids
	// that route by them); "goog:chromeOptions" is merged key by key, and
	// its "args" are added after the server's own.
	Capabilities map[string]any
}

// Enabled reports whether browsers come from a WebDriver endpoint.
func (o WebDriverOptions) Enabled() bool { return o.URL != "" }

// WebDriverKeepAlive is how often a session gets a command: grids end
// sessions that receive none for a while (Selenium Grid: 300 s), and they
// do not see the CDP traffic.
const WebDriverKeepAlive = 60 * time.Second

// WebDriverSession is one WebDriver session: the grid's browser we drive.
type WebDriverSession struct {
	client *http.Client
	base   string      // the endpoint, without a trailing slash or user info
	auth   http.Header // basic auth from the URL's user info, else empty
	id     string
	log    *slog.Logger

	stop      context.CancelFunc // ends the keep-alive
	closeOnce sync.Once
}

// StartWebDriver creates a session for a Chrome configured by launch and
// returns it with the browser's CDP WebSocket URL and the headers its
// handshake needs. The caller keeps it alive (KeepAlive) while it drives
// the browser, and closes it (Close) to end the session and its browser.
func StartWebDriver(ctx context.Context, opts WebDriverOptions, launch LaunchOptions, log *slog.Logger) (*WebDriverSession, string, http.Header, error) {
	u, err := url.Parse(opts.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, "", nil, fmt.Errorf("--webdriverUrl %q is not an http(s) URL such as http://127.0.0.1:4444", opts.URL)
	}
	s := &WebDriverSession{client: &http.Client{Timeout: 2 * time.Minute}, auth: http.Header{}, log: log, stop: func() {}}
	if u.User != nil {
		pw, _ := u.User.Password()
		req := http.Request{Header: http.Header{}}
		req.SetBasicAuth(u.User.Username(), pw)
		s.auth.Set("Authorization", req.Header.Get("Authorization"))
		u.User = nil
	}
	s.base = strings.TrimSuffix(u.String(), "/")

	body := map[string]any{"capabilities": map[string]any{"alwaysMatch": webDriverCapabilities(launch, opts.Capabilities)}}
	var res struct {
		SessionID    string         `json:"sessionId"`
		Capabilities map[string]any `json:"capabilities"`
	}
	if err := s.do(ctx, http.MethodPost, "/session", body, &res); err != nil {
		return nil, "", nil, fmt.Errorf("create a WebDriver session at %s: %w", s.base, err)
	}
	if res.SessionID == "" {
		return nil, "", nil, fmt.Errorf("create a WebDriver session at %s: the answer has no sessionId", s.base)
	}
	s.id = res.SessionID
	ws, err := s.cdpEndpoint(ctx, u, res.Capabilities)
	if err != nil {
		s.Close()
		return nil, "", nil, err
	}
	log.Info("created a WebDriver session", "endpoint", urlpattern.LogSafe(s.base), "session", s.id, "cdp", urlpattern.LogSafe(ws))
	return s, ws, s.auth.Clone(), nil
}

// webDriverCapabilities are the alwaysMatch capabilities of a Chrome
// session: launch's settings as Chrome switches and W3C capabilities,
// then the user's extra.
func webDriverCapabilities(launch LaunchOptions, extra map[string]any) map[string]any {
	ignored := map[string]bool{}
	for _, a := range launch.IgnoreDefaultArgs {
		ignored[a] = true
	}
	var args []string
	for _, a := range DefaultArgs {
		if !ignored[a] {
			args = append(args, a)
		}
	}
	if launch.Headless {
		args = append(args, "--headless=new")
	}
	switch {
	case launch.ViewportWidth > 0 && launch.ViewportHeight > 0:
		args = append(args, fmt.Sprintf("--window-size=%d,%d", launch.ViewportWidth, launch.ViewportHeight))
	case launch.Headless:
		args = append(args, "--window-size=1280,720")
	}
	if launch.ProxyServer != "" {
		args = append(args, "--proxy-server="+launch.ProxyServer)
	}
	args = enableFeatures(append(args, launch.Args...), launch.ExtraFeatures)
	chrome := map[string]any{}
	caps := map[string]any{"browserName": "chrome"}
	if launch.AcceptInsecureCerts {
		caps["acceptInsecureCerts"] = true
	}
	if launch.ExecutablePath != "" {
		chrome["binary"] = launch.ExecutablePath // a path on the grid's node
	}
	for k, v := range extra {
		if k != "goog:chromeOptions" {
			caps[k] = v
		}
	}
	if theirs, ok := extra["goog:chromeOptions"].(map[string]any); ok {
		for k, v := range theirs {
			if k == "args" {
				if list, ok := v.([]any); ok {
					for _, a := range list {
						args = append(args, fmt.Sprint(a))
					}
					continue
				}
			}
			chrome[k] = v
		}
	}
	chrome["args"] = args
	caps["goog:chromeOptions"] = chrome
	return caps
}

// cdpEndpoint finds the browser's CDP WebSocket in the new session's
// capabilities: se:cdp (Selenium Grid 4 and grids like it), else
// goog:chromeOptions.debuggerAddress (chromedriver), whose loopback host
// means the endpoint's machine.
func (s *WebDriverSession) cdpEndpoint(ctx context.Context, endpoint *url.URL, caps map[string]any) (string, error) {
	if ws, ok := caps["se:cdp"].(string); ok && ws != "" {
		return ws, nil
	}
	chrome, _ := caps["goog:chromeOptions"].(map[string]any)
	addr, _ := chrome["debuggerAddress"].(string)
	if addr == "" {
		return "", fmt.Errorf("the WebDriver session at %s names no CDP endpoint (neither se:cdp nor goog:chromeOptions.debuggerAddress); this server needs a Chrome or Chromium session", s.base)
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("the WebDriver session's debuggerAddress %q is not host:port", addr)
	}
	if ip := net.ParseIP(host); host == "localhost" || (ip != nil && ip.IsLoopback()) {
		host = endpoint.Hostname()
	}
	return ResolveBrowserURL(ctx, "http://"+net.JoinHostPort(host, port))
}

// KeepAlive sends a harmless command every interval until Close, and
// calls gone once the endpoint says the session no longer exists (the
// grid timed it out, or someone deleted it).
func (s *WebDriverSession) KeepAlive(interval time.Duration, gone func()) {
	ctx, cancel := context.WithCancel(context.Background())
	s.stop = cancel
	go func() {
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			err := s.do(ctx, http.MethodGet, "/session/"+s.id+"/timeouts", nil, nil)
			var we *webDriverError
			if errors.As(err, &we) && we.Code == "invalid session id" {
				s.log.Warn("the WebDriver session is gone", "session", s.id, "err", err)
				gone()
				return
			}
			if err != nil && ctx.Err() == nil {
				s.log.Debug("WebDriver keep-alive failed", "session", s.id, "err", err)
			}
		}
	}()
}

// Close ends the keep-alive and deletes the session, which closes its
// browser; it is safe to call more than once.
func (s *WebDriverSession) Close() {
	s.closeOnce.Do(func() {
		s.stop()
		s.delete()
	})
}

// delete asks the endpoint to end the session.
func (s *WebDriverSession) delete() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.do(ctx, http.MethodDelete, "/session/"+s.id, nil, nil); err != nil {
		s.log.Warn("delete the WebDriver session", "session", s.id, "err", err)
		return
	}
	s.log.Info("deleted the WebDriver session", "session", s.id)
}

// webDriverError is an error answer of the W3C protocol.
type webDriverError struct {
	Status  int
	Code    string `json:"error"`
	Message string `json:"message"`
}

func (e *webDriverError) Error() string {
	return fmt.Sprintf("%s (HTTP %d): %s", e.Code, e.Status, e.Message)
}

// do sends one command and decodes the answer's "value" into out.
func (s *WebDriverSession) do(ctx context.Context, method, path string, body, out any) error {
	var r io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return err
		}
		r = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, s.base+path, r)
	if err != nil {
		return err
	}
	maps.Copy(req.Header, s.auth)
	if body != nil {
		req.Header.Set("Content-Type", "application/json; charset=utf-8")
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return err
	}
	var answer struct {
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(data, &answer); err != nil {
		return fmt.Errorf("HTTP %d with a body that is not WebDriver JSON: %.200s", resp.StatusCode, data)
	}
	if resp.StatusCode != http.StatusOK {
		we := &webDriverError{Status: resp.StatusCode}
		if json.Unmarshal(answer.Value, we) != nil || we.Code == "" {
			we.Code, we.Message = "unknown error", fmt.Sprintf("%.200s", data)
		}
		return we
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(answer.Value, out)
}
