package tools

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/devtools-mcp/devtools-mcp/internal/heapsnapshot"
	"github.com/devtools-mcp/devtools-mcp/internal/heapsnapshot/heapgen"
)

// procStatus reads a size in bytes (VmRSS, VmHWM) from /proc/self/status.
func procStatus(b *testing.B, field string) float64 {
	b.Helper()
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Skip("no /proc/self/status on this system")
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			if err != nil {
				b.Fatal(err)
			}
			return kb * 1024
		}
	}
	b.Fatalf("no %s in /proc/self/status", field)
	return 0
}

// resetPeak restarts the VmHWM high-water mark at the current size.
func resetPeak(b *testing.B) {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		b.Skipf("cannot reset the peak: %v", err)
	}
}

// BenchmarkHeapSnapshotMemory loads a generated snapshot of over 200 MB
// into the tools' cache, runs what the analysis tools ask of it, and
// closes it, reporting resident memory as multiples of the file's size:
// while loaded (target 2.5 at most), at the peak of loading and of the
// queries (3 at most), and what stays after close_heapsnapshot (it must
// go back to the operating system). It takes a minute: run it by hand,
//
//	go test -run '^$' -bench HeapSnapshotMemory -benchtime 1x ./tools/
func BenchmarkHeapSnapshotMemory(b *testing.B) {
	path := filepath.Join(b.TempDir(), "big.heapsnapshot")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := heapgen.Write(f, "../internal/heapsnapshot/testdata/corpus.heapsnapshot.gz", 70); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	size := float64(fi.Size())
	ctx := context.Background()
	for b.Loop() {
		runtime.GC()
		debug.FreeOSMemory()
		base := procStatus(b, "VmRSS")
		resetPeak(b)
		cache := newHeapCache(1 << 40)
		s, _, err := getFile(ctx, cache, path)
		if err != nil {
			b.Fatal(err)
		}
		loadPeak := procStatus(b, "VmHWM") - base
		loaded := procStatus(b, "VmRSS") - base
		resetPeak(b)
		queryAll(b, s)
		s = nil
		queryPeak := procStatus(b, "VmHWM") - base
		if !cache.close(path) {
			b.Fatal("close: the snapshot was not loaded")
		}
		closed := procStatus(b, "VmRSS") - base
		b.ReportMetric(size/1e6, "file-MB")
		b.ReportMetric(loaded/size, "loaded/file")
		b.ReportMetric(loadPeak/size, "load-peak/file")
		b.ReportMetric(queryPeak/size, "query-peak/file")
		b.ReportMetric(closed/1e6, "closed-MB")
		if loaded > 2.5*size || queryPeak > 3*size || loadPeak > 3*size || closed > 0.05*size {
			b.Errorf("memory over target: loaded %.2f×, load peak %.2f×, query peak %.2f× the file, %.0f MB kept after close",
				loaded/size, loadPeak/size, queryPeak/size, closed/1e6)
		}
	}
}

// queryAll asks of s what the analysis tools do.
func queryAll(b *testing.B, s *heapsnapshot.Snapshot) {
	s.Statistics()
	nc := s.NativeContexts()
	s.RetainedByContexts()
	for _, f := range heapsnapshot.FilterNames {
		filter := heapsnapshot.Filter{Name: f}
		if f == heapsnapshot.FilterNativeContext {
			filter.NativeContext = nc.Contexts[0].Node.Index
		}
		if _, err := s.Classes(filter); err != nil {
			b.Fatal(err)
		}
	}
	s.DuplicateStrings()
	s.AnalyzeContexts()
	found, err := s.Query(heapsnapshot.Query{ClassName: "Item"})
	if err != nil || len(found) == 0 {
		b.Fatalf("query: %d objects, %v", len(found), err)
	}
	s.RetainingPaths(found[0], heapsnapshot.PathLimits{})
	s.Edges(found[0], heapsnapshot.EdgeOptions{})
	s.Retainers(found[0])
	s.Dominators(found[0])
	c, err := s.ClassByID(1)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := s.ClassNodes(c, heapsnapshot.Filter{}); err != nil {
		b.Fatal(err)
	}
	other, err := s.Query(heapsnapshot.Query{ClassName: "Window"})
	if err != nil || len(other) == 0 {
		b.Fatalf("query: %d objects, %v", len(other), err)
	}
	heapsnapshot.Compare(s, s)
}
