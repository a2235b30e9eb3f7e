package browser

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/devtools-mcp/devtools-mcp/cdp"
	"github.com/devtools-mcp/devtools-mcp/internal/jsonscan"
)

// axNodes turns pagewalk.js's compact rows, [ref, role, name, value,
// [prop, value, ...], [child refs]], into AX nodes whose ids and backend
// DOM node ids are the refs. A big page has tens of thousands of rows, so
// they are scanned token by token: values stay raw JSON slices of data
// (which is what AXValue holds), and the nodes' values share a few
// allocations.
func axNodes(data []byte) ([]cdp.AXNode, error) {
	s := jsonscan.NewBytes(data)
	r := rowReader{s: s}
	err := s.Array(r.row)
	if err == nil && !s.End() {
		err = s.Errorf("text after the nodes")
	}
	return r.nodes, err
}

// rowReader collects the nodes of the rows a scanner reads.
type rowReader struct {
	s      *jsonscan.Scanner
	nodes  []cdp.AXNode
	values []cdp.AXValue // backing store for the nodes' *AXValue
	n      cdp.AXNode    // the node being read
}

// value returns a *AXValue from the shared backing store.
func (r *rowReader) value(typ string, raw []byte) *cdp.AXValue {
	if len(r.values) == cap(r.values) {
		r.values = make([]cdp.AXValue, 0, 1024)
	}
	r.values = append(r.values, cdp.AXValue{Type: typ, Value: raw})
	return &r.values[len(r.values)-1]
}

// row reads one row into a node.
func (r *rowReader) row(int) error {
	r.n = cdp.AXNode{}
	err := r.s.Array(r.field)
	if err == nil && r.n.Role == nil {
		err = errors.New("no role")
	}
	if err != nil {
		return fmt.Errorf("node %d: %w", len(r.nodes), err)
	}
	r.nodes = append(r.nodes, r.n)
	return nil
}

// field reads element i of a row.
func (r *rowReader) field(i int) error {
	n, s := &r.n, r.s
	switch i {
	case 0:
		ref, err := r.ref()
		n.BackendDOMNodeID, n.NodeID = ref, strconv.Itoa(ref)
		return err
	case 1, 2, 3:
		raw, err := r.scalar()
		if err != nil || string(raw) == `""` {
			return err
		}
		switch i {
		case 1:
			n.Role = r.value("role", raw)
		case 2:
			n.Name = r.value("computedString", raw)
		default:
			n.Value = r.value("string", raw)
		}
		return nil
	case 4:
		var key string
		return s.Array(func(k int) error {
			if k%2 == 0 {
				name, err := s.String()
				key = string(name)
				return err
			}
			raw, err := r.scalar()
			if err != nil {
				return err
			}
			if key == "description" {
				n.Description = r.value("computedString", raw)
			} else {
				n.Properties = append(n.Properties, cdp.AXProperty{Name: key, Value: cdp.AXValue{Value: raw}})
			}
			return nil
		})
	case 5:
		return s.Array(func(int) error {
			ref, err := r.ref()
			n.ChildIDs = append(n.ChildIDs, strconv.Itoa(ref))
			return err
		})
	}
	return errors.New("more than 6 fields")
}

// scalar returns the raw JSON of a string, number, true, false or null.
func (r *rowReader) scalar() ([]byte, error) {
	if c := r.s.Peek(); c == '[' || c == '{' {
		return nil, r.s.Errorf("found %q, want a string, number, true, false or null", c)
	}
	return r.s.Raw()
}

// ref reads a node's reference, a non-negative integer.
func (r *rowReader) ref() (int, error) {
	at := r.s.Offset()
	v, err := r.s.Int()
	if err == nil && (v < 0 || v > 1<<31-1) {
		err = fmt.Errorf("bad reference %d at byte %d", v, at)
	}
	return int(v), err
}
