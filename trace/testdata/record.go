//go:build ignore

// Command record re-records the Chromium traces the trace package's tests
// read. It serves the page below from an httptest server, drives a headless
// Chromium through the project's browser package, and writes gzipped traces
// into trace/testdata:
//
//	go run ./trace/testdata/record.go [-chrome /usr/bin/chromium]
//
// Traces:
//
//	load.json.gz   a reload of the page: a stylesheet served 300 ms late
//	               (render-blocking), a hero image served 400 ms late (the
//	               LCP element), a layout shift and a 250 ms long task
//	               100 ms after load, then a click on a button whose handler
//	               blocks for 300 ms (an interaction for INP)
//	idle.json.gz   the same page already loaded, traced for half a second
//	               with one click: a trace without navigation
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"time"

	"github.com/devtools-mcp/devtools-mcp/internal/browser"
	"github.com/devtools-mcp/devtools-mcp/internal/chrome"
)

const pageHTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Trace fixture</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/slow.css">
</head><body>
<h1>Trace fixture</h1>
<img id="hero" src="/hero.png" width="600" height="300" alt="Hero">
<div id="banner"></div>
<p id="text">Text below the banner moves when the banner appears.</p>
<button id="work">Work</button>
<script>
function busy(ms) { const end = performance.now() + ms; while (performance.now() < end) {} }
addEventListener('load', () => setTimeout(() => {
  const b = document.getElementById('banner');
  b.style.height = '120px';
  b.textContent = 'Late banner';
  busy(250);
}, 100));
document.getElementById('work').addEventListener('click', () => busy(300));
</script>
</body></html>`

const css = `body { font-family: sans-serif; margin: 0 } h1 { color: #234 } #banner { background: #fd0 }`

func main() {
	chromePath := flag.String("chrome", "/usr/bin/chromium", "Chromium binary")
	flag.Parse()
	log.SetFlags(0)
	_, self, _, _ := runtime.Caller(0)
	outDir := filepath.Dir(self)

	hero := heroPNG(600, 300)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, pageHTML)
		case "/slow.css":
			time.Sleep(300 * time.Millisecond)
			w.Header().Set("Content-Type", "text/css")
			fmt.Fprint(w, css)
		case "/hero.png":
			time.Sleep(400 * time.Millisecond)
			w.Header().Set("Content-Type", "image/png")
			w.Header().Set("Content-Length", strconv.Itoa(len(hero)))
			w.Write(hero)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	m := browser.NewManager(browser.Options{Launch: chrome.LaunchOptions{
		ExecutablePath: *chromePath, Headless: true, Isolated: true, ViewportWidth: 1280, ViewportHeight: 720,
	}})
	defer m.Close(context.Background())
	b, err := m.Get(ctx)
	if err != nil {
		log.Fatal(err)
	}
	p, err := b.SelectedOrNew(ctx)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := p.Navigate(ctx, browser.Navigation{URL: srv.URL + "/"}); err != nil {
		log.Fatal(err)
	}

	if err := record(ctx, p, filepath.Join(outDir, "load.json.gz"), func() error {
		if _, err := p.Navigate(ctx, browser.Navigation{Type: "reload"}); err != nil {
			return err
		}
		time.Sleep(time.Second) // the shift and the long task, 100 ms after load
		if err := clickWork(ctx, p); err != nil {
			return err
		}
		time.Sleep(500 * time.Millisecond)
		return nil
	}); err != nil {
		log.Fatal(err)
	}
	if err := record(ctx, p, filepath.Join(outDir, "idle.json.gz"), func() error {
		if err := clickWork(ctx, p); err != nil {
			return err
		}
		time.Sleep(500 * time.Millisecond)
		return nil
	}); err != nil {
		log.Fatal(err)
	}
}

// record traces what run does and writes the trace gzipped to path.
func record(ctx context.Context, p *browser.Page, path string, run func() error) error {
	tr, err := p.StartTrace(ctx, browser.TraceOptions{})
	if err != nil {
		return err
	}
	if err := run(); err != nil {
		return err
	}
	var raw bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&raw, gzip.BestCompression)
	if _, err := tr.Stop(ctx, zw); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if err := os.WriteFile(path, raw.Bytes(), 0o644); err != nil {
		return err
	}
	log.Printf("wrote %s (%d bytes gzipped)", path, raw.Len())
	return nil
}

// clickWork clicks the button whose handler blocks for 300 ms.
func clickWork(ctx context.Context, p *browser.Page) error {
	v, err := p.Evaluate(ctx, `(() => { const r = document.getElementById('work').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`)
	if err != nil {
		return err
	}
	var xy [2]float64
	if _, err := fmt.Sscanf(string(v.Value), "[%g,%g]", &xy[0], &xy[1]); err != nil {
		return fmt.Errorf("button position %s: %w", v.Value, err)
	}
	return p.ClickAt(ctx, xy[0], xy[1], false)
}

// heroPNG is a w×h gradient, big enough to be the largest paint.
func heroPNG(w, h int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(x * 255 / w), uint8(y * 255 / h), 160, 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err)
	}
	return b.Bytes()
}
