package browser

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/devtools-mcp/devtools-mcp/internal/apng"
)

// TestRecordingStoppedBeforeAnyFrameShowsThePage checks that a screencast
// stopped before Chrome sent its first frame (a still page stopped right
// after the start, or a loaded machine) is saved with what the page shows,
// taken by a screenshot, rather than failing for want of a frame: the CLI
// test of the reference's examples hit this with ffmpeg ("Output file #0
// does not contain any stream").
func TestRecordingStoppedBeforeAnyFrameShowsThePage(t *testing.T) {
	p, ft := fakePage(t)
	f, err := os.Create(filepath.Join(t.TempDir(), "r.apng"))
	if err != nil {
		t.Fatal(err)
	}
	sink := &apngSink{f: f, w: apng.NewWriter(f), start: time.Now()}
	type started struct {
		r   *frameRecording
		err error
	}
	ch := make(chan started, 1)
	go func() {
		r, err := startFrames(t.Context(), p, p.session, sink, "png", 10, 320, 200)
		ch <- started{r, err}
	}()
	start := ft.expect(t, "Page.startScreencast")
	ft.send(t, `{"id":%d,"sessionId":"S","result":{}}`, start.ID)
	st := <-ch
	if st.err != nil {
		t.Fatal(st.err)
	}

	done := make(chan error, 1)
	go func() { done <- st.r.finish(t.Context(), func(float64, float64, string) {}) }()
	stop := ft.expect(t, "Page.stopScreencast")
	ft.send(t, `{"id":%d,"sessionId":"S","result":{}}`, stop.ID)
	shot := ft.expect(t, "Page.captureScreenshot")
	ft.send(t, `{"id":%d,"sessionId":"S","result":{"data":%q}}`, shot.ID, base64.StdEncoding.EncodeToString(redPNG(t)))
	if err := <-done; err != nil {
		t.Fatalf("a recording stopped before the first frame failed: %v", err)
	}
	data, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data)) // an APNG's default image
	if err != nil {
		t.Fatalf("the recording is no PNG: %v", err)
	}
	if r, g, b, _ := img.At(1, 1).RGBA(); r>>8 != 255 || g != 0 || b != 0 {
		t.Errorf("the recording shows %v, want the page's red", img.At(1, 1))
	}
}

// redPNG is a small red image, as a screenshot of a red page.
func redPNG(t *testing.T) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	for x := range 4 {
		for y := range 4 {
			img.Set(x, y, color.RGBA{255, 0, 0, 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
