package browser

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
	"github.com/devtools-mcp/devtools-mcp/internal/apng"
	"github.com/devtools-mcp/devtools-mcp/internal/chrome"
)

// errNoFrame is a frame recording's error when there was nothing to save.
var errNoFrame = errors.New("no frame of the page came from Chrome, so nothing was recorded")

// frameSink encodes the frames of a frame screencast into a file.
type frameSink interface {
	// frame adds an encoded image that the page showed from at on. It may
	// block while the encoder catches up: the frame is acknowledged only
	// after, which is what paces Chrome.
	frame(image []byte, at time.Time) error
	// idle is called every second without frames, so a sink that needs a
	// constant frame rate can repeat the last frame meanwhile.
	idle(now time.Time) error
	// close finalises the file; the last frame lasts until end.
	close(ctx context.Context, end time.Time, progress Progress) error
	// abort makes a frame or close blocked on a slow encoder return, as
	// the time to finish ran out.
	abort()
}

// frameRecording records the frames Chrome paints (Page.startScreencast)
// into a frameSink. Chrome sends one frame and waits for its
// acknowledgement; the pump acknowledges once the sink took the frame and
// not sooner than a frame interval after the last one, so the page is
// never stalled, Chrome sends no more frames than the frame rate, and at
// most one frame is held in memory besides the sink's own.
type frameRecording struct {
	page     *Page
	s        *cdp.Session
	sink     frameSink
	interval time.Duration
	format   string // of the frames: "jpeg" or "png"
	frames   *cdp.Subscription

	stop   chan struct{}
	pumped chan struct{}
	got    bool // the sink took a frame; the pump's, read once it ended
	mu     sync.Mutex
	err    error // the first error of the sink while pumping
}

// startFrames subscribes to the page's frames, starts the screencast and
// the pump.
func startFrames(ctx context.Context, p *Page, s *cdp.Session, sink frameSink, format string, fps, width, height int) (*frameRecording, error) {
	r := &frameRecording{page: p, s: s, sink: sink, interval: time.Second / time.Duration(fps), format: format,
		frames: s.Subscribe(cdp.PageScreencastFrame), stop: make(chan struct{}), pumped: make(chan struct{})}
	params := cdp.StartScreencastParams{Format: format, MaxWidth: width, MaxHeight: height, MaxFramesInFlight: 1}
	if format == "jpeg" {
		params.Quality = 90
	}
	if err := cdp.PageStartScreencast.Do(ctx, s, params); err != nil {
		r.frames.Close()
		return nil, fmt.Errorf("start the screencast: %w", err)
	}
	p.browser.bg.Go(r.pump)
	return r, nil
}

// pump hands the frames to the sink and acknowledges them, paced to the
// frame rate, until stop is closed or the session's events end.
func (r *frameRecording) pump(ctx context.Context) {
	defer close(r.pumped)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	var lastAck time.Time
	for {
		select {
		case <-r.stop:
			return
		case now := <-tick.C:
			if err := r.sink.idle(now); err != nil {
				r.fail(err)
				return
			}
		case ev, ok := <-r.frames.Events():
			if !ok {
				return
			}
			fr, err := cdp.PageScreencastFrame.Decode(ev.Params)
			if err != nil {
				continue
			}
			if err := r.sink.frame(fr.Data, time.Now()); err != nil {
				r.fail(err) // no acknowledgement: Chrome sends no more
				return
			}
			r.got = true
			if wait := time.Until(lastAck.Add(r.interval)); wait > 0 {
				select {
				case <-time.After(wait):
				case <-r.stop:
					return
				}
			}
			lastAck = time.Now()
			actx, cancel := context.WithTimeout(ctx, 5*time.Second)
			err = cdp.PageScreencastFrameAck.Do(actx, r.s, cdp.ScreencastFrameAckParams{SessionID: fr.SessionID})
			cancel()
			if err != nil {
				r.page.browser.bg.failed(r.page.TargetID, cdp.PageScreencastFrameAck.Method, err)
			}
		}
	}
}

// stillFrame gives the sink a screenshot of the page when Chrome sent no
// frame before the stop: it sends its first one only once the page paints
// again, which a still page stopped right after the start (or on a loaded
// machine) may not do in time, and a recording of what the page showed
// beats none. It gives up quietly on a page that does not answer: the
// sink then says that nothing was recorded.
func (r *frameRecording) stillFrame(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	params := cdp.CaptureScreenshotParams{Format: r.format}
	if r.format == "jpeg" {
		params.Quality = 90
	}
	shot, err := cdp.PageCaptureScreenshot.Call(ctx, r.s, params)
	if err != nil {
		r.page.browser.bg.failed(r.page.TargetID, cdp.PageCaptureScreenshot.Method, err)
		return
	}
	if err := r.sink.frame(shot.Data, time.Now()); err != nil {
		r.fail(err)
	}
}

// fail keeps the first error of the sink.
func (r *frameRecording) fail(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err == nil {
		r.err = err
	}
}

// finish stops the screencast and the pump and finalises the file.
func (r *frameRecording) finish(ctx context.Context, progress Progress) error {
	end := time.Now()
	defer context.AfterFunc(ctx, r.sink.abort)()
	close(r.stop)
	<-r.pumped
	r.frames.Close()
	select {
	case <-r.page.gone:
	default:
		r.page.cleanUp(ctx, r.s, cdp.PageStopScreencast, cdp.PageStopScreencast.Method)
		if !r.got {
			r.stillFrame(ctx)
		}
	}
	err := r.sink.close(ctx, end, progress)
	r.mu.Lock()
	defer r.mu.Unlock()
	return errors.Join(r.err, err)
}

// apngSink writes the frames as an animated PNG, each shown for as long
// as the page showed it: it holds the latest frame until the next one
// says how long that was. The first frame is shown from the start of the
// recording, so the animation lasts as long as the recording did even
// when Chrome painted nothing at first (a page in the background).
type apngSink struct {
	f         *os.File
	w         *apng.Writer
	start     time.Time
	pending   []byte
	pendingAt time.Time
}

// startAPNGRecording records PNG frames into an animated PNG.
func startAPNGRecording(ctx context.Context, p *Page, s *cdp.Session, opts RecordOptions, fps, width, height int) (recordingImpl, string, error) {
	f, err := opts.Create(".apng")
	if err != nil {
		return nil, "", err
	}
	sink := &apngSink{f: f, w: apng.NewWriter(f), start: time.Now()}
	r, err := startFrames(ctx, p, s, sink, "png", fps, width, height)
	if err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, "", err
	}
	return r, f.Name(), nil
}

func (a *apngSink) frame(image []byte, at time.Time) error {
	if a.pending != nil {
		if err := a.w.WriteFrame(a.pending, at.Sub(a.pendingAt)); err != nil {
			return fmt.Errorf("write the animated PNG: %w", err)
		}
	}
	if a.pending == nil {
		at = a.start
	}
	a.pending, a.pendingAt = image, at
	return nil
}

func (a *apngSink) idle(time.Time) error { return nil }

func (a *apngSink) abort() {}

func (a *apngSink) close(_ context.Context, end time.Time, progress Progress) error {
	defer a.f.Close()
	if a.pending == nil {
		return errNoFrame
	}
	if err := a.w.WriteFrame(a.pending, max(end.Sub(a.pendingAt), time.Millisecond)); err != nil {
		return fmt.Errorf("write the animated PNG: %w", err)
	}
	if err := a.w.Close(); err != nil {
		return fmt.Errorf("write the animated PNG: %w", err)
	}
	progress(float64(a.w.Frames()), float64(a.w.Frames()), "frames saved")
	return a.f.Close()
}

// findFFmpeg returns the ffmpeg to run: path when given, else ffmpeg on
// PATH. It fails with ErrFFmpegNotFound when there is none.
func findFFmpeg(path string) (string, error) {
	found, err := exec.LookPath(cmp.Or(path, "ffmpeg"))
	if err != nil {
		return "", fmt.Errorf("%w (%v)", ErrFFmpegNotFound, err)
	}
	return found, nil
}

// ffmpegSink pipes JPEG frames to ffmpeg at a constant frame rate,
// repeating a frame for as long as the page showed it, and ffmpeg encodes
// VP9 into a WebM or MP4 file.
type ffmpegSink struct {
	f       *os.File
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	exited  chan struct{}
	waitErr error
	stderr  *chrome.TailBuffer
	fps     int
	start   time.Time
	last    []byte
	written int
}

// startFFmpegRecording starts ffmpeg writing the file, then the frames.
func startFFmpegRecording(ctx context.Context, p *Page, s *cdp.Session, opts RecordOptions, ffmpeg string, fps, width, height int) (recordingImpl, string, error) {
	format := cmp.Or(opts.Format, "mp4")
	f, err := opts.Create("." + format)
	if err != nil {
		return nil, "", err
	}
	// VP9 in 4:2:0 needs even sizes, as Chrome's own recorder makes them.
	width, height = max(2, width&^1), max(2, height&^1)
	sink, err := startFFmpeg(ffmpeg, f, format, fps, width, height)
	if err == nil {
		var r *frameRecording
		if r, err = startFrames(ctx, p, s, sink, "jpeg", fps, width, height); err == nil {
			return r, f.Name(), nil
		}
		sink.stdin.Close()
		<-sink.exited
	}
	f.Close()
	os.Remove(f.Name())
	return nil, "", err
}

// startFFmpeg runs ffmpeg writing to f, which it gets as file descriptor 3
// so that it can seek back to finish the file's header.
func startFFmpeg(ffmpeg string, f *os.File, format string, fps, width, height int) (*ffmpegSink, error) {
	args := []string{
		"-loglevel", "error", "-nostdin",
		"-f", "image2pipe", "-framerate", strconv.Itoa(fps), "-c:v", "mjpeg", "-i", "pipe:0",
		"-an",
		// Frames of another size (the page was resized) are cropped or
		// padded to the recording's.
		"-vf", fmt.Sprintf("crop='min(%d,iw)':'min(%d,ih)':0:0,pad=%d:%d:0:0,format=yuv420p", width, height, width, height),
		// The fastest real-time speed: the encoder must keep up with the
		// page, or stopping waits for it.
		"-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-row-mt", "1",
		"-b:v", "0", "-crf", "30",
		"-f", format, "-y", "/dev/fd/3",
	}
	cmd := exec.Command(ffmpeg, args...)
	cmd.ExtraFiles = []*os.File{f}
	stderr := chrome.NewTailBuffer(4096)
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("start ffmpeg: %w", err)
	}
	if err := cmd.Start(); err != nil {
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%w (%v)", ErrFFmpegNotFound, err)
		}
		return nil, fmt.Errorf("start ffmpeg: %w", err)
	}
	sink := &ffmpegSink{f: f, cmd: cmd, stdin: stdin, exited: make(chan struct{}), stderr: stderr, fps: fps, start: time.Now()}
	go func() {
		sink.waitErr = cmd.Wait()
		close(sink.exited)
	}()
	return sink, nil
}

// fill writes the last frame until the video is as long as the time from
// the start to now.
func (fs *ffmpegSink) fill(now time.Time) error {
	if fs.last == nil {
		return nil
	}
	for target := int(now.Sub(fs.start).Seconds()*float64(fs.fps) + 0.5); fs.written < target; fs.written++ {
		if _, err := fs.stdin.Write(fs.last); err != nil {
			return fs.failure(err)
		}
	}
	return nil
}

// failure explains a failed write to ffmpeg with what it said.
func (fs *ffmpegSink) failure(err error) error {
	select {
	case <-fs.exited:
		return fmt.Errorf("ffmpeg stopped: %v: %s", fs.waitErr, fs.stderr.String())
	default:
		return fmt.Errorf("send a frame to ffmpeg: %w", err)
	}
}

func (fs *ffmpegSink) frame(image []byte, at time.Time) error {
	if err := fs.fill(at); err != nil {
		return err
	}
	fs.last = image
	return nil
}

func (fs *ffmpegSink) idle(now time.Time) error { return fs.fill(now) }

// cutShort says the video ends early because ffmpeg fell behind.
func (fs *ffmpegSink) cutShort(err error) error {
	return fmt.Errorf("ffmpeg could not keep up with the page, so the video was cut short after %d frames (%.1fs); lower --screencastFps: %w", fs.written, float64(fs.written)/float64(fs.fps), err)
}

// abort stops feeding ffmpeg, which then finishes the file with the
// frames it has: a shorter video rather than none.
func (fs *ffmpegSink) abort() { fs.stdin.Close() }

func (fs *ffmpegSink) close(ctx context.Context, end time.Time, progress Progress) error {
	defer fs.f.Close()
	err := fs.fill(end)
	if err == nil && fs.written == 0 && fs.last != nil {
		_, err = fs.stdin.Write(fs.last)
		fs.written++
	}
	fs.stdin.Close()
	started := time.Now()
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-fs.exited:
			if ctx.Err() != nil {
				return fs.cutShort(ctx.Err())
			}
			if err != nil {
				return err
			}
			if fs.waitErr != nil {
				return fmt.Errorf("ffmpeg failed: %v: %s", fs.waitErr, fs.stderr.String())
			}
			if fs.written == 0 {
				return errNoFrame
			}
			return fs.f.Close()
		case now := <-tick.C:
			progress(now.Sub(started).Seconds(), 0, "seconds waiting for ffmpeg to finish encoding")
		case <-ctx.Done():
			// abort cut the input short; give ffmpeg a moment to close
			// the file with what it has.
			select {
			case <-fs.exited:
			case <-time.After(10 * time.Second):
				_ = fs.cmd.Process.Kill()
				<-fs.exited
			}
			return fs.cutShort(ctx.Err())
		}
	}
}
