//go:build ignore

// Record re-records the gzipped heap snapshots the tests of package
// heapsnapshot read, from headless Chromium:
//
//	go run ./heapsnapshot/testdata/record.go [detached|array|corpus|plain...]
//
// detached.heapsnapshot.gz is a page that keeps 20 detached <li> nodes alive
// through a closure, and a counter whose closure context keeps a buffer
// that no live function reads; array-1 and array-2 are one page before and
// after its array of Item objects grew from 100 to 300; corpus and plain
// are described at their pages. After recording, run devtools.mjs beside
// this file to write DevTools' answers for the corpus test.
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
	"slices"
	"time"

	"github.com/devtools-mcp/devtools-mcp/internal/browser"
	"github.com/devtools-mcp/devtools-mcp/internal/chrome"
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

// corpusPage shows the cases where DevTools' answers are easy to get wrong:
// objects of an iframe's realm next to the page's, 200 different long
// strings that share a 1,500-character prefix next to 30 copies of one long
// string, a big string held in a property, event listeners, and top-level
// script variables (script context) beside a closure, and objects only a
// console message keeps.
const corpusPage = `<title>Corpus</title><iframe srcdoc="<script>
class FrameItem { constructor(i) { this.i = i; } }
window.frameItems = [];
for (let i = 0; i < 500; i++) frameItems.push(new FrameItem(i));
</script>"></iframe><button id=b>Go</button><script>
class PageItem { constructor(i) { this.i = i; } }
let topLevelItems = [];
for (let i = 0; i < 300; i++) topLevelItems.push(new PageItem(i));
const topLevelCache = { big: 'cache-'.repeat(20000) };
const prefix = 'p'.repeat(1500);
window.distinct = [];
for (let i = 0; i < 200; i++) distinct.push((prefix + i).split('').join(''));
window.copies = [];
for (let i = 0; i < 30; i++) copies.push(('c'.repeat(1200) + 'same').split('').join(''));
window.holder = { cached: 'H'.repeat(50000).split('').join(''), flag: true, nothing: null, missing: undefined, count: 7 };
for (let i = 0; i < 10; i++) document.getElementById('b').addEventListener('click', function onClick() { return i; });
window.addEventListener('resize', () => topLevelItems.length);
function makeCounter() {
  const unusedBuffer = new Array(5000).fill('x');
  let count = 0;
  function report() { return unusedBuffer.length; }
  return function increment() { return ++count; };
}
window.counter = makeCounter();
console.log('kept by the console', { consoleKept: new Array(2000).fill(0).map((_, i) => ({ i })) });
</script>`

// plainPage has no script: no closures, no listeners.
const plainPage = `<title>Plain</title><p>Nothing here.`

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
		fmt.Fprint(w, map[string]string{"/detached": detachedPage, "/array": arrayPage, "/corpus": corpusPage, "/plain": plainPage}[r.URL.Path])
	}))
	defer site.Close()

	m := browser.NewManager(browser.Options{Launch: chrome.LaunchOptions{Headless: true, Isolated: true}})
	defer m.Close(context.Background())
	b, err := m.Get(ctx)
	if err != nil {
		log.Fatal(err)
	}
	p, err := b.SelectedOrNew(ctx)
	if err != nil {
		log.Fatal(err)
	}

	want := func(name string) bool { return len(os.Args) < 2 || slices.Contains(os.Args[1:], name) }
	if want("detached") {
		open(ctx, p, site.URL+"/detached")
		record(ctx, p, filepath.Join(dir, "detached.heapsnapshot.gz"))
	}
	if want("array") {
		open(ctx, p, site.URL+"/array")
		record(ctx, p, filepath.Join(dir, "array-1.heapsnapshot.gz"))
		if _, err := p.Evaluate(ctx, "grow(200)"); err != nil {
			log.Fatal(err)
		}
		record(ctx, p, filepath.Join(dir, "array-2.heapsnapshot.gz"))
	}
	if want("corpus") {
		open(ctx, p, site.URL+"/corpus")
		record(ctx, p, filepath.Join(dir, "corpus.heapsnapshot.gz"))
	}
	if want("plain") {
		// A tab of its own, so that no other page's objects are left over.
		fresh, err := b.NewPage(ctx, "plain", false)
		if err != nil {
			log.Fatal(err)
		}
		open(ctx, fresh, site.URL+"/plain")
		record(ctx, fresh, filepath.Join(dir, "plain.heapsnapshot.gz"))
	}
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
	n, err := p.Profiler().TakeHeapSnapshot(ctx, zw, nil)
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
