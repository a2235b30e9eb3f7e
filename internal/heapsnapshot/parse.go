package heapsnapshot

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"

	"github.com/devtools-mcp/devtools-mcp/internal/jsonscan"
)

// meta is the "snapshot" header of the V8 format: the layout of the flat
// arrays that follow.
type meta struct {
	Meta struct {
		NodeFields     []string          `json:"node_fields"`
		NodeTypes      []json.RawMessage `json:"node_types"`
		EdgeFields     []string          `json:"edge_fields"`
		EdgeTypes      []json.RawMessage `json:"edge_types"`
		LocationFields []string          `json:"location_fields"`
		ScopeFields    []string          `json:"scope_fields"`
		ScopeVarFields []string          `json:"scope_context_var_fields"`
		ScopeUseFields []string          `json:"scope_use_fields"`
	} `json:"meta"`
	NodeCount        int    `json:"node_count"`
	EdgeCount        int    `json:"edge_count"`
	RootIndex        *int   `json:"root_index"`
	ExtraNativeBytes uint64 `json:"extra_native_bytes"`
}

// layout is meta resolved to field offsets.
type layout struct {
	nodeStride, edgeStride                                   int
	nodeType, nodeName, nodeID, nodeSelf, nodeEdges, nodeDet int // offsets; -1 = absent
	edgeType, edgeName, edgeTo                               int
	nodeTypes, edgeTypes                                     []string
}

func (m *meta) layout() (*layout, error) {
	l := &layout{nodeStride: len(m.Meta.NodeFields), edgeStride: len(m.Meta.EdgeFields)}
	l.nodeType = slices.Index(m.Meta.NodeFields, "type")
	l.nodeName = slices.Index(m.Meta.NodeFields, "name")
	l.nodeID = slices.Index(m.Meta.NodeFields, "id")
	l.nodeSelf = slices.Index(m.Meta.NodeFields, "self_size")
	l.nodeEdges = slices.Index(m.Meta.NodeFields, "edge_count")
	l.nodeDet = slices.Index(m.Meta.NodeFields, "detachedness")
	l.edgeType = slices.Index(m.Meta.EdgeFields, "type")
	l.edgeName = slices.Index(m.Meta.EdgeFields, "name_or_index")
	l.edgeTo = slices.Index(m.Meta.EdgeFields, "to_node")
	if min(l.nodeType, l.nodeName, l.nodeID, l.nodeSelf, l.nodeEdges, l.edgeType, l.edgeName, l.edgeTo) < 0 {
		return nil, errors.New("malformed heap snapshot: meta lacks node or edge fields (type, name, id, self_size, edge_count, name_or_index, to_node)")
	}
	var err error
	if l.nodeTypes, err = enumNames(m.Meta.NodeTypes, l.nodeType); err != nil {
		return nil, fmt.Errorf("malformed heap snapshot: node_types: %w", err)
	}
	if l.edgeTypes, err = enumNames(m.Meta.EdgeTypes, l.edgeType); err != nil {
		return nil, fmt.Errorf("malformed heap snapshot: edge_types: %w", err)
	}
	return l, nil
}

// enumNames reads the list of type names at index i of node_types or
// edge_types.
func enumNames(types []json.RawMessage, i int) ([]string, error) {
	if i >= len(types) {
		return nil, errors.New("missing the type names")
	}
	var names []string
	if err := json.Unmarshal(types[i], &names); err != nil {
		return nil, err
	}
	if len(names) == 0 || len(names) > math.MaxUint8 {
		return nil, fmt.Errorf("%d type names", len(names))
	}
	return names, nil
}

// Open loads the heap snapshot in the file at path; see Read. Gzipped files
// are recognized and decompressed. It opens path as given, for tests and
// tools with paths of their own; the server checks an agent's path and
// loads the file it opened through that check with OpenFile.
func Open(ctx context.Context, path string) (*Snapshot, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return OpenFile(ctx, f)
}

// OpenFile loads the heap snapshot in the open file f, as Open does; the
// caller closes f.
func OpenFile(ctx context.Context, f *os.File) (*Snapshot, error) {
	path := f.Name()
	br := bufio.NewReaderSize(f, 1<<20)
	var r io.Reader = br
	var size int64
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		defer zr.Close()
		r = zr
	} else if fi, err := f.Stat(); err == nil {
		size = fi.Size()
	}
	s, err := read(ctx, r, size)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// Read parses a V8 heap snapshot (the .heapsnapshot JSON format) from r and
// runs the analyses every query needs: retainers, distances from the GC
// roots, DOM detachedness, dominators and retained sizes, class names.
// The input is streamed: nodes and edges go straight into flat arrays.
// ctx is checked between phases.
func Read(ctx context.Context, r io.Reader) (*Snapshot, error) {
	return read(ctx, r, 0)
}

// read is Read for an input of size bytes (0 = unknown), which bounds how
// much the counts in the meta data may preallocate.
func read(ctx context.Context, r io.Reader, size int64) (*Snapshot, error) {
	raw, err := parse(ctx, r, size)
	if err != nil {
		return nil, err
	}
	return analyze(ctx, raw)
}

// rawSnapshot is what the parser produces: the graph as the file has it.
type rawSnapshot struct {
	l                *layout
	root             uint32
	extraNativeBytes uint64
	nodeType         []uint8
	nodeName         []uint32
	nodeID           []uint32
	selfSize         []uint32
	nodeEdges        []uint32 // edge count of each node
	detachedness     []uint8  // nil when the snapshot has no such field
	edgeType         []uint8
	edgeName         []uint32
	edgeTo           []uint32 // node ordinal (the file has ordinal × node stride)
	strings          stringTable
	locations        map[uint32]location // by node ordinal
	scopes           scopeTables
}

// location is where the constructor or function of an object is defined.
type location struct {
	scriptID, line, column uint32
}

// scopeTables are the scope descriptions recent V8 versions add, used to
// find context variables no live closure can read.
type scopeTables struct {
	scopeFields, varFields, useFields []string
	scopes, vars, uses                []int64
	nodeStride                        int // scopes name scripts by node index
}

// parse reads the top-level object of a snapshot.
func parse(ctx context.Context, r io.Reader, size int64) (*rawSnapshot, error) {
	s := jsonscan.NewReader(r)
	raw, err := parseTop(ctx, s, size)
	return raw, scanError(s, err)
}

// scanError words the scanner's errors for a snapshot.
func scanError(s *jsonscan.Scanner, err error) error {
	if err == nil {
		return nil
	}
	se, syntax := errors.AsType[*jsonscan.SyntaxError](err)
	switch {
	case syntax:
		return fmt.Errorf("malformed heap snapshot at byte %d: %s", se.Offset, se.Msg)
	case s.Err() != nil && errors.Is(err, s.Err()):
		return fmt.Errorf("read snapshot: %w", err)
	}
	return err
}

// parseTop reads the members of the top-level object.
func parseTop(ctx context.Context, s *jsonscan.Scanner, size int64) (*rawSnapshot, error) {
	raw := &rawSnapshot{locations: map[uint32]location{}}
	var m *meta
	var locations []int64
	if err := s.Expect('{'); err != nil {
		return nil, err
	}
	if s.Peek() == '}' {
		return nil, errors.New("malformed heap snapshot: empty object")
	}
	for {
		key, err := s.Key()
		if err != nil {
			return nil, err
		}
		k := string(key)
		if m == nil && k != "snapshot" {
			return nil, fmt.Errorf("malformed heap snapshot: %q before the \"snapshot\" meta data", k)
		}
		switch k {
		case "snapshot":
			m, err = parseMeta(s, raw, size)
		case "nodes":
			err = parseNodes(s, raw)
		case "edges":
			err = parseEdges(s, raw)
		case "strings":
			err = parseStrings(s, raw)
		case "locations":
			locations, err = collect(s)
		case "scopes":
			raw.scopes.scopes, err = collect(s)
		case "scope_context_vars":
			raw.scopes.vars, err = collect(s)
		case "scope_uses":
			raw.scopes.uses, err = collect(s)
		default:
			err = s.Skip()
		}
		if err != nil {
			return nil, err
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if more, err := s.More('}'); !more {
			if err != nil {
				return nil, err
			}
			break
		}
	}
	if m == nil {
		return nil, errors.New("malformed heap snapshot: no \"snapshot\" meta data")
	}
	raw.scopes.scopeFields, raw.scopes.varFields, raw.scopes.useFields = m.Meta.ScopeFields, m.Meta.ScopeVarFields, m.Meta.ScopeUseFields
	raw.scopes.nodeStride = raw.l.nodeStride
	if err := raw.check(); err != nil {
		return nil, err
	}
	if err := raw.setLocations(m.Meta.LocationFields, locations); err != nil {
		return nil, err
	}
	return raw, nil
}

func parseMeta(s *jsonscan.Scanner, raw *rawSnapshot, size int64) (*meta, error) {
	text, err := s.Raw()
	if err != nil {
		return nil, err
	}
	m := &meta{}
	if err := json.Unmarshal(text, m); err != nil {
		return nil, fmt.Errorf("malformed heap snapshot meta data: %w", err)
	}
	if raw.l, err = m.layout(); err != nil {
		return nil, err
	}
	raw.extraNativeBytes = m.ExtraNativeBytes
	if m.RootIndex != nil {
		if *m.RootIndex < 0 || *m.RootIndex%raw.l.nodeStride != 0 {
			return nil, fmt.Errorf("malformed heap snapshot: root_index %d", *m.RootIndex)
		}
		raw.root = uint32(*m.RootIndex / raw.l.nodeStride)
	}
	// The counts size the arrays; a wrong count only costs reallocations.
	// Each number takes at least two bytes of input, which bounds them.
	limit := 1 << 16
	if size > 0 {
		limit = int(min(size/2, math.MaxInt32))
	}
	n := max(0, min(m.NodeCount, limit/max(1, raw.l.nodeStride)))
	e := max(0, min(m.EdgeCount, limit/max(1, raw.l.edgeStride)))
	raw.nodeType = make([]uint8, 0, n)
	raw.nodeName = make([]uint32, 0, n)
	raw.nodeID = make([]uint32, 0, n)
	raw.selfSize = make([]uint32, 0, n)
	raw.nodeEdges = make([]uint32, 0, n)
	if raw.l.nodeDet >= 0 {
		raw.detachedness = make([]uint8, 0, n)
	}
	raw.edgeType = make([]uint8, 0, e)
	raw.edgeName = make([]uint32, 0, e)
	raw.edgeTo = make([]uint32, 0, e)
	return m, nil
}

// u32 checks that v fits the uint32 arrays.
func u32(v int64, what string) (uint32, error) {
	if v < 0 || v > math.MaxUint32 {
		return 0, fmt.Errorf("malformed heap snapshot: %s %d out of range", what, v)
	}
	return uint32(v), nil
}

func parseNodes(s *jsonscan.Scanner, raw *rawSnapshot) error {
	l := raw.l
	field := 0
	err := s.Ints(func(v int64) error {
		var err error
		var u uint32
		switch field {
		case l.nodeType:
			if v < 0 || v >= int64(len(l.nodeTypes)) {
				return fmt.Errorf("malformed heap snapshot: node type %d", v)
			}
			raw.nodeType = append(raw.nodeType, uint8(v))
		case l.nodeName:
			u, err = u32(v, "node name")
			raw.nodeName = append(raw.nodeName, u)
		case l.nodeID:
			u, err = u32(v, "node id")
			raw.nodeID = append(raw.nodeID, u)
		case l.nodeSelf:
			u, err = u32(v, "self size")
			raw.selfSize = append(raw.selfSize, u)
		case l.nodeEdges:
			u, err = u32(v, "edge count")
			raw.nodeEdges = append(raw.nodeEdges, u)
		case l.nodeDet:
			raw.detachedness = append(raw.detachedness, uint8(v&3))
		}
		if field++; field == l.nodeStride {
			field = 0
		}
		return err
	})
	if err != nil {
		return err
	}
	if field != 0 {
		return errors.New("malformed heap snapshot: the nodes array is not a whole number of nodes")
	}
	return nil
}

func parseEdges(s *jsonscan.Scanner, raw *rawSnapshot) error {
	l := raw.l
	field := 0
	err := s.Ints(func(v int64) error {
		var err error
		var u uint32
		switch field {
		case l.edgeType:
			if v < 0 || v >= int64(len(l.edgeTypes)) {
				return fmt.Errorf("malformed heap snapshot: edge type %d", v)
			}
			raw.edgeType = append(raw.edgeType, uint8(v))
		case l.edgeName:
			u, err = u32(v, "edge name")
			raw.edgeName = append(raw.edgeName, u)
		case l.edgeTo:
			if v < 0 || v%int64(l.nodeStride) != 0 || v/int64(l.nodeStride) > math.MaxUint32 {
				return fmt.Errorf("malformed heap snapshot: edge to node index %d", v)
			}
			raw.edgeTo = append(raw.edgeTo, uint32(v/int64(l.nodeStride)))
		}
		if field++; field == l.edgeStride {
			field = 0
		}
		return err
	})
	if err != nil {
		return err
	}
	if field != 0 {
		return errors.New("malformed heap snapshot: the edges array is not a whole number of edges")
	}
	return nil
}

func parseStrings(s *jsonscan.Scanner, raw *rawSnapshot) error {
	t := &raw.strings
	if err := s.Expect('['); err != nil {
		return err
	}
	t.offsets = append(t.offsets[:0], 0)
	if s.Accept(']') {
		return nil
	}
	for {
		text, err := s.String()
		if err != nil {
			return err
		}
		t.arena.Write(text)
		if t.arena.Len() > math.MaxUint32 {
			return errors.New("heap snapshot strings exceed 4 GB")
		}
		t.offsets = append(t.offsets, uint32(t.arena.Len()))
		if more, err := s.More(']'); !more {
			return err
		}
	}
}

// collect reads a small integer array whole.
func collect(s *jsonscan.Scanner) ([]int64, error) {
	var vs []int64
	err := s.Ints(func(v int64) error {
		vs = append(vs, v)
		return nil
	})
	return vs, err
}

// check validates the cross references between the arrays.
func (raw *rawSnapshot) check() error {
	n := len(raw.nodeType)
	switch {
	case raw.l == nil:
		return errors.New("malformed heap snapshot: no meta data")
	case n == 0:
		return errors.New("malformed heap snapshot: no nodes")
	case int(raw.root) >= n:
		return fmt.Errorf("malformed heap snapshot: root node %d of %d", raw.root, n)
	case n > math.MaxUint32-1:
		return errors.New("heap snapshot has too many nodes")
	}
	var total uint64
	for _, c := range raw.nodeEdges {
		total += uint64(c)
	}
	if total != uint64(len(raw.edgeType)) {
		return fmt.Errorf("malformed heap snapshot: nodes have %d edges, the edges array %d", total, len(raw.edgeType))
	}
	for _, to := range raw.edgeTo {
		if int(to) >= n {
			return fmt.Errorf("malformed heap snapshot: edge to node %d of %d", to, n)
		}
	}
	strs := uint32(raw.strings.len())
	for _, name := range raw.nodeName {
		if name >= strs {
			return fmt.Errorf("malformed heap snapshot: node name %d of %d strings", name, strs)
		}
	}
	for i, name := range raw.edgeName {
		if raw.hasStringName(raw.edgeType[i]) && name >= strs {
			return fmt.Errorf("malformed heap snapshot: edge name %d of %d strings", name, strs)
		}
	}
	return nil
}

// hasStringName reports whether edges of raw type t are named by a string
// (element and hidden edges carry an index instead).
func (raw *rawSnapshot) hasStringName(t uint8) bool {
	name := raw.l.edgeTypes[t]
	return name != "element" && name != "hidden"
}

// setLocations indexes the locations array by node ordinal.
func (raw *rawSnapshot) setLocations(fields []string, values []int64) error {
	stride := len(fields)
	obj, script, line, col := slices.Index(fields, "object_index"), slices.Index(fields, "script_id"), slices.Index(fields, "line"), slices.Index(fields, "column")
	if stride == 0 || min(obj, script, line, col) < 0 {
		return nil
	}
	if len(values)%stride != 0 {
		return errors.New("malformed heap snapshot: the locations array is not a whole number of locations")
	}
	for i := 0; i < len(values); i += stride {
		idx := values[i+obj]
		if idx < 0 || idx%int64(raw.l.nodeStride) != 0 || idx/int64(raw.l.nodeStride) >= int64(len(raw.nodeType)) {
			return fmt.Errorf("malformed heap snapshot: location of node index %d", idx)
		}
		raw.locations[uint32(idx/int64(raw.l.nodeStride))] = location{uint32(values[i+script]), uint32(values[i+line]), uint32(values[i+col])}
	}
	return nil
}
