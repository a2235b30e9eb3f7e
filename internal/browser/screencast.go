package browser

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// Recorder records a video of the page (a screencast), one at a time. It
// uses Chrome's built-in recorder when Chrome has one, which encodes an MP4
// itself; otherwise (or when asked for ffmpeg) it takes the page's painted
// frames from the frame screencast and has ffmpeg encode them, or, without
// ffmpeg, writes them as an animated PNG itself. A recording lasts across
// navigations and resizes, is finalised when the page closes or the
// browser is shut down, and is stopped with Recording.Stop.
type Recorder struct{ page *Page }

// Recorder returns the page's video recording part.
func (p *Page) Recorder() Recorder { return Recorder{p} }

// RecorderKind names what encodes a recording.
type RecorderKind string

// The recorders.
const (
	RecorderChrome RecorderKind = "Chrome's built-in recorder"
	RecorderFFmpeg RecorderKind = "ffmpeg"
	RecorderAPNG   RecorderKind = "the built-in animated PNG writer"
)

// Default frame rates when RecordOptions.FPS is 0: ffmpeg's is the
// reference server's; the animated PNG writer gets fewer frames, as each
// is a whole PNG, and shows each for as long as the page showed it.
const (
	DefaultFFmpegFPS = 30
	DefaultAPNGFPS   = 10
)

// ErrFFmpegNotFound is returned when ffmpeg is required and cannot be run.
var ErrFFmpegNotFound = errors.New("ffmpeg is required for screencast recording but was not found. Install ffmpeg (https://ffmpeg.org/) and ensure it is available in your PATH")

// ErrRecording is returned by Start while the page records already.
var ErrRecording = errors.New("a screencast recording is already in progress")

// RecordOptions say how to record.
type RecordOptions struct {
	// FPS is the frame rate; 0 means each recorder's default.
	FPS int
	// FFmpeg records with ffmpeg only (--experimentalScreencast), even
	// when Chrome has its own recorder; without ffmpeg Start fails with
	// ErrFFmpegNotFound.
	FFmpeg bool
	// FFmpegPath is the ffmpeg binary; empty means ffmpeg on PATH.
	FFmpegPath string
	// APNG records an animated PNG with the built-in writer, whatever
	// else this browser and machine could record with.
	APNG bool
	// Format is the container ffmpeg writes with FFmpeg set: "webm" or
	// "mp4" (the default).
	Format string
	// Create creates the output file with the extension (".mp4", ".webm"
	// or ".apng") of the recorder that Start picked. Start closes it, and
	// removes it when the recording could not start.
	Create func(ext string) (*os.File, error)
}

// Recording is a screencast being recorded; it ends once, by Stop or on
// its own (the page closed, the browser went away or was shut down).
type Recording struct {
	page    *Page
	kind    RecorderKind
	path    string
	fps     int
	started time.Time
	impl    recordingImpl

	once   sync.Once
	done   chan struct{}
	err    error
	reason string // why it ended on its own; "" when Stop ended it
}

// recordingImpl is one recorder's way of finishing a recording.
type recordingImpl interface {
	// finish stops recording and finalises the file, reporting progress
	// (bytes or seconds done) to progress.
	finish(ctx context.Context, progress Progress) error
}

// Progress receives progress reports while a recording is finalised:
// done and total (0 when unknown) in the unit message names.
type Progress func(done, total float64, message string)

// Kind says what encodes the recording.
func (r *Recording) Kind() RecorderKind { return r.kind }

// Path is the file the recording is written to.
func (r *Recording) Path() string { return r.path }

// PageID is the id of the page recorded.
func (r *Recording) PageID() int { return r.page.ID }

// Done is closed once the recording ended and its file was finalised.
func (r *Recording) Done() <-chan struct{} { return r.done }

// Ended returns, once the recording ended on its own, why ("the page was
// closed") and the error of finalising it, if any.
func (r *Recording) Ended() (reason string, err error) {
	select {
	case <-r.done:
		return r.reason, r.err
	default:
		return "", nil
	}
}

// Current returns the page's recording, nil when none runs.
func (rc Recorder) Current() *Recording {
	rc.page.mu.Lock()
	defer rc.page.mu.Unlock()
	return rc.page.rec
}

// Start starts recording the page with opts.
func (rc Recorder) Start(ctx context.Context, opts RecordOptions) (*Recording, error) {
	p := rc.page
	if rc.Current() != nil {
		return nil, ErrRecording
	}
	s, err := p.Session(ctx)
	if err != nil {
		return nil, err
	}
	width, height, err := rc.viewportPixels(ctx)
	if err != nil {
		return nil, err
	}
	rec := &Recording{page: p, fps: opts.FPS, started: time.Now(), done: make(chan struct{})}
	if opts.APNG {
		rec.kind, rec.fps = RecorderAPNG, cmp.Or(opts.FPS, DefaultAPNGFPS)
		if rec.impl, rec.path, err = startAPNGRecording(ctx, p, s, opts, rec.fps, width, height); err != nil {
			return nil, err
		}
	} else if !opts.FFmpeg {
		rec.kind = RecorderChrome
		rec.impl, rec.path, err = startChromeRecording(ctx, p, s, opts, width, height)
		if err != nil && !unsupported(err) {
			return nil, err
		}
	}
	if rec.impl == nil {
		rec.kind, rec.fps = RecorderFFmpeg, cmp.Or(opts.FPS, DefaultFFmpegFPS)
		ffmpeg, ferr := findFFmpeg(opts.FFmpegPath)
		switch {
		case ferr == nil:
			rec.impl, rec.path, err = startFFmpegRecording(ctx, p, s, opts, ffmpeg, rec.fps, width, height)
		case opts.FFmpeg:
			return nil, ferr
		default:
			rec.kind, rec.fps = RecorderAPNG, cmp.Or(opts.FPS, DefaultAPNGFPS)
			rec.impl, rec.path, err = startAPNGRecording(ctx, p, s, opts, rec.fps, width, height)
		}
		if err != nil {
			return nil, err
		}
	}
	p.mu.Lock()
	p.rec = rec
	p.mu.Unlock()
	p.browser.bg.Go(rec.watch)
	return rec, nil
}

// viewportPixels returns the size of the page's viewport in device pixels,
// the size a recording's frames get.
func (rc Recorder) viewportPixels(ctx context.Context) (width, height int, err error) {
	v, err := rc.page.Evaluate(ctx, "[innerWidth * devicePixelRatio, innerHeight * devicePixelRatio]")
	if err != nil {
		return 0, 0, fmt.Errorf("read the size of page %d: %w", rc.page.ID, err)
	}
	var size [2]float64
	if err := json.Unmarshal(v.Value, &size); err != nil {
		return 0, 0, fmt.Errorf("read the size of page %d: %w", rc.page.ID, err)
	}
	return max(1, int(math.Round(size[0]))), max(1, int(math.Round(size[1]))), nil
}

// unsupported reports whether err is Chrome refusing a command it does
// not have.
func unsupported(err error) bool {
	var ce *cdp.Error
	return errors.As(err, &ce) && (ce.Code == -32601 || strings.Contains(ce.Message, "wasn't found"))
}

// Stop ends the recording and finalises its file, reporting progress. A
// recording that already ended on its own returns why.
func (r *Recording) Stop(ctx context.Context, progress Progress) error {
	if !r.end(ctx, "", progress) {
		if r.reason != "" {
			return fmt.Errorf("the screencast recording already ended: %s", r.reason)
		}
	}
	return r.err
}

// end finishes the recording unless it ended already, which it reports.
// reason is why it ends on its own, "" for Stop. It waits for a
// concurrent end to finish.
func (r *Recording) end(ctx context.Context, reason string, progress Progress) (ended bool) {
	if progress == nil {
		progress = func(float64, float64, string) {}
	}
	r.once.Do(func() {
		ended = true
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), stopTimeout)
		defer cancel()
		r.err = r.impl.finish(ctx, progress)
		r.reason = reason
		p := r.page
		p.mu.Lock()
		if p.rec == r {
			p.rec = nil
		}
		p.mu.Unlock()
		if reason != "" {
			p.browser.recordingEnded(r)
		}
		close(r.done)
	})
	<-r.done
	return ended
}

// stopTimeout bounds finalising a recording: reading Chrome's video, or
// ffmpeg encoding what it was sent.
const stopTimeout = 2 * time.Minute

// watch ends the recording when its page closes or its browser goes away.
func (r *Recording) watch(ctx context.Context) {
	select {
	case <-r.done:
	case <-r.page.gone:
		r.end(ctx, "the page was closed", nil)
	case <-ctx.Done():
		r.end(ctx, "the browser went away", nil)
	}
}

// endRecordings finalises the recordings of every page, as the browser is
// shut down.
func (b *Browser) endRecordings(ctx context.Context) {
	var wg sync.WaitGroup
	for _, p := range b.pageList() {
		if rec := p.Recorder().Current(); rec != nil {
			wg.Go(func() { rec.end(ctx, "the server shut down", nil) })
		}
	}
	wg.Wait()
}

// recordingEnded keeps a recording that ended on its own for
// EndedRecordings.
func (b *Browser) recordingEnded(r *Recording) {
	b.endedMu.Lock()
	defer b.endedMu.Unlock()
	b.ended = append(b.ended, r)
}

// EndedRecordings returns the recordings that ended on their own since the
// last call (their page closed), so the next tool call can tell the agent
// where they were saved.
func (b *Browser) EndedRecordings() []*Recording {
	b.endedMu.Lock()
	defer b.endedMu.Unlock()
	ended := b.ended
	b.ended = nil
	return ended
}

// chromeRecording is a recording by Chrome's built-in recorder, which
// hands the whole video over as a stream when it stops.
type chromeRecording struct {
	page   *Page
	s      *cdp.Session
	f      *os.File
	stream string
}

// startChromeRecording starts Chrome's recorder at the viewport's size.
func startChromeRecording(ctx context.Context, p *Page, s *cdp.Session, opts RecordOptions, width, height int) (recordingImpl, string, error) {
	res, err := cdp.PageStartScreenRecording.Call(ctx, s, cdp.StartScreenRecordingParams{MaxWidth: width, MaxHeight: height, FrameRate: opts.FPS})
	if err != nil {
		return nil, "", fmt.Errorf("start recording: %w", err)
	}
	f, err := opts.Create(".mp4")
	if err != nil {
		_, _ = cdp.PageStopScreenRecording.Call(ctx, s)
		return nil, "", err
	}
	return &chromeRecording{page: p, s: s, f: f, stream: res.Stream}, f.Name(), nil
}

// finish stops Chrome's recorder and copies its video to the file.
func (c *chromeRecording) finish(ctx context.Context, progress Progress) error {
	defer c.f.Close()
	select {
	case <-c.page.gone:
		return errors.New("the page was closed before Chrome handed over the video, which its recorder keeps until it stops; nothing was saved. Stop a recording before closing its page (close_page does)")
	default:
	}
	res, err := cdp.PageStopScreenRecording.Call(ctx, c.s)
	if err != nil {
		return fmt.Errorf("stop recording: %w", err)
	}
	stream := cmp.Or(res.Stream, c.stream)
	defer c.page.cleanUp(ctx, c.s, cdp.IOClose.With(cdp.IOCloseParams{Handle: stream}), cdp.IOClose.Method)
	w := &progressWriter{w: c.f, report: progress, message: "bytes of video saved"}
	if err := readStream(ctx, c.s, stream, w, "the video"); err != nil {
		return err
	}
	return c.f.Close()
}

// progressWriter reports the bytes written through it.
type progressWriter struct {
	w       io.Writer
	n       int64
	report  Progress
	message string
}

func (pw *progressWriter) Write(b []byte) (int, error) {
	n, err := pw.w.Write(b)
	pw.n += int64(n)
	pw.report(float64(pw.n), 0, pw.message)
	return n, err
}
