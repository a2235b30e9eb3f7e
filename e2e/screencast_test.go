package e2e

import (
	"bytes"
	"context"
	bin "encoding/binary"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// animatedPage fills the viewport with one colour and moves a small box
// across it on every animation frame, so every recorder has frames to take.
func animatedPage(title, colour string) string {
	return `<title>` + title + `</title><body style="margin:0;background:` + colour + `;height:100vh">
<div id=box style="position:absolute;top:0;left:0;width:40px;height:40px;background:#000"></div>
<script>let x = 0; (function move() { x = (x + 4) % 200; box.style.left = x + 'px'; requestAnimationFrame(move); })();</script>`
}

// The two pages a recording shows: blue first, then, after a navigation,
// orange. Pixels far from the moving box have these colours.
var (
	firstColour  = [3]int{0, 90, 255}
	secondColour = [3]int{255, 160, 0}
)

// videoInfo is what ffprobe says of a video file.
type videoInfo struct {
	Format        string
	Codec         string
	Width, Height int
	Frames        int
	Duration      float64
}

// probe reads a video's container, stream size, decoded frame count and
// duration with ffprobe.
func probe(t *testing.T, path string) videoInfo {
	t.Helper()
	out, err := exec.Command("ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
		"-show_entries", "stream=codec_name,width,height,nb_read_frames:format=format_name,duration", "-of", "json", path).CombinedOutput()
	if err != nil {
		t.Fatalf("ffprobe %s: %v\n%s", path, err, out)
	}
	var res struct {
		Streams []struct {
			CodecName    string `json:"codec_name"`
			Width        int    `json:"width"`
			Height       int    `json:"height"`
			NbReadFrames string `json:"nb_read_frames"`
		} `json:"streams"`
		Format struct {
			FormatName string `json:"format_name"`
			Duration   string `json:"duration"`
		} `json:"format"`
	}
	if err := json.Unmarshal(out, &res); err != nil || len(res.Streams) != 1 {
		t.Fatalf("ffprobe %s: %v\n%s", path, err, out)
	}
	st := res.Streams[0]
	info := videoInfo{Format: res.Format.FormatName, Codec: st.CodecName, Width: st.Width, Height: st.Height}
	info.Frames, _ = strconv.Atoi(st.NbReadFrames)
	info.Duration, _ = strconv.ParseFloat(res.Format.Duration, 64)
	if info.Duration == 0 { // FFmpeg's APNG reader leaves it to the frames
		info.Duration = apngDuration(t, path)
	}
	return info
}

// apngDuration adds up the delays of an animated PNG's frames.
func apngDuration(t *testing.T, path string) float64 {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil || len(data) < 8 {
		t.Fatalf("read %s: %v", path, err)
	}
	var total float64
	for rest := data[8:]; len(rest) >= 12; {
		n := int(bin.BigEndian.Uint32(rest))
		if len(rest) < 12+n {
			t.Fatalf("%s: truncated chunk", path)
		}
		if string(rest[4:8]) == "fcTL" && n >= 26 {
			num, den := bin.BigEndian.Uint16(rest[8+20:]), bin.BigEndian.Uint16(rest[8+22:])
			if den == 0 {
				den = 100
			}
			total += float64(num) / float64(den)
		}
		rest = rest[12+n:]
	}
	return total
}

// frameAt decodes the frame shown at second at of a video with ffmpeg.
func frameAt(t *testing.T, path string, at float64) image.Image {
	t.Helper()
	out, err := exec.Command("ffmpeg", "-v", "error", "-ss", strconv.FormatFloat(at, 'f', 2, 64), "-i", path,
		"-frames:v", "1", "-f", "image2pipe", "-c:v", "png", "pipe:1").Output()
	if err != nil {
		t.Fatalf("decode the frame at %.2fs of %s: %v", at, path, err)
	}
	img, err := png.Decode(bytes.NewReader(out))
	if err != nil {
		t.Fatalf("decode the frame at %.2fs of %s: %v", at, path, err)
	}
	return img
}

// near reports whether the pixel at x, y is within a video codec's error
// of want.
func near(img image.Image, x, y int, want [3]int) bool {
	r, g, b, _ := img.At(x, y).RGBA()
	got := [3]int{int(r >> 8), int(g >> 8), int(b >> 8)}
	for i := range got {
		if d := got[i] - want[i]; d < -40 || d > 40 {
			return false
		}
	}
	return true
}

// recordScenario records the animated page for about two seconds,
// navigates to the second page on another site, records two more and stops, then checks
// the file: its container, size, duration, frame count and what its first
// and last frames show. It returns the file's path.
func recordScenario(t *testing.T, s *server, filePath, wantFormat, wantExt string, fps float64) string {
	t.Helper()
	site := pages(t, map[string]string{"/": animatedPage("First", "rgb(0,90,255)"), "/second": animatedPage("Second", "rgb(255,160,0)")})
	s.ok("navigate_page", map[string]any{"url": site.URL})
	var size [2]int
	if err := json.Unmarshal([]byte(s.eval("() => [innerWidth * devicePixelRatio, innerHeight * devicePixelRatio]")), &size); err != nil {
		t.Fatal(err)
	}

	// Video codecs need even sizes: Chrome's recorder and ffmpeg round the
	// viewport down to them; an animated PNG has the viewport's own.
	want := size
	if wantFormat != "apng" {
		want = [2]int{size[0] &^ 1, size[1] &^ 1}
	}
	started := time.Now()
	out := s.ok("screencast_start", map[string]any{"filePath": filePath})
	m := regexp.MustCompile(`saved to (\S+)\. Use screencast_stop`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("screencast_start said:\n%s", out)
	}
	path := m[1]
	if filepath.Ext(path) != wantExt {
		t.Fatalf("recording to %s, want a %s file", path, wantExt)
	}
	mustContain(t, s.fails("screencast_start", nil), "already in progress")
	time.Sleep(2 * time.Second) // what is recorded: the page animating
	// Another site: a new document in a new renderer process.
	s.ok("navigate_page", map[string]any{"url": strings.Replace(site.URL, "127.0.0.1", "localhost", 1) + "/second"})
	time.Sleep(2 * time.Second)
	wall := time.Since(started).Seconds()
	mustContain(t, s.ok("screencast_stop", nil), "stopped and saved to "+path)
	mustContain(t, s.fails("screencast_stop", nil), "no active screencast recording")

	info := probe(t, path)
	t.Logf("%s: %+v over %.2fs", path, info, wall)
	if !strings.Contains(info.Format, wantFormat) {
		t.Errorf("container %q, want %s", info.Format, wantFormat)
	}
	if info.Width != want[0] || info.Height != want[1] {
		t.Errorf("video is %dx%d, want %dx%d for the viewport of %dx%d", info.Width, info.Height, want[0], want[1], size[0], size[1])
	}
	if info.Duration < 0.8*wall || info.Duration > 1.2*wall {
		t.Errorf("video lasts %.2fs, the recording %.2fs", info.Duration, wall)
	}
	if max := fps*wall*1.2 + 2; float64(info.Frames) > max || float64(info.Frames) < fps*wall/4 {
		t.Errorf("%d frames in %.2fs at %v fps", info.Frames, wall, fps)
	}
	// Pixels away from the moving box show the first page, then the second.
	first, last := frameAt(t, path, 0.5), frameAt(t, path, info.Duration-0.5)
	for _, c := range []struct {
		img  image.Image
		want [3]int
		what string
	}{{first, firstColour, "first"}, {last, secondColour, "last"}} {
		if b := c.img.Bounds(); b.Dx() != want[0] || b.Dy() != want[1] {
			t.Errorf("the %s frame is %v", c.what, b)
			continue
		}
		for _, pt := range [][2]int{{want[0] - 10, want[1] - 10}, {want[0] / 2, want[1] / 2}, {10, want[1] - 10}} {
			if !near(c.img, pt[0], pt[1], c.want) {
				r, g, b, _ := c.img.At(pt[0], pt[1]).RGBA()
				t.Errorf("the %s frame at %v is rgb(%d,%d,%d), want about %v", c.what, pt, r>>8, g>>8, b>>8, c.want)
			}
		}
	}
	return path
}

func TestScreencastChromeRecorder(t *testing.T) {
	s := startServer(t, append(headless, "--viewport", "800x600", "--screencastFps", "10")...)
	recordScenario(t, s, filepath.Join(t.TempDir(), "video.mp4"), "mp4", ".mp4", 10)
}

// TestScreencastRecordsTheFormatAsked checks that a filePath's extension
// is the format recorded, never silently another: .webm (which Chrome's
// recorder cannot write) is recorded with ffmpeg, .apng with the built-in
// writer, and another extension, or .webm without ffmpeg, is refused with
// the formats that work, leaving no file.
func TestScreencastRecordsTheFormatAsked(t *testing.T) {
	needFFmpeg(t)
	s := startServer(t, append(headless, "--viewport", "640x480", "--screencastFps", "10")...)
	recordScenario(t, s, filepath.Join(t.TempDir(), "x.webm"), "webm", ".webm", 10)
	recordScenario(t, s, filepath.Join(t.TempDir(), "x.APNG"), "apng", ".apng", 10)
	dir := t.TempDir()
	mustContain(t, s.fails("screencast_start", map[string]any{"filePath": filepath.Join(dir, "x.gif")}),
		`unsupported screencast file extension ".gif"`, ".mp4, .webm (recorded with ffmpeg), .apng")

	noFFmpeg := startServerEnv(t, []string{"PATH=" + t.TempDir()}, append(headless, "--executablePath", chromiumPath(t))...)
	noFFmpeg.ok("navigate_page", map[string]any{"url": "about:blank"})
	mustContain(t, noFFmpeg.fails("screencast_start", map[string]any{"filePath": filepath.Join(dir, "x.webm")}),
		"recording .webm needs ffmpeg", "record .mp4")
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("refused starts left %v", entries)
	}
}

func TestScreencastFFmpeg(t *testing.T) {
	needFFmpeg(t)
	s := startServer(t, append(headless, "--viewport", "800x600", "--experimentalScreencast", "--screencastFps", "15")...)
	mustContain(t, s.fails("screencast_start", map[string]any{"filePath": filepath.Join(t.TempDir(), "v.avi")}), `unsupported screencast file extension ".avi"`)
	recordScenario(t, s, filepath.Join(t.TempDir(), "video.WEBM"), "webm", ".webm", 15)
}

func TestScreencastFFmpegMissing(t *testing.T) {
	s := startServer(t, append(headless, "--experimentalScreencast", "--experimentalFfmpegPath", filepath.Join(t.TempDir(), "no-ffmpeg"))...)
	dir := t.TempDir()
	mustContain(t, s.fails("screencast_start", map[string]any{"filePath": filepath.Join(dir, "v.mp4")}), "ffmpeg is required for screencast recording but was not found")
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a failed start left %v", entries)
	}
}

// needFFmpeg fails the test when ffmpeg is missing: CI installs it.
func needFFmpeg(t testing.TB) {
	t.Helper()
	for _, tool := range []string{"ffmpeg", "ffprobe"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed (apt-get install ffmpeg): %v", tool, err)
		}
	}
}

// withoutRecorder serves a CDP WebSocket that relays to Chromium at ws,
// answering Page.startScreenRecording as a Chrome without the built-in
// recorder does. It returns the relay's endpoint.
func withoutRecorder(t testing.TB, ws string) string {
	t.Helper()
	relay := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		client, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		client.SetReadLimit(-1)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		upstream, _, err := websocket.Dial(ctx, ws, nil)
		if err != nil {
			client.Close(websocket.StatusInternalError, err.Error())
			return
		}
		upstream.SetReadLimit(-1)
		var toClient sync.Mutex
		go func() {
			defer cancel()
			for {
				typ, msg, err := upstream.Read(ctx)
				if err != nil {
					return
				}
				toClient.Lock()
				err = client.Write(ctx, typ, msg)
				toClient.Unlock()
				if err != nil {
					return
				}
			}
		}()
		for {
			typ, msg, err := client.Read(ctx)
			if err != nil {
				upstream.Close(websocket.StatusNormalClosure, "")
				return
			}
			var req struct {
				ID        int64  `json:"id"`
				SessionID string `json:"sessionId,omitempty"`
				Method    string `json:"method"`
			}
			if json.Unmarshal(msg, &req) == nil && req.Method == "Page.startScreenRecording" {
				reply, _ := json.Marshal(map[string]any{"id": req.ID, "sessionId": req.SessionID,
					"error": map[string]any{"code": -32601, "message": "'Page.startScreenRecording' wasn't found"}})
				toClient.Lock()
				err = client.Write(ctx, websocket.MessageText, reply)
				toClient.Unlock()
				if err != nil {
					return
				}
				continue
			}
			if err := upstream.Write(ctx, typ, msg); err != nil {
				return
			}
		}
	}))
	t.Cleanup(relay.Close)
	return "ws://" + strings.TrimPrefix(relay.URL, "http://") + regexp.MustCompile(`ws://[^/]+`).ReplaceAllString(ws, "")
}

func TestScreencastWithoutChromeRecorderUsesFFmpeg(t *testing.T) {
	needFFmpeg(t)
	ws, _, _ := chromium(t)
	s := startServer(t, "--wsEndpoint", withoutRecorder(t, ws), "--screencastFps", "12")
	recordScenario(t, s, filepath.Join(t.TempDir(), "video.mp4"), "mp4", ".mp4", 12)
}

func TestScreencastWithoutRecorderOrFFmpegWritesAnimatedPNG(t *testing.T) {
	needFFmpeg(t) // to check the file only: the server gets a PATH without it
	ws, _, _ := chromium(t)
	s := startServerEnv(t, []string{"PATH=" + t.TempDir()}, "--wsEndpoint", withoutRecorder(t, ws))
	// Asked for MP4, which nothing here records: refused, saying what works.
	dir := t.TempDir()
	s.ok("navigate_page", map[string]any{"url": "about:blank"})
	mustContain(t, s.fails("screencast_start", map[string]any{"filePath": filepath.Join(dir, "video.mp4")}),
		"cannot record .mp4 here", "only .apng works")
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a refused start left %v", entries)
	}
	path := recordScenario(t, s, filepath.Join(t.TempDir(), "video.apng"), "apng", ".apng", 10)
	if data, err := os.ReadFile(path); err != nil || !bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")) || !bytes.Contains(data[:100], []byte("acTL")) {
		t.Errorf("%s is not an animated PNG (%v)", path, err)
	}
}

// startServerEnv is startServer with env added to the server's environment.
func startServerEnv(t testing.TB, env []string, args ...string) *server {
	t.Helper()
	cmd := serverCommand(args...)
	cmd.Env = append(os.Environ(), env...)
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, legacySession)
	if err != nil {
		t.Fatalf("connect to devtools-mcp %v: %v", args, err)
	}
	s := &server{t: t, session: session, cmd: cmd, stderr: stderr}
	t.Cleanup(func() {
		session.Close()
		if t.Failed() {
			t.Logf("server stderr:\n%s", s.stderr.String())
		}
	})
	return s
}

func TestScreencastStopReportsProgress(t *testing.T) {
	var mu sync.Mutex
	var messages []string
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			messages = append(messages, req.Params.Message)
			mu.Unlock()
		},
	})
	s := startServerWith(t, client, headless...)
	site := pages(t, map[string]string{"/": animatedPage("First", "rgb(0,90,255)")})
	s.ok("navigate_page", map[string]any{"url": site.URL})
	path := filepath.Join(t.TempDir(), "v.mp4")
	s.ok("screencast_start", map[string]any{"filePath": path})
	time.Sleep(time.Second)
	params := &mcp.CallToolParams{Name: "screencast_stop", Arguments: map[string]any{}}
	params.SetProgressToken("stop")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := s.session.CallTool(ctx, params)
	if err != nil || res.IsError {
		t.Fatalf("screencast_stop: %v %s", err, text(res))
	}
	mustContain(t, text(res), "saved to "+path)
	mu.Lock()
	got := strings.Join(messages, "\n")
	mu.Unlock()
	// Every recorder reports the stop. Chrome's built-in one also reports
	// the bytes written, but that report is not guaranteed to reach the
	// client's handler before the answer, and the recorders used on older
	// Chromium (150 in CI) do not send it.
	mustContain(t, got, "Stopping the screencast recording")
}

// closeRecordedPopup records a popup of the animated page, resizes it
// midway, lets its opener close it and returns the note the next call
// gave, the recording's path, how long it ran until the close was asked
// for and the popup's size.
func closeRecordedPopup(t *testing.T, s *server) (note, path string, recorded float64, size [2]int) {
	t.Helper()
	site := pages(t, map[string]string{"/": animatedPage("First", "rgb(0,90,255)"), "/popup": animatedPage("Popup", "rgb(255,160,0)")})
	s.ok("navigate_page", map[string]any{"url": site.URL})
	s.eval("() => { window.popup = window.open('/popup', 'popup', 'width=640,height=480'); return true }")
	list := s.ok("list_pages", nil)
	popup := pageID(t, list, "Popup")
	opener := pageID(t, list, "First")
	if err := json.Unmarshal([]byte(s.eval("() => [innerWidth * devicePixelRatio, innerHeight * devicePixelRatio]", "pageId", popup)), &size); err != nil {
		t.Fatal(err)
	}
	started := time.Now()
	out := s.ok("screencast_start", map[string]any{"pageId": popup, "filePath": filepath.Join(t.TempDir(), "popup.apng")})
	m := regexp.MustCompile(`saved to (\S+)\. Use screencast_stop`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("screencast_start said:\n%s", out)
	}
	time.Sleep(time.Second)
	s.ok("resize_page", map[string]any{"pageId": popup, "width": 500, "height": 400})
	time.Sleep(time.Second)
	// The page closes during the call, which returns a while later.
	recorded = time.Since(started).Seconds()
	s.eval("() => { window.popup.close(); return true }", "pageId", opener)
	// The next call, whatever it is, says where the recording went.
	deadline := time.Now().Add(10 * time.Second)
	for {
		out := s.ok("list_pages", nil)
		if strings.Contains(out, "Note: the screencast recording") {
			return out, m[1], recorded, size
		}
		if time.Now().After(deadline) {
			t.Fatalf("no call said the recording ended:\n%s", out)
		}
		time.Sleep(100 * time.Millisecond) // the page's close event is Chrome's to send
	}
}

func TestScreencastOfAPageThatClosesIsSaved(t *testing.T) {
	needFFmpeg(t)
	ws, _, _ := chromium(t)
	s := startServerEnv(t, []string{"PATH=" + t.TempDir()}, "--wsEndpoint", withoutRecorder(t, ws))
	note, path, recorded, size := closeRecordedPopup(t, s)
	mustContain(t, note, "ended because the page was closed; it was saved to "+path)
	info := probe(t, path)
	t.Logf("%s: %+v over %.2fs", path, info, recorded)
	if info.Format != "apng" || info.Width != size[0] || info.Height != size[1] {
		t.Errorf("got %+v, want an animated PNG of %dx%d (the size when it started, after the resize too)", info, size[0], size[1])
	}
	if info.Duration < 0.8*recorded || info.Duration > 1.2*recorded+0.5 {
		t.Errorf("video lasts %.2fs, the page was recorded for %.2fs before it was closed", info.Duration, recorded)
	}
	// After the resize the frames are smaller, padded to the first size.
	if last := frameAt(t, path, info.Duration-0.3); !near(last, 250, 100, secondColour) {
		r, g, b, _ := last.At(250, 100).RGBA()
		t.Errorf("the last frame shows rgb(%d,%d,%d) at (250,100), not the popup", r>>8, g>>8, b>>8)
	}
	mustContain(t, s.fails("screencast_stop", nil), "no active screencast recording")
}

func TestScreencastIsSavedWhenTheServerExits(t *testing.T) {
	needFFmpeg(t)
	s := startServer(t, append(headless, "--viewport", "800x600")...)
	site := pages(t, map[string]string{"/": animatedPage("First", "rgb(0,90,255)")})
	s.ok("navigate_page", map[string]any{"url": site.URL})
	path := filepath.Join(t.TempDir(), "v.mp4")
	started := time.Now()
	s.ok("screencast_start", map[string]any{"filePath": path})
	time.Sleep(2 * time.Second)
	recorded := time.Since(started).Seconds()
	if err := s.session.Close(); err != nil { // the client goes away: the server exits
		t.Logf("close session: %v", err)
	}
	info := probe(t, path)
	t.Logf("%s: %+v over %.2fs", path, info, recorded)
	if !strings.Contains(info.Format, "mp4") || info.Frames == 0 || info.Duration < 0.8*recorded {
		t.Errorf("after the server exited the video is %+v, recorded for %.2fs", info, recorded)
	}
}

func TestScreencastIsSavedByClosePage(t *testing.T) {
	needFFmpeg(t)
	s := startServer(t, append(headless, "--viewport", "800x600")...)
	site := pages(t, map[string]string{"/": animatedPage("First", "rgb(0,90,255)")})
	s.ok("new_page", map[string]any{"url": site.URL})
	id := pageID(t, s.ok("list_pages", nil), "[selected]")
	path := filepath.Join(t.TempDir(), "v.mp4")
	started := time.Now()
	s.ok("screencast_start", map[string]any{"filePath": path})
	time.Sleep(2 * time.Second)
	recorded := time.Since(started).Seconds()
	// Chrome's recorder loses the video with the page: close_page saves it first.
	out := s.ok("close_page", map[string]any{"pageId": id})
	out += s.ok("list_pages", nil)
	mustContain(t, out, fmt.Sprintf("Note: the screencast recording of page %d ended because the page was closed; it was saved to %s.", id, path))
	// A new tab paints its first frames late: the video may start after
	// the recording did.
	if info := probe(t, path); !strings.Contains(info.Format, "mp4") || info.Frames == 0 || info.Duration < 0.6*recorded {
		t.Errorf("the video of the closed page is %+v, recorded for %.2fs", info, recorded)
	}
}

// BenchmarkScreencastMemory records the animated page for a minute at the
// default frame rate with each recorder and reports how much the server's
// RSS grew from a few seconds into the recording to its peak (the target:
// under 20 MB, since frames are streamed to the file and paced by their
// acknowledgements), and the size of the file.
func BenchmarkScreencastMemory(b *testing.B) {
	for _, recorder := range []string{"chrome", "ffmpeg", "apng"} {
		b.Run(recorder, func(b *testing.B) {
			for b.Loop() {
				benchmarkRecording(b, recorder, time.Minute)
			}
		})
	}
}

func benchmarkRecording(b *testing.B, recorder string, length time.Duration) {
	var s *server
	switch recorder {
	case "chrome":
		s = startServer(b, append(headless, "--viewport", "800x600")...)
	case "ffmpeg":
		s = startServer(b, append(headless, "--viewport", "800x600", "--experimentalScreencast")...)
	case "apng":
		ws, _, _ := chromium(b)
		s = startServerEnv(b, []string{"PATH=" + b.TempDir()}, "--wsEndpoint", withoutRecorder(b, ws))
	}
	site := pages(b, map[string]string{"/": animatedPage("First", "rgb(0,90,255)")})
	s.ok("navigate_page", map[string]any{"url": site.URL})
	name := "v.mp4"
	if recorder == "apng" {
		name = "v.apng"
	}
	out := s.ok("screencast_start", map[string]any{"filePath": filepath.Join(b.TempDir(), name)})
	path := regexp.MustCompile(`saved to (\S+)\. Use screencast_stop`).FindStringSubmatch(out)[1]
	pid := s.cmd.Process.Pid
	time.Sleep(3 * time.Second) // past the start-up allocations
	base, peak := rss(b, pid), 0
	for end := time.Now().Add(length - 3*time.Second); time.Now().Before(end); time.Sleep(time.Second) {
		peak = max(peak, rss(b, pid))
	}
	// ffmpeg may lag behind on a busy machine; stopping waits for it.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	stopping := time.Now()
	res, err := s.session.CallTool(ctx, &mcp.CallToolParams{Name: "screencast_stop", Arguments: map[string]any{}})
	if err != nil {
		b.Fatalf("screencast_stop: %v", err)
	}
	if res.IsError { // ffmpeg fell behind: the video was cut short
		b.Logf("screencast_stop: %s", text(res))
	}
	b.ReportMetric(time.Since(stopping).Seconds(), "stop-s")
	peak = max(peak, rss(b, pid))
	b.ReportMetric(float64(peak-base)/1024, "RSS-growth-MB")
	if fi, err := os.Stat(path); err == nil {
		b.ReportMetric(float64(fi.Size())/(1<<20), "file-MB")
	}
}
