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
// allocations, as do their ids (one string per ref, for the node and its
// parent's child list), child lists and properties.
func axNodes(data []byte) ([]cdp.AXNode, error) {
	s := jsonscan.NewBytes(data)
	// Rows take 40 to 75 bytes: room for most pages' nodes at once.
	r := rowReader{s: s, nodes: make([]cdp.AXNode, 0, len(data)/40+1)}
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
	ids    []string      // the id of each ref seen, by ref
	kids   []string      // backing store for the nodes' ChildIDs
	props  []cdp.AXProperty
	keys   map[string]string // property names, one string each
}

// id returns ref's node id, the same string each time.
func (r *rowReader) id(ref int) string {
	if ref < 0 || ref >= len(r.ids) {
		if ref < 0 || ref > 16*len(r.nodes)+1<<16 { // not dense: do not grow for it
			return strconv.Itoa(ref)
		}
		r.ids = append(r.ids, make([]string, ref+1-len(r.ids)+len(r.ids)/2)...)
	}
	s := r.ids[ref]
	if s == "" {
		s = strconv.Itoa(ref)
		r.ids[ref] = s
	}
	return s
}

// key returns the property name b as a string shared by every node.
func (r *rowReader) key(b []byte) string {
	if k, ok := r.keys[string(b)]; ok {
		return k
	}
	if r.keys == nil {
		r.keys = map[string]string{}
	}
	k := string(b)
	r.keys[k] = k
	return k
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
		n.BackendDOMNodeID, n.NodeID = ref, r.id(ref)
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
		start := len(r.props)
		defer func() {
			if len(r.props) > start {
				r.n.Properties = r.props[start:len(r.props):len(r.props)]
			}
		}()
		return s.Array(func(k int) error {
			if k%2 == 0 {
				name, err := s.String()
				key = r.key(name)
				return err
			}
			raw, err := r.scalar()
			if err != nil {
				return err
			}
			if key == "description" {
				n.Description = r.value("computedString", raw)
			} else {
				if len(r.props) == cap(r.props) {
					// A new backing store; the properties so far move along.
					r.props = append(make([]cdp.AXProperty, 0, 1024+2*(len(r.props)-start)), r.props[start:]...)
					start = 0
				}
				r.props = append(r.props, cdp.AXProperty{Name: key, Value: cdp.AXValue{Value: raw}})
			}
			return nil
		})
	case 5:
		start := len(r.kids)
		err := s.Array(func(int) error {
			ref, err := r.ref()
			if len(r.kids) == cap(r.kids) {
				r.kids = append(make([]string, 0, 4096+2*(len(r.kids)-start)), r.kids[start:]...)
				start = 0
			}
			r.kids = append(r.kids, r.id(ref))
			return err
		})
		if len(r.kids) > start {
			n.ChildIDs = r.kids[start:len(r.kids):len(r.kids)]
		}
		return err
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
