package middleware

import (
	"context"
	"encoding/json"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"

	"github.com/devtools-mcp/devtools-mcp/jsonrpc"
)

// bigCallBytes is how much a tool call must allocate for the memory it
// used to be handed back to the system right after it: a snapshot of a big
// page or a trace allocates tens of megabytes that are garbage once
// answered, and the runtime would otherwise keep them for minutes.
const bigCallBytes = 8 << 20

// ReturnMemory returns the heap's free memory to the system after calls
// that allocated much, so that the server's resident memory stays near
// what it holds rather than what its biggest call needed.
func ReturnMemory() jsonrpc.Middleware {
	return new(memoryReturner).wrap
}

// memoryReturner is ReturnMemory's state, shared by every call.
type memoryReturner struct {
	// allocated is the heap's allocation total when memory was last
	// returned; the call that moves it returns memory, the others not.
	allocated atomic.Uint64
}

// wrap runs each call, then, when the calls since the last return
// allocated bigCallBytes or more, returns free memory before answering, so
// that the memory after the call is what the server keeps. It costs a
// garbage collection of a few milliseconds, after calls that took far
// longer.
func (m *memoryReturner) wrap(next jsonrpc.CallFunc) jsonrpc.CallFunc {
	return func(ctx context.Context, name string, args json.RawMessage) (*jsonrpc.CallToolResult, error) {
		res, err := next(ctx, name, args)
		sample := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
		metrics.Read(sample)
		total := sample[0].Value.Uint64()
		if last := m.allocated.Load(); total-last >= bigCallBytes && m.allocated.CompareAndSwap(last, total) {
			debug.FreeOSMemory()
		}
		return res, err
	}
}
