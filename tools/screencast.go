package tools

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/devtools-mcp/devtools-mcp/internal/browser"
	"github.com/devtools-mcp/devtools-mcp/internal/confine"
	"github.com/devtools-mcp/devtools-mcp/jsonrpc"
)

// ScreencastOptions say how the screencast tools record.
type ScreencastOptions struct {
	// FFmpeg records with ffmpeg instead of Chrome's built-in recorder
	// (--experimentalScreencast); FFmpegPath is its binary, "" for PATH.
	FFmpeg     bool
	FFmpegPath string
	// FPS is the frame rate (--screencastFps), 0 for each recorder's own.
	FPS int
}

// ffmpegExtensions are the containers ffmpeg records into.
var ffmpegExtensions = []string{".webm", ".mp4"}

func screencastTools() []*Tool {
	return []*Tool{
		define(Tool{
			Name:        "screencast_start",
			Description: "Starts recording a video (screencast) of the page; it goes on across navigations until screencast_stop.",
			Category:    CategoryDebugging, Scope: ScopePage, Busy: browser.BusyWaits,
		}, screencastStart),
		define(Tool{
			Name:        "screencast_stop",
			Description: "Stops the page's screencast recording and saves the video.",
			Category:    CategoryDebugging, Scope: ScopePage, Busy: browser.BusyWaits, IgnoresDialog: true,
		}, screencastStop),
	}
}

// screencastStartArgs are screencast_start's arguments.
type screencastStartArgs struct {
	FilePath string `json:"filePath,omitempty" path:"" jsonschema:"Where to save the video: .mp4, .webm (recorded with ffmpeg) or .apng; with --experimentalScreencast .mp4 or .webm. Default: a new temporary directory."`
}

// screencastStart runs screencast_start.
func screencastStart(ctx context.Context, c *Call, args *screencastStartArgs) error {
	if c.Page.Recorder().Current() != nil {
		return errors.New("a screencast recording is already in progress. Use screencast_stop to stop it before starting a new one")
	}
	o := c.Server.opts.Screencast
	opts := browser.RecordOptions{FPS: o.FPS, FFmpeg: o.FFmpeg, FFmpegPath: o.FFmpegPath, Format: "mp4"}
	asked, err := screencastFormat(&opts, args.FilePath)
	if err != nil {
		return err
	}
	dir, stem, tmpDir, err := screencastPlace(ctx, c, args.FilePath)
	if err != nil {
		return err
	}
	defer dir.Close()
	// The recorder picks the extension: the file is made in the checked
	// directory, through its handle, so the name it makes stays there.
	// One other than the path asked for is refused, not written instead.
	opts.Create = func(ext string) (*os.File, error) {
		if asked != "" && ext != asked {
			return nil, fmt.Errorf("this browser cannot record %s here: Chrome has no built-in recorder and ffmpeg was not found, so only %s works. Give a filePath ending in %s, omit filePath, or install ffmpeg", asked, ext, ext)
		}
		p, err := dir.Child(stem + ext)
		if err != nil {
			return nil, err
		}
		return p.Create()
	}
	rec, err := c.Page.Recorder().Start(ctx, opts)
	if errors.Is(err, browser.ErrFFmpegNotFound) && asked == ".webm" && !o.FFmpeg {
		err = fmt.Errorf("recording .webm needs ffmpeg: %w. Without it, record .mp4 (Chrome's built-in recorder)", err)
	}
	if err != nil {
		if tmpDir != "" {
			os.RemoveAll(tmpDir)
		}
		return err
	}
	c.Resp.Linef("Screencast recording started. The recording will be saved to %s. Use screencast_stop to stop recording.", rec.Path())
	if !opts.FFmpeg && !opts.APNG { // the recorder was not the one asked for
		switch rec.Kind() {
		case browser.RecorderFFmpeg:
			c.Resp.Linef("This Chrome has no built-in recorder, so ffmpeg records the page (VP9 video in MP4).")
		case browser.RecorderAPNG:
			c.Resp.Linef("This Chrome has no built-in recorder and ffmpeg was not found, so the video is an animated PNG (.apng), which browsers and FFmpeg-based players play.")
		}
	}
	return nil
}

// screencastPlace returns the directory a recording is saved in and the
// file's name without its extension: filePath's, or a new temporary
// directory's (tmpDir) when it is empty.
func screencastPlace(ctx context.Context, c *Call, filePath string) (dir *confine.Place, stem, tmpDir string, err error) {
	if filePath == "" {
		tmpDir, err := os.MkdirTemp("", "devtools-mcp-")
		if err != nil {
			return nil, "", "", fmt.Errorf("create a directory for the recording: %w", err)
		}
		dir, err := confine.Dir(tmpDir)
		if err != nil {
			os.RemoveAll(tmpDir)
			return nil, "", "", fmt.Errorf("create a directory for the recording: %w", err)
		}
		return dir, "screencast", tmpDir, nil
	}
	file, err := c.place(ctx, "filePath", filePath)
	if err != nil {
		return nil, "", "", err
	}
	parent, err := file.TakeParent() // the file's place is dropped, its handle kept
	if err != nil {
		file.Close()
		return nil, "", "", err
	}
	name := filepath.Base(file.Rel())
	return parent, strings.TrimSuffix(name, filepath.Ext(name)), "", nil
}

// screencastFormat sets opts to record the format filePath's extension
// asks for, and returns that extension lower-cased ("" when none is
// asked): .mp4 with whatever records here; .webm with ffmpeg, Chrome's
// recorder writing only MP4; .apng with the built-in writer. Another
// extension is refused, rather than a file of another format written.
func screencastFormat(opts *browser.RecordOptions, filePath string) (string, error) {
	ext := strings.ToLower(filepath.Ext(filePath))
	if opts.FFmpeg {
		if ext == "" {
			return "", nil
		}
		if !slices.Contains(ffmpegExtensions, ext) {
			return "", fmt.Errorf("unsupported screencast file extension %q. Supported formats: %s (case-insensitive)", filepath.Ext(filePath), strings.Join(ffmpegExtensions, ", "))
		}
		opts.Format = ext[1:]
		return ext, nil
	}
	switch ext {
	case "", ".mp4":
	case ".webm":
		opts.FFmpeg, opts.Format = true, "webm"
	case ".apng":
		opts.APNG = true
	default:
		return "", fmt.Errorf("unsupported screencast file extension %q. Supported formats: .mp4, .webm (recorded with ffmpeg), .apng (case-insensitive)", filepath.Ext(filePath))
	}
	return ext, nil
}

// screencastStop runs screencast_stop.
func screencastStop(ctx context.Context, c *Call, _ *noArgs) error {
	rec := c.Page.Recorder().Current()
	if rec == nil {
		return errors.New("no active screencast recording to stop")
	}
	report := jsonrpc.ProgressFrom(ctx)
	report(0, 0, "Stopping the screencast recording")
	if err := rec.Stop(ctx, browser.Progress(report)); err != nil {
		return fmt.Errorf("the screencast recording stopped, but saving it to %s failed: %w", rec.Path(), err)
	}
	c.Resp.Linef("The screencast recording has been stopped and saved to %s.", rec.Path())
	return nil
}

// endedRecordingNotes tells the agent about recordings that ended without
// screencast_stop since the last call: where they were saved, or why not.
func endedRecordingNotes(c *Call, ended []*browser.Recording) {
	for _, r := range ended {
		reason, err := r.Ended()
		if err != nil {
			c.Resp.Linef("Note: the screencast recording of page %d ended because %s, and could not be saved to %s: %v", r.PageID(), reason, r.Path(), err)
			continue
		}
		c.Resp.Linef("Note: the screencast recording of page %d ended because %s; it was saved to %s.", r.PageID(), reason, r.Path())
	}
}
