package snapshot

import (
	"testing"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// TestNodeIndex checks that ids are found as a map of strings would find
// them, whether they fall in a run of numbers or not.
func TestNodeIndex(t *testing.T) {
	ids := []string{"5", "7", "5", "-1000000003", "-1000000001", "x", "07", "-0", "", "999999999999", "0", "+3", "-7"}
	nodes := make([]cdp.AXNode, len(ids))
	want := map[string]int32{}
	for i, id := range ids {
		nodes[i].NodeID = id
		if _, dup := want[id]; !dup {
			want[id] = int32(i)
		}
	}
	x := newNodeIndex(nodes)
	for _, id := range append(ids, "6", "3", "8", "-1000000002", "-1000000004", "7 ", "-", "1e3", "00", "-07") {
		got, ok := x.find(id)
		w, wok := want[id]
		if ok != wok || got != w {
			t.Errorf("find(%q) = %d, %v; want %d, %v", id, got, ok, w, wok)
		}
	}
}
