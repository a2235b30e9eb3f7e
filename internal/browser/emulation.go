package browser

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// Emulation is what a page emulates. The zero value emulates nothing.
type Emulation struct {
	// Network names one of NetworkPresets; "" for no throttling.
	Network string
	// CPUThrottling is the CPU slowdown factor; 0 or 1 for none.
	CPUThrottling float64
	Geolocation   *Geolocation
	UserAgent     string
	// ColorScheme, ForcedColors, PrefersContrast and PrefersReducedMotion
	// are values of the CSS media features prefers-color-scheme,
	// forced-colors, prefers-contrast and prefers-reduced-motion; "" for the
	// browser's own.
	ColorScheme, ForcedColors, PrefersContrast, PrefersReducedMotion string
	Viewport                                                         *Viewport
	// Headers are sent with every request of the page.
	Headers map[string]string
	// Downloads is where the page's downloads are saved; nil refuses them.
	Downloads *DownloadDir
}

// Geolocation is an emulated position in degrees.
type Geolocation struct {
	Latitude, Longitude float64
}

// Viewport is an emulated device screen: its size in CSS pixels, its device
// pixel ratio, and whether it is a mobile device, has a touch screen, and is
// held in landscape orientation.
type Viewport struct {
	Width, Height     int
	DeviceScaleFactor float64
	Mobile, Touch     bool
	Landscape         bool
}

// String writes v in the form emulate takes: 375x667x3,mobile,touch.
func (v Viewport) String() string {
	s := fmt.Sprintf("%dx%dx%s", v.Width, v.Height, strconv.FormatFloat(v.DeviceScaleFactor, 'g', -1, 64))
	for _, f := range []struct {
		on   bool
		name string
	}{{v.Mobile, "mobile"}, {v.Touch, "touch"}, {v.Landscape, "landscape"}} {
		if f.on {
			s += "," + f.name
		}
	}
	return s
}

// NetworkPresets are the connections emulate offers, with the throughput
// (bytes per second) and latency (ms) figures of Chrome DevTools.
var NetworkPresets = map[string]cdp.EmulateNetworkConditionsParams{
	"Offline": {Offline: true},
	"Slow 3G": {DownloadThroughput: 500 * 1000 / 8 * 0.8, UploadThroughput: 500 * 1000 / 8 * 0.8, Latency: 400 * 5},
	"Fast 3G": {DownloadThroughput: 1.6 * 1000 * 1000 / 8 * 0.9, UploadThroughput: 750 * 1000 / 8 * 0.9, Latency: 150 * 3.75},
	"Slow 4G": {DownloadThroughput: 1.6 * 1000 * 1000 / 8 * 0.9, UploadThroughput: 750 * 1000 / 8 * 0.9, Latency: 150 * 3.75},
	"Fast 4G": {DownloadThroughput: 9 * 1000 * 1000 / 8 * 0.9, UploadThroughput: 1.5 * 1000 * 1000 / 8 * 0.9, Latency: 60 * 2.75},
}

// noThrottling turns network emulation off.
var noThrottling = cdp.EmulateNetworkConditionsParams{DownloadThroughput: -1, UploadThroughput: -1}

// String lists what e emulates, one "Emulating ..." line each; "" when
// nothing. Header values are left out: they may be credentials.
func (e Emulation) String() string {
	var lines []string
	add := func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }
	if e.Network != "" {
		add("Emulating network conditions: %s", e.Network)
	}
	if e.CPUThrottling > 1 {
		add("Emulating CPU throttling: %sx slowdown", strconv.FormatFloat(e.CPUThrottling, 'g', -1, 64))
	}
	if g := e.Geolocation; g != nil {
		add("Emulating geolocation: latitude=%s, longitude=%s", strconv.FormatFloat(g.Latitude, 'g', -1, 64), strconv.FormatFloat(g.Longitude, 'g', -1, 64))
	}
	if e.Viewport != nil {
		add("Emulating viewport: %s", e.Viewport)
	}
	if e.UserAgent != "" {
		add("Emulating user agent: %s", e.UserAgent)
	}
	for i, f := range e.mediaFeatures() {
		if f.Value != "" {
			add("Emulating %s: %s", mediaLabels[i], f.Value)
		}
	}
	if len(e.Headers) > 0 {
		add("Sending extra HTTP headers: %s", strings.Join(slices.Sorted(maps.Keys(e.Headers)), ", "))
	}
	if e.Downloads != nil {
		add("Saving downloads to %s", e.Downloads.Path)
	}
	return strings.Join(lines, "\n")
}

// mediaLabels name the media features of mediaFeatures in summaries.
var mediaLabels = []string{"color scheme", "forced colors", "prefers-contrast", "prefers-reduced-motion"}

// mediaFeatures lists the emulated media features, "" values for none.
func (e Emulation) mediaFeatures() []cdp.MediaFeature {
	return []cdp.MediaFeature{
		{Name: "prefers-color-scheme", Value: e.ColorScheme},
		{Name: "forced-colors", Value: e.ForcedColors},
		{Name: "prefers-contrast", Value: e.PrefersContrast},
		{Name: "prefers-reduced-motion", Value: e.PrefersReducedMotion},
	}
}

// networkSlowdown is how many times longer than unthrottled a load takes
// under each network preset, roughly; waits are lengthened as much.
var networkSlowdown = map[string]float64{"Slow 4G": 2.5, "Fast 3G": 5, "Slow 3G": 10}

// Slowdown returns how many times longer than normal e makes loads
// (network times CPU throttling) and the page's own work (CPU throttling),
// so that waits can be lengthened to match.
func (e Emulation) Slowdown() (load, cpu float64) {
	cpu = max(e.CPUThrottling, 1)
	return cmp.Or(networkSlowdown[e.Network], 1) * cpu, cpu
}

// touchAndMobile says whether e emulates a touch screen and a mobile device.
func (e Emulation) touchAndMobile() (touch, mobile bool) {
	if e.Viewport == nil {
		return false, false
	}
	return e.Viewport.Touch, e.Viewport.Mobile
}

// Current returns what the page emulates.
func (em Emulator) Current() Emulation { return em.page.emu.get() }

// emulated holds what a page emulates, under a lock of its own: it is read
// whenever a session or iframe of the page is set up.
type emulated struct {
	mu sync.Mutex
	e  Emulation
}

func (m *emulated) get() Emulation {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.e
}

func (m *emulated) set(e Emulation) {
	m.mu.Lock()
	m.e = e
	m.mu.Unlock()
}

// Summary lists what the page emulates, one line each, or returns
// "" when it emulates nothing.
func (em Emulator) Summary() string { return em.Current().String() }

// Emulate makes the page emulate e in place of what it emulated before. The
// emulation lasts across navigations until changed. It reports whether the
// page must reload for the change to take effect: pages learn whether they
// run on a touch or mobile device only when they load.
//
// It is all or nothing: when a part cannot be set, the parts set before it
// are set back to the previous emulation, and the error says so (or, when
// even that fails, which parts the page emulates now).
func (em Emulator) Emulate(ctx context.Context, e Emulation) (reload bool, err error) {
	s, err := em.page.Session(ctx)
	if err != nil {
		return false, err
	}
	old := em.Current()
	if err := em.applyEmulation(ctx, s, e, false, permissionChange(old, e)); err != nil {
		return false, em.undo(ctx, s, old, e, err)
	}
	em.page.emu.set(e)
	if old.Downloads != nil && old.Downloads != e.Downloads {
		old.Downloads.Root.Close()
	}
	em.page.sessions().synced() // every iframe attached so far gets e
	for _, fs := range em.page.events.frameSessions() {
		// A frame that goes away meanwhile needs no emulation, and says so
		// with an error that is not worth more than a debug line.
		if err := em.applyEmulation(ctx, fs, e, true, ""); err != nil {
			em.page.browser.log.Debug("emulation not applied to an iframe", "target", em.page.TargetID, "session", fs.ID, "err", err)
		}
	}
	oldTouch, oldMobile := old.touchAndMobile()
	touch, mobile := e.touchAndMobile()
	return oldTouch != touch || oldMobile != mobile, nil
}

// undo sets the page back to old after applying e failed with err, and
// returns the error to report: err with what the page emulates now.
func (em Emulator) undo(ctx context.Context, s *cdp.Session, old, e Emulation, err error) error {
	var pe *partialEmulation
	if !errors.As(err, &pe) || len(pe.applied) == 0 {
		return fmt.Errorf("%w. Nothing was changed", err)
	}
	if uerr := em.applyEmulation(ctx, s, old, false, permissionChange(e, old)); uerr != nil {
		return fmt.Errorf("%w. Set: %s; not set: %s. Setting the previous emulation back failed too (%v): call emulate again",
			err, strings.Join(pe.applied, ", "), strings.Join(pe.notApplied, ", "), uerr)
	}
	return fmt.Errorf("%w. Nothing was changed: the parts already set (%s) were set back", err, strings.Join(pe.applied, ", "))
}

// permissionChange is the geolocation permission to set when the page's
// emulation goes from old to e: granted while a position is emulated, back
// to prompt when it no longer is, "" for no change.
func permissionChange(old, e Emulation) string {
	switch {
	case e.Geolocation != nil:
		return "granted"
	case old.Geolocation != nil:
		return "prompt"
	}
	return ""
}

// restoreEmulation applies the page's emulation to s, a new session of the
// page (frame false) or of one of its cross-process iframes (frame true),
// so that it survives re-attaching and reaches every process of the page.
func (em Emulator) restoreEmulation(ctx context.Context, s *cdp.Session, frame bool) error {
	e := em.Current()
	if e.String() == "" {
		return nil
	}
	permission := ""
	if e.Geolocation != nil && !frame {
		permission = "granted"
	}
	return em.applyEmulation(ctx, s, e, frame, permission)
}

// emulationStep is one part of an emulation: what it sets, in the words of
// emulate's arguments, and the command that sets it.
type emulationStep struct {
	what string
	do   func(ctx context.Context) error
}

// partialEmulation is the error of an emulation that stopped at a step:
// which parts were set before it, and which were not.
type partialEmulation struct {
	page                int
	failed              string
	applied, notApplied []string
	err                 error
}

func (e *partialEmulation) Error() string {
	return fmt.Sprintf("emulate on page %d: could not set %s: %v", e.page, e.failed, e.err)
}

func (e *partialEmulation) Unwrap() error { return e.err }

// applyEmulation sets every kind of emulation of e on session s, turning off
// the kinds e leaves empty, and sets the page's geolocation permission to
// permission unless that is "". For the session of a cross-process iframe
// (frame), the viewport is left alone: the iframe's size comes from its
// element in the page. The browser-wide permission goes first: it is the
// part that can fail for reasons of the browser rather than the page, and
// then nothing else was changed. A failure is a *partialEmulation.
func (em Emulator) applyEmulation(ctx context.Context, s *cdp.Session, e Emulation, frame bool, permission string) error {
	steps := em.emulationSteps(s, e, frame)
	if permission != "" {
		steps = append([]emulationStep{{"the geolocation permission", func(ctx context.Context) error {
			return em.setGeolocationPermission(ctx, permission)
		}}}, steps...)
	}
	for i, st := range steps {
		if err := st.do(ctx); err != nil {
			pe := &partialEmulation{page: em.page.ID, failed: st.what, err: err}
			for _, done := range steps[:i] {
				pe.applied = append(pe.applied, done.what)
			}
			for _, left := range steps[i:] {
				pe.notApplied = append(pe.notApplied, left.what)
			}
			return pe
		}
	}
	return nil
}

// emulationSteps lists the session commands that set e on s.
func (em Emulator) emulationSteps(s *cdp.Session, e Emulation, frame bool) []emulationStep {
	step := func(what string, r cdp.Request) emulationStep {
		return emulationStep{what, func(ctx context.Context) error { return r.Do(ctx, s) }}
	}
	network := noThrottling
	if e.Network != "" {
		network = NetworkPresets[e.Network]
	}
	steps := []emulationStep{
		step("networkConditions", cdp.NetworkEmulateNetworkConditions.With(network)),
		step("cpuThrottlingRate", cdp.EmulationSetCPUThrottlingRate.With(cdp.SetCPUThrottlingRateParams{Rate: max(e.CPUThrottling, 1)})),
		step("userAgent", cdp.EmulationSetUserAgentOverride.With(cdp.SetUserAgentOverrideParams{UserAgent: e.UserAgent})),
		step("colorScheme, forcedColors, prefersContrast, prefersReducedMotion", cdp.EmulationSetEmulatedMedia.With(cdp.SetEmulatedMediaParams{Features: e.mediaFeatures()})),
		step("extraHttpHeaders", cdp.NetworkSetExtraHTTPHeaders.With(cdp.SetExtraHTTPHeadersParams{Headers: orEmpty(e.Headers)})),
	}
	if g := e.Geolocation; g != nil {
		steps = append(steps, step("geolocation", cdp.EmulationSetGeolocationOverride.With(cdp.SetGeolocationOverrideParams{Latitude: g.Latitude, Longitude: g.Longitude, Accuracy: 1})))
	} else {
		steps = append(steps, step("geolocation", cdp.EmulationClearGeolocationOverride))
	}
	if !frame {
		// Downloads are the browser's to allow, for the page's context.
		steps = append(steps, emulationStep{"downloadPath", func(ctx context.Context) error {
			return em.page.browser.setPageDownloads(ctx, em.page, e.Downloads != nil)
		}})
	}
	if v := e.Viewport; frame {
		// The page's viewport sizes the frame.
	} else if v != nil {
		orientation := &cdp.ScreenOrientation{Type: "portraitPrimary"}
		if v.Landscape {
			orientation = &cdp.ScreenOrientation{Type: "landscapePrimary", Angle: 90}
		}
		steps = append(steps,
			step("viewport", cdp.EmulationSetDeviceMetricsOverride.With(cdp.SetDeviceMetricsOverrideParams{
				Width: v.Width, Height: v.Height, DeviceScaleFactor: v.DeviceScaleFactor, Mobile: v.Mobile, ScreenOrientation: orientation,
			})),
			step("viewport (touch)", cdp.EmulationSetTouchEmulationEnabled.With(cdp.SetTouchEmulationEnabledParams{Enabled: v.Touch, MaxTouchPoints: 1})))
	} else {
		steps = append(steps,
			step("viewport", cdp.EmulationClearDeviceMetricsOverride),
			step("viewport (touch)", cdp.EmulationSetTouchEmulationEnabled.With(cdp.SetTouchEmulationEnabledParams{Enabled: false})))
	}
	return steps
}

// setGeolocationPermission sets the geolocation permission of every origin
// in the page's browser context. Without it the page could not read the
// emulated position.
func (em Emulator) setGeolocationPermission(ctx context.Context, setting string) error {
	b := em.page.browser
	id, err := b.permissionContext(ctx, em.page.Info().BrowserContextID)
	if err == nil {
		err = cdp.BrowserSetPermission.Do(ctx, b.rootSession(), cdp.SetPermissionParams{
			Permission: cdp.PermissionDescriptor{Name: "geolocation"}, Setting: setting, BrowserContextID: id,
		})
	}
	if err != nil {
		return fmt.Errorf("set the geolocation permission of page %d: %w", em.page.ID, err)
	}
	return nil
}

// orEmpty returns h, or an empty map for nil (the protocol wants an object).
func orEmpty(h map[string]string) map[string]string {
	if h == nil {
		return map[string]string{}
	}
	return h
}

// Resize sizes the page's window so that the page's viewport is width ×
// height CSS pixels, and returns the size the viewport got. The window
// leaves the maximized, minimized or fullscreen state for that.
func (em Emulator) Resize(ctx context.Context, width, height int) (gotWidth, gotHeight int, err error) {
	if v := em.Current().Viewport; v != nil {
		return 0, 0, fmt.Errorf("page %d emulates a %s viewport, which fixes its size; clear it with emulate (without viewport) first", em.page.ID, v)
	}
	root := em.page.browser.rootSession()
	var win cdp.GetWindowForTargetResult
	getWindow := func() error {
		var err error
		win, err = cdp.BrowserGetWindowForTarget.Call(ctx, root, cdp.GetWindowForTargetParams{TargetID: em.page.TargetID})
		if err != nil {
			return fmt.Errorf("find the window of page %d: %w", em.page.ID, err)
		}
		return nil
	}
	if err := getWindow(); err != nil {
		return 0, 0, err
	}
	setBounds := func(b cdp.WindowBounds) error {
		if err := cdp.BrowserSetWindowBounds.Do(ctx, root, cdp.SetWindowBoundsParams{WindowID: win.WindowID, Bounds: b}); err != nil {
			return fmt.Errorf("resize the window of page %d: %w", em.page.ID, err)
		}
		return nil
	}
	if win.Bounds.WindowState != "" && win.Bounds.WindowState != "normal" {
		if err := setBounds(cdp.WindowBounds{WindowState: "normal"}); err != nil {
			return 0, 0, err
		}
		if err := getWindow(); err != nil {
			return 0, 0, err
		}
	}
	// The window is bigger than the page by its frame, tab strip and
	// toolbars: keep that difference. A second try corrects for window
	// decorations that changed with the size.
	outerW, outerH := win.Bounds.Width, win.Bounds.Height
	gotWidth, gotHeight, err = em.innerSize(ctx, 0, 0)
	for try := 0; err == nil && try < 2 && (gotWidth != width || gotHeight != height); try++ {
		outerW, outerH = outerW+width-gotWidth, outerH+height-gotHeight
		if err := setBounds(cdp.WindowBounds{Width: outerW, Height: outerH}); err != nil {
			return 0, 0, err
		}
		gotWidth, gotHeight, err = em.innerSize(ctx, width, height)
	}
	return gotWidth, gotHeight, err
}

// innerSize returns the page's innerWidth and innerHeight; with a positive
// width, once they are width × height or after a second without getting
// there.
func (em Emulator) innerSize(ctx context.Context, width, height int) (int, int, error) {
	expr := "[innerWidth, innerHeight]"
	if width > 0 {
		expr = fmt.Sprintf("(%s)(%d, %d)", waitSizeJS, width, height)
	}
	v, err := em.page.Evaluate(ctx, expr)
	if err != nil {
		return 0, 0, fmt.Errorf("read the size of page %d: %w", em.page.ID, err)
	}
	var size [2]int
	if err := json.Unmarshal(v.Value, &size); err != nil {
		return 0, 0, fmt.Errorf("read the size of page %d: %w", em.page.ID, err)
	}
	return size[0], size[1], nil
}
