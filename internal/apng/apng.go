// Package apng writes animated PNG files (APNG) frame by frame from PNG
// images, with the standard library only. Every browser plays APNG, and
// players built on FFmpeg (VLC, mpv, ffplay) do too; viewers that know only
// PNG show the first frame.
//
// A frame whose PNG has the same header as the first one (size, bit depth,
// colour type) is copied without decoding: its compressed image data is
// moved into the animation's frame chunks. Any other frame is decoded,
// drawn onto a canvas of the first frame's size (cropped or padded with
// black) and encoded again, so that an animation stays one size when the
// source changed size midway.
package apng

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"time"
)

// pngSignature starts every PNG file.
var pngSignature = []byte("\x89PNG\r\n\x1a\n")

// Header is the part of a PNG's IHDR chunk that frames must share.
type Header struct {
	Width, Height       int
	BitDepth, ColorType byte
	Interlace           byte
}

// MaxSide bounds the animation's width and height, so that a bad header
// cannot make the re-encoder allocate a huge canvas.
const MaxSide = 1 << 14

// Colour types of the PNG specification that the re-encoder writes.
const (
	colorRGB  = 2
	colorRGBA = 6
)

// chunk is one PNG chunk: its type and data.
type chunk struct {
	typ  string
	data []byte
}

// parse splits a PNG file into its header and the data of its IDAT chunks.
func parse(file []byte) (Header, [][]byte, error) {
	if !bytes.HasPrefix(file, pngSignature) {
		return Header{}, nil, errors.New("apng: frame is not a PNG image")
	}
	var h Header
	var idat [][]byte
	seenHeader := false
	for rest := file[len(pngSignature):]; len(rest) > 0; {
		if len(rest) < 12 {
			return Header{}, nil, errors.New("apng: truncated PNG chunk")
		}
		n := binary.BigEndian.Uint32(rest)
		if uint64(n)+12 > uint64(len(rest)) {
			return Header{}, nil, errors.New("apng: truncated PNG chunk")
		}
		c := chunk{typ: string(rest[4:8]), data: rest[8 : 8+n]}
		rest = rest[12+n:]
		switch c.typ {
		case "IHDR":
			if len(c.data) != 13 {
				return Header{}, nil, errors.New("apng: bad IHDR chunk")
			}
			h = Header{
				Width:    int(binary.BigEndian.Uint32(c.data)),
				Height:   int(binary.BigEndian.Uint32(c.data[4:])),
				BitDepth: c.data[8], ColorType: c.data[9], Interlace: c.data[12],
			}
			seenHeader = true
		case "IDAT":
			idat = append(idat, c.data)
		case "IEND":
			rest = nil
		}
	}
	if !seenHeader || len(idat) == 0 {
		return Header{}, nil, errors.New("apng: PNG image without header or image data")
	}
	return h, idat, nil
}

// copyable reports whether frames with header h can be copied as they are
// into an animation whose header is h: 8-bit RGB or RGBA, not interlaced
// (the formats the re-encoder also writes, so that both kinds of frames
// can share one header).
func (h Header) copyable() bool {
	return h.BitDepth == 8 && (h.ColorType == colorRGB || h.ColorType == colorRGBA) && h.Interlace == 0
}

// Writer writes an APNG to an io.WriteSeeker: the frame count in its
// header is filled in by Close, which must be called once at the end.
type Writer struct {
	w       io.WriteSeeker
	header  Header
	started bool
	frames  uint32
	seq     uint32 // sequence number of the next fcTL or fdAT chunk
	actlAt  int64  // file offset of the acTL chunk
	err     error  // the first write error; every later call returns it
	crcBuf  []byte
}

// NewWriter returns a Writer that writes to w from its current offset.
func NewWriter(w io.WriteSeeker) *Writer { return &Writer{w: w} }

// Header is the animation's header, set by its first frame (zero before).
func (w *Writer) Header() Header { return w.header }

// Frames is the number of frames written so far.
func (w *Writer) Frames() int { return int(w.frames) }

// WriteFrame appends a frame, a complete PNG file, shown for delay (at
// least a millisecond). The first frame decides the animation's size.
func (w *Writer) WriteFrame(file []byte, delay time.Duration) error {
	if w.err != nil {
		return w.err
	}
	h, idat, err := parse(file)
	if err != nil {
		return err
	}
	if !w.started {
		if h.Width <= 0 || h.Height <= 0 || h.Width > MaxSide || h.Height > MaxSide {
			return fmt.Errorf("apng: frame of %dx%d pixels; each side must be 1 to %d", h.Width, h.Height, MaxSide)
		}
		w.header = h
		if !h.copyable() {
			w.header.BitDepth, w.header.ColorType, w.header.Interlace = 8, colorRGBA, 0
		}
		if err := w.start(); err != nil {
			return w.fail(err)
		}
	}
	if h != w.header {
		data, err := w.reencode(file)
		if err != nil {
			return err
		}
		idat = [][]byte{data}
	}
	return w.fail(w.writeFrame(idat, delay))
}

// fail records the first write error.
func (w *Writer) fail(err error) error {
	if err != nil && w.err == nil {
		w.err = err
	}
	return err
}

// start writes the signature, the header and a placeholder acTL chunk.
func (w *Writer) start() error {
	w.started = true
	if _, err := w.w.Write(pngSignature); err != nil {
		return err
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr, uint32(w.header.Width))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(w.header.Height))
	ihdr[8], ihdr[9] = w.header.BitDepth, w.header.ColorType
	if err := w.chunk("IHDR", ihdr); err != nil {
		return err
	}
	at, err := w.w.Seek(0, io.SeekCurrent)
	if err != nil {
		return err
	}
	w.actlAt = at
	return w.chunk("acTL", make([]byte, 8)) // frames patched by Close; 0 plays = loop forever
}

// writeFrame writes one frame's control chunk and image data: IDAT for
// the first frame (which is also the image PNG viewers show), fdAT after.
func (w *Writer) writeFrame(idat [][]byte, delay time.Duration) error {
	fctl := make([]byte, 26)
	binary.BigEndian.PutUint32(fctl, w.seq)
	binary.BigEndian.PutUint32(fctl[4:], uint32(w.header.Width))
	binary.BigEndian.PutUint32(fctl[8:], uint32(w.header.Height))
	num, den := delayFraction(delay)
	binary.BigEndian.PutUint16(fctl[20:], num)
	binary.BigEndian.PutUint16(fctl[22:], den)
	// dispose_op 0 (none) and blend_op 0 (source): every frame covers
	// the whole canvas.
	w.seq++
	if err := w.chunk("fcTL", fctl); err != nil {
		return err
	}
	for _, data := range idat {
		if w.frames == 0 {
			if err := w.chunk("IDAT", data); err != nil {
				return err
			}
			continue
		}
		fdat := make([]byte, 4+len(data))
		binary.BigEndian.PutUint32(fdat, w.seq)
		copy(fdat[4:], data)
		w.seq++
		if err := w.chunk("fdAT", fdat); err != nil {
			return err
		}
	}
	w.frames++
	return nil
}

// delayFraction expresses d as the numerator and denominator of seconds
// that fcTL holds, in the finest unit that fits 16 bits.
func delayFraction(d time.Duration) (num, den uint16) {
	for _, den := range []uint16{1000, 100, 10, 1} {
		n := (d + time.Second/time.Duration(den)/2) / (time.Second / time.Duration(den))
		if n <= 0xffff {
			return uint16(max(n, 1)), den
		}
	}
	return 0xffff, 1
}

// Close writes the end of the file and the frame count into its header.
// An animation without frames writes nothing and says so.
func (w *Writer) Close() error {
	if w.err != nil {
		return w.err
	}
	if !w.started {
		return errors.New("apng: no frame was recorded")
	}
	if err := w.chunk("IEND", nil); err != nil {
		return w.fail(err)
	}
	end, err := w.w.Seek(0, io.SeekCurrent)
	if err != nil {
		return w.fail(err)
	}
	actl := make([]byte, 8)
	binary.BigEndian.PutUint32(actl, w.frames)
	if _, err := w.w.Seek(w.actlAt, io.SeekStart); err != nil {
		return w.fail(err)
	}
	if err := w.chunk("acTL", actl); err != nil {
		return w.fail(err)
	}
	_, err = w.w.Seek(end, io.SeekStart)
	return w.fail(err)
}

// chunk writes one chunk with its length and CRC.
func (w *Writer) chunk(typ string, data []byte) error {
	w.crcBuf = append(w.crcBuf[:0], 0, 0, 0, 0)
	binary.BigEndian.PutUint32(w.crcBuf, uint32(len(data)))
	w.crcBuf = append(w.crcBuf, typ...)
	crc := crc32.NewIEEE()
	crc.Write(w.crcBuf[4:])
	crc.Write(data)
	if _, err := w.w.Write(w.crcBuf); err != nil {
		return err
	}
	if _, err := w.w.Write(data); err != nil {
		return err
	}
	_, err := w.w.Write(binary.BigEndian.AppendUint32(nil, crc.Sum32()))
	return err
}

// reencode decodes a PNG, draws it at the top left of a canvas of the
// animation's size on black, and returns the canvas compressed as the
// image data of a PNG with the animation's header.
func (w *Writer) reencode(file []byte) ([]byte, error) {
	img, err := png.Decode(bytes.NewReader(file))
	if err != nil {
		return nil, fmt.Errorf("apng: decode frame: %w", err)
	}
	canvas := image.NewNRGBA(image.Rect(0, 0, w.header.Width, w.header.Height))
	draw.Draw(canvas, canvas.Bounds(), image.NewUniform(color.Black), image.Point{}, draw.Src)
	draw.Draw(canvas, canvas.Bounds(), img, img.Bounds().Min, draw.Over)
	return compressRows(canvas, w.header.ColorType)
}

// compressRows encodes img as zlib-compressed PNG scanlines (filter type
// none) in colour type RGB or RGBA.
func compressRows(img *image.NRGBA, colorType byte) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := zlib.NewWriterLevel(&buf, zlib.BestSpeed)
	if err != nil {
		return nil, err
	}
	b := img.Bounds()
	pixel := 4
	if colorType == colorRGB {
		pixel = 3
	}
	row := make([]byte, 1+b.Dx()*pixel)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		src := img.Pix[img.PixOffset(b.Min.X, y):]
		for x := range b.Dx() {
			copy(row[1+x*pixel:1+x*pixel+pixel], src[x*4:x*4+pixel])
		}
		if _, err := zw.Write(row); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
