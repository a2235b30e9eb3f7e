package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/devtools-mcp/devtools-mcp/internal/browser"
)

// emulateArgs are emulate's arguments. Every kind of emulation left out is
// turned off, except the extra headers, which only an empty string clears.
type emulateArgs struct {
	NetworkConditions    string  `json:"networkConditions,omitempty" enum:"Offline,Slow 3G,Fast 3G,Slow 4G,Fast 4G" jsonschema:"Throttle the network like this connection. Omit to stop throttling."`
	CPUThrottlingRate    float64 `json:"cpuThrottlingRate,omitempty" jsonschema:"CPU slowdown factor, 1 to 20. Omit or 1 for none."`
	Geolocation          string  `json:"geolocation,omitempty" jsonschema:"<latitude>,<longitude>, e.g. 48.85,2.29; grants the permission. Omit to clear."`
	UserAgent            string  `json:"userAgent,omitempty" jsonschema:"User agent string to send and report. Omit or empty to clear."`
	ColorScheme          string  `json:"colorScheme,omitempty" enum:"dark,light,auto" jsonschema:"prefers-color-scheme; auto or omitted: the browser's own."`
	ForcedColors         string  `json:"forcedColors,omitempty" enum:"active,none,auto" jsonschema:"forced-colors; auto or omitted: the browser's own."`
	PrefersContrast      string  `json:"prefersContrast,omitempty" enum:"more,less,custom,no-preference,auto" jsonschema:"prefers-contrast; auto or omitted: the browser's own."`
	PrefersReducedMotion string  `json:"prefersReducedMotion,omitempty" enum:"reduce,no-preference,auto" jsonschema:"prefers-reduced-motion; auto or omitted: the browser's own."`
	Viewport             string  `json:"viewport,omitempty" jsonschema:"Device viewport as <width>x<height>x<devicePixelRatio>[,mobile][,touch][,landscape], e.g. 390x844x3,mobile,touch. Omit to clear."`
	ExtraHTTPHeaders     string  `json:"extraHttpHeaders,omitempty" jsonschema:"JSON object of headers for every request, e.g. {\"X-A\": \"1\"}; \"\" clears them."`
	DownloadPath         string  `json:"downloadPath,omitempty" path:"empty" jsonschema:"Directory (created if missing) to save the page's downloads in. Omit or empty: downloads are refused."`

	headersGiven bool // extraHttpHeaders was in the call
}

// UnmarshalJSON decodes the arguments and notes whether extraHttpHeaders
// was given, since leaving it out keeps the headers.
func (a *emulateArgs) UnmarshalJSON(data []byte) error {
	type plain emulateArgs
	if err := json.Unmarshal(data, (*plain)(a)); err != nil {
		return err
	}
	var given map[string]json.RawMessage
	if err := json.Unmarshal(data, &given); err != nil {
		return err
	}
	_, a.headersGiven = given["extraHttpHeaders"]
	return nil
}

// emulation turns the arguments into the emulation to set; headers are the
// page's current extra headers, kept when the call leaves them out.
func (a *emulateArgs) emulation(headers map[string]string) (browser.Emulation, error) {
	auto := func(v string) string {
		if v == "auto" {
			return ""
		}
		return v
	}
	e := browser.Emulation{
		Network: a.NetworkConditions, UserAgent: a.UserAgent,
		ColorScheme: auto(a.ColorScheme), ForcedColors: auto(a.ForcedColors),
		PrefersContrast: auto(a.PrefersContrast), PrefersReducedMotion: auto(a.PrefersReducedMotion),
		Headers: headers,
	}
	if r := a.CPUThrottlingRate; r != 0 && (r < 1 || r > 20) {
		return e, fmt.Errorf("cpuThrottlingRate must be between 1 (no slowdown) and 20, got %g", r)
	}
	e.CPUThrottling = a.CPUThrottlingRate
	var err error
	if e.Geolocation, err = parseGeolocation(a.Geolocation); err != nil {
		return e, err
	}
	if e.Viewport, err = parseViewport(a.Viewport); err != nil {
		return e, err
	}
	if a.headersGiven {
		if e.Headers, err = parseHeaders(a.ExtraHTTPHeaders); err != nil {
			return e, err
		}
	}
	return e, nil
}

// parseGeolocation reads "<latitude>,<longitude>"; "" means none.
func parseGeolocation(s string) (*browser.Geolocation, error) {
	if s == "" {
		return nil, nil
	}
	bad := func(why string) error {
		return fmt.Errorf("geolocation %q %s; use <latitude>,<longitude> in degrees, latitude -90 to 90 and longitude -180 to 180, e.g. 48.8584,2.2945", s, why)
	}
	latS, lonS, ok := strings.Cut(s, ",")
	if !ok {
		return nil, bad("has no comma")
	}
	lat, err1 := strconv.ParseFloat(strings.TrimSpace(latS), 64)
	lon, err2 := strconv.ParseFloat(strings.TrimSpace(lonS), 64)
	switch {
	case err1 != nil || err2 != nil:
		return nil, bad("is not two numbers")
	case lat < -90 || lat > 90:
		return nil, bad("has a latitude out of range")
	case lon < -180 || lon > 180:
		return nil, bad("has a longitude out of range")
	}
	return &browser.Geolocation{Latitude: lat, Longitude: lon}, nil
}

// parseViewport reads "<width>x<height>[x<dpr>][,mobile][,touch][,landscape]";
// "" means none.
func parseViewport(s string) (*browser.Viewport, error) {
	if s == "" {
		return nil, nil
	}
	bad := func(why string) error {
		return fmt.Errorf("viewport %q %s; use <width>x<height>x<devicePixelRatio>[,mobile][,touch][,landscape], e.g. 390x844x3,mobile,touch or 1280x720x1", s, why)
	}
	size, flags, _ := strings.Cut(strings.ReplaceAll(s, " ", ""), ",")
	dims := strings.Split(size, "x")
	if len(dims) < 2 || len(dims) > 3 {
		return nil, bad("does not start with a size like 390x844x3")
	}
	v := &browser.Viewport{DeviceScaleFactor: 1}
	var err error
	// Bounded as --viewport and resize_page are: Chrome accepts up to
	// 10,000,000, but renders (and screenshots) such a page out of memory.
	if v.Width, err = strconv.Atoi(dims[0]); err != nil || v.Width < 1 || v.Width > maxSide {
		return nil, bad(fmt.Sprintf("has no valid width (a whole number of CSS pixels, 1 to %d)", maxSide))
	}
	if v.Height, err = strconv.Atoi(dims[1]); err != nil || v.Height < 1 || v.Height > maxSide {
		return nil, bad(fmt.Sprintf("has no valid height (a whole number of CSS pixels, 1 to %d)", maxSide))
	}
	if len(dims) == 3 {
		if v.DeviceScaleFactor, err = strconv.ParseFloat(dims[2], 64); err != nil || v.DeviceScaleFactor <= 0 || v.DeviceScaleFactor > 10 {
			return nil, bad("has no valid device pixel ratio (a number above 0, up to 10)")
		}
	}
	for f := range strings.SplitSeq(flags, ",") {
		switch f {
		case "":
		case "mobile":
			v.Mobile = true
		case "touch":
			v.Touch = true
		case "landscape":
			v.Landscape = true
		default:
			return nil, bad(fmt.Sprintf("has an unknown flag %q", f))
		}
	}
	return v, nil
}

// parseHeaders reads a JSON object of header names and string values; ""
// means none.
func parseHeaders(s string) (map[string]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var h map[string]string
	if err := json.Unmarshal([]byte(s), &h); err != nil || h == nil {
		return nil, fmt.Errorf(`extraHttpHeaders must be a JSON object of header names and string values, e.g. {"X-Custom": "value"}, or "" to clear them; got %s`, s)
	}
	return h, nil
}

func emulationTools() []*Tool {
	return []*Tool{
		define(Tool{
			Name: "emulate", Description: "Emulates network and CPU throttling, geolocation, user agent, media features, a device viewport and extra headers on the page, and lets it download files into a directory. Each call sets them all: what it leaves out is turned off, except extra headers. They last across navigations.",
			Category: CategoryEmulation, Scope: ScopePage, Guarded: true,
		}, emulate),
		define(Tool{
			Name: "resize_page", Description: "Resizes the page's window so that the page (its viewport) is width x height CSS pixels.",
			Category: CategoryEmulation, Scope: ScopePage, Guarded: true,
		}, resizePage),
	}
}

// emulate runs emulate.
func emulate(ctx context.Context, c *Call, args *emulateArgs) error {
	e, err := args.emulation(c.Page.Emulator().Current().Headers)
	if err != nil {
		return err
	}
	if args.DownloadPath != "" {
		if e.Downloads, err = c.downloadDir(ctx, args.DownloadPath); err != nil {
			return err
		}
	}
	reload, err := c.Page.Emulator().Emulate(ctx, e)
	if err != nil {
		if e.Downloads != nil {
			e.Downloads.Root.Close()
		}
		return err
	}
	if reload && c.Page.Info().URL != "about:blank" {
		ctx, cancel := withTimeout(ctx, 0, loadSlowdown(c.Page))
		defer cancel()
		res, err := c.Page.Navigate(ctx, browser.Navigation{Type: "reload"})
		// The emulation is listed once, below.
		if _, err := reportLoad(c, res, err, "Reloaded the page, which learns whether it runs on a touch or mobile device only when it loads."); err != nil {
			return err
		}
	}
	if summary := c.Page.Emulator().Summary(); summary != "" {
		c.Resp.Linef("Emulation updated.\n%s", summary)
	} else {
		c.Resp.Linef("Emulation updated: the page emulates nothing.")
	}
	return nil
}

// downloadDir checks the directory path, creates it when missing (0700)
// and opens it: the page's downloads are saved through that handle, so
// the directory stays the one checked even if its path is later swapped
// for a link.
func (c *Call) downloadDir(ctx context.Context, path string) (*browser.DownloadDir, error) {
	p, err := c.place(ctx, "downloadPath", path)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	if err := p.Root().MkdirAll(p.Rel(), 0o700); err != nil {
		return nil, fmt.Errorf("downloadPath: create %s: %w", p.Path(), err)
	}
	root, err := p.Root().OpenRoot(p.Rel())
	if err != nil {
		return nil, fmt.Errorf("downloadPath: open %s: %w", p.Path(), err)
	}
	return &browser.DownloadDir{Root: root, Path: p.Path()}, nil
}

// downloadNotes tells the agent about the downloads that ended since the
// last answer: where each was saved, or why it was not.
func downloadNotes(c *Call, done []browser.Download) {
	for _, d := range done {
		// The page chose the name: quoted, and cut, it cannot pass for
		// the server's words.
		name := d.Suggested
		if r := []rune(name); len(r) > 100 {
			name = string(r[:100]) + "…"
		}
		if d.Err != nil {
			c.Resp.Linef("Note: a download of page %d (%q) was not saved: %v.", d.PageID, name, d.Err)
			continue
		}
		saved := filepath.Base(d.Path)
		renamed := ""
		if d.Renamed {
			renamed = fmt.Sprintf("; the page named it %q", name)
		}
		c.Resp.Linef("Downloaded %s (%s) from page %d to %s%s.", saved, byteCount(d.Size), d.PageID, d.Path, renamed)
	}
}

// byteCount writes n bytes for people: "512 bytes", "1.5 KiB", "3.2 MiB".
func byteCount(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d bytes", n)
	}
	v, i := float64(n)/unit, 0
	for ; v >= unit && i < 3; i++ {
		v /= unit
	}
	return fmt.Sprintf("%.1f %ciB", v, "KMGT"[i])
}

// resizePageArgs are resize_page's arguments.
type resizePageArgs struct {
	Width  int `json:"width" bound:"side" jsonschema:"Page width in CSS pixels."`
	Height int `json:"height" bound:"side" jsonschema:"Page height in CSS pixels."`
}

// resizePage runs resize_page.
func resizePage(ctx context.Context, c *Call, args *resizePageArgs) error {
	if args.Width < 1 || args.Height < 1 {
		return fmt.Errorf("width and height must be at least 1, got %dx%d", args.Width, args.Height)
	}
	c.Resp.IncludePages()
	w, h, err := c.Page.Emulator().Resize(ctx, args.Width, args.Height)
	if err != nil {
		return err
	}
	if w != args.Width || h != args.Height {
		return fmt.Errorf("resized the window, but the page is %dx%d instead of %dx%d: the screen or the window manager limits the window's size", w, h, args.Width, args.Height)
	}
	c.Resp.Linef("The page is now %dx%d.", w, h)
	return nil
}
