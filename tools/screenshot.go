package tools

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/devtools-mcp/devtools-mcp/internal/browser"
)

// maxInlineImage is the largest screenshot returned inline; a bigger one is
// saved to a temporary file, which the answer names.
const maxInlineImage = 2_000_000

func screenshotTools() []*Tool {
	return []*Tool{
		define(Tool{
			Name: "take_screenshot", Description: "Takes a screenshot of the page's viewport, of the full page, or of one element (uid).",
			Category: CategoryDebugging, Scope: ScopePage,
		}, takeScreenshot),
	}
}

// takeScreenshotArgs are take_screenshot's arguments.
type takeScreenshotArgs struct {
	Format   string  `json:"format,omitempty" enum:"png,jpeg,webp" jsonschema:"Image format; default png, or the --screenshotFormat flag."`
	Quality  float64 `json:"quality,omitempty" jsonschema:"JPEG and WebP quality, 0-100 (higher is better and bigger); ignored for PNG."`
	UID      string  `json:"uid,omitempty" jsonschema:"uid of an element from the page snapshot, to capture only it."`
	FullPage bool    `json:"fullPage,omitempty" jsonschema:"Capture the whole page instead of the viewport. Not with uid."`
	FilePath string  `json:"filePath,omitempty" path:"" jsonschema:"Save the image to this file instead of returning it."`
}

// takeScreenshot runs take_screenshot.
func takeScreenshot(ctx context.Context, c *Call, args *takeScreenshotArgs) error {
	if args.UID != "" && args.FullPage {
		return errors.New("take_screenshot takes either uid (one element) or fullPage (the whole page), not both")
	}
	if args.Quality < 0 || args.Quality > 100 {
		return fmt.Errorf("quality must be between 0 and 100, got %g", args.Quality)
	}
	opts := c.Server.opts
	o := browser.ScreenshotOptions{
		Format:   cmp.Or(args.Format, opts.ScreenshotFormat, "png"),
		FullPage: args.FullPage, MaxWidth: opts.ScreenshotMaxWidth, MaxHeight: opts.ScreenshotMaxHeight,
	}
	if o.Format != "png" {
		o.Quality = cmp.Or(int(math.Round(args.Quality)), opts.ScreenshotQuality)
	}
	what := "the current page's viewport"
	switch {
	case args.UID != "":
		e, err := c.Page.Snapshots().Element(ctx, args.UID)
		if err != nil {
			return err
		}
		o.Element = e
		what = fmt.Sprintf("node with uid %q", args.UID)
	case args.FullPage:
		what = "the full current page"
	}
	data, err := c.Page.Screenshots().Capture(ctx, o)
	if err != nil {
		return err
	}
	c.Resp.Linef("Took a screenshot of %s.", what)
	switch {
	case args.FilePath != "":
		path := withExtension(args.FilePath, o.Format)
		if err := c.writeFile(ctx, "filePath", path, data); err != nil {
			return err
		}
		c.Resp.Linef("Saved screenshot to %s.", path)
	case len(data) > maxInlineImage:
		path, err := writeTemp("screenshot-*."+o.Format, data)
		if err != nil {
			return err
		}
		c.Resp.Linef("The image is %d bytes, too big to return; saved it to %s.", len(data), path)
	default:
		c.Resp.Image(data, "image/"+o.Format)
	}
	return nil
}

// withExtension gives path the file extension of image format, replacing
// another one (.jpg counts as jpeg).
func withExtension(path, format string) string {
	ext := filepath.Ext(path)
	switch strings.ToLower(ext) {
	case "." + format:
		return path
	case ".jpg":
		if format == "jpeg" {
			return path
		}
	}
	return strings.TrimSuffix(path, ext) + "." + format
}

// writeTemp saves data to a new temporary file named after pattern (as
// os.CreateTemp takes it), readable only by the user, and returns its path.
func writeTemp(pattern string, data []byte) (string, error) {
	f, err := os.CreateTemp("", pattern)
	if err != nil {
		return "", fmt.Errorf("save to a temporary file: %w", err)
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("save to %s: %w", f.Name(), err)
	}
	return f.Name(), nil
}
