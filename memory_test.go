package main

import (
	"context"
	"encoding/json"
	"runtime/metrics"
	"testing"

	"github.com/devtools-mcp/devtools-mcp/jsonrpc"
)

// allocating is a tool handler whose calls allocate n bytes of garbage.
type allocating struct{ n int }

func (allocating) ListTools() []jsonrpc.Tool { return nil }

func (a allocating) CallTool(context.Context, string, json.RawMessage) (*jsonrpc.CallToolResult, error) {
	sink := make([][]byte, 0, 64)
	for range a.n >> 16 {
		b := make([]byte, 1<<16)
		b[0] = 1
		sink = append(sink, b)
		if len(sink) == cap(sink) {
			sink = sink[:0]
		}
	}
	return &jsonrpc.CallToolResult{}, nil
}

// readMetric reads one runtime metric.
func readMetric(name string) uint64 {
	s := []metrics.Sample{{Name: name}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestBigCallsReturnTheirMemory checks that after a call that allocated
// much, the heap's free memory went back to the system (the free but
// unreleased heap is small), and that small calls cost no collection.
func TestBigCallsReturnTheirMemory(t *testing.T) {
	const free = "/memory/classes/heap/free:bytes" // free, not yet returned
	const forced = "/gc/cycles/forced:gc-cycles"
	m := &memoryReturning{Handler: allocating{n: 64 << 20}}
	m.allocated.Store(readMetric("/gc/heap/allocs:bytes"))
	before := readMetric(forced)
	if _, err := m.CallTool(t.Context(), "big", nil); err != nil {
		t.Fatal(err)
	}
	if got := readMetric(forced) - before; got != 1 {
		t.Errorf("a call of 64 MB ran %d forced collections, want 1", got)
	}
	if got := readMetric(free); got > 4<<20 {
		t.Errorf("after a call of 64 MB the heap keeps %d free bytes from the system, want under 4 MB", got)
	}

	small := &memoryReturning{Handler: allocating{n: 1 << 20}}
	small.allocated.Store(readMetric("/gc/heap/allocs:bytes"))
	before = readMetric(forced)
	for range 4 {
		if _, err := small.CallTool(t.Context(), "small", nil); err != nil {
			t.Fatal(err)
		}
	}
	if got := readMetric(forced) - before; got != 0 {
		t.Errorf("four calls of 1 MB ran %d forced collections, want none", got)
	}
}
