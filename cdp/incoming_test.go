package cdp

import (
	"encoding/json"
	"reflect"
	"testing"
)

// incomingCases are messages around the edges of incoming.decode's single
// pass.
var incomingCases = []string{
	`{"id":7,"result":{"nodes":[]},"sessionId":"S1"}`,
	`{"method":"Page.loadEventFired","params":{"timestamp":1.5},"sessionId":"S1"}`,
	`{"id":3,"error":{"code":-32000,"message":"No node"},"sessionId":"S1"}`,
	` { "id" : 1 , "result" : { } } `, `{}`, `null`, `[]`, `{"id":1}x`, `{"id":1,}`,
	`{"id":1,"id":2}`, `{"ID":1}`, `{"Method":"x"}`, `{"ıd":1}`, `{"i\u0064":1,"me\u0074hod":"a\u00e9"}`,
	`{"id":1.0}`, `{"id":1e2}`, `{"id":-5}`, `{"id":99999999999999999999}`, `{"id":"1"}`, `{"id":null}`,
	`{"method":null}`, `{"method":1}`, "{\"method\":\"\xff\"}", `{"method":"\ud800"}`,
	`{"result":null}`, `{"result":"x","result":[1]}`, `{"params":tru}`, `{"result":{"a":}}`,
	`{"other":{"x":[1,2,{"y":null}]},"id":4}`, `{"error":null,"id":2}`,
}

// FuzzDecodeIncoming compares incoming.decode with json.Unmarshal on any
// message.
func FuzzDecodeIncoming(f *testing.F) {
	for _, c := range incomingCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		var want, got incoming
		wantErr := json.Unmarshal(msg, &want)
		gotErr := got.decode(msg)
		if (gotErr == nil) != (wantErr == nil) || !reflect.DeepEqual(got, want) {
			t.Fatalf("decode(%q) = %+v, %v; json.Unmarshal gives %+v, %v", msg, got, gotErr, want, wantErr)
		}
	})
}

// TestDecodeIncomingFast checks that a reply and an event take the single
// pass, and that a reply's result is a slice of the message.
func TestDecodeIncomingFast(t *testing.T) {
	for _, c := range incomingCases[:2] {
		msg := []byte(c)
		var m incoming
		if !m.fast(msg) {
			t.Errorf("%s: not decoded in one pass", c)
		}
		v := m.Result
		if v == nil {
			v = m.Params
		}
		// A slice of msg ends where msg's capacity does.
		if full := msg[:cap(msg)]; len(v) == 0 || cap(v) > cap(msg) || &full[cap(msg)-cap(v)] != &v[0] {
			t.Errorf("%s: the value is not a slice of the message", c)
		}
	}
}
