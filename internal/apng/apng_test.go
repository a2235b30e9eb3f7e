package apng

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// solid returns a PNG of w×h pixels of one colour; opaque selects RGB
// (Go's encoder writes opaque images without alpha) over RGBA.
func solid(t *testing.T, w, h int, c color.NRGBA) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// parsedFrame is one frame read back from an APNG: its delay and its
// image, rebuilt as a PNG and decoded.
type parsedFrame struct {
	delay time.Duration
	img   image.Image
}

// readAPNG parses an APNG the way a player would, checking every CRC and
// sequence number, and decodes each frame.
func readAPNG(t *testing.T, file []byte) (ihdr []byte, frames []parsedFrame) {
	t.Helper()
	if !bytes.HasPrefix(file, pngSignature) {
		t.Fatal("no PNG signature")
	}
	var declared uint32 = 0xffffffff
	var seq uint32
	var cur *parsedFrame
	var data [][]byte
	finish := func() {
		if cur == nil {
			return
		}
		var b bytes.Buffer
		b.Write(pngSignature)
		writeTestChunk(&b, "IHDR", ihdr)
		for _, d := range data {
			writeTestChunk(&b, "IDAT", d)
		}
		writeTestChunk(&b, "IEND", nil)
		img, err := png.Decode(&b)
		if err != nil {
			t.Fatalf("frame %d does not decode: %v", len(frames), err)
		}
		cur.img = img
		frames = append(frames, *cur)
		cur, data = nil, nil
	}
	ended := false
	for rest := file[8:]; len(rest) > 0; {
		n := binary.BigEndian.Uint32(rest)
		typ, body := string(rest[4:8]), rest[8:8+n]
		if got, want := binary.BigEndian.Uint32(rest[8+n:]), crc32.ChecksumIEEE(rest[4:8+n]); got != want {
			t.Fatalf("chunk %s: CRC %x, want %x", typ, got, want)
		}
		rest = rest[12+n:]
		switch typ {
		case "IHDR":
			ihdr = body
		case "acTL":
			declared = binary.BigEndian.Uint32(body)
		case "fcTL":
			finish()
			if s := binary.BigEndian.Uint32(body); s != seq {
				t.Fatalf("fcTL sequence %d, want %d", s, seq)
			}
			seq++
			num, den := binary.BigEndian.Uint16(body[20:]), binary.BigEndian.Uint16(body[22:])
			cur = &parsedFrame{delay: time.Duration(num) * time.Second / time.Duration(den)}
		case "IDAT":
			data = append(data, body)
		case "fdAT":
			if s := binary.BigEndian.Uint32(body); s != seq {
				t.Fatalf("fdAT sequence %d, want %d", s, seq)
			}
			seq++
			data = append(data, body[4:])
		case "IEND":
			ended = true
		}
	}
	finish()
	if !ended {
		t.Fatal("no IEND chunk")
	}
	if int(declared) != len(frames) {
		t.Fatalf("acTL declares %d frames, file has %d", declared, len(frames))
	}
	return ihdr, frames
}

func writeTestChunk(b *bytes.Buffer, typ string, data []byte) {
	head := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
	head = append(head, typ...)
	b.Write(head)
	b.Write(data)
	b.Write(binary.BigEndian.AppendUint32(nil, crc32.ChecksumIEEE(append(head[4:], data...))))
}

func TestWriterFramesDecodeWithTheirDelays(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.apng")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := NewWriter(f)
	red, green := color.NRGBA{255, 0, 0, 255}, color.NRGBA{0, 200, 0, 255}
	steps := []struct {
		png   []byte
		delay time.Duration
	}{
		{solid(t, 40, 30, red), 100 * time.Millisecond},
		{solid(t, 40, 30, green), 250 * time.Millisecond},
		// Larger and smaller frames are cropped and padded to 40×30.
		{solid(t, 60, 50, red), 80 * time.Second},
		{solid(t, 20, 10, color.NRGBA{0, 0, 255, 128}), time.Millisecond},
	}
	for _, s := range steps {
		if err := w.WriteFrame(s.png, s.delay); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	file, _ := os.ReadFile(path)
	ihdr, frames := readAPNG(t, file)
	if wd, ht := binary.BigEndian.Uint32(ihdr), binary.BigEndian.Uint32(ihdr[4:]); wd != 40 || ht != 30 {
		t.Fatalf("canvas %dx%d, want 40x30", wd, ht)
	}
	if len(frames) != len(steps) {
		t.Fatalf("%d frames, want %d", len(frames), len(steps))
	}
	for i, s := range steps {
		if frames[i].delay != s.delay {
			t.Errorf("frame %d delay %v, want %v", i, frames[i].delay, s.delay)
		}
		if b := frames[i].img.Bounds(); b.Dx() != 40 || b.Dy() != 30 {
			t.Errorf("frame %d is %v", i, b)
		}
	}
	rgba := func(i, x, y int) [3]uint32 {
		r, g, b, _ := frames[i].img.At(x, y).RGBA()
		return [3]uint32{r >> 8, g >> 8, b >> 8}
	}
	for _, c := range []struct {
		frame, x, y int
		want        [3]uint32
	}{
		{0, 5, 5, [3]uint32{255, 0, 0}},
		{1, 39, 29, [3]uint32{0, 200, 0}},
		{2, 39, 29, [3]uint32{255, 0, 0}},
		{3, 5, 5, [3]uint32{0, 0, 128}}, // half-transparent blue over black
		{3, 30, 20, [3]uint32{0, 0, 0}}, // the padding
	} {
		if got := rgba(c.frame, c.x, c.y); got != c.want {
			t.Errorf("frame %d pixel (%d,%d) = %v, want %v", c.frame, c.x, c.y, got, c.want)
		}
	}
}

func TestWriterRefusesWhatIsNotPNG(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "a.apng"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := NewWriter(f)
	for _, bad := range [][]byte{nil, []byte("\xff\xd8\xff\xe0 a JPEG"), pngSignature, append(append([]byte{}, pngSignature...), 0, 0, 0, 200, 'I', 'H')} {
		if err := w.WriteFrame(bad, time.Second); err == nil {
			t.Errorf("WriteFrame(%q) accepted it", bad)
		}
	}
	if err := w.Close(); err == nil {
		t.Error("Close of an animation without frames succeeded")
	}
}

func FuzzWriteFrame(f *testing.F) {
	f.Add([]byte("\x89PNG\r\n\x1a\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := os.CreateTemp(t.TempDir(), "*.apng")
		if err != nil {
			t.Fatal(err)
		}
		defer file.Close()
		_ = NewWriter(file).WriteFrame(data, time.Second) // must not panic
	})
}
