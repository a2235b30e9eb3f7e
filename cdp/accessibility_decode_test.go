package cdp

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"reflect"
	"testing"
)

// readAXTree returns a real answer to Accessibility.getFullAXTree from
// testdata, as Chromium sent it: name is fullaxtree-<name>.json.gz.
func readAXTree(tb testing.TB, name string) []byte {
	tb.Helper()
	gz, err := os.ReadFile("testdata/fullaxtree-" + name + ".json.gz")
	if err != nil {
		tb.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		tb.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// axTreeNames are the real answers in testdata: a login form, and a page
// of lists, a table, form controls and text beyond ASCII.
var axTreeNames = []string{"form", "shop"}

// checkAXDecode decodes data with GetFullAXTreeResult.UnmarshalJSON, both
// called directly (as Conn does) and through json.Unmarshal, and fails
// unless each gives what encoding/json gives on its own.
func checkAXDecode(t *testing.T, data []byte) {
	t.Helper()
	var want plainAXTree
	wantErr := json.Unmarshal(data, &want)

	var direct GetFullAXTreeResult
	directErr := direct.UnmarshalJSON(data)
	if (directErr == nil) != (wantErr == nil) {
		t.Fatalf("UnmarshalJSON(%q): error %v, encoding/json's %v", data, directErr, wantErr)
	}
	if !reflect.DeepEqual(GetFullAXTreeResult(want), direct) {
		t.Fatalf("UnmarshalJSON(%q) = %+v, encoding/json gives %+v", data, direct, want)
	}

	var via GetFullAXTreeResult
	viaErr := json.Unmarshal(data, &via)
	if (viaErr == nil) != (wantErr == nil) {
		t.Fatalf("json.Unmarshal(%q): error %v, without UnmarshalJSON %v", data, viaErr, wantErr)
	}
	if !reflect.DeepEqual(GetFullAXTreeResult(want), via) {
		t.Fatalf("json.Unmarshal(%q) = %+v, without UnmarshalJSON %+v", data, via, want)
	}
}

func TestDecodeFullAXTreeRealAnswers(t *testing.T) {
	for _, name := range axTreeNames {
		data := readAXTree(t, name)
		checkAXDecode(t, data)
		var r GetFullAXTreeResult
		d := axDecoder{}
		if _, err := d.result(data); err != nil {
			t.Errorf("%s: the fast path gave up: %v", name, err)
		}
		if err := json.Unmarshal(data, &r); err != nil || len(r.Nodes) < 80 {
			t.Errorf("%s: %d nodes, %v", name, len(r.Nodes), err)
		}
	}
}

// axDecodeCases are inputs around the edges of the fast path: each must
// decode as encoding/json decodes it, on the fast path or off it.
var axDecodeCases = []string{
	``, `null`, `{}`, `[]`, `{"nodes":null}`, `{"nodes":[]}`, `{"nodes":[null]}`, `{"nodes":[{}]}`,
	`{"nodes":[{"nodeId":"1"}]}x`, `{"nodes":[{"nodeId":"1"}]} `, ` {"nodes":[{"nodeId":"1",}]}`,
	`{"nodes":[{"nodeId":"1"}],"nodes":[{"nodeId":"2"}]}`,
	`{"Nodes":[{"nodeId":"1"}]}`, `{"NODES":[{"NodeId":"1"}]}`, `{"nodeſ":[]}`,
	`{"nodes":[{"nodeId":"1","nodeId":"2"}]}`,
	`{"nodes":[{"nodeId":1}]}`, `{"nodes":[{"nodeId":null}]}`, `{"nodes":[{"nodeId":"\ud800x\u00e9\"\\"}]}`,
	"{\"nodes\":[{\"nodeId\":\"\xff\"}]}", "{\"nodes\":[{\"role\":{\"value\":\"\xff\"}}]}",
	`{"nodes":[{"ignored":true},{"ignored":false},{"ignored":null},{"ignored":1}]}`,
	`{"nodes":[{"backendDOMNodeId":12},{"backendDOMNodeId":-3},{"backendDOMNodeId":-0}]}`,
	`{"nodes":[{"backendDOMNodeId":1.5}]}`, `{"nodes":[{"backendDOMNodeId":1e3}]}`,
	`{"nodes":[{"backendDOMNodeId":99999999999999999999}]}`, `{"nodes":[{"backendDOMNodeId":"1"}]}`,
	`{"nodes":[{"backendDOMNodeId":012}]}`,
	`{"nodes":[{"role":{"type":"role","value":"button"},"name":{"type":"computedString","value":"OK","sources":[{"x":1}]}}]}`,
	`{"nodes":[{"role":null}]}`, `{"nodes":[{"role":{}}]}`, `{"nodes":[{"role":{"value":null}}]}`,
	`{"nodes":[{"role":{"value":{"a":[1, 2]} }}]}`, `{"nodes":[{"value":{"type":"x","value":1,"value":2}}]}`,
	`{"nodes":[{"role":{"Type":"x"}}]}`, `{"nodes":[{"role":{"type":"a","TYPE":"b"}}]}`,
	`{"nodes":[{"properties":[]},{"properties":null},{"properties":[{}]},{"properties":[null]}]}`,
	`{"nodes":[{"properties":[{"name":"level","value":{"type":"integer","value":2}},{"name":"x","value":null}]}]}`,
	`{"nodes":[{"childIds":[]},{"childIds":["1","2"]},{"childIds":null},{"childIds":[1]}]}`,
	`{"nodes":[{"chromeRole":{"type":"internalRole","value":144},"ignoredReasons":[{"name":"x"}]}]}`,
	`{"nodes":[{"nodeid":"1"}]}`, `{"nodes":[{"CHILDIDS":[]}]}`, `{"nodes":[{"nodeId\u0041":"1"}]}`,
	`{"nod\u0065s":[{"n\u006fdeId":"1"}]}`, `{"nodes":[{"frameId":"F","parentId":"1"}]}`,
}

func TestDecodeFullAXTreeEdges(t *testing.T) {
	for _, c := range axDecodeCases {
		checkAXDecode(t, []byte(c))
	}
}

// TestDecodeFullAXTreeIntoNodes checks that decoding into a result that
// holds nodes already merges into them as encoding/json does.
func TestDecodeFullAXTreeIntoNodes(t *testing.T) {
	data := []byte(`{"nodes":[{"parentId":"2"}]}`)
	want := plainAXTree{Nodes: []AXNode{{NodeID: "1"}, {NodeID: "3"}}}
	got := GetFullAXTreeResult{Nodes: []AXNode{{NodeID: "1"}, {NodeID: "3"}}}
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	if err := got.UnmarshalJSON(data); err != nil || !reflect.DeepEqual(GetFullAXTreeResult(want), got) {
		t.Fatalf("got %+v, %v; want %+v", got, err, want)
	}
}

// TestDecodeFullAXTreeCopies checks that the result does not alias the
// input, which encoding/json may reuse once UnmarshalJSON returns.
func TestDecodeFullAXTreeCopies(t *testing.T) {
	data := []byte(`{"nodes":[{"nodeId":"1","role":{"type":"role","value":"button"}}]}`)
	var r GetFullAXTreeResult
	if err := r.UnmarshalJSON(data); err != nil {
		t.Fatal(err)
	}
	clear(data)
	if r.Nodes[0].NodeID != "1" || string(r.Nodes[0].Role.Value) != `"button"` {
		t.Fatalf("the result changed with the input: %+v", r.Nodes[0])
	}
}

// FuzzDecodeFullAXTree compares the hand-written decoder with encoding/json
// on any input.
func FuzzDecodeFullAXTree(f *testing.F) {
	// Real answers cut to a few nodes each: mutating and minimizing whole
	// answers of 40 KB would leave the fuzzer few inputs a second.
	for _, name := range axTreeNames {
		var r struct{ Nodes []json.RawMessage }
		if err := json.Unmarshal(readAXTree(f, name), &r); err != nil {
			f.Fatal(err)
		}
		for i := 0; i+3 <= len(r.Nodes); i += 20 {
			seed := []byte(`{"nodes":[`)
			for k, n := range r.Nodes[i : i+3] {
				if k > 0 {
					seed = append(seed, ',')
				}
				seed = append(seed, n...)
			}
			f.Add(append(seed, "]}"...))
		}
	}
	for _, c := range axDecodeCases {
		f.Add([]byte(c))
	}
	f.Fuzz(checkAXDecode)
}

// BenchmarkDecodeFullAXTree decodes the answer of a small form page (43 KB,
// 88 nodes), which the first take_snapshot waits for: encoding/json alone
// is how it was decoded before GetFullAXTreeResult had an UnmarshalJSON,
// direct how Conn decodes it now; reply adds the message around it.
func BenchmarkDecodeFullAXTree(b *testing.B) {
	data := readAXTree(b, "form")
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			var r plainAXTree
			if err := json.Unmarshal(data, &r); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json.Unmarshal", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			var r GetFullAXTreeResult
			if err := json.Unmarshal(data, &r); err != nil {
				b.Fatal(err)
			}
		}
	})
	// A reply as Conn reads it, decoded the way Conn decoded it before
	// (a copied json.RawMessage, then json.Unmarshal) and the way it does.
	msg := append(append([]byte(`{"id":7,"result":`), data...), `,"sessionId":"S1"}`...)
	b.Run("reply-before", func(b *testing.B) {
		b.SetBytes(int64(len(msg)))
		b.ReportAllocs()
		for b.Loop() {
			var m struct {
				ID     int64           `json:"id"`
				Result json.RawMessage `json:"result"`
			}
			var r plainAXTree
			if err := json.Unmarshal(msg, &m); err != nil {
				b.Fatal(err)
			}
			if err := json.Unmarshal(m.Result, &r); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("reply", func(b *testing.B) {
		b.SetBytes(int64(len(msg)))
		b.ReportAllocs()
		for b.Loop() {
			var m incoming
			var r GetFullAXTreeResult
			if err := m.decode(msg); err != nil {
				b.Fatal(err)
			}
			if err := decodeResult(m.Result, &r); err != nil || len(r.Nodes) != 88 {
				b.Fatal(err, len(r.Nodes))
			}
		}
	})
	b.Run("direct", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			var r GetFullAXTreeResult
			if err := r.UnmarshalJSON(data); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestGetFullAXTreeCall checks that a Command call decodes the answer as
// encoding/json does, on the fast path and off it.
func TestGetFullAXTreeCall(t *testing.T) {
	c, p := newTestConn(t)
	s := c.Session("S1")
	for _, answer := range [][]byte{readAXTree(t, "shop"), []byte(`null`), []byte(`{"nodes":[{"NodeId":"1"}]}`)} {
		var want plainAXTree
		if err := json.Unmarshal(answer, &want); err != nil {
			t.Fatal(err)
		}
		type res struct {
			r   GetFullAXTreeResult
			err error
		}
		done := make(chan res, 1)
		go func() {
			r, err := AccessibilityGetFullAXTree.Call(t.Context(), s, GetFullAXTreeParams{})
			done <- res{r, err}
		}()
		p.reply(t, p.expect(t).ID, string(answer))
		got := <-done
		if got.err != nil || !reflect.DeepEqual(got.r, GetFullAXTreeResult(want)) {
			t.Fatalf("answer %.60s: got %d nodes, %v; want %d", answer, len(got.r.Nodes), got.err, len(want.Nodes))
		}
	}
}
