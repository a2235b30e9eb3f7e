package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/devtools-mcp/devtools-mcp/internal/confine"
	"github.com/devtools-mcp/devtools-mcp/internal/heapsnapshot"
)

// DefaultHeapSnapshotBudget is how many bytes of heap snapshot files the
// analysis tools keep loaded when Options.HeapSnapshotBudget is 0.
const DefaultHeapSnapshotBudget = 512 << 20

// heapCache holds the snapshots the analysis tools loaded, by resolved
// path, until close_heapsnapshot, until the file changes, or until loading
// others takes it over its byte budget: then the least recently used are
// dropped, since a few snapshots of 100 MB would otherwise stay in memory
// for the whole session. A snapshot is counted at its file's size, about
// what its parsed graph holds.
type heapCache struct {
	budget int64
	load   func(ctx context.Context, f *os.File) (*heapsnapshot.Snapshot, error)
	// beforeLoad, when set (by tests), runs between the path check and
	// the load, where a swapped directory would once have redirected it.
	beforeLoad func(key string)

	mu      sync.Mutex
	entries map[string]*cachedSnapshot
	used    int64  // bytes of all entries
	clock   uint64 // counts uses, for least recently used
}

type cachedSnapshot struct {
	loaded  chan struct{} // closed when snap or err is set
	snap    *heapsnapshot.Snapshot
	err     error
	modTime time.Time
	size    int64
	lastUse uint64
}

// newHeapCache returns a cache that keeps budget bytes of snapshots
// (DefaultHeapSnapshotBudget when budget is 0 or less).
func newHeapCache(budget int64) *heapCache {
	if budget <= 0 {
		budget = DefaultHeapSnapshotBudget
	}
	return &heapCache{budget: budget, load: heapsnapshot.OpenFile, entries: map[string]*cachedSnapshot{}}
}

// get returns the snapshot in the open file f, whose resolved path is key,
// loading it unless it is cached and the file did not change since (as f
// shows it). It reads f, never the path again: f was opened through the
// path check's directory handle, so a directory swapped for a symlink
// after the check cannot lead the load elsewhere. evicted are the resolved
// paths of the snapshots dropped to make room for it.
func (c *heapCache) get(ctx context.Context, key string, f *os.File) (snap *heapsnapshot.Snapshot, evicted []string, err error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	c.mu.Lock()
	c.clock++
	e := c.entries[key]
	if e == nil || !e.modTime.Equal(fi.ModTime()) || e.size != fi.Size() {
		dropped := c.removeLocked(key)
		e = &cachedSnapshot{loaded: make(chan struct{}), modTime: fi.ModTime(), size: fi.Size(), lastUse: c.clock}
		c.entries[key] = e
		c.used += e.size
		evicted = c.evictLocked(key)
		c.mu.Unlock()
		if dropped || len(evicted) > 0 {
			heapsnapshot.Release() // before loading, so that the two do not add up
		}
		if c.beforeLoad != nil {
			c.beforeLoad(key)
		}
		e.snap, e.err = c.load(ctx, f)
		if e.err != nil {
			c.mu.Lock()
			if c.entries[key] == e {
				c.removeLocked(key) // the next call tries again
			}
			c.mu.Unlock()
		}
		close(e.loaded)
	} else {
		e.lastUse = c.clock
		c.mu.Unlock()
	}
	select {
	case <-e.loaded:
	case <-ctx.Done():
		return nil, evicted, ctx.Err()
	}
	if e.err != nil {
		return nil, evicted, fmt.Errorf("load heap snapshot: %w", e.err)
	}
	return e.snap, evicted, nil
}

// evictLocked drops the least recently used snapshots other than keep
// until the cache is within its budget, and returns their paths. A single
// snapshot larger than the budget stays: the call that loaded it needs it.
func (c *heapCache) evictLocked(keep string) []string {
	var evicted []string
	for c.used > c.budget {
		oldest := ""
		for key, e := range c.entries {
			if key != keep && (oldest == "" || e.lastUse < c.entries[oldest].lastUse) {
				oldest = key
			}
		}
		if oldest == "" {
			break
		}
		c.removeLocked(oldest)
		evicted = append(evicted, oldest)
	}
	return evicted
}

// removeLocked forgets the snapshot of key, reporting whether it was there.
func (c *heapCache) removeLocked(key string) bool {
	e, ok := c.entries[key]
	if ok {
		c.used -= e.size
		delete(c.entries, key)
	}
	return ok
}

// close forgets the snapshot of path, reporting whether it was loaded, and
// gives its memory back to the operating system (calls still using it
// keep it until they end).
func (c *heapCache) close(path string) bool {
	c.mu.Lock()
	ok := c.removeLocked(confine.Resolve(path))
	c.mu.Unlock()
	if ok {
		heapsnapshot.Release()
	}
	return ok
}

// heapSnapshot returns the snapshot at path from the server's cache, and
// tells the agent which snapshots were dropped to make room, so that it
// knows why a later call on one of them reads the file again. The file is
// opened once, through the handle of the allowed directory that the path
// check used (never blocking, only a regular file), and the cache reads
// that open file.
func (c *Call) heapSnapshot(ctx context.Context, path string) (*heapsnapshot.Snapshot, error) {
	if !hasHeapSnapshotExt(path) {
		return nil, fmt.Errorf("%s must have a .heapsnapshot or .heaptimeline extension; take_heapsnapshot writes such files", path)
	}
	p, err := c.guard().PlaceFollowing(ctx, "filePath", path, true)
	if err != nil {
		return nil, err
	}
	f, err := p.Open()
	p.Close() // the file stays open without the directory's handle
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("no heap snapshot at %s; take one with take_heapsnapshot", path)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s, evicted, err := c.Server.heaps.get(ctx, p.Path(), f)
	for _, p := range evicted {
		c.Resp.Linef("Note: unloaded the heap snapshot %s to keep the loaded snapshots within %s; a later call on it reads the file again.", p, byteBudget(c.Server.heaps.budget))
	}
	return s, err
}

// byteBudget formats a budget in MiB, or in bytes when it is not a whole
// number of MiB.
func byteBudget(n int64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

func hasHeapSnapshotExt(path string) bool {
	return strings.HasSuffix(path, ".heapsnapshot") || strings.HasSuffix(path, ".heaptimeline")
}
