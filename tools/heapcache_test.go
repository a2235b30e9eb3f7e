package tools

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/devtools-mcp/devtools-mcp/internal/confine"
	"github.com/devtools-mcp/devtools-mcp/internal/heapsnapshot"
)

// countingCache is a heap cache whose loads are counted, not parsed.
func countingCache(budget int64) (*heapCache, map[string]int) {
	opened := map[string]int{}
	c := newHeapCache(budget)
	c.load = func(_ context.Context, f *os.File) (*heapsnapshot.Snapshot, error) {
		opened[filepath.Base(f.Name())]++
		return &heapsnapshot.Snapshot{}, nil
	}
	return c, opened
}

// getFile gets the snapshot at path from c, as Call.heapSnapshot does
// without the path check.
func getFile(ctx context.Context, c *heapCache, path string) (*heapsnapshot.Snapshot, []string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return c.get(ctx, confine.Resolve(path), f)
}

// writeFiles writes size bytes to each name in a new directory and
// returns their paths.
func writeFiles(t *testing.T, size int, names ...string) map[string]string {
	t.Helper()
	dir := t.TempDir()
	paths := map[string]string{}
	for _, n := range names {
		paths[n] = filepath.Join(dir, n)
		if err := os.WriteFile(paths[n], make([]byte, size), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return paths
}

func TestHeapCacheEvictsLeastRecentlyUsed(t *testing.T) {
	ctx := context.Background()
	c, opened := countingCache(250) // room for two files of 100 bytes
	p := writeFiles(t, 100, "a.heapsnapshot", "b.heapsnapshot", "c.heapsnapshot")
	get := func(name string, wantEvicted ...string) {
		t.Helper()
		_, evicted, err := getFile(ctx, c, p[name])
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, w := range wantEvicted {
			want = append(want, confine.Resolve(p[w]))
		}
		if !slices.Equal(evicted, want) {
			t.Errorf("get %s evicted %v, want %v", name, evicted, want)
		}
	}
	get("a.heapsnapshot")
	get("b.heapsnapshot")
	get("a.heapsnapshot") // a is now used more recently than b
	get("c.heapsnapshot", "b.heapsnapshot")
	get("b.heapsnapshot", "a.heapsnapshot")
	want := map[string]int{"a.heapsnapshot": 1, "b.heapsnapshot": 2, "c.heapsnapshot": 1}
	if !maps.Equal(opened, want) {
		t.Errorf("files read %v, want %v (a cached read must not reload)", opened, want)
	}
	if c.used != 200 || len(c.entries) != 2 {
		t.Errorf("cache holds %d bytes in %d entries, want 200 in 2", c.used, len(c.entries))
	}

	// A changed file is read again and counted once.
	if err := os.WriteFile(p["c.heapsnapshot"], make([]byte, 120), 0o600); err != nil {
		t.Fatal(err)
	}
	get("c.heapsnapshot")
	if c.used != 220 || opened["c.heapsnapshot"] != 2 {
		t.Errorf("after c changed: %d bytes, c read %d times; want 220 and 2", c.used, opened["c.heapsnapshot"])
	}
	if !c.close(p["b.heapsnapshot"]) || c.close(p["b.heapsnapshot"]) || c.used != 120 {
		t.Errorf("close b: want it closed once, leaving 120 bytes; cache holds %d", c.used)
	}
}

func TestHeapCacheKeepsOneSnapshotOverBudget(t *testing.T) {
	c, _ := countingCache(50)
	p := writeFiles(t, 100, "a.heapsnapshot", "b.heapsnapshot")
	for _, name := range []string{"a.heapsnapshot", "b.heapsnapshot"} {
		if s, _, err := getFile(context.Background(), c, p[name]); err != nil || s == nil {
			t.Fatalf("get %s: %v", name, err)
		}
	}
	if _, ok := c.entries[confine.Resolve(p["b.heapsnapshot"])]; !ok || len(c.entries) != 1 {
		t.Errorf("cache holds %d entries; want only b, the one just loaded", len(c.entries))
	}
}

// tinySnapshot is a V8 heap snapshot of a root and one object.
const tinySnapshot = `{"snapshot":{"meta":{"node_fields":["type","name","id","self_size","edge_count","detachedness"],` +
	`"node_types":[["hidden","array","string","object","code","closure","regexp","number","native","synthetic"],"string","number","number","number","number"],` +
	`"edge_fields":["type","name_or_index","to_node"],"edge_types":[["context","element","property","internal","hidden","shortcut","weak"],"string_or_number","node"]},` +
	`"node_count":2,"edge_count":1},"nodes":[9,0,1,0,1,0,3,1,3,32,0,0],"edges":[2,2,6],"strings":["","Object","x"]}`

// TestHeapSnapshotEvictionIsReported checks that an analysis tool's answer
// says which snapshot it pushed out of the cache.
func TestHeapSnapshotEvictionIsReported(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for _, n := range []string{"a", "b", "c"} {
		p := filepath.Join(dir, n+".heapsnapshot")
		if err := os.WriteFile(p, []byte(tinySnapshot), 0o600); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	s := NewServer(Options{
		Conditions:         map[Condition]bool{ConditionMemoryDebugging: true},
		HeapSnapshotBudget: int64(len(tinySnapshot))*2 + 1,
	}, nil, nil)
	var answers []string
	for _, p := range paths {
		args, _ := json.Marshal(map[string]string{"filePath": p})
		res, err := s.CallTool(context.Background(), "get_heapsnapshot_summary", args)
		if err != nil || res.IsError {
			t.Fatalf("get_heapsnapshot_summary %s: %v %+v", p, err, res)
		}
		answers = append(answers, res.Content[0].Text)
	}
	for i, a := range answers[:2] {
		if strings.Contains(a, "unloaded") {
			t.Errorf("answer %d mentions an eviction before the cache was full:\n%s", i, a)
		}
	}
	want := "Note: unloaded the heap snapshot " + confine.Resolve(paths[0]) + " to keep the loaded snapshots within "
	if !strings.Contains(answers[2], want) || !strings.Contains(answers[2], "## Heap Snapshot Data") {
		t.Errorf("third answer does not say a.heapsnapshot was unloaded (want %q):\n%s", want, answers[2])
	}
}
