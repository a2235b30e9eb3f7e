package trace

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	bigOnce  sync.Once
	bigTrace []byte
	bigErr   error
)

// synthesize builds a trace of about size bytes from the recorded page
// load: copies of its events one after another on the trace clock, with
// request and navigation ids made unique per copy, like a long recording
// of a page reloaded again and again.
func synthesize(size int) ([]byte, error) {
	f, err := os.Open("testdata/load.json.gz")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	var doc struct {
		TraceEvents []map[string]any `json:"traceEvents"`
	}
	if err := json.NewDecoder(zr).Decode(&doc); err != nil {
		return nil, err
	}
	lo, hi := -1.0, 0.0
	for _, e := range doc.TraceEvents {
		if ts, _ := e["ts"].(float64); ts > 0 {
			if lo < 0 || ts < lo {
				lo = ts
			}
			hi = max(hi, ts)
		}
	}
	span := hi - lo + 1000
	var out bytes.Buffer
	out.WriteString(`{"traceEvents":[`)
	enc := json.NewEncoder(&out)
	first := true
	for k := 0; out.Len() < size; k++ {
		shift := float64(k) * span
		suffix := "-" + string(rune('a'+k%26)) + string(rune('a'+k/26))
		for _, e := range doc.TraceEvents {
			raw, _ := json.Marshal(e)
			var c map[string]any
			_ = json.Unmarshal(raw, &c)
			if ts, ok := c["ts"].(float64); ok && ts > 0 {
				c["ts"] = ts + shift
			}
			if args, ok := c["args"].(map[string]any); ok {
				if data, ok := args["data"].(map[string]any); ok {
					for _, key := range []string{"requestId", "navigationId"} {
						if id, ok := data[key].(string); ok {
							data[key] = id + suffix
						}
					}
					if ft, ok := data["finishTime"].(float64); ok {
						data["finishTime"] = ft + shift/1e6
					}
					if tm, ok := data["timing"].(map[string]any); ok {
						if rt, ok := tm["requestTime"].(float64); ok {
							tm["requestTime"] = rt + shift/1e6
						}
					}
				}
			}
			if !first {
				out.WriteByte(',')
			}
			first = false
			if err := enc.Encode(c); err != nil {
				return nil, err
			}
		}
	}
	out.WriteString(`]}`)
	return out.Bytes(), nil
}

// heapPeak samples the live heap until stop is called and returns the
// highest value seen above the heap at the start.
func heapPeak() (stop func() uint64) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	base := read()
	var peak uint64
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			peak = max(peak, read())
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		<-finished
		peak = max(peak, read())
		if peak < base {
			return 0
		}
		return peak - base
	}
}

// BenchmarkAnalyze50MB parses a synthesized 50 MB trace and computes every
// metric, insight and the summary. It reports throughput and the peak heap
// the analysis adds (the input buffer itself is not counted).
func BenchmarkAnalyze50MB(b *testing.B) {
	bigOnce.Do(func() { bigTrace, bigErr = synthesize(50 << 20) })
	if bigErr != nil {
		b.Fatal(bigErr)
	}
	b.SetBytes(int64(len(bigTrace)))
	b.ReportAllocs()
	var peak uint64
	for b.Loop() {
		runtime.GC()
		stop := heapPeak()
		tr, err := Parse(bytes.NewReader(bigTrace))
		if err != nil {
			b.Fatal(err)
		}
		rep := tr.Analyze()
		if len(rep.Sets) < 40 || rep.Sets[0].Metrics.LCP == None {
			b.Fatalf("want one set with LCP per copy, got %d sets", len(rep.Sets))
		}
		_ = rep.Summary()
		peak = max(peak, stop())
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(len(bigTrace))/(1<<20), "trace-MB")
}

// BenchmarkParseRecorded parses and analyzes the small recorded trace.
func BenchmarkParseRecorded(b *testing.B) {
	raw, err := os.ReadFile("testdata/load.json.gz")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		tr, err := Parse(bytes.NewReader(raw))
		if err != nil {
			b.Fatal(err)
		}
		_ = tr.Analyze().Summary()
	}
}

// BenchmarkScan50MB reads the events of the synthesized 50 MB trace
// without building the model: the JSON scanning alone.
func BenchmarkScan50MB(b *testing.B) {
	bigOnce.Do(func() { bigTrace, bigErr = synthesize(50 << 20) })
	if bigErr != nil {
		b.Fatal(bigErr)
	}
	b.SetBytes(int64(len(bigTrace)))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		if err := scan(bytes.NewReader(bigTrace), func(*event) { n++ }); err != nil || n == 0 {
			b.Fatalf("%d events, %v", n, err)
		}
	}
}

// BenchmarkCorpus parses and analyzes each trace of the corpus and
// compares the time with DevTools' trace engine's on the same file (as
// testdata/corpus/devtools.mjs measured it, warm, on the machine that
// recorded the corpus): slowest-vs-devtools is the largest ratio of ours
// to DevTools' over the corpus, which must stay below 1.
func BenchmarkCorpus(b *testing.B) {
	files := corpus(b)
	type item struct {
		raw      []byte
		engineMs float64
	}
	items := make([]item, 0, len(files))
	for _, f := range files {
		v := readVerdicts(b, f)
		raw, err := os.ReadFile("testdata/corpus/" + v.Trace)
		if err != nil {
			b.Fatal(err)
		}
		items = append(items, item{raw, v.EngineMs})
	}
	took := make([]time.Duration, len(items))
	b.ReportAllocs()
	for b.Loop() {
		for i, it := range items {
			start := time.Now()
			tr, err := Parse(bytes.NewReader(it.raw))
			if err != nil {
				b.Fatal(err)
			}
			_ = tr.Analyze().Summary()
			took[i] += time.Since(start)
		}
	}
	var worst, sum float64
	for i, it := range items {
		ours := float64(took[i].Microseconds()) / 1000 / float64(b.N)
		sum += ours
		worst = max(worst, ours/it.engineMs)
	}
	b.ReportMetric(sum/float64(len(items)), "ms/trace")
	b.ReportMetric(worst, "slowest-vs-devtools")
}

// BenchmarkLegacyScan scans a jQuery-sized script (90 kB) with polyfills
// for legacy JavaScript: one pass over the text.
func BenchmarkLegacyScan(b *testing.B) {
	var src strings.Builder
	src.WriteString("if(!Array.prototype.includes){Array.prototype.includes=function(v){return this.indexOf(v)!==-1;};}\n")
	src.WriteString(`Object.defineProperty(String.prototype, "startsWith", {value: function(s){return this.indexOf(s)===0;}});` + "\n")
	for src.Len() < 90_000 {
		src.WriteString("jQuery.fn.extend({ attr: function(name, value) { return access(this, jQuery.attr, name, value, arguments.length > 1); }, removeAttr: function(name) { return this.each(function() { jQuery.removeAttr(this, name); }); } });\n")
	}
	text := []byte(src.String())
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if f := legacyScan(text); len(f.names) != 2 {
			b.Fatalf("found %v", f.names)
		}
	}
}
