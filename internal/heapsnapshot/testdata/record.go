//go:build ignore

// Record re-records the gzipped heap snapshots the tests of package
// heapsnapshot read, from headless Chromium:
//
//	go run ./heapsnapshot/testdata/record.go
//
// detached.heapsnapshot.gz is a page that keeps 20 detached <li> nodes alive
// through a closure, and a counter whose closure context keeps a buffer
// that no live function reads; array-1 and array-2 are one page before and
// after its array of Item objects grew from 100 to 300.
package main

import (
	"compress/gzip"
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"time"

	"github.com/devtools-mcp/devtools-mcp/internal/browser"
)

const detachedPage = `<title>Detached</title><ul id=list></ul><script>
function leak() {
  const list = document.getElementById('list');
  const leakedItems = [];
  for (let i = 0; i < 20; i++) {
    const li = document.createElement('li');
    li.textContent = 'row ' + i;
    list.append(li);
    leakedItems.push(li);
  }
  list.textContent = '';
  return function holder() { return leakedItems.length; };
}
window.keep = leak();
function makeCounter() {
  const unusedBuffer = new Array(5000).fill('x');
  let count = 0;
  function report() { return unusedBuffer.length; }
  return function increment() { return ++count; };
}
window.counter = makeCounter();
</script>`

const arrayPage = `<title>Array</title><script>
class Item { constructor(i) { this.index = i; this.payload = 'item-' + i; } }
window.items = [];
window.grow = n => { for (let i = 0; i < n; i++) items.push(new Item(items.length)); return items.length; };
grow(100);
</script>`

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := filepath.Join("heapsnapshot", "testdata")
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, map[string]string{"/detached": detachedPage, "/array": arrayPage}[r.URL.Path])
	}))
	defer site.Close()

	m := browser.NewManager(browser.Options{Launch: browser.LaunchOptions{Headless: true, Isolated: true}})
	defer m.Close(context.Background())
	b, err := m.Get(ctx)
	if err != nil {
		log.Fatal(err)
	}
	p, err := b.SelectedOrNew(ctx)
	if err != nil {
		log.Fatal(err)
	}

	open(ctx, p, site.URL+"/detached")
	record(ctx, p, filepath.Join(dir, "detached.heapsnapshot.gz"))

	open(ctx, p, site.URL+"/array")
	record(ctx, p, filepath.Join(dir, "array-1.heapsnapshot.gz"))
	if _, err := p.Evaluate(ctx, "grow(200)"); err != nil {
		log.Fatal(err)
	}
	record(ctx, p, filepath.Join(dir, "array-2.heapsnapshot.gz"))
}

func open(ctx context.Context, p *browser.Page, url string) {
	if _, err := p.Navigate(ctx, browser.Navigation{URL: url}); err != nil {
		log.Fatalf("open %s: %v", url, err)
	}
}

// record takes a heap snapshot of p into path, gzipped.
func record(ctx context.Context, p *browser.Page, path string) {
	f, err := os.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	zw, err := gzip.NewWriterLevel(f, gzip.BestCompression)
	if err != nil {
		log.Fatal(err)
	}
	n, err := p.TakeHeapSnapshot(ctx, zw, nil)
	if err != nil {
		log.Fatalf("%s: %v", path, err)
	}
	if err := zw.Close(); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
	fi, _ := os.Stat(path)
	log.Printf("%s: %d bytes of JSON, %d gzipped", path, n, fi.Size())
}
