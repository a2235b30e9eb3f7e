package cdp

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"github.com/devtools-mcp/devtools-mcp/internal/jsonscan"
)

// This file decodes the answer to Accessibility.getFullAXTree by hand. The
// first take_snapshot waits for it, and encoding/json spends most of its
// time there on fields we drop (name.sources, chromeRole, ignoredReasons:
// three quarters of the bytes) and on one allocation per string and value.
// The fast path reads the shape Chrome sends with jsonscan, skipping the
// fields we drop in place, and puts the nodes' values, properties, child
// lists and raw JSON into shared backing slices. Whatever it does not
// expect (a null, a duplicate or case-folded key, a number that is not a
// plain integer, a string that is not UTF-8, malformed JSON) sends the
// whole input to encoding/json instead, so the result, errors included, is
// always encoding/json's.

// plainAXTree is GetFullAXTreeResult without its UnmarshalJSON: what
// encoding/json decodes when the fast path gives up.
type plainAXTree GetFullAXTreeResult

// UnmarshalJSON decodes data as encoding/json would decode it into r, only
// faster for the answers Chrome sends. The result does not alias data.
func (r *GetFullAXTreeResult) UnmarshalJSON(data []byte) error {
	// encoding/json decodes into what r holds already; the fast path only
	// knows how to start from nothing.
	if r.Nodes == nil {
		var d axDecoder
		if nodes, err := d.result(data); err == nil {
			r.Nodes = nodes
			return nil
		}
	}
	return json.Unmarshal(data, (*plainAXTree)(r))
}

// unusual stops the fast path where encoding/json would do something it
// does not copy; the caller then lets encoding/json decode the input.
type unusual struct{}

func (unusual) Error() string { return "unusual getFullAXTree answer" }

// axDecoder is the fast path's state: the scanner and the backing slices
// that the nodes' fields share.
type axDecoder struct {
	s      *jsonscan.Scanner
	nodes  []AXNode
	values []AXValue    // backing store of the nodes' *AXValue
	props  []AXProperty // backing store of the nodes' Properties
	kids   []string     // backing store of the nodes' ChildIDs
	raw    []byte       // backing store of the AXValues' raw JSON
	// strs holds one copy of every string kept: ids, value types and
	// property names each come back many times.
	strs map[string]string
}

// result reads the whole input, {"nodes": [...]}.
func (d *axDecoder) result(data []byte) ([]AXNode, error) {
	d.s = jsonscan.NewBytes(data)
	s := d.s
	// Size the stores for the input: there are as many nodes as "nodeId"
	// keys, and a node keeps about two values, two properties and one
	// child.
	n := bytes.Count(data, []byte(`"nodeId"`))
	d.nodes = make([]AXNode, 0, n)
	d.values = make([]AXValue, 0, 2*n+8)
	d.props = make([]AXProperty, 0, 2*n+8)
	d.kids = make([]string, 0, n+8)
	d.raw = make([]byte, 0, 32*n+64)
	d.strs = make(map[string]string, n+32)

	var seen uint
	err := d.object(func(key []byte) error {
		if string(key) != "nodes" {
			return d.skip(key, "nodes")
		}
		if err := d.once(&seen, 0); err != nil {
			return err
		}
		return d.nodeList()
	})
	if err != nil {
		return nil, err
	}
	if !s.End() {
		return nil, s.Errorf("text after the value")
	}
	if seen == 0 {
		return nil, nil // no "nodes": encoding/json leaves Nodes nil
	}
	return d.nodes, nil
}

// open consumes c, '{' or '[', which must come next: a null or another
// value where an object or array is due is unusual.
func (d *axDecoder) open(c byte) error {
	if !d.s.Accept(c) {
		return unusual{}
	}
	return nil
}

// object reads an object, calling member with each key, the member's
// value next in the input for member to read.
func (d *axDecoder) object(member func(key []byte) error) error {
	if err := d.open('{'); err != nil {
		return err
	}
	if d.s.Accept('}') {
		return nil
	}
	for {
		key, err := d.s.Key()
		if err != nil {
			return err
		}
		if err := member(key); err != nil {
			return err
		}
		if more, err := d.s.More('}'); !more {
			return err
		}
	}
}

// array reads an array, calling element for each element, next in the
// input for element to read.
func (d *axDecoder) array(element func() error) error {
	if err := d.open('['); err != nil {
		return err
	}
	if d.s.Accept(']') {
		return nil
	}
	for {
		if err := element(); err != nil {
			return err
		}
		if more, err := d.s.More(']'); !more {
			return err
		}
	}
}

// grow makes room in store for one more element of the list that begins
// at start, the list being read: when store is full, a new one holding the
// list so far, whose start is returned; the lists handed out keep the old.
func grow[T any](store []T, start int) ([]T, int) {
	if len(store) < cap(store) {
		return store, start
	}
	return append(make([]T, 0, max(256, 2*(len(store)-start))), store[start:]...), 0
}

// once records that the member bit of an object was read; a second time
// is unusual, since encoding/json merges a repeated member into the first.
func (d *axDecoder) once(seen *uint, bit uint) error {
	if *seen&(1<<bit) != 0 {
		return unusual{}
	}
	*seen |= 1 << bit
	return nil
}

// skip skips the value of a member whose key matches none of known, the
// keys of the object's fields. A key that encoding/json could still match
// to one of them, folding case (any key with bytes beyond ASCII might fold
// to one), is unusual.
func (d *axDecoder) skip(key []byte, known ...string) error {
	if !plainKey(key, known...) {
		return unusual{}
	}
	return d.s.Skip()
}

// nodeList reads the array of nodes.
func (d *axDecoder) nodeList() error {
	return d.array(func() error {
		d.nodes = append(d.nodes, AXNode{})
		return d.node(&d.nodes[len(d.nodes)-1])
	})
}

// node reads one node into n.
func (d *axDecoder) node(n *AXNode) error {
	var seen uint
	return d.object(func(key []byte) (err error) {
		f := nodeField(key)
		if f < 0 {
			return d.skip(key, "nodeId", "ignored", "role", "name", "description", "value",
				"properties", "parentId", "childIds", "backendDOMNodeId", "frameId")
		}
		if err := d.once(&seen, uint(f)); err != nil {
			return err
		}
		switch f {
		case 0:
			n.NodeID, err = d.string()
		case 1:
			n.Ignored, err = d.bool()
		case 2:
			n.Role, err = d.value()
		case 3:
			n.Name, err = d.value()
		case 4:
			n.Description, err = d.value()
		case 5:
			n.Value, err = d.value()
		case 6:
			n.Properties, err = d.properties()
		case 7:
			n.ParentID, err = d.string()
		case 8:
			n.ChildIDs, err = d.childIDs()
		case 9:
			n.BackendDOMNodeID, err = d.int()
		case 10:
			n.FrameID, err = d.string()
		}
		return err
	})
}

// nodeField numbers the fields of AXNode by their JSON key, in the order
// of the struct; -1 for a key that is no field's exactly.
func nodeField(key []byte) int {
	switch string(key) {
	case "nodeId":
		return 0
	case "ignored":
		return 1
	case "role":
		return 2
	case "name":
		return 3
	case "description":
		return 4
	case "value":
		return 5
	case "properties":
		return 6
	case "parentId":
		return 7
	case "childIds":
		return 8
	case "backendDOMNodeId":
		return 9
	case "frameId":
		return 10
	}
	return -1
}

// value reads an AXValue into the shared store and returns it.
func (d *axDecoder) value() (*AXValue, error) {
	if len(d.values) == cap(d.values) {
		// A new store; the values handed out keep the old one.
		d.values = make([]AXValue, 0, max(64, cap(d.values)))
	}
	d.values = append(d.values, AXValue{})
	v := &d.values[len(d.values)-1]
	return v, d.axValue(v)
}

// axValue reads an AXValue, {"type": ..., "value": ...}, into v.
func (d *axDecoder) axValue(v *AXValue) error {
	var seen uint
	return d.object(func(key []byte) (err error) {
		switch string(key) {
		case "type":
			if err = d.once(&seen, 0); err == nil {
				v.Type, err = d.string()
			}
		case "value":
			if err = d.once(&seen, 1); err == nil {
				v.Value, err = d.rawValue()
			}
		default:
			err = d.skip(key, "type", "value")
		}
		return err
	})
}

// rawValue reads any value and returns its JSON text, as a json.RawMessage
// holds it, copied to the shared store of raw JSON.
func (d *axDecoder) rawValue() (json.RawMessage, error) {
	raw, err := d.s.Raw()
	if err != nil {
		return nil, err
	}
	if len(d.raw)+len(raw) > cap(d.raw) {
		d.raw = make([]byte, 0, max(1024, 2*len(raw)))
	}
	start := len(d.raw)
	d.raw = append(d.raw, raw...)
	return d.raw[start:len(d.raw):len(d.raw)], nil
}

// properties reads a node's property list into the shared store.
func (d *axDecoder) properties() ([]AXProperty, error) {
	start := len(d.props)
	err := d.array(func() error {
		d.props, start = grow(d.props, start)
		d.props = append(d.props, AXProperty{})
		return d.property(&d.props[len(d.props)-1])
	})
	if err != nil {
		return nil, err
	}
	return d.props[start:len(d.props):len(d.props)], nil
}

// property reads one property, {"name": ..., "value": {AXValue}}, into p.
func (d *axDecoder) property(p *AXProperty) error {
	var seen uint
	return d.object(func(key []byte) (err error) {
		switch string(key) {
		case "name":
			if err = d.once(&seen, 0); err == nil {
				p.Name, err = d.string()
			}
		case "value":
			if err = d.once(&seen, 1); err == nil {
				err = d.axValue(&p.Value)
			}
		default:
			err = d.skip(key, "name", "value")
		}
		return err
	})
}

// childIDs reads a node's list of child ids into the shared store.
func (d *axDecoder) childIDs() ([]string, error) {
	start := len(d.kids)
	err := d.array(func() error {
		id, err := d.string()
		if err != nil {
			return err
		}
		d.kids, start = grow(d.kids, start)
		d.kids = append(d.kids, id)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return d.kids[start:len(d.kids):len(d.kids)], nil
}

// string reads a string, returning the one copy of it that the decoder
// keeps. encoding/json replaces bytes that are not UTF-8: they are unusual.
func (d *axDecoder) string() (string, error) {
	if d.s.Peek() != '"' {
		return "", unusual{}
	}
	b, err := d.s.String()
	if err != nil {
		return "", err
	}
	if str, ok := d.strs[string(b)]; ok {
		return str, nil
	}
	if !utf8.Valid(b) {
		return "", unusual{}
	}
	str := string(b)
	d.strs[str] = str
	return str, nil
}

// bool reads true or false.
func (d *axDecoder) bool() (bool, error) {
	raw, err := d.s.Raw()
	switch {
	case err != nil:
		return false, err
	case string(raw) == "true":
		return true, nil
	case string(raw) == "false":
		return false, nil
	}
	return false, unusual{}
}

// int reads an integer that fits an int (see plainInt).
func (d *axDecoder) int() (int, error) {
	if c := d.s.Peek(); c != '-' && (c < '0' || c > '9') {
		return 0, unusual{}
	}
	raw, err := d.s.Raw()
	if err != nil {
		return 0, err
	}
	v, ok := plainInt(raw)
	if !ok || int64(int(v)) != v { // a 32-bit int
		return 0, unusual{}
	}
	return int(v), nil
}
