package tools

import (
	"cmp"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/devtools-mcp/devtools-mcp/internal/heapsnapshot"
	"github.com/devtools-mcp/devtools-mcp/jsonrpc"
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

// Defaults of the heap snapshot tools.
const (
	heapPageSize      = 50  // list items per page when pageSize is not given
	defaultNameLength = 100 // characters of a name shown when maxNameLength is not given
	contextsPerScope  = 3   // contexts listed per scope by analyze_heapsnapshot_contexts
)

// heapList are the pagination arguments of the analysis tools.
type heapList struct {
	PageIdx  int `json:"pageIdx,omitempty" jsonschema:"0-based page number."`
	PageSize int `json:"pageSize,omitempty" jsonschema:"Items per page (default 50)."`
}

func (l heapList) page() pageArgs {
	return pageArgs{PageSize: cmp.Or(l.PageSize, heapPageSize), PageIdx: l.PageIdx}
}

// heapFilter is the filterName and objectId arguments of the class tools,
// embedded in their arguments.
type heapFilter struct {
	FilterName string  `json:"filterName,omitempty" enum:"objectsRetainedByDetachedDomNodes,objectsRetainedByConsole,objectsRetainedByEventHandlers,objectsRetainedByContexts,sharedNativeContext,noNativeContext,attributedToSpecificNativeContext" jsonschema:"Keep only objects retained for one reason: by detached DOM nodes, by the DevTools console, by event listeners, by closure contexts; or by native context (JavaScript realm): shared by several, reached by none, or attributed to the one in objectId."`
	ObjectID   float64 `json:"objectId,omitempty" jsonschema:"For attributedToSpecificNativeContext: the id of the native context (see get_heapsnapshot_summary)."`
}

// resolve turns the arguments into a heapsnapshot.Filter.
func (f heapFilter) resolve(s *heapsnapshot.Snapshot) (heapsnapshot.Filter, error) {
	if f.FilterName != heapsnapshot.FilterNativeContext {
		return heapsnapshot.Filter{Name: f.FilterName}, nil
	}
	if f.ObjectID == 0 {
		return heapsnapshot.Filter{}, errors.New("filterName attributedToSpecificNativeContext needs objectId, the id of a native context from get_heapsnapshot_summary")
	}
	i, err := nodeByID(s, f.ObjectID)
	return heapsnapshot.Filter{Name: f.FilterName, NativeContext: i}, err
}

// nodeByID finds the object with the given id.
func nodeByID(s *heapsnapshot.Snapshot, id float64) (heapsnapshot.Index, error) {
	if id != math.Trunc(id) || id < 0 || id > math.MaxUint32 {
		return 0, fmt.Errorf("object id %v is not an id; ids are whole numbers like 12345 (shown as @12345)", id)
	}
	i, ok := s.NodeByID(uint32(id))
	if !ok {
		return 0, fmt.Errorf("no object @%d in this snapshot; ids come from the other heap snapshot tools of the same file", uint32(id))
	}
	return i, nil
}

// heapOutput formats the answers of the analysis tools.
type heapOutput struct {
	c       *Call
	nameLen int
}

// newHeapOutput formats for c, cutting names after maxNameLength
// characters (0: the default).
func newHeapOutput(c *Call, maxNameLength int) heapOutput {
	return heapOutput{c: c, nameLen: cmp.Or(maxNameLength, defaultNameLength)}
}

// lineBreaks escapes line breaks in names, which are shown on one line.
var lineBreaks = strings.NewReplacer("\r", `\r`, "\n", `\n`)

// name shortens and flattens a name for one line.
func (o heapOutput) name(s string) string {
	if o.nameLen > 0 && len(s) > o.nameLen {
		cut := 0
		for k := 0; k < o.nameLen && cut < len(s); k++ {
			_, size := utf8.DecodeRuneInString(s[cut:])
			cut += size
		}
		if cut < len(s) {
			s = s[:cut] + "…"
		}
	}
	return lineBreaks.Replace(s)
}

// label is name for a node in a sentence, where an empty name would leave
// a gap (anonymous functions, empty strings).
func (o heapOutput) label(name string) string {
	if name == "" {
		return "(no name)"
	}
	return o.name(name)
}

// csv writes rows as CSV lines, quoting fields that need it.
func (o heapOutput) csv(rows [][]string) {
	var b strings.Builder
	w := csv.NewWriter(&b)
	_ = w.WriteAll(rows) // writing to a strings.Builder cannot fail
	o.c.Resp.Linef("%s", strings.TrimSuffix(b.String(), "\n"))
}

// nodes writes objects as CSV.
func (o heapOutput) nodes(s *heapsnapshot.Snapshot, idx []heapsnapshot.Index) {
	rows := [][]string{{"nodeId", "nodeName", "type", "distance", "selfSize", "retainedSize"}}
	for _, i := range idx {
		n := s.Node(i)
		rows = append(rows, []string{uitoa(n.ID), o.name(n.Name), n.Type, distance(n.Distance), kb(n.SelfSize), kb(n.RetainedSize)})
	}
	o.csv(rows)
}

// edges writes references as CSV; node is the other end of each.
func (o heapOutput) edges(edges []heapsnapshot.Edge) {
	rows := [][]string{{"name", "type", "nodeId", "nodeName", "selfSize", "retainedSize"}}
	for _, e := range edges {
		rows = append(rows, []string{o.name(e.Name), e.Type, uitoa(e.Node.ID), o.name(e.Node.Name), kb(e.Node.SelfSize), kb(e.Node.RetainedSize)})
	}
	o.csv(rows)
}

func uitoa(v uint32) string { return strconv.FormatUint(uint64(v), 10) }

func distance(d int) string {
	if d == heapsnapshot.Unreachable {
		return "unreachable"
	}
	return strconv.Itoa(d)
}

// kb formats a size for people: bytes below 1 kB, then kB and MB with
// one decimal below 100 of the unit.
func kb(bytes uint64) string { return skb(int64(bytes)) }

// skb is kb for a size that may be negative.
func skb(bytes int64) string {
	v := math.Abs(float64(bytes))
	sign := ""
	if bytes < 0 {
		sign = "-"
	}
	switch {
	case v < 1e3:
		return sign + strconv.FormatFloat(v, 'f', 0, 64) + " B"
	case v < 1e5:
		return sign + strconv.FormatFloat(v/1e3, 'f', 1, 64) + " kB"
	case v < 1e6:
		return sign + strconv.FormatFloat(v/1e3, 'f', 0, 64) + " kB"
	case v < 1e8:
		return sign + strconv.FormatFloat(v/1e6, 'f', 1, 64) + " MB"
	}
	return sign + strconv.FormatFloat(v/1e6, 'f', 0, 64) + " MB"
}

// signed prefixes a positive delta with +.
func signed(s string, positive bool) string {
	if positive {
		return "+" + s
	}
	return s
}

// Byte sizes in ranges like "1MB-2MB": decimal units, and binary ones
// (KiB, MiB, ...).
var (
	byteSize  = regexp.MustCompile(`^(\d+(?:\.\d+)?)\s*([a-zA-Z]*)$`)
	byteUnits = map[string]float64{
		"": 1, "b": 1, "byte": 1, "bytes": 1,
		"k": 1e3, "kb": 1e3, "kib": 1 << 10,
		"m": 1e6, "mb": 1e6, "mib": 1 << 20,
		"g": 1e9, "gb": 1e9, "gib": 1 << 30,
		"t": 1e12, "tb": 1e12, "tib": 1 << 40,
	}
)

// parseByteSize reads a size like "1024", "500KB", "1.5MiB".
func parseByteSize(s string) (uint64, error) {
	m := byteSize.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return 0, fmt.Errorf("invalid size %q: use a number of bytes or a number with a unit, like 1024, 500KB, 1.5MB, 2MiB", s)
	}
	unit, ok := byteUnits[strings.ToLower(m[2])]
	if !ok {
		return 0, fmt.Errorf("unknown unit %q in %q; use B, KB, KiB, MB, MiB, GB, GiB, TB or TiB", m[2], s)
	}
	v, _ := strconv.ParseFloat(m[1], 64) // the pattern admits only numbers
	return uint64(math.Round(v * unit)), nil
}

// parseSizeRange reads an inclusive range: "1MB-2MB", "-1MB" (at most),
// "1MB-" or "1MB" (at least). The empty string is no bound.
func parseSizeRange(arg, s string) (heapsnapshot.SizeRange, error) {
	var r heapsnapshot.SizeRange
	if strings.TrimSpace(s) == "" {
		return r, nil
	}
	lo, hi, isRange := strings.Cut(s, "-")
	var err error
	if strings.TrimSpace(lo) != "" {
		if r.Min, err = parseByteSize(lo); err != nil {
			return r, fmt.Errorf("%s: %w", arg, err)
		}
	}
	if isRange && strings.TrimSpace(hi) != "" {
		if r.Max, err = parseByteSize(hi); err != nil {
			return r, fmt.Errorf("%s: %w", arg, err)
		}
		if r.Max < r.Min {
			return r, fmt.Errorf("%s %q: the lower bound is above the upper one", arg, s)
		}
	}
	if isRange && strings.TrimSpace(lo) == "" && strings.TrimSpace(hi) == "" {
		return r, fmt.Errorf("%s %q: give at least one bound, like 1MB-, -1MB or 1MB-2MB", arg, s)
	}
	return r, nil
}

// takeHeapSnapshot writes a heap snapshot of the call's page to path,
// through a temporary file so that a reader never sees half a snapshot.
func takeHeapSnapshot(ctx context.Context, c *Call, path string) (int64, error) {
	dir, base := filepath.Split(path)
	tmp, err := os.CreateTemp(cmp.Or(dir, "."), "."+base+".*.part")
	if err != nil {
		return 0, fmt.Errorf("save heap snapshot: %w", err)
	}
	defer os.Remove(tmp.Name()) // after a successful rename, a no-op
	report := jsonrpc.ProgressFrom(ctx)
	lastPercent := -1
	n, err := c.Page.TakeHeapSnapshot(ctx, tmp, func(done, total int) {
		if total <= 0 {
			return
		}
		if p := done * 100 / total; p != lastPercent {
			lastPercent = p
			report(float64(done), float64(total), "Taking heap snapshot")
		}
	})
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return 0, fmt.Errorf("save heap snapshot: %w", err)
	}
	return n, nil
}

func memoryTools() []*Tool {
	return []*Tool{
		define(Tool{
			Name:        "take_heapsnapshot",
			Description: "Takes a heap snapshot of the page's JavaScript heap (after a garbage collection) and saves it to a .heapsnapshot file, to find memory leaks: take one before and one after the suspect action and compare them. Opens in Chrome DevTools' Memory panel too.",
			Category:    CategoryMemory, Scope: ScopePage, Paths: []string{"filePath"},
		}, func(ctx context.Context, c *Call, args *struct {
			FilePath string `json:"filePath" jsonschema:"Where to save the snapshot; .heapsnapshot is appended when missing."`
		}) error {
			path := args.FilePath
			if !strings.HasSuffix(path, ".heapsnapshot") {
				path += ".heapsnapshot"
			}
			n, err := takeHeapSnapshot(ctx, c, path)
			if err != nil {
				return err
			}
			heapSnapshots.close(path)
			c.Resp.Linef("Heap snapshot saved to %s (%.1f MB).", path, float64(n)/1e6)
			return nil
		}),
		define(Tool{
			Name:        "get_heapsnapshot_summary",
			Description: "Loads a heap snapshot and summarizes it: memory by kind (JavaScript, native, code, strings, arrays), the native contexts (page, iframes, extensions) and what each holds, and how much only closure contexts retain.",
			Category:    CategoryMemory, ReadOnly: true, Condition: ConditionMemoryDebugging, Paths: []string{"filePath"},
		}, func(ctx context.Context, c *Call, args *struct {
			FilePath      string `json:"filePath" jsonschema:"Path of a .heapsnapshot file (see take_heapsnapshot)."`
			MaxNameLength int    `json:"maxNameLength,omitempty" jsonschema:"Cut names after this many characters (default 100)."`
		}) error {
			s, err := heapSnapshots.get(ctx, args.FilePath)
			if err != nil {
				return err
			}
			o := newHeapOutput(c, args.MaxNameLength)
			st := s.Statistics()
			c.Resp.Linef("## Heap Snapshot Data")
			c.Resp.Linef("Statistics: %s", indentJSON(map[string]uint64{
				"total": st.Total, "v8heap": st.V8Heap, "native": st.Native, "code": st.Code,
				"strings": st.Strings, "jsArrays": st.JSArrays, "system": st.System, "extraNativeBytes": st.ExtraNativeBytes,
			}))
			c.Resp.Linef("Static Data: %s", indentJSON(map[string]any{
				"nodeCount": st.NodeCount, "edgeCount": st.EdgeCount, "totalSize": st.Total, "maxJSObjectId": st.MaxJSObjectID,
			}))
			nc := s.NativeContexts()
			c.Resp.Linef("### Native Contexts")
			rows := [][]string{{"nodeId", "nodeName", "selfSize", "retainedSize", "attributedSize"}}
			for _, nctx := range nc.Contexts {
				rows = append(rows, []string{uitoa(nctx.Node.ID), o.name(nctx.Node.Name), kb(nctx.Node.SelfSize), kb(nctx.Node.RetainedSize), kb(nctx.AttributedSize)})
			}
			o.csv(rows)
			c.Resp.Linef("Shared Size: %s", kb(nc.SharedSize))
			c.Resp.Linef("Unattributed Size: %s", kb(nc.UnattributedSize))
			cs := s.RetainedByContexts()
			c.Resp.Linef("### Retained by Context Summary")
			c.Resp.Linef("Context count: %d", cs.Contexts)
			c.Resp.Linef("Retained by context size: %s (%d objects)", kb(cs.RetainedSize), cs.RetainedCount)
			c.Resp.Linef("Not retained by context size: %s (%d objects)", kb(cs.NotRetainedSize), cs.NotRetainedCount)
			c.Resp.Linef("Total size: %s", kb(cs.RetainedSize+cs.NotRetainedSize))
			c.Resp.Linef("Next: get_heapsnapshot_details lists the classes holding the memory.")
			return nil
		}),
		define(Tool{
			Name:        "get_heapsnapshot_details",
			Description: "Loads a heap snapshot and lists its classes (constructors) by retained size: id, object count, self and retained size. filterName narrows to objects retained for one reason, e.g. by detached DOM nodes. Pass a class id to get_heapsnapshot_class_nodes for its objects.",
			Category:    CategoryMemory, ReadOnly: true, Condition: ConditionMemoryDebugging, Paths: []string{"filePath"},
		}, func(ctx context.Context, c *Call, args *struct {
			FilePath string `json:"filePath" jsonschema:"Path of a .heapsnapshot file (see take_heapsnapshot)."`
			heapFilter
			MaxNameLength int `json:"maxNameLength,omitempty" jsonschema:"Cut class names after this many characters (default 100)."`
			heapList
		}) error {
			s, err := heapSnapshots.get(ctx, args.FilePath)
			if err != nil {
				return err
			}
			filter, err := args.heapFilter.resolve(s)
			if err != nil {
				return err
			}
			classes, err := s.Classes(filter)
			if err != nil {
				return err
			}
			o := newHeapOutput(c, args.MaxNameLength)
			var objects int
			var self uint64
			for _, cl := range classes {
				objects += cl.Count
				self += cl.SelfSize
			}
			c.Resp.Linef("## Heap Snapshot Data")
			c.Resp.Linef("Objects: %d", objects)
			c.Resp.Linef("Total shallow size: %s", kb(self))
			if len(classes) == 0 {
				c.Resp.Linef("No object passes the filter.")
				return nil
			}
			shown, err := paginate(c, classes, args.page())
			if err != nil {
				return err
			}
			rows := [][]string{{"id", "name", "count", "selfSize", "retainedSize"}}
			for _, cl := range shown {
				rows = append(rows, []string{strconv.Itoa(cl.ID), o.name(cl.Name), strconv.Itoa(cl.Count), kb(cl.SelfSize), kb(cl.RetainedSize)})
			}
			o.csv(rows)
			return nil
		}),
		define(Tool{
			Name:        "get_heapsnapshot_class_nodes",
			Description: "Loads a heap snapshot and lists the objects of one class (id from get_heapsnapshot_details) by retained size, with their ids for the other heap snapshot tools.",
			Category:    CategoryMemory, ReadOnly: true, Condition: ConditionMemoryDebugging, Paths: []string{"filePath"},
		}, func(ctx context.Context, c *Call, args *struct {
			FilePath string  `json:"filePath" jsonschema:"Path of a .heapsnapshot file (see take_heapsnapshot)."`
			ID       float64 `json:"id" jsonschema:"The class id, from get_heapsnapshot_details."`
			heapFilter
			MaxNameLength int `json:"maxNameLength,omitempty" jsonschema:"Cut object names (and string values) after this many characters (default 100)."`
			heapList
		}) error {
			s, err := heapSnapshots.get(ctx, args.FilePath)
			if err != nil {
				return err
			}
			if args.ID != math.Trunc(args.ID) {
				return fmt.Errorf("class id %v is not a whole number; ids come from get_heapsnapshot_details", args.ID)
			}
			class, err := s.ClassByID(int(args.ID))
			if err != nil {
				return err
			}
			filter, err := args.heapFilter.resolve(s)
			if err != nil {
				return err
			}
			nodes, err := s.ClassNodes(class, filter)
			if err != nil {
				return err
			}
			o := newHeapOutput(c, args.MaxNameLength)
			c.Resp.Linef("## Objects of class %s", o.name(class.Name))
			shown, err := paginate(c, nodes, args.page())
			if err != nil {
				return err
			}
			o.nodes(s, shown)
			return nil
		}),
		define(Tool{
			Name:        "get_heapsnapshot_object_details",
			Description: "Loads a heap snapshot and describes one object by id: name, type, class, self and retained size, distance from the GC roots, DOM detachedness, edge and retainer counts.",
			Category:    CategoryMemory, ReadOnly: true, Condition: ConditionMemoryDebugging, Paths: []string{"filePath"},
		}, func(ctx context.Context, c *Call, args *struct {
			heapObject
			MaxNameLength int `json:"maxNameLength,omitempty" jsonschema:"Cut the name after this many characters (default 100)."`
		}) error {
			s, i, err := args.load(ctx)
			if err != nil {
				return err
			}
			o := newHeapOutput(c, args.MaxNameLength)
			n := s.Node(i)
			c.Resp.Linef("### Object Details")
			c.Resp.Linef("id: @%d", n.ID)
			c.Resp.Linef("name: %s", o.label(n.Name))
			c.Resp.Linef("type: %s", n.Type)
			c.Resp.Linef("class: %s", o.name(s.ClassName(i)))
			c.Resp.Linef("detachedness: %s", n.Detachedness)
			c.Resp.Linef("selfSize: %s", kb(n.SelfSize))
			c.Resp.Linef("retainedSize: %s", kb(n.RetainedSize))
			c.Resp.Linef("distance: %s", distance(n.Distance))
			c.Resp.Linef("edgeCount: %d", n.EdgeCount)
			c.Resp.Linef("retainerCount: %d", n.RetainerCount)
			return nil
		}),
		define(Tool{
			Name:        "get_heapsnapshot_edges",
			Description: "Loads a heap snapshot and lists what one object references (its properties, elements, closure variables, internal fields), largest first.",
			Category:    CategoryMemory, ReadOnly: true, Condition: ConditionMemoryDebugging, Paths: []string{"filePath"},
		}, func(ctx context.Context, c *Call, args *struct {
			heapObject
			SortBy            string  `json:"sortBy,omitempty" enum:"retainedSize,selfSize,name" jsonschema:"Order of the edges (default retainedSize)."`
			RetainedSize      string  `json:"retainedSize,omitempty" jsonschema:"Keep targets retaining at least this much, e.g. 1MB or 10KB (a range like 1MB-2MB uses its lower bound)."`
			ExcludePrimitives optBool `json:"excludePrimitives,omitempty" jsonschema:"Leave out strings, numbers, symbols and big integers (default true)."`
			MaxNameLength     int     `json:"maxNameLength,omitempty" jsonschema:"Cut names after this many characters (default 100)."`
			heapList
		}) error {
			size, err := parseSizeRange("retainedSize", args.RetainedSize)
			if err != nil {
				return err
			}
			s, i, err := args.load(ctx)
			if err != nil {
				return err
			}
			edges := s.Edges(i, heapsnapshot.EdgeOptions{SortBy: args.SortBy, MinRetainedSize: size.Min, ExcludePrimitives: args.ExcludePrimitives.or(true)})
			o := newHeapOutput(c, args.MaxNameLength)
			c.Resp.Linef("## References of @%d %s", s.Node(i).ID, o.label(s.Node(i).Name))
			shown, err := paginate(c, edges, args.page())
			if err != nil {
				return err
			}
			o.edges(shown)
			return nil
		}),
		define(Tool{
			Name:        "get_heapsnapshot_retainers",
			Description: "Loads a heap snapshot and lists the objects that reference one object (its retainers), closest to the GC roots first. For whole paths to the roots use get_heapsnapshot_retaining_paths.",
			Category:    CategoryMemory, ReadOnly: true, Condition: ConditionMemoryDebugging, Paths: []string{"filePath"},
		}, func(ctx context.Context, c *Call, args *struct {
			heapObject
			MaxNameLength int `json:"maxNameLength,omitempty" jsonschema:"Cut names after this many characters (default 100)."`
			heapList
		}) error {
			s, i, err := args.load(ctx)
			if err != nil {
				return err
			}
			o := newHeapOutput(c, args.MaxNameLength)
			c.Resp.Linef("## Retainers of @%d %s", s.Node(i).ID, o.label(s.Node(i).Name))
			shown, err := paginate(c, s.Retainers(i), args.page())
			if err != nil {
				return err
			}
			o.edges(shown)
			return nil
		}),
		define(Tool{
			Name:        "get_heapsnapshot_retaining_paths",
			Description: "Loads a heap snapshot and shows why an object is not garbage collected: the shortest reference paths from the GC roots to it, as a tree of retainers (each line: the retainer, the edge type and name by which it holds the line above).",
			Category:    CategoryMemory, ReadOnly: true, Condition: ConditionMemoryDebugging, Paths: []string{"filePath"},
		}, func(ctx context.Context, c *Call, args *struct {
			heapObject
			MaxDepth      float64 `json:"maxDepth,omitempty" jsonschema:"Most retainers followed up from the object (default 30)."`
			MaxNodes      float64 `json:"maxNodes,omitempty" jsonschema:"Most retainers shown in all (default 60)."`
			MaxSiblings   float64 `json:"maxSiblings,omitempty" jsonschema:"Most retainers shown for one object (default 3)."`
			MaxNameLength int     `json:"maxNameLength,omitempty" jsonschema:"Cut names after this many characters (default 100)."`
		}) error {
			s, i, err := args.load(ctx)
			if err != nil {
				return err
			}
			for _, v := range []float64{args.MaxDepth, args.MaxNodes, args.MaxSiblings} {
				if v < 0 || v != math.Trunc(v) {
					return fmt.Errorf("maxDepth, maxNodes and maxSiblings must be whole numbers above 0, got %v", v)
				}
			}
			paths := s.RetainingPaths(i, heapsnapshot.PathLimits{MaxDepth: int(args.MaxDepth), MaxNodes: int(args.MaxNodes), MaxSiblings: int(args.MaxSiblings)})
			o := newHeapOutput(c, args.MaxNameLength)
			n := s.Node(i)
			c.Resp.Linef("### Retaining Paths")
			c.Resp.Linef("@%d %s (distance: %s)", n.ID, o.label(n.Name), distance(n.Distance))
			if len(paths.Paths) == 0 {
				c.Resp.Linef("No retaining paths found: nothing but weak references holds this object.")
			}
			var write func(ps []heapsnapshot.PathNode, depth int)
			write = func(ps []heapsnapshot.PathNode, depth int) {
				for _, p := range ps {
					c.Resp.Linef("%s<- @%d %s via %s %s (distance: %s)", strings.Repeat("  ", depth), p.Node.ID, o.label(p.Node.Name), p.EdgeType, o.name(p.EdgeName), distance(p.Node.Distance))
					write(p.Retainers, depth+1)
				}
			}
			write(paths.Paths, 0)
			var limits []string
			for _, l := range []struct {
				hit  bool
				name string
			}{{paths.DepthLimited, "maxDepth"}, {paths.NodesLimited, "maxNodes"}, {paths.SiblingsLimited, "maxSiblings"}} {
				if l.hit {
					limits = append(limits, l.name)
				}
			}
			if len(limits) > 0 {
				c.Resp.Linef("Note: results are truncated, the following limits were reached: %s.", strings.Join(limits, ", "))
			}
			return nil
		}),
		define(Tool{
			Name:        "get_heapsnapshot_dominators",
			Description: "Loads a heap snapshot and lists the dominator chain of one object: its immediate dominator (the object whose release would free it), that one's, and so on up to the GC roots.",
			Category:    CategoryMemory, ReadOnly: true, Condition: ConditionMemoryDebugging, Paths: []string{"filePath"},
		}, func(ctx context.Context, c *Call, args *struct {
			heapObject
			MaxNameLength int `json:"maxNameLength,omitempty" jsonschema:"Cut names after this many characters (default 100)."`
		}) error {
			s, i, err := args.load(ctx)
			if err != nil {
				return err
			}
			o := newHeapOutput(c, args.MaxNameLength)
			c.Resp.Linef("### Dominator Chain")
			chain := s.Dominators(i)
			if len(chain) == 0 {
				c.Resp.Linef("No dominators: this is the root.")
				return nil
			}
			rows := [][]string{{"nodeId", "nodeName", "selfSize", "retainedSize"}}
			for _, n := range chain {
				rows = append(rows, []string{uitoa(n.ID), o.name(n.Name), kb(n.SelfSize), kb(n.RetainedSize)})
			}
			o.csv(rows)
			return nil
		}),
		define(Tool{
			Name:        "get_heapsnapshot_duplicate_strings",
			Description: "Loads a heap snapshot and lists the strings stored more than once, the most memory first, with the ids of some copies.",
			Category:    CategoryMemory, ReadOnly: true, Condition: ConditionMemoryDebugging, Paths: []string{"filePath"},
		}, func(ctx context.Context, c *Call, args *struct {
			FilePath string `json:"filePath" jsonschema:"Path of a .heapsnapshot file (see take_heapsnapshot)."`
			heapList
			MaxNameLength int `json:"maxNameLength,omitempty" jsonschema:"Cut string values after this many characters (default 100)."`
		}) error {
			s, err := heapSnapshots.get(ctx, args.FilePath)
			if err != nil {
				return err
			}
			o := newHeapOutput(c, args.MaxNameLength)
			c.Resp.Linef("### Duplicate Strings")
			shown, err := paginate(c, s.DuplicateStrings(), args.page())
			if err != nil {
				return err
			}
			rows := [][]string{{"value", "count", "totalSelfSize", "totalRetainedSize", "truncated", "nodeIds"}}
			for _, g := range shown {
				ids := make([]string, len(g.Nodes))
				for k, i := range g.Nodes {
					ids[k] = "@" + uitoa(s.Node(i).ID)
				}
				value, _ := json.Marshal(o.name(g.Value))
				rows = append(rows, []string{string(value), strconv.Itoa(g.Count), kb(g.SelfSize), kb(g.RetainedSize), strconv.FormatBool(g.Truncated), strings.Join(ids, " ")})
			}
			o.csv(rows)
			return nil
		}),
		define(Tool{
			Name:        "query_heapsnapshot_objects",
			Description: "Loads a heap snapshot and finds objects by class name (regular expression or text), property name, type, size ranges and DOM detachedness, largest first.",
			Category:    CategoryMemory, ReadOnly: true, Condition: ConditionMemoryDebugging, Paths: []string{"filePath"},
		}, func(ctx context.Context, c *Call, args *struct {
			FilePath     string  `json:"filePath" jsonschema:"Path of a .heapsnapshot file (see take_heapsnapshot)."`
			ClassName    string  `json:"className,omitempty" jsonschema:"Regular expression or text matched against class names, case-insensitive."`
			PropertyName string  `json:"propertyName,omitempty" jsonschema:"Keep objects with an outgoing reference of this name (property, closure variable, internal field)."`
			NodeType     string  `json:"nodeType,omitempty" jsonschema:"Keep objects of this V8 type: object, closure, string, array, native, code, ..."`
			RetainedSize string  `json:"retainedSize,omitempty" jsonschema:"Retained size range, inclusive: 1MB-2MB, -1MB (at most), 1MB- or 1MB (at least)."`
			SelfSize     string  `json:"selfSize,omitempty" jsonschema:"Self size range, inclusive: 1KB-2KB, -1KB, 1KB- or 1KB."`
			IsDetached   optBool `json:"isDetached,omitempty" jsonschema:"Keep only detached DOM nodes (true) or only objects that are not (false)."`
			SortBy       string  `json:"sortBy,omitempty" enum:"retainedSize,selfSize,id" jsonschema:"Order of the results (default retainedSize)."`
			heapList
			MaxNameLength int `json:"maxNameLength,omitempty" jsonschema:"Cut names after this many characters (default 100)."`
		}) error {
			q := heapsnapshot.Query{ClassName: args.ClassName, PropertyName: args.PropertyName, NodeType: args.NodeType, SortBy: args.SortBy}
			var err error
			if q.Retained, err = parseSizeRange("retainedSize", args.RetainedSize); err != nil {
				return err
			}
			if q.Self, err = parseSizeRange("selfSize", args.SelfSize); err != nil {
				return err
			}
			if args.IsDetached.set {
				q.Detached = &args.IsDetached.value
			}
			s, err := heapSnapshots.get(ctx, args.FilePath)
			if err != nil {
				return err
			}
			found, err := s.Query(q)
			if err != nil {
				return err
			}
			o := newHeapOutput(c, args.MaxNameLength)
			if len(found) == 0 {
				c.Resp.Linef("No objects match.")
				return nil
			}
			shown, err := paginate(c, found, args.page())
			if err != nil {
				return err
			}
			o.nodes(s, shown)
			return nil
		}),
		define(Tool{
			Name:        "compare_heapsnapshots",
			Description: "Loads two heap snapshots of one page (taken in this session, before and after an action) and lists by class the new and deleted objects and the size change, largest growth first. With classIndex (the index column), lists that class's new and deleted objects.",
			Category:    CategoryMemory, ReadOnly: true, Condition: ConditionMemoryDebugging, Paths: []string{"baseFilePath", "currentFilePath"},
		}, func(ctx context.Context, c *Call, args *struct {
			BaseFilePath    string   `json:"baseFilePath" jsonschema:"The earlier .heapsnapshot file."`
			CurrentFilePath string   `json:"currentFilePath" jsonschema:"The later .heapsnapshot file."`
			ClassIndex      optIndex `json:"classIndex,omitempty" jsonschema:"0-based index of a class in the comparison (the index column): list its new and deleted objects."`
			MaxNameLength   int      `json:"maxNameLength,omitempty" jsonschema:"Cut class names after this many characters (default 100)."`
			heapList
		}) error {
			base, err := heapSnapshots.get(ctx, args.BaseFilePath)
			if err != nil {
				return err
			}
			current, err := heapSnapshots.get(ctx, args.CurrentFilePath)
			if err != nil {
				return err
			}
			o := newHeapOutput(c, args.MaxNameLength)
			diffs := heapsnapshot.Compare(base, current)
			k, ok := args.ClassIndex.get()
			if !ok {
				c.Resp.Linef("### Heap Snapshot Diff")
				type row struct {
					index int
					d     heapsnapshot.ClassDiff
				}
				all := make([]row, len(diffs))
				for k, d := range diffs {
					all[k] = row{k, d}
				}
				shown, err := paginate(c, all, args.page())
				if err != nil {
					return err
				}
				rows := [][]string{{"index", "className", "addedCount", "removedCount", "countDelta", "addedSize", "removedSize", "sizeDelta"}}
				for _, r := range shown {
					d := r.d
					rows = append(rows, []string{strconv.Itoa(r.index), o.name(d.Name), strconv.Itoa(d.AddedCount), strconv.Itoa(d.RemovedCount),
						strconv.Itoa(d.CountDelta), kb(d.AddedSize), kb(d.RemovedSize), skb(d.SizeDelta)})
				}
				o.csv(rows)
				return nil
			}
			if k >= len(diffs) {
				return fmt.Errorf("invalid classIndex %d: the comparison has %d classes with changes (index 0 to %d)", k, len(diffs), len(diffs)-1)
			}
			d := diffs[k]
			c.Resp.Linef("### Heap Snapshot Detailed Diff")
			c.Resp.Linef("%s: # new: %d, # deleted: %d, # delta: %s, alloc size: %s, freed size: %s, size delta: %s",
				o.name(d.Name), d.AddedCount, d.RemovedCount, signed(strconv.Itoa(d.CountDelta), d.CountDelta > 0),
				signed(kb(d.AddedSize), d.AddedSize > 0), kb(d.RemovedSize), signed(skb(d.SizeDelta), d.SizeDelta > 0))
			type object struct {
				added bool
				id    uint32
				size  uint64
			}
			objects := make([]object, 0, len(d.Added)+len(d.Removed))
			for _, i := range d.Added {
				n := current.Node(i)
				objects = append(objects, object{true, n.ID, n.SelfSize})
			}
			for _, r := range d.Removed {
				objects = append(objects, object{false, r.ID, r.SelfSize})
			}
			shown, err := paginate(c, objects, args.page())
			if err != nil {
				return err
			}
			c.Resp.Linef("Objects (+ new, in the current snapshot; - deleted, from the base):")
			for _, obj := range shown {
				sign := "-"
				if obj.added {
					sign = "+"
				}
				c.Resp.Linef("  %s @%d (self_size: %s)", sign, obj.id, kb(obj.size))
			}
			return nil
		}),
		define(Tool{
			Name:        "analyze_heapsnapshot_contexts",
			Description: "Loads a heap snapshot and finds closure contexts keeping variables that no live function can read any more (dead variables), with what their values retain: memory held only because some function once captured it.",
			Category:    CategoryMemory, ReadOnly: true, Condition: ConditionMemoryDebugging, Paths: []string{"filePath"},
		}, func(ctx context.Context, c *Call, args *struct {
			FilePath        string `json:"filePath" jsonschema:"Path of a .heapsnapshot file (see take_heapsnapshot)."`
			RetainedSize    string `json:"retainedSize,omitempty" jsonschema:"Keep contexts whose dead variables retain this much: 1MB-2MB, -1MB (at most), 1MB- or 1MB (at least)."`
			ScopeInfoNodeID int    `json:"scopeInfoNodeId,omitempty" jsonschema:"List all contexts of one scope (its scopeInfoNodeId from a previous answer)."`
			MaxNameLength   int    `json:"maxNameLength,omitempty" jsonschema:"Cut names after this many characters (default 100)."`
			heapList
		}) error {
			size, err := parseSizeRange("retainedSize", args.RetainedSize)
			if err != nil {
				return err
			}
			s, err := heapSnapshots.get(ctx, args.FilePath)
			if err != nil {
				return err
			}
			if !s.HasScopeData() {
				return errors.New("this snapshot has no scope data: take it with take_heapsnapshot from a recent Chrome (it records scopes and numeric values)")
			}
			o := newHeapOutput(c, args.MaxNameLength)
			analysis := s.AnalyzeContexts()
			var scopes []heapsnapshot.ScopeContexts
			for _, sc := range analysis.Scopes {
				if args.ScopeInfoNodeID != 0 && sc.ScopeInfo.ID != uint32(args.ScopeInfoNodeID) {
					continue
				}
				sc.Contexts = slices.DeleteFunc(sc.Contexts, func(cf heapsnapshot.ContextFields) bool { return !size.Contains(cf.DeadRetainedSize) })
				if len(sc.Contexts) > 0 {
					scopes = append(scopes, sc)
				}
			}
			c.Resp.Linef("## Closure contexts with dead variables")
			if len(scopes) == 0 {
				c.Resp.Linef("None found: every variable kept in a closure context can still be read by a live function.")
			}
			write := func(sc heapsnapshot.ScopeContexts, contexts []heapsnapshot.ContextFields) {
				name := cmp.Or(sc.ScopeName, "(anonymous)")
				c.Resp.Linef("### Scope %s (%s:%d-%d) scopeInfoNodeId=%d: variables: %d, contexts with dead variables: %d",
					o.name(name), o.name(sc.ScriptName), sc.Start, sc.End, sc.ScopeInfo.ID, sc.Fields, len(sc.Contexts))
				for _, cf := range contexts {
					c.Resp.Linef("context @%d (retained %s): dead variables retain %s", cf.Context.ID, kb(cf.Context.RetainedSize), kb(cf.DeadRetainedSize))
					for _, f := range cf.DeadFields {
						c.Resp.Linef("  %s = @%d %s (%s, self %s, retained %s)", o.name(f.Name), f.Value.ID, o.label(f.Value.Name), f.Value.Type, kb(f.Value.SelfSize), kb(f.Value.RetainedSize))
					}
				}
			}
			if args.ScopeInfoNodeID != 0 && len(scopes) == 1 {
				shown, err := paginate(c, scopes[0].Contexts, args.page())
				if err != nil {
					return err
				}
				write(scopes[0], shown)
			} else if len(scopes) > 0 {
				shown, err := paginate(c, scopes, args.page())
				if err != nil {
					return err
				}
				for _, sc := range shown {
					write(sc, sc.Contexts[:min(len(sc.Contexts), contextsPerScope)])
					if more := len(sc.Contexts) - contextsPerScope; more > 0 {
						c.Resp.Linef("… %d more contexts: pass scopeInfoNodeId=%d to list them.", more, sc.ScopeInfo.ID)
					}
				}
			}
			if n := len(analysis.WithoutData); n > 0 {
				var names []string
				for _, w := range analysis.WithoutData[:min(n, 5)] {
					names = append(names, fmt.Sprintf("%s (%d contexts)", o.name(cmp.Or(w.Name, "@"+uitoa(w.Script.ID))), w.Contexts))
				}
				c.Resp.Linef("Not analysed, V8 kept no scope data for %d scripts: %s.", n, strings.Join(names, ", "))
			}
			return nil
		}),
		define(Tool{
			Name:        "close_heapsnapshot",
			Description: "Frees the memory of a heap snapshot the analysis tools loaded.",
			Category:    CategoryMemory, Condition: ConditionMemoryDebugging, Paths: []string{"filePath"},
		}, func(ctx context.Context, c *Call, args *struct {
			FilePath string `json:"filePath" jsonschema:"Path of the .heapsnapshot file to close."`
		}) error {
			if !heapSnapshots.close(args.FilePath) {
				return fmt.Errorf("%s was not loaded; nothing to close", args.FilePath)
			}
			c.Resp.Linef("Closed heap snapshot: %s", args.FilePath)
			return nil
		}),
	}
}

// optIndex is a 0-based index argument, where 0 must be told apart from
// "not given": it holds the index plus one, 0 when not given. Its schema
// is a plain number.
type optIndex float64

// UnmarshalJSON accepts whole numbers from 0.
func (x *optIndex) UnmarshalJSON(data []byte) error {
	var v float64
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	if v < 0 || v != math.Trunc(v) || v > math.MaxInt32 {
		return fmt.Errorf("%v is not an index: use a whole number from 0", v)
	}
	*x = optIndex(v + 1)
	return nil
}

// get returns the index and whether it was given.
func (x optIndex) get() (int, bool) { return int(x) - 1, x != 0 }

// heapObject are the arguments naming one object of a heap snapshot file.
type heapObject struct {
	FilePath string  `json:"filePath" jsonschema:"Path of a .heapsnapshot file (see take_heapsnapshot)."`
	NodeID   float64 `json:"nodeId" jsonschema:"The object's id (@id in other answers)."`
}

// load loads the snapshot and finds the object.
func (o heapObject) load(ctx context.Context) (*heapsnapshot.Snapshot, heapsnapshot.Index, error) {
	s, err := heapSnapshots.get(ctx, o.FilePath)
	if err != nil {
		return nil, 0, err
	}
	i, err := nodeByID(s, o.NodeID)
	return s, i, err
}

// indentJSON renders v as indented JSON.
func indentJSON(v any) string {
	b, _ := json.MarshalIndent(v, "", "  ") // maps of numbers always encode
	return string(b)
}
