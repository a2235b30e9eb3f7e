package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"math"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// ScreenshotOptions say what Capture captures and how it encodes it.
type ScreenshotOptions struct {
	// Format is png, jpeg or webp.
	Format string
	// Quality is the jpeg or webp quality, 1 to 100; 0 leaves Chrome's default.
	Quality int
	// Element, when set, is captured alone.
	Element *Element
	// FullPage captures the whole document rather than the viewport.
	FullPage bool
	// MaxWidth and MaxHeight, when positive, downscale a capture that would
	// be larger, in image pixels, keeping its aspect ratio.
	MaxWidth, MaxHeight int
}

// pageBox is what pageBoxJS returns.
type pageBox struct {
	ScrollX, ScrollY        float64
	InnerWidth, InnerHeight float64
	DPR                     float64
	Width, Height           float64
}

// Capture takes a screenshot of the viewport, the whole page or one element,
// as o says, and returns the encoded image.
func (sh Screenshots) Capture(ctx context.Context, o ScreenshotOptions) ([]byte, error) {
	s, err := sh.page.Session(ctx)
	if err != nil {
		return nil, err
	}
	params := cdp.CaptureScreenshotParams{Format: o.Format, Quality: o.Quality, OptimizeForSpeed: true}
	if o.Element != nil || o.FullPage || o.MaxWidth > 0 || o.MaxHeight > 0 {
		var rect *cdp.Viewport
		if o.Element != nil {
			// First, since it may scroll the page.
			if rect, err = sh.elementRect(ctx, o.Element); err != nil {
				return nil, err
			}
		}
		box, err := sh.measure(ctx)
		if err != nil {
			return nil, err
		}
		// The clip is in CSS pixels of the document; the image gets
		// width × device pixel ratio × scale pixels.
		clip := &cdp.Viewport{X: box.ScrollX, Y: box.ScrollY, Width: box.InnerWidth, Height: box.InnerHeight}
		switch {
		case rect != nil:
			clip = &cdp.Viewport{X: rect.X + box.ScrollX, Y: rect.Y + box.ScrollY, Width: rect.Width, Height: rect.Height}
			// An element in the viewport is captured as drawn, as the
			// reference does; only one that does not fit needs the page
			// drawn beyond the viewport, which Chrome does by laying the
			// page out again at its full size and back.
			params.CaptureBeyondViewport = rect.X < 0 || rect.Y < 0 || rect.X+rect.Width > box.InnerWidth || rect.Y+rect.Height > box.InnerHeight
		case o.FullPage:
			clip = &cdp.Viewport{Width: box.Width, Height: box.Height}
			params.CaptureBeyondViewport = true
		}
		clip.Scale = downscale(clip.Width*box.DPR, clip.Height*box.DPR, o.MaxWidth, o.MaxHeight)
		params.Clip = clip
	}
	res, err := cdp.PageCaptureScreenshot.Call(ctx, s, params)
	if err != nil {
		return nil, fmt.Errorf("screenshot: %w", err)
	}
	return res.Data, nil
}

// measure reads the top document's pageBox.
func (sh Screenshots) measure(ctx context.Context) (pageBox, error) {
	var box pageBox
	v, err := sh.page.Evaluate(ctx, pageBoxJS)
	if err != nil {
		return box, fmt.Errorf("measure the page: %w", err)
	}
	var text string
	if err := json.Unmarshal(v.Value, &text); err != nil {
		return box, fmt.Errorf("measure the page: %w", err)
	}
	if err := json.Unmarshal([]byte(text), &box); err != nil {
		return box, fmt.Errorf("measure the page: %w", err)
	}
	box.DPR = max(box.DPR, 1e-3)
	return box, nil
}

// elementRect returns e's border box in the top viewport's CSS pixels,
// after scrolling it into view.
func (sh Screenshots) elementRect(ctx context.Context, e *Element) (*cdp.Viewport, error) {
	v, err := e.call(ctx, elementRectJS)
	if err != nil {
		return nil, err
	}
	var r cdp.Viewport
	if err := json.Unmarshal(v.Value, &r); err != nil {
		return nil, fmt.Errorf("uid=%s: read its box: %w", e.UID, err)
	}
	if r.Width < 1 || r.Height < 1 {
		return nil, fmt.Errorf("uid=%s has no size (%gx%g): it is hidden or empty, so there is nothing to capture", e.UID, r.Width, r.Height)
	}
	// An element in a frame: add where each frame sits in its parent.
	ox, oy, err := sh.page.Input().frameOffset(ctx, e)
	if err != nil {
		return nil, err
	}
	r.X, r.Y = r.X+ox, r.Y+oy
	return &r, nil
}

// downscale returns the scale that fits a width × height image within
// maxWidth × maxHeight (each ignored when not positive), or 1 when it fits
// already or would shrink below a pixel.
func downscale(width, height float64, maxWidth, maxHeight int) float64 {
	scale := 1.0
	if maxWidth > 0 {
		scale = min(scale, float64(maxWidth)/width)
	}
	if maxHeight > 0 {
		scale = min(scale, float64(maxHeight)/height)
	}
	if math.Round(width*scale) < 1 || math.Round(height*scale) < 1 {
		return 1
	}
	return scale
}
