package tools

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/devtools-mcp/devtools-mcp/internal/browser"
	"github.com/devtools-mcp/devtools-mcp/internal/heapsnapshot"
	"github.com/devtools-mcp/devtools-mcp/jsonrpc"
)

// Defaults of the heap snapshot tools.
const (
	heapPageSize      = 50  // list items per page when pageSize is not given
	defaultNameLength = 100 // characters of a name shown when maxNameLength is not given
)

// heapList are the pagination arguments of the analysis tools.
type heapList struct {
	PageIdx  int `json:"pageIdx,omitempty" bound:"page" jsonschema:"0-based page number."`
	PageSize int `json:"pageSize,omitempty" bound:"page" jsonschema:"Items per page (default 50)."`
}

func (l heapList) page() pageArgs {
	return pageArgs{PageSize: cmp.Or(l.PageSize, heapPageSize), PageIdx: l.PageIdx}
}

// heapFilter is the filterName and objectId arguments of the class tools,
// embedded in their arguments.
type heapFilter struct {
	FilterName string  `json:"filterName,omitempty" enum:"objectsRetainedByDetachedDomNodes,objectsRetainedByConsole,objectsRetainedByEventHandlers,objectsRetainedByContexts,sharedNativeContext,noNativeContext,attributedToSpecificNativeContext" jsonschema:"Keep only objects retained for one reason: by detached DOM nodes, by the DevTools console, by event listeners, by closure contexts; or by native context (JavaScript realm): shared by several, reached by none, or attributed to the one in objectId."`
	ObjectID   float64 `json:"objectId,omitempty" bound:"id" jsonschema:"For attributedToSpecificNativeContext: the id of the native context (see get_heapsnapshot_summary)."`
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

// writeHeapSnapshot writes a heap snapshot of the call's page to path,
// through a temporary file so that a reader never sees half a snapshot.
// The final path (with its extension) is checked, and both files are made
// through the handle of its allowed directory.
func writeHeapSnapshot(ctx context.Context, c *Call, path string) (int64, error) {
	dest, err := c.place(ctx, "filePath", path)
	if err != nil {
		return 0, err
	}
	defer dest.Close()
	report := jsonrpc.ProgressFrom(ctx)
	lastPercent := -1
	var n int64
	err = dest.Replace(func(w io.Writer) error {
		var err error
		n, err = c.Page.Profiler().TakeHeapSnapshot(ctx, w, func(done, total int) {
			if total <= 0 {
				return
			}
			if p := done * 100 / total; p != lastPercent {
				lastPercent = p
				report(float64(done), float64(total), "Taking heap snapshot")
			}
		})
		return err
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}

func memoryTools() []*Tool {
	return []*Tool{
		define(Tool{
			Name:        "take_heapsnapshot",
			Description: "Takes a heap snapshot of the page's JavaScript heap (after a garbage collection) and saves it to a .heapsnapshot file, to find memory leaks: take one before and one after the suspect action and compare them. Opens in Chrome DevTools' Memory panel too.",
			Category:    CategoryMemory, Scope: ScopePage, Busy: browser.BusyWaits,
			Task: alwaysTask,
		}, takeHeapsnapshot),
		define(Tool{
			Name:        "get_heapsnapshot_summary",
			Description: "Loads a heap snapshot and summarizes it: memory by kind (JavaScript, native, code, strings, arrays), the native contexts (page, iframes, extensions) and what each holds, and how much only closure contexts retain.",
			Category:    CategoryMemory, ReadOnly: true, Condition: ConditionMemoryDebugging,
		}, getHeapsnapshotSummary),
		define(Tool{
			Name:        "get_heapsnapshot_details",
			Description: "Loads a heap snapshot and lists its classes (constructors) by retained size: id, object count, self and retained size. filterName narrows to objects retained for one reason, e.g. by detached DOM nodes. Pass a class id to get_heapsnapshot_class_nodes for its objects.",
			Category:    CategoryMemory, ReadOnly: true, Condition: ConditionMemoryDebugging,
		}, getHeapsnapshotDetails),
		define(Tool{
			Name:        "get_heapsnapshot_class_nodes",
			Description: "Loads a heap snapshot and lists the objects of one class (id from get_heapsnapshot_details) by retained size, with their ids for the other heap snapshot tools.",
			Category:    CategoryMemory, ReadOnly: true, Condition: ConditionMemoryDebugging,
		}, getHeapsnapshotClassNodes),
		define(Tool{
			Name:        "get_heapsnapshot_object_details",
			Description: "Loads a heap snapshot and describes one object by id: name, type, class, self and retained size, distance from the GC roots, DOM detachedness, edge and retainer counts.",
			Category:    CategoryMemory, ReadOnly: true, Condition: ConditionMemoryDebugging,
		}, getHeapsnapshotObjectDetails),
		define(Tool{
			Name:        "get_heapsnapshot_edges",
			Description: "Loads a heap snapshot and lists what one object references (its properties, elements, closure variables, internal fields), largest first.",
			Category:    CategoryMemory, ReadOnly: true, Condition: ConditionMemoryDebugging,
		}, getHeapsnapshotEdges),
		define(Tool{
			Name:        "get_heapsnapshot_retainers",
			Description: "Loads a heap snapshot and lists the objects that reference one object (its retainers), closest to the GC roots first. For whole paths to the roots use get_heapsnapshot_retaining_paths.",
			Category:    CategoryMemory, ReadOnly: true, Condition: ConditionMemoryDebugging,
		}, getHeapsnapshotRetainers),
		define(Tool{
			Name:        "get_heapsnapshot_retaining_paths",
			Description: "Loads a heap snapshot and shows why an object is not garbage collected: the shortest reference paths from the GC roots to it, as a tree of retainers (each line: the retainer, the edge type and name by which it holds the line above).",
			Category:    CategoryMemory, ReadOnly: true, Condition: ConditionMemoryDebugging,
		}, getHeapsnapshotRetainingPaths),
		define(Tool{
			Name:        "get_heapsnapshot_dominators",
			Description: "Loads a heap snapshot and lists the dominator chain of one object: its immediate dominator (the object whose release would free it), that one's, and so on up to the GC roots.",
			Category:    CategoryMemory, ReadOnly: true, Condition: ConditionMemoryDebugging,
		}, getHeapsnapshotDominators),
		define(Tool{
			Name:        "get_heapsnapshot_duplicate_strings",
			Description: "Loads a heap snapshot and lists the strings stored more than once, the most memory first, with the ids of some copies.",
			Category:    CategoryMemory, ReadOnly: true, Condition: ConditionMemoryDebugging,
		}, getHeapsnapshotDuplicateStrings),
		define(Tool{
			Name:        "query_heapsnapshot_objects",
			Description: "Loads a heap snapshot and finds objects by class name (regular expression or text), property name, type, size ranges and DOM detachedness, largest first.",
			Category:    CategoryMemory, ReadOnly: true, Condition: ConditionMemoryDebugging,
		}, queryHeapsnapshotObjects),
		define(Tool{
			Name:        "compare_heapsnapshots",
			Description: "Loads two heap snapshots of one page (taken in this session, before and after an action) and lists by class the new and deleted objects and the size change, largest growth first. With classIndex (the index column), lists that class's new and deleted objects.",
			Category:    CategoryMemory, ReadOnly: true, Condition: ConditionMemoryDebugging,
		}, compareHeapsnapshots),
		define(Tool{
			Name:        "analyze_heapsnapshot_contexts",
			Description: "Loads a heap snapshot and finds closure contexts keeping variables that no live function can read any more (dead variables), with what their values retain: memory held only because some function once captured it.",
			Category:    CategoryMemory, ReadOnly: true, Condition: ConditionMemoryDebugging,
		}, analyzeHeapsnapshotContexts),
		define(Tool{
			Name:        "close_heapsnapshot",
			Description: "Frees the memory of a heap snapshot the analysis tools loaded.",
			Category:    CategoryMemory, Condition: ConditionMemoryDebugging,
		}, closeHeapsnapshot),
	}
}

// takeHeapsnapshotArgs are take_heapsnapshot's arguments.
type takeHeapsnapshotArgs struct {
	FilePath string `json:"filePath" path:"" jsonschema:"Where to save the snapshot; .heapsnapshot is appended when missing."`
}

// takeHeapsnapshot runs take_heapsnapshot.
func takeHeapsnapshot(ctx context.Context, c *Call, args *takeHeapsnapshotArgs) error {
	path := args.FilePath
	if !strings.HasSuffix(path, ".heapsnapshot") {
		path += ".heapsnapshot"
	}
	n, err := writeHeapSnapshot(ctx, c, path)
	if err != nil {
		return err
	}
	c.Server.heaps.close(path)
	c.Resp.Linef("Heap snapshot saved to %s (%.1f MB).", path, float64(n)/1e6)
	return nil
}

// closeHeapsnapshotArgs are close_heapsnapshot's arguments.
type closeHeapsnapshotArgs struct {
	FilePath string `json:"filePath" path:"" jsonschema:"Path of the .heapsnapshot file to close."`
}

// closeHeapsnapshot runs close_heapsnapshot.
func closeHeapsnapshot(ctx context.Context, c *Call, args *closeHeapsnapshotArgs) error {
	if !c.Server.heaps.close(args.FilePath) {
		return fmt.Errorf("%s was not loaded; nothing to close", args.FilePath)
	}
	c.Resp.Linef("Closed heap snapshot: %s", args.FilePath)
	return nil
}

// heapObject are the arguments naming one object of a heap snapshot file.
type heapObject struct {
	FilePath string  `json:"filePath" path:"" jsonschema:"Path of a .heapsnapshot file (see take_heapsnapshot)."`
	NodeID   float64 `json:"nodeId" bound:"id" jsonschema:"The object's id (@id in other answers)."`
}

// load loads the snapshot and finds the object.
func (o heapObject) load(ctx context.Context, c *Call) (*heapsnapshot.Snapshot, heapsnapshot.Index, error) {
	s, err := c.heapSnapshot(ctx, o.FilePath)
	if err != nil {
		return nil, 0, err
	}
	i, err := nodeByID(s, o.NodeID)
	return s, i, err
}
