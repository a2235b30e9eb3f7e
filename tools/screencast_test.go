package tools

import (
	"strings"
	"testing"

	"github.com/devtools-mcp/devtools-mcp/internal/browser"
)

func TestScreencastRecordsTheExtensionAsked(t *testing.T) {
	for _, tt := range []struct {
		path, ffmpegFlag string
		want             string // the extension asked, or the error
		ffmpeg, apng     bool
		format           string
	}{
		{path: "", want: "", format: "mp4"},
		{path: "/r/x", want: "", format: "mp4"},
		{path: "/r/x.mp4", want: ".mp4", format: "mp4"},
		{path: "/r/x.MP4", want: ".mp4", format: "mp4"},
		{path: "/r/x.webm", want: ".webm", ffmpeg: true, format: "webm"},
		{path: "/r/x.WebM", want: ".webm", ffmpeg: true, format: "webm"},
		{path: "/r/x.apng", want: ".apng", apng: true, format: "mp4"},
		{path: "/r/x.gif", want: `unsupported screencast file extension ".gif"`},
		{path: "/r/x.webm.txt", want: `unsupported screencast file extension ".txt"`},
		{path: "/r/x.webm", ffmpegFlag: "on", want: ".webm", ffmpeg: true, format: "webm"},
		{path: "/r/x.apng", ffmpegFlag: "on", want: `".apng". Supported formats: .webm, .mp4`},
	} {
		opts := browser.RecordOptions{FFmpeg: tt.ffmpegFlag != "", Format: "mp4"}
		got, err := screencastFormat(&opts, tt.path)
		if strings.HasPrefix(tt.want, ".") || tt.want == "" {
			if err != nil || got != tt.want || opts.FFmpeg != tt.ffmpeg || opts.APNG != tt.apng || opts.Format != tt.format {
				t.Errorf("%s (ffmpeg flag %q): %q %v, options %+v; want %q ffmpeg=%v apng=%v format %s", tt.path, tt.ffmpegFlag, got, err, opts, tt.want, tt.ffmpeg, tt.apng, tt.format)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want an error containing %q", tt.path, err, tt.want)
		}
	}
}
