// Package heapgen writes big heap snapshots for benchmarks, by copying a
// small recorded one.
package heapgen

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
)

// Write writes to w a heap snapshot made of copies of the
// recorded snapshot src (a gzipped file): each copy keeps the original's
// graph with its own nodes, ids and strings, and the first copy's root
// holds the others' roots, so that a big heap's shape (many realms, many
// classes, every kind of string) grows with its size. It stands in for a
// snapshot of hundreds of megabytes, which is too big to commit.
func Write(w io.Writer, src string, copies int) error {
	f, err := os.Open(src)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	var in struct {
		Snapshot struct {
			Meta struct {
				NodeFields []string          `json:"node_fields"`
				EdgeFields []string          `json:"edge_fields"`
				EdgeTypes  []json.RawMessage `json:"edge_types"`
				Locations  []string          `json:"location_fields"`
			} `json:"meta"`
		} `json:"snapshot"`
		Nodes     []int64 `json:"nodes"`
		Edges     []int64 `json:"edges"`
		Locations []int64 `json:"locations"`
		Strings   []string
	}
	var raw map[string]json.RawMessage
	data, err := io.ReadAll(zr)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	if err := json.Unmarshal(data, &in); err != nil {
		return err
	}
	var snapshot map[string]any
	if err := json.Unmarshal(raw["snapshot"], &snapshot); err != nil {
		return err
	}
	m := in.Snapshot.Meta
	nf, ef := len(m.NodeFields), len(m.EdgeFields)
	var edgeTypes []string
	if err := json.Unmarshal(m.EdgeTypes[0], &edgeTypes); err != nil {
		return err
	}
	nameF, idF, countF := slices.Index(m.NodeFields, "name"), slices.Index(m.NodeFields, "id"), slices.Index(m.NodeFields, "edge_count")
	element, hidden := slices.Index(edgeTypes, "element"), slices.Index(edgeTypes, "hidden")
	locStride := max(1, len(m.Locations))
	objF, scriptObjF := slices.Index(m.Locations, "object_index"), slices.Index(m.Locations, "script_object_index")
	nodes := len(in.Nodes) / nf
	var maxID int64
	for i := idF; i < len(in.Nodes); i += nf {
		maxID = max(maxID, in.Nodes[i])
	}
	idSpan := (maxID + 2) &^ 1 // keeps ids odd or even
	snapshot["node_count"] = nodes * copies
	snapshot["edge_count"] = (len(in.Edges)/ef)*copies + copies - 1

	bw := bufio.NewWriterSize(w, 1<<20)
	head, err := json.Marshal(snapshot)
	if err != nil {
		return err
	}
	fmt.Fprintf(bw, `{"snapshot":%s,"nodes":[`, head)
	var buf []byte
	flush := func() {
		bw.Write(buf)
		buf = buf[:0]
	}
	first := true
	emit := func(v int64) {
		if !first {
			buf = append(buf, ',')
		}
		first = false
		buf = strconv.AppendInt(buf, v, 10)
		if len(buf) > 1<<16 {
			flush()
		}
	}
	for k := range int64(copies) {
		for i, v := range in.Nodes {
			switch i % nf {
			case nameF:
				v += k * int64(len(in.Strings))
			case idF:
				v += k * idSpan
			case countF:
				if k == 0 && i/nf == 0 {
					v += int64(copies - 1)
				}
			}
			emit(v)
		}
	}
	flush()
	bw.WriteString(`],"edges":[`)
	first = true
	rootEdges := in.Nodes[countF] * int64(ef)
	for k := range int64(copies) {
		for i, v := range in.Edges {
			if k == 0 && int64(i) == rootEdges {
				for c := int64(1); c < int64(copies); c++ {
					emit(int64(element))
					emit(c)
					emit(c * int64(nodes*nf))
				}
			}
			switch i % ef {
			case 1:
				if t := int(in.Edges[i-1]); t != element && t != hidden {
					v += k * int64(len(in.Strings))
				}
			case 2:
				v += k * int64(nodes*nf)
			}
			emit(v)
		}
	}
	flush()
	bw.WriteString(`],"locations":[`)
	first = true
	for k := range int64(copies) {
		for i, v := range in.Locations {
			if f := i % locStride; f == objF || f == scriptObjF {
				v += k * int64(nodes*nf)
			}
			emit(v)
		}
	}
	flush()
	bw.WriteString("]")
	for _, key := range []string{"trace_function_infos", "trace_tree", "samples", "scopes", "scope_context_vars", "scope_uses"} {
		if v, ok := raw[key]; ok {
			fmt.Fprintf(bw, ",%q:%s", key, v)
		}
	}
	bw.WriteString(`,"strings":[`)
	for k := range copies {
		for i, s := range in.Strings {
			if k > 0 || i > 0 {
				bw.WriteByte(',')
			}
			b, _ := json.Marshal(s)
			bw.Write(b)
		}
	}
	bw.WriteString("]}\n")
	return bw.Flush()
}
