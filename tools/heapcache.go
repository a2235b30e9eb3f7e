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

	"github.com/devtools-mcp/devtools-mcp/internal/heapsnapshot"
)

// heapSnapshots caches the snapshots the analysis tools loaded, by path,
// until close_heapsnapshot or until the file changes.
var heapSnapshots = snapshotCache{entries: map[string]*cachedSnapshot{}}

type snapshotCache struct {
	mu      sync.Mutex
	entries map[string]*cachedSnapshot
}

type cachedSnapshot struct {
	loaded  chan struct{} // closed when snap or err is set
	snap    *heapsnapshot.Snapshot
	err     error
	modTime time.Time
	size    int64
}

// heapSnapshotExts are the file name extensions the analysis tools accept.
var heapSnapshotExts = []string{".heapsnapshot", ".heaptimeline"}

// get returns the snapshot in the file at path, loading it unless it is
// cached and the file did not change since.
func (c *snapshotCache) get(ctx context.Context, path string) (*heapsnapshot.Snapshot, error) {
	if !hasHeapSnapshotExt(path) {
		return nil, fmt.Errorf("%s must have a .heapsnapshot or .heaptimeline extension; take_heapsnapshot writes such files", path)
	}
	key := resolve(path)
	fi, err := os.Stat(key)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("no heap snapshot at %s; take one with take_heapsnapshot", path)
	}
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	e := c.entries[key]
	if e == nil || !e.modTime.Equal(fi.ModTime()) || e.size != fi.Size() {
		e = &cachedSnapshot{loaded: make(chan struct{}), modTime: fi.ModTime(), size: fi.Size()}
		c.entries[key] = e
		c.mu.Unlock()
		e.snap, e.err = heapsnapshot.Open(ctx, key)
		if e.err != nil {
			c.mu.Lock()
			if c.entries[key] == e {
				delete(c.entries, key) // the next call tries again
			}
			c.mu.Unlock()
		}
		close(e.loaded)
	} else {
		c.mu.Unlock()
	}
	select {
	case <-e.loaded:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if e.err != nil {
		return nil, fmt.Errorf("load heap snapshot: %w", e.err)
	}
	return e.snap, nil
}

// close forgets the snapshot of path, reporting whether it was loaded.
func (c *snapshotCache) close(path string) bool {
	key := resolve(path)
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.entries[key]
	delete(c.entries, key)
	return ok
}

func hasHeapSnapshotExt(path string) bool {
	for _, ext := range heapSnapshotExts {
		if strings.HasSuffix(path, ext) {
			return true
		}
	}
	return false
}
