package browser

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// TestWireHeadersBeforeTheirRequest feeds the collector the ExtraInfo
// events of a request before the request itself, as Chromium may send
// them (they come from the network process), and checks that the cookies
// they carry are kept; and that ExtraInfo of requests that never show up
// are bounded.
func TestWireHeadersBeforeTheirRequest(t *testing.T) {
	c := &collector{live: map[string]*Request{}}
	event := func(method, params string) { c.onEvent(nil, method, json.RawMessage(params)) }
	event(cdp.NetworkRequestWillBeSentExtraInfo.Method, `{"requestId":"7","headers":{"Cookie":"a=1"}}`)
	event(cdp.NetworkResponseReceivedExtraInfo.Method, `{"requestId":"7","headers":{"Set-Cookie":"b=2"}}`)
	event(cdp.NetworkRequestWillBeSent.Method, `{"requestId":"7","request":{"url":"http://x/","method":"GET","headers":{"Accept":"*/*"}},"type":"Fetch","timestamp":1}`)
	event(cdp.NetworkResponseReceived.Method, `{"requestId":"7","response":{"status":200,"headers":{"Content-Type":"text/plain"}}}`)
	if len(c.requests) != 1 {
		t.Fatalf("%d requests", len(c.requests))
	}
	r := c.requests[0]
	if r.RequestHeaders["Cookie"] != "a=1" || r.RequestHeaders["Accept"] != "*/*" {
		t.Errorf("request headers %v", r.RequestHeaders)
	}
	if r.ResponseHeaders["Set-Cookie"] != "b=2" || r.ResponseHeaders["Content-Type"] != "text/plain" {
		t.Errorf("response headers %v", r.ResponseHeaders)
	}
	if len(c.early) != 0 {
		t.Errorf("%d early headers left after their request came", len(c.early))
	}
	for i := range 3 * maxEarly {
		event(cdp.NetworkResponseReceivedExtraInfo.Method, fmt.Sprintf(`{"requestId":"orphan%d","headers":{}}`, i))
	}
	if len(c.early) != maxEarly {
		t.Errorf("%d early headers kept, want at most %d", len(c.early), maxEarly)
	}
}
