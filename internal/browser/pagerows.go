package browser

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// axNodes turns pagewalk.js's compact rows, [ref, role, name, value,
// [prop, value, ...], [child refs]], into AX nodes whose ids and backend
// DOM node ids are the refs. A big page has tens of thousands of rows, so
// they are scanned by hand: values stay raw JSON slices of data (which is
// what AXValue holds), and the nodes' values share a few allocations.
func axNodes(data []byte) ([]cdp.AXNode, error) {
	sc := &rowScanner{data: data}
	var nodes []cdp.AXNode
	var values []cdp.AXValue // backing store for the nodes' *AXValue
	value := func(typ string, raw []byte) *cdp.AXValue {
		if len(values) == cap(values) {
			values = make([]cdp.AXValue, 0, 1024)
		}
		values = append(values, cdp.AXValue{Type: typ, Value: raw})
		return &values[len(values)-1]
	}
	err := sc.list(func() error {
		var n cdp.AXNode
		err := sc.list(func() error {
			switch sc.item {
			case 0:
				ref, err := sc.int()
				n.BackendDOMNodeID, n.NodeID = ref, strconv.Itoa(ref)
				return err
			case 1, 2, 3:
				raw, err := sc.scalar()
				if err != nil || string(raw) == `""` {
					return err
				}
				switch sc.item {
				case 1:
					n.Role = value("role", raw)
				case 2:
					n.Name = value("computedString", raw)
				default:
					n.Value = value("string", raw)
				}
				return nil
			case 4:
				var name []byte
				return sc.list(func() error {
					raw, err := sc.scalar()
					if err != nil || sc.item%2 == 0 {
						name = raw
						return err
					}
					key, err := unquote(name)
					if err != nil {
						return err
					}
					if key == "description" {
						n.Description = value("computedString", raw)
					} else {
						n.Properties = append(n.Properties, cdp.AXProperty{Name: key, Value: cdp.AXValue{Value: raw}})
					}
					return nil
				})
			case 5:
				return sc.list(func() error {
					ref, err := sc.int()
					n.ChildIDs = append(n.ChildIDs, strconv.Itoa(ref))
					return err
				})
			}
			return errors.New("more than 6 fields")
		})
		if err == nil && n.Role == nil {
			err = errors.New("no role")
		}
		if err != nil {
			return fmt.Errorf("node %d: %w", len(nodes), err)
		}
		nodes = append(nodes, n)
		return nil
	})
	if err == nil {
		if sc.space(); sc.i != len(data) {
			err = fmt.Errorf("text after the nodes at byte %d", sc.i)
		}
	}
	return nodes, err
}

// rowScanner reads the JSON of pagewalk.js's rows.
type rowScanner struct {
	data []byte
	i    int
	item int // index of the element being read in the innermost list
}

func (sc *rowScanner) space() {
	for sc.i < len(sc.data) && (sc.data[sc.i] == ' ' || sc.data[sc.i] == '\n' || sc.data[sc.i] == '\t' || sc.data[sc.i] == '\r') {
		sc.i++
	}
}

// list reads a JSON array, calling each for every element with sc.item
// set to its index.
func (sc *rowScanner) list(each func() error) error {
	if sc.space(); sc.i >= len(sc.data) || sc.data[sc.i] != '[' {
		return fmt.Errorf("want an array at byte %d", sc.i)
	}
	sc.i++
	outer := sc.item
	defer func() { sc.item = outer }()
	for k := 0; ; k++ {
		if sc.space(); sc.i < len(sc.data) && sc.data[sc.i] == ']' && k == 0 {
			sc.i++
			return nil
		}
		sc.item = k
		if err := each(); err != nil {
			return err
		}
		sc.space()
		if sc.i >= len(sc.data) {
			return errors.New("unterminated array")
		}
		switch sc.data[sc.i] {
		case ',':
			sc.i++
		case ']':
			sc.i++
			return nil
		default:
			return fmt.Errorf("want , or ] at byte %d", sc.i)
		}
	}
}

// scalar returns the raw JSON of a string, number, true, false or null.
func (sc *rowScanner) scalar() ([]byte, error) {
	sc.space()
	start := sc.i
	if sc.i < len(sc.data) && sc.data[sc.i] == '"' {
		for sc.i++; sc.i < len(sc.data); sc.i++ {
			switch sc.data[sc.i] {
			case '\\':
				sc.i++
			case '"':
				sc.i++
				return sc.data[start:sc.i], nil
			}
		}
		return nil, errors.New("unterminated string")
	}
	for sc.i < len(sc.data) && strings.IndexByte("+-.0123456789eEtruefalsn", sc.data[sc.i]) >= 0 {
		sc.i++
	}
	raw := sc.data[start:sc.i]
	if !json.Valid(raw) {
		return nil, fmt.Errorf("bad value at byte %d", start)
	}
	return raw, nil
}

// int reads a non-negative integer.
func (sc *rowScanner) int() (int, error) {
	raw, err := sc.scalar()
	if err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(string(raw))
	if err != nil || n < 0 {
		return 0, fmt.Errorf("bad reference %s", raw)
	}
	return n, nil
}

// unquote decodes a JSON string, without the decoder when it has no escapes.
func unquote(raw []byte) (string, error) {
	if len(raw) >= 2 && raw[0] == '"' && bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1]), nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("bad property name %s", raw)
	}
	return s, nil
}
