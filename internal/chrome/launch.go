package chrome

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// LaunchOptions says which Chrome to start and how.
type LaunchOptions struct {
	// ExecutablePath is the Chrome binary; empty means look it up (see FindExecutable).
	ExecutablePath string
	// Channel picks an installed Chrome: stable (default), beta, dev or canary.
	Channel string
	// UserDataDir is the profile directory; empty means DefaultUserDataDir(Channel),
	// or a temporary directory when Isolated.
	UserDataDir string
	// Isolated uses a temporary profile that is removed when the browser closes.
	Isolated bool
	// Headless runs Chrome without a window.
	Headless bool
	// ViewportWidth and ViewportHeight set the initial window size when positive.
	ViewportWidth, ViewportHeight int
	// ProxyServer is passed to Chrome as --proxy-server.
	ProxyServer string
	// AcceptInsecureCerts makes Chrome ignore certificate errors.
	AcceptInsecureCerts bool
	// Args are extra Chrome arguments, appended after ours.
	Args []string
	// IgnoreDefaultArgs drops matching arguments from DefaultArgs.
	IgnoreDefaultArgs []string
	// Devtools opens DevTools for every tab (headful only).
	Devtools bool
	// ExtraFeatures are Chrome features to turn on (e.g. "WebMCP"), merged
	// into an --enable-features argument of Args when there is one.
	ExtraFeatures []string
	// EnableExtensions lets the Extensions domain install, list and
	// uninstall unpacked extensions (--enable-unsafe-extension-debugging).
	EnableExtensions bool
	// NoPreloading turns off the profile's speculative loads, which no
	// DevTools interception sees (see prefs.go): set under a URL policy.
	NoPreloading bool
}

// DefaultArgs are the arguments every launched Chrome gets: they keep an
// automated browser quiet (no first-run UI, no sync, no background traffic
// to Google, no throttling of background tabs the agent is driving).
var DefaultArgs = []string{
	"--allow-pre-commit-input",
	"--disable-background-networking",
	"--disable-background-timer-throttling",
	"--disable-backgrounding-occluded-windows",
	"--disable-breakpad",
	"--disable-client-side-phishing-detection",
	"--disable-component-extensions-with-background-pages",
	"--disable-component-update",
	"--disable-crash-reporter",
	"--disable-default-apps",
	"--disable-dev-shm-usage",
	"--disable-field-trial-config",
	"--disable-domain-reliability",
	"--disable-features=Translate,NetworkTimeServiceQuerying,CertificateTransparencyComponentUpdater,AcceptCHFrame,MediaRouter,OptimizationHints,ProcessPerSiteUpToMainFrameThreshold,IsolateSandboxedIframes,AutoDeElevate,RenderDocument,OptimizationGuideModelDownloading,OptimizationHintsFetching,OptimizationTargetPrediction,OptimizationGuideOnDeviceModel,PreconnectToSearch,AimEnabled,WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup,PreloadTopChromeWebUI",
	"--disable-hang-monitor",
	"--disable-infobars",
	"--disable-ipc-flooding-protection",
	"--disable-popup-blocking",
	"--disable-prompt-on-repost",
	"--disable-renderer-backgrounding",
	"--disable-search-engine-choice-screen",
	"--disable-sync",
	"--enable-automation",
	"--force-color-profile=srgb",
	"--hide-crash-restore-bubble",
	"--metrics-recording-only",
	"--no-default-browser-check",
	"--no-first-run",
	"--no-service-autorun",
	"--password-store=basic",
	"--use-mock-keychain",
	// Chromium still calls Google's update and account services on its own
	// despite the switches above; point them at a closed local port so an
	// agent's browser stays air-gapped (TestProxyServer checks it, on the
	// newest and an older supported Chromium). Chromium 148-150 also
	// preconnect to the search engine (PreconnectToSearch, off above), ask
	// www.google.com whether AI Mode is available (AimEnabled, off above;
	// --google-base-url catches other www.google.com callers) and check in
	// with Google's push messaging service (the --gcm-* switches).
	// Chromium 156 also gives every browser context, so every HTTP
	// session, WebUI omnibox popups of its own, preloaded in renderers of
	// their own (about 100 MB per context) though headless never shows
	// them: the WebUIOmnibox* and PreloadTopChromeWebUI features, off above.
	"--component-updater=url-source=http://127.0.0.1:9",
	"--gaia-url=http://127.0.0.1:9",
	"--google-apis-url=http://127.0.0.1:9",
	"--google-base-url=http://127.0.0.1:9",
	"--gcm-checkin-url=http://127.0.0.1:9",
	"--gcm-registration-url=http://127.0.0.1:9",
	"--gcm-mcs-endpoint=http://127.0.0.1:9",
	// Autofill asks content-autofill.googleapis.com about every form it
	// sees; translation has its own servers should the feature come back
	// on. Checking passwords against leaks and spelling have no switch:
	// see quietPrefs.
	"--autofill-server-url=http://127.0.0.1:9/",
	"--translate-script-url=http://127.0.0.1:9/",
	"--translate-ranker-model-url=http://127.0.0.1:9/",
}

// channelPaths lists where each channel's Chrome is usually installed, per OS.
func channelPaths(channel string) []string {
	switch runtime.GOOS {
	case "darwin":
		app := map[string]string{"stable": "Google Chrome", "beta": "Google Chrome Beta", "dev": "Google Chrome Dev", "canary": "Google Chrome Canary"}[channel]
		return []string{filepath.Join("/Applications", app+".app", "Contents", "MacOS", app)}
	case "windows":
		dir := map[string]string{"stable": "Chrome", "beta": "Chrome Beta", "dev": "Chrome Dev", "canary": "Chrome SxS"}[channel]
		var paths []string
		for _, env := range []string{"LOCALAPPDATA", "PROGRAMFILES", "PROGRAMFILES(X86)"} {
			if root := os.Getenv(env); root != "" {
				paths = append(paths, filepath.Join(root, "Google", dir, "Application", "chrome.exe"))
			}
		}
		return paths
	default:
		dir := map[string]string{"stable": "chrome", "beta": "chrome-beta", "dev": "chrome-unstable", "canary": "chrome-canary"}[channel]
		return []string{filepath.Join("/opt/google", dir, "chrome")}
	}
}

// FindExecutable picks the Chrome binary to launch: the explicit path, else
// $CHROME_PATH, else the installed Chrome of channel, else Chromium from the
// system packages. The error lists every place it looked.
func FindExecutable(explicit, channel string) (string, error) {
	if explicit != "" {
		if _, err := os.Stat(explicit); err != nil {
			return "", fmt.Errorf("--executablePath %s: %w", explicit, err)
		}
		return explicit, nil
	}
	if env := os.Getenv("CHROME_PATH"); env != "" {
		if _, err := os.Stat(env); err != nil {
			return "", fmt.Errorf("CHROME_PATH=%s: %w; fix the variable or pass --executablePath", env, err)
		}
		return env, nil
	}
	if channel == "" {
		channel = "stable"
	}
	var looked []string
	for _, p := range channelPaths(channel) {
		looked = append(looked, p)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	if channel == "stable" {
		for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
			looked = append(looked, name+" (in PATH)")
			if p, err := exec.LookPath(name); err == nil {
				return p, nil
			}
		}
	}
	return "", fmt.Errorf("no Chrome found for channel %q; looked in: %s. Install Chrome or Chromium (Debian: apt-get install chromium), or pass --executablePath /path/to/chrome",
		channel, strings.Join(looked, ", "))
}

// DefaultUserDataDir is the persistent profile used for launched browsers
// when neither --userDataDir nor --isolated is given: one per channel under
// the user cache directory, separate from the user's everyday profile.
func DefaultUserDataDir(channel string) (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("find user cache dir for the Chrome profile: %w; pass --userDataDir or --isolated", err)
	}
	name := "chrome-profile"
	if channel != "" && channel != "stable" {
		name += "-" + channel
	}
	return filepath.Join(cache, "devtools-mcp", name), nil
}

// buildArgs returns the full Chrome command line (without the binary) for opts
// and profile dir. It reports whether --no-sandbox was added because we run as root.
func buildArgs(opts LaunchOptions, profile string) (args []string, noSandbox bool) {
	ignored := make(map[string]bool, len(opts.IgnoreDefaultArgs))
	for _, a := range opts.IgnoreDefaultArgs {
		ignored[a] = true
	}
	for _, a := range DefaultArgs {
		if !ignored[a] {
			args = append(args, a)
		}
	}
	if opts.Headless {
		args = append(args, "--headless=new", "--screen-info={3840x2160}")
	} else if opts.Devtools {
		args = append(args, "--auto-open-devtools-for-tabs")
	}
	if runtime.GOOS == "linux" && os.Geteuid() == 0 && !ignored["--no-sandbox"] {
		args = append(args, "--no-sandbox")
		noSandbox = true
	}
	switch {
	case opts.ViewportWidth > 0 && opts.ViewportHeight > 0:
		args = append(args, fmt.Sprintf("--window-size=%d,%d", opts.ViewportWidth, opts.ViewportHeight))
	case opts.Headless:
		// Headless windows otherwise take the emulated screen's size, and
		// every screenshot costs the agent a 2000-pixel image.
		args = append(args, "--window-size=1280,720")
	}
	if opts.ProxyServer != "" {
		args = append(args, "--proxy-server="+opts.ProxyServer)
	}
	if opts.AcceptInsecureCerts {
		args = append(args, "--ignore-certificate-errors")
	}
	if opts.EnableExtensions {
		args = append(args, "--enable-unsafe-extension-debugging")
	} else if !ignored["--disable-extensions"] {
		// Without the extensions category no extension runs, and none
		// checks for updates over the network (Debian's wrapper loads some).
		args = append(args, "--disable-extensions")
	}
	args = append(args, opts.Args...)
	args = enableFeatures(args, opts.ExtraFeatures)
	args = append(args, "--user-data-dir="+profile, "--remote-debugging-pipe", "about:blank")
	return args, noSandbox
}

// enableFeatures adds features to the last --enable-features argument of
// args (Chrome honours only the last one), or appends one.
func enableFeatures(args, features []string) []string {
	if len(features) == 0 {
		return args
	}
	const flag = "--enable-features="
	for i := len(args) - 1; i >= 0; i-- {
		if strings.HasPrefix(args[i], flag) {
			if args[i] != flag {
				args[i] += ","
			}
			args[i] += strings.Join(features, ",")
			return args
		}
	}
	return append(args, flag+strings.Join(features, ","))
}

// Process is a Chrome we started: its command, how it exited, and the
// profile to remove when it is gone.
type Process struct {
	cmd        *exec.Cmd
	exited     chan struct{} // closed when Wait returns
	stderr     *TailBuffer
	removeDir  string // temporary profile, removed after exit
	removeOnce sync.Once

	// Version is what Chrome answered Browser.getVersion with at start-up,
	// the answer Launch waits for: kept, so that it is not asked twice.
	Version cdp.BrowserVersion
}

// Launch starts Chrome with a CDP pipe and returns the connection (made
// with cdpOpts, a WithLogger(log) by default) once the browser answers.
// ctx bounds the start-up. The caller owns the process: Kill ends it and
// removes an isolated profile.
func Launch(ctx context.Context, opts LaunchOptions, log *slog.Logger, cdpOpts ...cdp.Option) (*cdp.Conn, *Process, error) {
	exe, err := FindExecutable(opts.ExecutablePath, opts.Channel)
	if err != nil {
		return nil, nil, err
	}
	profile := opts.UserDataDir
	var tempDir string
	switch {
	case opts.Isolated:
		if tempDir, err = newIsolatedProfile(log); err != nil {
			return nil, nil, err
		}
		profile = tempDir
	case profile == "":
		if profile, err = DefaultUserDataDir(opts.Channel); err != nil {
			return nil, nil, err
		}
	}
	if err := os.MkdirAll(profile, 0o700); err != nil {
		return nil, nil, fmt.Errorf("create profile dir %s: %w", profile, err)
	}
	prefs := quietPrefs
	if opts.NoPreloading {
		prefs = maps.Clone(quietPrefs)
		maps.Copy(prefs, noPreloadingPrefs)
	}
	if err := setPrefs(profile, prefs); err != nil {
		p := &Process{removeDir: tempDir}
		p.removeProfile()
		return nil, nil, err
	}
	args, noSandbox := buildArgs(opts, profile)
	if noSandbox {
		log.InfoContext(ctx, "running as root: launching Chrome with --no-sandbox")
	}

	// fd 3 is what Chrome reads commands from, fd 4 where it writes replies.
	toChromeR, toChromeW, err := os.Pipe()
	if err != nil {
		return nil, nil, fmt.Errorf("create CDP pipe: %w", err)
	}
	fromChromeR, fromChromeW, err := os.Pipe()
	if err != nil {
		toChromeR.Close()
		toChromeW.Close()
		return nil, nil, fmt.Errorf("create CDP pipe: %w", err)
	}
	cmd := exec.Command(exe, args...)
	cmd.ExtraFiles = []*os.File{toChromeR, fromChromeW}
	p := &Process{cmd: cmd, exited: make(chan struct{}), stderr: NewTailBuffer(8 << 10), removeDir: tempDir}
	cmd.Stderr = p.stderr
	cmd.Stdout = p.stderr
	SetProcessGroup(cmd)
	log.Debug("launching Chrome", "path", exe, "args", args)
	if err := cmd.Start(); err != nil {
		for _, f := range []*os.File{toChromeR, toChromeW, fromChromeR, fromChromeW} {
			f.Close()
		}
		p.removeProfile()
		return nil, nil, fmt.Errorf("start %s: %w", exe, err)
	}
	// Chrome holds its own copies of its ends now.
	toChromeR.Close()
	fromChromeW.Close()
	go func() {
		_ = cmd.Wait()
		close(p.exited)
	}()

	if len(cdpOpts) == 0 {
		cdpOpts = []cdp.Option{cdp.WithLogger(log)}
	}
	conn := cdp.NewConn(cdp.NewPipeTransport(fromChromeR, toChromeW), cdpOpts...)
	startCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	errc := make(chan error, 1)
	go func() {
		var err error
		p.Version, err = cdp.BrowserGetVersion.Call(startCtx, conn.Session(""))
		errc <- err
	}()
	select {
	case err = <-errc:
	case <-p.exited:
		err = errors.New("chrome exited during start-up")
	}
	if err != nil {
		conn.Close()
		p.Kill()
		return nil, nil, p.startError(exe, err, opts.Headless)
	}
	return conn, p, nil
}

// startError explains a failed start with what Chrome printed and, for the
// common causes, what to do.
func (p *Process) startError(exe string, err error, headless bool) error {
	msg := fmt.Sprintf("launch %s: %v", exe, err)
	out := strings.TrimSpace(p.stderr.String())
	if out != "" {
		msg += "\nChrome said:\n" + out
	}
	if strings.Contains(out, "SingletonLock") || strings.Contains(out, "profile appears to be in use") {
		msg += "\nThe profile is in use by another Chrome: close it, pass --isolated, or pick another --userDataDir."
	}
	if !headless && runtime.GOOS == "linux" && os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		msg += "\nThere is no display (DISPLAY is unset): pass --headless."
	}
	return errors.New(msg)
}

// Pid is the process id of Chrome.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Exited is closed once Chrome has exited.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// Kill stops Chrome and everything it started, waits for it to exit, then
// removes a temporary profile. It may be called more than once.
func (p *Process) Kill() {
	KillProcessGroup(p.cmd)
	<-p.exited
	p.removeProfile()
}

// removeProfile deletes the temporary profile of an isolated browser.
func (p *Process) removeProfile() {
	p.removeOnce.Do(func() {
		if p.removeDir != "" {
			_ = os.RemoveAll(p.removeDir)
		}
	})
}

// TailBuffer keeps the last bytes written to it: the output of Chrome (or
// of another child process, such as ffmpeg), kept for error messages
// without growing over a long session.
type TailBuffer struct {
	mu  sync.Mutex
	buf []byte
	max int
}

// NewTailBuffer returns a TailBuffer that keeps the last max bytes.
func NewTailBuffer(max int) *TailBuffer { return &TailBuffer{max: max} }

// Write appends b, dropping the oldest bytes beyond max.
func (t *TailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(b), nil
}

// String returns what is kept, without lines that are only noise.
func (t *TailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out bytes.Buffer
	for _, line := range bytes.Split(t.buf, []byte("\n")) {
		if len(bytes.TrimSpace(line)) > 0 {
			out.Write(line)
			out.WriteByte('\n')
		}
	}
	return out.String()
}
