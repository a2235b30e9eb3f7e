package main

import (
	"bytes"
	"encoding/json"
)

// readableJSON encodes v indented by two spaces, with a final newline, and
// without the HTML escaping encoding/json does by default: the files a
// release ships (package.json, server.json, the bills of materials) are read
// by people and by tools, not embedded in HTML, and ">=18" reads better than
// "\u003e=18".
func readableJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
